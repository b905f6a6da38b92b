// tailor_explain against what the calls really run, and the API's small
// promises: for calls of every operation across its paths, under the
// detected profile and generic, explain names the variant the call then
// reports and lists exactly the -D options of the program it names (those
// tailor_context_build_options gives, each once); getters leave
// tailor_last_variant() alone; a failed OpenCL call keeps its code
// (tailor_last_cl_error); a handle lists and clears its own cache directory.
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"

#define FLOATS (1 << 20)

struct buffers {
    cl_mem a, b, c;
};

// Runs the call on real buffers (big enough for every call here).
static tailor_status run_call(tailor_context *handle, const struct test_device *device,
                              const struct buffers *buffers, const tailor_call *c)
{
    cl_command_queue q = device->queue;
    switch (c->operation) {
    case TAILOR_OP_REDUCE:
        return tailor_reduce(handle, q, c->reduce_op, c->dtype, c->n, buffers->a, c->a_offset, buffers->c,
                             c->c_offset, 0, NULL, NULL);
    case TAILOR_OP_SGEMV:
        return tailor_sgemv(handle, q, c->layout, c->trans_a, c->m, c->n, c->alpha, buffers->a, c->a_offset,
                            c->lda, buffers->b, c->b_offset, c->incx, c->beta, buffers->c, c->c_offset,
                            c->incy, 0, NULL, NULL);
    case TAILOR_OP_TRANSPOSE:
        if (c->scaled)
            return tailor_somatcopy(handle, q, c->m, c->n, c->alpha, buffers->a, c->a_offset, c->lda,
                                    buffers->b, c->b_offset, c->ldb, 0, NULL, NULL);
        return tailor_transpose(handle, q, c->element_bytes, c->m, c->n, buffers->a, c->a_offset, c->lda,
                                buffers->b, c->b_offset, c->ldb, 0, NULL, NULL);
    case TAILOR_OP_SGEMM:
        return tailor_sgemm(handle, q, c->layout, c->trans_a, c->trans_b, c->m, c->n, c->k, c->alpha,
                            buffers->a, c->a_offset, c->lda, buffers->b, c->b_offset, c->ldb, c->beta,
                            buffers->c, c->c_offset, c->ldc, 0, NULL, NULL);
    case TAILOR_OP_GEMM:
        return tailor_gemm_strided_batched(handle, q, c->layout, c->trans_a, c->trans_b, c->m, c->n, c->k,
                                           c->alpha, c->dtype, buffers->a, c->a_offset, c->lda, c->stride_a,
                                           buffers->b, c->b_offset, c->ldb, c->stride_b, c->beta, c->c_type,
                                           buffers->c, c->c_offset, c->ldc, c->stride_c, c->batch ? c->batch : 1,
                                           0, NULL, NULL);
    }
    return TAILOR_ERROR_UNKNOWN_OPERATION;
}

// Every "-DNAME=VALUE" of the options appears once among the plan's defines
// with that value, and the plan has no other.
static void check_defines(const char *label, const tailor_plan *plan, const char *options)
{
    size_t seen = 0;
    for (const char *at = strstr(options, " -D"); at; at = strstr(at + 1, " -D")) {
        char item[128];
        snprintf(item, sizeof item, "%.*s", (int)strcspn(at + 3, " "), at + 3);
        char *equals = strchr(item, '=');
        const char *value = equals ? equals + 1 : "1";
        if (equals)
            *equals = '\0';
        int found = 0;
        for (size_t i = 0; i < plan->define_count; ++i)
            found += strcmp(plan->defines[i].name, item) == 0 && strcmp(plan->defines[i].value, value) == 0;
        CHECK(found == 1, "%s: -D%s=%s is %s among explain's defines", label, item, value,
              found ? "repeated" : "missing");
        ++seen;
    }
    CHECK(seen == plan->define_count, "%s: explain lists %zu defines, the options hold %zu", label,
          plan->define_count, seen);
}

static void check_call(tailor_context *handle, const struct test_device *device,
                       const struct buffers *buffers, const char *profile, const tailor_call *call)
{
    char label[256];
    snprintf(label, sizeof label, "[%s] op %d %zux%zux%zu", profile, (int)call->operation, call->m, call->n,
             call->k);
    tailor_plan plan;
    CHECK_STATUS(tailor_explain(handle, call, &plan), TAILOR_SUCCESS);
    CHECK_STATUS(run_call(handle, device, buffers, call), TAILOR_SUCCESS);
    CHECK(strcmp(plan.variant, tailor_last_variant()) == 0, "%s: explain says '%s', the call ran '%s'",
          label, plan.variant, tailor_last_variant());
    char variant[128];
    snprintf(variant, sizeof variant, "%s", tailor_last_variant());
    // Getters and explain leave the variant alone.
    tailor_cache_stats stats;
    tailor_device_info info;
    tailor_context_cache_stats(handle, &stats);
    tailor_context_device_info(handle, &info);
    tailor_explain(handle, call, &plan);
    CHECK(strcmp(variant, tailor_last_variant()) == 0, "%s: a getter changed the variant to '%s'", label,
          tailor_last_variant());
    if (!*plan.kernel)
        return;
    CHECK(*plan.program && plan.launches >= 1, "%s: a kernel without a program or launch", label);
    char options[4096];
    CHECK_STATUS(tailor_context_build_options(handle, plan.program, options, sizeof options), TAILOR_SUCCESS);
    check_defines(label, &plan, options);
}

static void check_calls(const struct test_device *device, const struct buffers *buffers, const char *profile)
{
    tailor_context *handle = test_handle(device, profile, NULL);
    if (!handle)
        return;
    const tailor_trans N = TAILOR_NO_TRANS, T = TAILOR_TRANS;
    const tailor_call calls[] = {
        {.operation = TAILOR_OP_REDUCE, .n = 100},
        {.operation = TAILOR_OP_REDUCE, .n = 1 << 19, .reduce_op = TAILOR_REDUCE_MAX},
        {.operation = TAILOR_OP_REDUCE, .n = 100, .dtype = TAILOR_F16},
        {.operation = TAILOR_OP_REDUCE, .n = 1 << 19, .reduce_op = TAILOR_REDUCE_MIN, .dtype = TAILOR_BF16},
        {.operation = TAILOR_OP_SGEMV, .m = 300, .n = 20, .lda = 20, .incx = 1, .incy = 1, .alpha = 1},
        {.operation = TAILOR_OP_SGEMV, .m = 64, .n = 3000, .lda = 3000, .incx = 1, .incy = 1, .alpha = 1},
        {.operation = TAILOR_OP_SGEMV, .m = 300, .n = 200, .lda = 201, .trans_a = T, .incx = -2, .incy = 1,
         .alpha = 2, .beta = 1},
        {.operation = TAILOR_OP_SGEMV, .m = 30, .n = 20, .lda = 30, .layout = TAILOR_COLUMN_MAJOR, .incx = 1,
         .incy = 3, .alpha = 0, .beta = 2},
        {.operation = TAILOR_OP_TRANSPOSE, .m = 64, .n = 256, .lda = 256, .ldb = 64, .element_bytes = 4},
        {.operation = TAILOR_OP_TRANSPOSE, .m = 37, .n = 29, .lda = 31, .ldb = 40, .element_bytes = 1},
        {.operation = TAILOR_OP_TRANSPOSE, .m = 33, .n = 20, .lda = 20, .ldb = 36, .scaled = 1, .alpha = -2},
        {.operation = TAILOR_OP_SGEMM, .m = 200, .n = 160, .k = 64, .lda = 64, .ldb = 160, .ldc = 160,
         .alpha = 1},
        {.operation = TAILOR_OP_SGEMM, .m = 100, .n = 130, .k = 70, .lda = 100, .ldb = 70, .ldc = 130,
         .trans_a = T, .trans_b = T, .alpha = 1, .beta = 2},
        {.operation = TAILOR_OP_SGEMM, .m = 5, .n = 30, .k = 7, .lda = 7, .ldb = 7, .ldc = 5,
         .layout = TAILOR_COLUMN_MAJOR, .trans_a = T, .alpha = -1},
        {.operation = TAILOR_OP_SGEMM, .m = 1, .n = 45, .k = 30, .lda = 30, .ldb = 30, .ldc = 45,
         .trans_b = T, .trans_a = N, .alpha = 2, .beta = 1},
        {.operation = TAILOR_OP_SGEMM, .m = 12, .n = 9, .k = 5, .lda = 5, .ldb = 9, .ldc = 9, .beta = 0.5f},
        {.operation = TAILOR_OP_GEMM, .m = 100, .n = 70, .k = 40, .lda = 40, .ldb = 70, .ldc = 70,
         .dtype = TAILOR_F16, .c_type = TAILOR_F32, .alpha = 1},
        {.operation = TAILOR_OP_GEMM, .m = 33, .n = 20, .k = 17, .lda = 33, .ldb = 17, .ldc = 33,
         .layout = TAILOR_COLUMN_MAJOR, .trans_a = T, .dtype = TAILOR_BF16, .c_type = TAILOR_BF16,
         .alpha = 2, .beta = 1, .batch = 3, .stride_a = 600, .stride_b = 400, .stride_c = 700},
        {.operation = TAILOR_OP_GEMM, .m = 20, .n = 30, .k = 10, .lda = 10, .ldb = 10, .ldc = 30,
         .trans_b = T, .dtype = TAILOR_F32, .c_type = TAILOR_F16, .alpha = 1, .batch = 2,
         .stride_a = 200, .stride_b = 300, .stride_c = 600},
        {.operation = TAILOR_OP_GEMM, .m = 40, .n = 30, .k = 20, .lda = 20, .ldb = 30, .ldc = 30,
         .dtype = TAILOR_F32, .c_type = TAILOR_F32, .alpha = 1},
    };
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; ++i)
        check_call(handle, device, buffers, profile, &calls[i]);
    // Nothing to do: no variant, no kernel.
    tailor_call empty = {.operation = TAILOR_OP_SGEMM, .m = 0, .n = 5, .k = 3, .alpha = 1};
    tailor_plan plan;
    CHECK_STATUS(tailor_explain(handle, &empty, &plan), TAILOR_SUCCESS);
    CHECK(!*plan.variant && !*plan.kernel && plan.launches == 0, "m = 0 plans '%s'", plan.variant);
    tailor_call half = {.operation = TAILOR_OP_REDUCE, .n = 100, .reduce_op = TAILOR_REDUCE_MIN,
                        .dtype = TAILOR_BF16};
    CHECK_STATUS(tailor_explain(handle, &half, &plan), TAILOR_SUCCESS);
    CHECK(strcmp(plan.program, "reduce_min_bf16") == 0, "a bf16 minimum runs %s", plan.program);
    // The checks a call makes before its buffers.
    tailor_call bad = {.operation = TAILOR_OP_SGEMV, .m = 10, .n = 10, .lda = 5, .incx = 1, .incy = 1};
    CHECK_STATUS(tailor_explain(handle, &bad, &plan), TAILOR_ERROR_INVALID_LEADING_DIMENSION);
    bad = (tailor_call){.operation = (tailor_operation)9};
    CHECK_STATUS(tailor_explain(handle, &bad, &plan), TAILOR_ERROR_UNKNOWN_OPERATION);
    bad = (tailor_call){.operation = TAILOR_OP_TRANSPOSE, .m = 4, .n = 4, .element_bytes = 3};
    CHECK_STATUS(tailor_explain(handle, &bad, &plan), TAILOR_ERROR_INVALID_ELEMENT_SIZE);
    bad = (tailor_call){.operation = TAILOR_OP_REDUCE, .n = 10, .dtype = TAILOR_3XTF32};
    CHECK_STATUS(tailor_explain(handle, &bad, &plan), TAILOR_ERROR_UNSUPPORTED);
    CHECK_STATUS(tailor_explain(NULL, &empty, &plan), TAILOR_ERROR_NULL_HANDLE);
    CHECK_STATUS(tailor_explain(handle, NULL, &plan), TAILOR_ERROR_INVALID_ARGUMENT);
    tailor_context_release(&handle);
}

// A build that fails keeps CL_BUILD_PROGRAM_FAILURE; the next call that
// succeeds clears it.
static void check_cl_error(const struct test_device *device, const struct buffers *buffers)
{
    tailor_settings settings;
    tailor_default_settings(&settings);
    settings.cache_mode = TAILOR_CACHE_OFF;
    settings.profile = "generic";
    settings.build_options = "-DLOCKSTEP=(";
    tailor_context *broken = NULL;
    CHECK_STATUS(tailor_context_create(device->context, device->choice.device, &settings, &broken),
                 TAILOR_SUCCESS);
    if (!broken)
        return;
    CHECK_STATUS(tailor_reduce(broken, device->queue, TAILOR_REDUCE_SUM, TAILOR_F32, 100, buffers->a, 0,
                               buffers->c, 0, 0, NULL, NULL),
                 TAILOR_ERROR_BUILD_FAILED);
    CHECK(tailor_last_cl_error() == CL_BUILD_PROGRAM_FAILURE, "a failed build keeps %d",
          (int)tailor_last_cl_error());
    CHECK_STATUS(tailor_reduce(broken, device->queue, TAILOR_REDUCE_SUM, TAILOR_F32, 100, NULL, 0, buffers->c,
                               0, 0, NULL, NULL),
                 TAILOR_ERROR_INVALID_BUFFER);
    CHECK(tailor_last_cl_error() == CL_SUCCESS, "a bad argument is no OpenCL error (%d)",
          (int)tailor_last_cl_error());
    tailor_context_release(&broken);
}

static void count_visit(const tailor_cache_entry_info *entry, void *user)
{
    (void)entry;
    ++*(int *)user;
}

// A handle with its own cache directory lists and clears that one, not the
// default directory.
static void check_handle_cache(const struct test_device *device, const struct buffers *buffers)
{
    char own[] = "/tmp/tailor-own-cache-XXXXXX", other[] = "/tmp/tailor-default-cache-XXXXXX";
    if (!mkdtemp(own) || !mkdtemp(other)) {
        CHECK(0, "mkdtemp failed");
        return;
    }
    setenv("TAILOR_CACHE_DIR", other, 1);
    tailor_settings settings;
    tailor_default_settings(&settings);
    settings.cache_mode = TAILOR_CACHE_ON;
    settings.cache_dir = own;
    settings.profile = "generic";
    tailor_context *handle = NULL;
    CHECK_STATUS(tailor_context_create(device->context, device->choice.device, &settings, &handle),
                 TAILOR_SUCCESS);
    if (handle) {
        CHECK_STATUS(tailor_reduce(handle, device->queue, TAILOR_REDUCE_SUM, TAILOR_F32, 100, buffers->a, 0,
                                   buffers->c, 0, 0, NULL, NULL),
                     TAILOR_SUCCESS);
        int listed = 0, in_default = 0;
        CHECK_STATUS(tailor_context_cache_list(handle, count_visit, &listed), TAILOR_SUCCESS);
        CHECK_STATUS(tailor_cache_list(count_visit, &in_default), TAILOR_SUCCESS);
        CHECK(listed == 1 && in_default == 0, "the handle's directory holds %d entries, the default %d",
              listed, in_default);
        size_t removed = 0;
        CHECK_STATUS(tailor_context_cache_clear(handle, &removed), TAILOR_SUCCESS);
        listed = 0;
        tailor_context_cache_list(handle, count_visit, &listed);
        CHECK(removed == 1 && listed == 0, "clearing removed %zu, %d left", removed, listed);
        tailor_context_release(&handle);
    }
    unsetenv("TAILOR_CACHE_DIR");
    rmdir(own);
    rmdir(other);
}

int main(void)
{
    struct test_device devices[8];
    size_t count = test_open_devices(devices, 8);
    for (size_t d = 0; d < count; ++d) {
        struct buffers buffers;
        float *ones = malloc(FLOATS * sizeof *ones);
        for (size_t i = 0; i < FLOATS; ++i)
            ones[i] = 1.0f;
        buffers.a = test_buffer(&devices[d], CL_MEM_READ_WRITE, FLOATS * sizeof(float), ones);
        buffers.b = test_buffer(&devices[d], CL_MEM_READ_WRITE, FLOATS * sizeof(float), ones);
        buffers.c = test_buffer(&devices[d], CL_MEM_READ_WRITE, FLOATS * sizeof(float), ones);
        free(ones);
        check_calls(&devices[d], &buffers, devices[d].info.profile_name);
        check_calls(&devices[d], &buffers, "generic");
        check_cl_error(&devices[d], &buffers);
        check_handle_cache(&devices[d], &buffers);
        clFinish(devices[d].queue);
        clReleaseMemObject(buffers.a);
        clReleaseMemObject(buffers.b);
        clReleaseMemObject(buffers.c);
    }
    test_close_devices(devices, count);
    return test_exit_status("test_explain");
}
