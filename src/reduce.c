#include "reduce.h"

#include "checks.h"
#include "error.h"
#include "launch.h"
#include "program.h"
#include "scratch.h"
#include "symbols.h"

static const enum program_id reduce_programs[2][3] = {
    [TAILOR_F32] = {PROGRAM_REDUCE_SUM_F32, PROGRAM_REDUCE_MIN_F32, PROGRAM_REDUCE_MAX_F32},
    [TAILOR_F64] = {PROGRAM_REDUCE_SUM_F64, PROGRAM_REDUCE_MIN_F64, PROGRAM_REDUCE_MAX_F64},
};

struct reduce_call {
    tailor_context *ctx;
    cl_command_queue queue;
    enum program_id program;
    size_t element_bytes;
    cl_ulong n;
    cl_mem x;
    cl_ulong x_offset;
    cl_mem result;
    cl_ulong result_offset;
    cl_uint wait_count;
    const cl_event *wait_list;
    cl_event *event;
};

static size_t reduce_groups_limit(const tailor_context *ctx)
{
    return (size_t)ctx->info.compute_units * (size_t)ctx->profile.tune[TUNE_REDUCE_GROUPS_PER_CU];
}

size_t reduce_scratch_bytes(const tailor_context *ctx)
{
    return REDUCE_SCRATCH_PARTIALS_OFFSET + reduce_groups_limit(ctx) * sizeof(cl_double);
}

static tailor_status reduce_single_group(const struct reduce_call *c)
{
    struct kernel_lease kernel;
    tailor_status status = kernel_acquire(c->ctx, c->program, "reduce_single_group", &kernel);
    if (status != TAILOR_SUCCESS)
        return status;
    size_t group = (size_t)c->ctx->profile.tune[TUNE_REDUCE_WG_SIZE];
    status = set_kernel_args(&kernel, 5, KERNEL_MEM(c->x), KERNEL_ARG(c->x_offset),
                             KERNEL_ARG(c->n), KERNEL_MEM(c->result), KERNEL_ARG(c->result_offset));
    if (status == TAILOR_SUCCESS)
        status = enqueue_1d(c->queue, kernel.kernel, group, group, c->wait_count, c->wait_list,
                            c->event);
    kernel_release(&kernel);
    if (status == TAILOR_SUCCESS)
        variant_set("single-group");
    return status;
}

// Enough groups to give each work-item a vector, at most the profile's
// groups per compute unit.
static size_t group_count(const struct reduce_call *c)
{
    const struct profile *p = &c->ctx->profile;
    size_t per_group = (size_t)p->tune[TUNE_REDUCE_WG_SIZE] *
                       ((size_t)p->tune[TUNE_REDUCE_VECTOR_BYTES] / c->element_bytes);
    size_t needed = (size_t)((c->n + per_group - 1) / per_group);
    size_t limit = reduce_groups_limit(c->ctx);
    return needed < limit ? needed : limit;
}

static tailor_status reduce_multi_group(const struct reduce_call *c)
{
    const struct profile *p = &c->ctx->profile;
    int one_pass = p->tune[TUNE_REDUCE_ONE_PASS];
    size_t group = (size_t)p->tune[TUNE_REDUCE_WG_SIZE];
    cl_uint groups = (cl_uint)group_count(c);
    struct kernel_lease partial = {0}, finish = {0};
    struct scratch_lease scratch = {0};
    cl_event first = NULL;

    tailor_status status = kernel_acquire(c->ctx, c->program, "reduce_groups", &partial);
    if (status == TAILOR_SUCCESS && !one_pass)
        status = kernel_acquire(c->ctx, c->program, "reduce_partials", &finish);
    if (status == TAILOR_SUCCESS)
        status = scratch_acquire(c->ctx->scratch, c->queue,
                                 REDUCE_SCRATCH_PARTIALS_OFFSET + groups * c->element_bytes,
                                 c->wait_count, c->wait_list, &scratch);
    if (status == TAILOR_SUCCESS)
        status = set_kernel_args(&partial, 6, KERNEL_MEM(c->x), KERNEL_ARG(c->x_offset),
                                 KERNEL_ARG(c->n), KERNEL_MEM(scratch.buffer), KERNEL_MEM(c->result),
                                 KERNEL_ARG(c->result_offset));
    if (status == TAILOR_SUCCESS && !one_pass)
        status = set_kernel_args(&finish, 4, KERNEL_MEM(scratch.buffer), KERNEL_ARG(groups),
                                 KERNEL_MEM(c->result), KERNEL_ARG(c->result_offset));
    if (status == TAILOR_SUCCESS) {
        cl_uint wait_count = scratch.ready ? 1 : c->wait_count;
        const cl_event *wait_list = scratch.ready ? &scratch.ready : c->wait_list;
        status = enqueue_1d(c->queue, partial.kernel, groups * group, group, wait_count, wait_list,
                            one_pass ? c->event : &first);
    }
    if (status == TAILOR_SUCCESS && !one_pass)
        status = enqueue_1d(c->queue, finish.kernel, group, group, 1, &first, c->event);
    if (first)
        clReleaseEvent(first);
    scratch_release(&scratch);
    kernel_release(&partial);
    kernel_release(&finish);
    if (status == TAILOR_SUCCESS)
        variant_set(one_pass ? "one-pass" : "two-pass");
    return status;
}

tailor_status tailor_reduce(tailor_context *ctx, cl_command_queue queue, tailor_reduce_op op,
                            tailor_dtype dtype, size_t n, cl_mem x, size_t x_offset, cl_mem result,
                            size_t result_offset, cl_uint num_events_in_wait_list,
                            const cl_event *event_wait_list, cl_event *event)
{
    error_clear();
    REQUIRE(ctx, TAILOR_ERROR_NULL_HANDLE, "the tailor handle is NULL");
    REQUIRE(op == TAILOR_REDUCE_SUM || op == TAILOR_REDUCE_MIN || op == TAILOR_REDUCE_MAX,
            TAILOR_ERROR_UNKNOWN_OPERATION, "%d is not a tailor_reduce_op", (int)op);
    REQUIRE(dtype == TAILOR_F32 || dtype == TAILOR_F64, TAILOR_ERROR_UNKNOWN_DTYPE,
            "%d is not a tailor_dtype", (int)dtype);
    REQUIRE(dtype != TAILOR_F64 || ctx->profile.has_fp64, TAILOR_ERROR_UNSUPPORTED,
            "f64 needs cl_khr_fp64, which %s lacks", ctx->info.device_name);
    tailor_status status = check_queue(ctx, queue);
    if (status == TAILOR_SUCCESS)
        status = check_wait_list(ctx, num_events_in_wait_list, event_wait_list);
    if (status != TAILOR_SUCCESS || n == 0)
        return status != TAILOR_SUCCESS
                   ? status
                   : enqueue_nothing(queue, num_events_in_wait_list, event_wait_list, event);
    size_t element_bytes = dtype == TAILOR_F32 ? sizeof(cl_float) : sizeof(cl_double);
    status = check_buffer(ctx, x, "x", x_offset, n, element_bytes, BUFFER_READ);
    if (status == TAILOR_SUCCESS)
        status = check_buffer(ctx, result, "result", result_offset, 1, element_bytes, BUFFER_WRITE);
    if (status != TAILOR_SUCCESS)
        return status;
    struct reduce_call call = {
        .ctx = ctx,
        .queue = queue,
        .program = reduce_programs[dtype][op],
        .element_bytes = element_bytes,
        .n = n,
        .x = x,
        .x_offset = x_offset,
        .result = result,
        .result_offset = result_offset,
        .wait_count = num_events_in_wait_list,
        .wait_list = event_wait_list,
        .event = event,
    };
    if (n <= (size_t)ctx->profile.tune[TUNE_REDUCE_SMALL_N])
        return reduce_single_group(&call);
    return reduce_multi_group(&call);
}
