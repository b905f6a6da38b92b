// tailor_reduce: argument checks, then one work-group for small sizes, or
// many groups whose partial results the last group (one pass) or a second
// kernel (two passes) combines.
#include "reduce.h"

#include <stdio.h>

#include "checks.h"
#include "context.h"
#include "error.h"
#include "program.h"
#include "scratch.h"
#include "symbols.h"

static const enum program_id reduce_programs[4][3] = {
    [TAILOR_F32] = {PROGRAM_REDUCE_SUM_F32, PROGRAM_REDUCE_MIN_F32, PROGRAM_REDUCE_MAX_F32},
    [TAILOR_F64] = {PROGRAM_REDUCE_SUM_F64, PROGRAM_REDUCE_MIN_F64, PROGRAM_REDUCE_MAX_F64},
    [TAILOR_F16] = {PROGRAM_REDUCE_SUM_F16, PROGRAM_REDUCE_MIN_F16, PROGRAM_REDUCE_MAX_F16},
    [TAILOR_BF16] = {PROGRAM_REDUCE_SUM_BF16, PROGRAM_REDUCE_MIN_BF16, PROGRAM_REDUCE_MAX_BF16},
};

_Static_assert(DTYPE_F32 == TAILOR_F32 && DTYPE_F64 == TAILOR_F64 && DTYPE_F16 == TAILOR_F16 &&
                   DTYPE_BF16 == TAILOR_BF16,
               "the kernels' REDUCE_IN values are tailor_dtype's");

// Widest vector OpenCL C has: 16-bit data loads at most 16 elements at once
// whatever REDUCE_VECTOR_BYTES says (cl/reduce.cl's VEC).
#define MAX_VECTOR_ELEMENTS 16

struct reduce_call {
    tailor_context *ctx;
    cl_command_queue queue;
    enum program_id program;
    size_t element_bytes; // of x and result
    size_t partial_bytes; // of a group's partial result: float, or double for f64
    cl_ulong n;
    cl_mem x;
    cl_ulong x_offset;
    cl_mem result;
    cl_ulong result_offset;
    cl_uint wait_count;
    const cl_event *wait_list;
    cl_event *event;
};

// 16-bit data is added up in float and rounded once, when the result is stored.
static size_t partial_bytes(tailor_dtype dtype)
{
    return dtype == TAILOR_F64 ? sizeof(cl_double) : sizeof(cl_float);
}

static size_t groups_limit(const struct profile *profile, const tailor_device_info *facts)
{
    return (size_t)facts->compute_units * (size_t)profile->tune[TUNE_REDUCE_GROUPS_PER_CU];
}

static size_t scratch_bytes(const struct profile *profile, const tailor_device_info *facts)
{
    return REDUCE_SCRATCH_PARTIALS_OFFSET + groups_limit(profile, facts) * sizeof(cl_double);
}

// The group reductions need a whole number of lockstep groups, and at most
// LOCKSTEP of them (two lockstep steps).
static tailor_status check(const struct profile *profile, const tailor_device_info *facts)
{
    int group = profile->tune[TUNE_REDUCE_WG_SIZE], lockstep = profile->lockstep;
    REQUIRE((size_t)group <= facts->max_work_group_size, TAILOR_ERROR_INVALID_PROFILE,
            "REDUCE_WG_SIZE=%d exceeds the device's %zu", group, facts->max_work_group_size);
    REQUIRE(lockstep == 0 || (group >= lockstep && group <= lockstep * lockstep),
            TAILOR_ERROR_INVALID_PROFILE, "REDUCE_WG_SIZE=%d must lie in [LOCKSTEP, LOCKSTEP^2]",
            group);
    // One element per work-item (doubles where the device has them) and a flag.
    size_t local = (size_t)group * (profile->has_fp64 ? sizeof(cl_double) : sizeof(cl_float)) + 16;
    REQUIRE(local_memory_fits(facts, local), TAILOR_ERROR_INVALID_PROFILE,
            "REDUCE_WG_SIZE=%d needs %zu bytes of local memory; the device has %llu", group, local,
            (unsigned long long)facts->local_mem_bytes);
    return TAILOR_SUCCESS;
}

// Enough groups to give each work-item a vector, at most the profile's
// groups per compute unit.
static cl_uint group_count(const struct reduce_call *c)
{
    size_t vector = (size_t)tune(c->ctx, TUNE_REDUCE_VECTOR_BYTES) / c->element_bytes;
    if (vector > MAX_VECTOR_ELEMENTS)
        vector = MAX_VECTOR_ELEMENTS;
    size_t per_group = (size_t)tune(c->ctx, TUNE_REDUCE_WG_SIZE) * vector;
    size_t needed = (size_t)((c->n + per_group - 1) / per_group);
    size_t limit = groups_limit(&c->ctx->profile, &c->ctx->info);
    return (cl_uint)(needed < limit ? needed : limit);
}

static void plan_call(const struct reduce_call *c, struct op_plan *plan)
{
    plan->program = c->program;
    plan->launches = 1;
    if (c->n <= (cl_ulong)tune(c->ctx, TUNE_REDUCE_SMALL_N)) {
        plan->kernel = KERNEL_REDUCE_SINGLE_GROUP;
        snprintf(plan->variant, sizeof plan->variant, "single-group");
        return;
    }
    int one_pass = tune(c->ctx, TUNE_REDUCE_ONE_PASS);
    plan->kernel = KERNEL_REDUCE_GROUPS;
    plan->launches = one_pass ? 1 : 2;
    snprintf(plan->variant, sizeof plan->variant, "%s", one_pass ? "one-pass" : "two-pass");
}

static tailor_status single_group(const struct reduce_call *c, const struct op_plan *plan)
{
    size_t group = (size_t)tune(c->ctx, TUNE_REDUCE_WG_SIZE);
    struct kernel_args args = {0};
    args_mem(&args, c->x);
    args_u64(&args, c->x_offset);
    args_u64(&args, c->n);
    args_mem(&args, c->result);
    args_u64(&args, c->result_offset);
    return kernel_launch(c->ctx, c->program, plan->kernel, &args, c->queue, 1, &group, &group,
                         c->wait_count, c->wait_list, c->event);
}

static tailor_status multi_group(const struct reduce_call *c, const struct op_plan *plan)
{
    int two_pass = plan->launches == 2;
    size_t group = (size_t)tune(c->ctx, TUNE_REDUCE_WG_SIZE);
    cl_uint groups = group_count(c);
    size_t global = groups * group;
    struct kernel_lease partial = {0}, finish = {0};
    struct scratch_lease scratch = {0};
    cl_event first = NULL;

    tailor_status status = kernel_acquire(c->ctx, c->program, plan->kernel, &partial);
    if (status == TAILOR_SUCCESS && two_pass)
        status = kernel_acquire(c->ctx, c->program, KERNEL_REDUCE_PARTIALS, &finish);
    if (status == TAILOR_SUCCESS)
        status = scratch_acquire(operation_scratch(c->ctx, OP_REDUCE), c->queue,
                                 REDUCE_SCRATCH_PARTIALS_OFFSET + groups * c->partial_bytes,
                                 c->wait_count, c->wait_list, &scratch);
    struct kernel_args args = {0};
    args_mem(&args, c->x);
    args_u64(&args, c->x_offset);
    args_u64(&args, c->n);
    args_mem(&args, scratch.buffer);
    args_mem(&args, c->result);
    args_u64(&args, c->result_offset);
    if (status == TAILOR_SUCCESS)
        status = kernel_set_args(&partial, &args);
    if (status == TAILOR_SUCCESS && two_pass) {
        struct kernel_args finish_args = {0};
        args_mem(&finish_args, scratch.buffer);
        args_u32(&finish_args, groups);
        args_mem(&finish_args, c->result);
        args_u64(&finish_args, c->result_offset);
        status = kernel_set_args(&finish, &finish_args);
    }
    if (status == TAILOR_SUCCESS) {
        cl_uint wait_count = scratch.ready ? 1 : c->wait_count;
        const cl_event *wait_list = scratch.ready ? &scratch.ready : c->wait_list;
        status = kernel_enqueue(&partial, c->queue, 1, &global, &group, wait_count, wait_list,
                                two_pass ? &first : c->event);
    }
    if (status == TAILOR_SUCCESS && two_pass)
        status = kernel_enqueue(&finish, c->queue, 1, &group, &group, 1, &first, c->event);
    if (first)
        clReleaseEvent(first);
    scratch_release(&scratch);
    kernel_release(&partial);
    kernel_release(&finish);
    return status;
}

// The checks that need no buffer, in the order tailor_reduce makes them.
static tailor_status check_call(tailor_context *ctx, tailor_reduce_op op, tailor_dtype dtype)
{
    REQUIRE(op == TAILOR_REDUCE_SUM || op == TAILOR_REDUCE_MIN || op == TAILOR_REDUCE_MAX,
            TAILOR_ERROR_UNKNOWN_OPERATION, "%d is not a tailor_reduce_op", (int)op);
    REQUIRE((unsigned)dtype <= TAILOR_3XTF32, TAILOR_ERROR_UNKNOWN_DTYPE,
            "%d is not a tailor_dtype", (int)dtype);
    REQUIRE(dtype != TAILOR_3XTF32, TAILOR_ERROR_UNSUPPORTED,
            "TAILOR_3XTF32 is tailor_gemm's way of multiplying; reduce f32 data as TAILOR_F32");
    REQUIRE(dtype != TAILOR_F64 || ctx->profile.has_fp64, TAILOR_ERROR_UNSUPPORTED,
            "f64 needs cl_khr_fp64, which %s lacks", ctx->info.device_name);
    return operation_ready(ctx, OP_REDUCE);
}

static tailor_status explain(tailor_context *ctx, const tailor_call *call, struct op_plan *plan)
{
    tailor_status status = check_call(ctx, call->reduce_op, call->dtype);
    if (status != TAILOR_SUCCESS || call->n == 0)
        return status;
    struct reduce_call c = {
        .ctx = ctx,
        .program = reduce_programs[call->dtype][call->reduce_op],
        .element_bytes = dtype_bytes(call->dtype),
        .partial_bytes = partial_bytes(call->dtype),
        .n = call->n,
    };
    plan_call(&c, plan);
    return TAILOR_SUCCESS;
}

static const struct shrink_step shrink_steps[] = {
    {1, 1, {TUNE_REDUCE_WG_SIZE}},
};

const struct operation reduce_operation = {
    check, scratch_bytes, explain, NULL, &reduce_tune_tasks, shrink_steps,
    sizeof shrink_steps / sizeof shrink_steps[0], NULL};

tailor_status tailor_reduce(tailor_context *ctx, cl_command_queue queue, tailor_reduce_op op,
                            tailor_dtype dtype, size_t n, cl_mem x, size_t x_offset, cl_mem result,
                            size_t result_offset, cl_uint num_events_in_wait_list,
                            const cl_event *event_wait_list, cl_event *event)
{
    operation_begin();
    REQUIRE(ctx, TAILOR_ERROR_NULL_HANDLE, "the tailor handle is NULL");
    tailor_status status = check_call(ctx, op, dtype);
    if (status == TAILOR_SUCCESS)
        status = check_enqueue(ctx, queue, num_events_in_wait_list, event_wait_list);
    if (status != TAILOR_SUCCESS || n == 0)
        return status != TAILOR_SUCCESS
                   ? status
                   : enqueue_nothing(queue, num_events_in_wait_list, event_wait_list, event);
    size_t bytes = dtype_bytes(dtype);
    status = check_buffer(ctx, x, "x", x_offset, n, bytes, BUFFER_READ);
    if (status == TAILOR_SUCCESS)
        status = check_buffer(ctx, result, "result", result_offset, 1, bytes, BUFFER_WRITE);
    if (status != TAILOR_SUCCESS)
        return status;
    struct reduce_call call = {
        .ctx = ctx,
        .queue = queue,
        .program = reduce_programs[dtype][op],
        .element_bytes = bytes,
        .partial_bytes = partial_bytes(dtype),
        .n = n,
        .x = x,
        .x_offset = x_offset,
        .result = result,
        .result_offset = result_offset,
        .wait_count = num_events_in_wait_list,
        .wait_list = event_wait_list,
        .event = event,
    };
    struct op_plan plan;
    plan_call(&call, &plan);
    status = plan.kernel == KERNEL_REDUCE_SINGLE_GROUP ? single_group(&call, &plan)
                                                       : multi_group(&call, &plan);
    if (status == TAILOR_SUCCESS)
        variant_set(plan.variant);
    return status;
}
