#include "launch.h"

#include <string.h>

#include "error.h"
#include "program.h"

// Where the cache keeps argument `index` of `size` bytes; *cached_size is
// what it holds there now.
static unsigned char *cached_value(struct kernel_arg_cache *cache, cl_uint index,
                                   const struct kernel_arg *arg, uint8_t **cached_size)
{
    if (arg->kind != ARG_WIDE) {
        *cached_size = &cache->size[index];
        return cache->value[index];
    }
    if (cache->wide_index != index) {
        cache->wide_index = (uint8_t)index;
        cache->wide_size = 0;
    }
    *cached_size = &cache->wide_size;
    return cache->wide_value;
}

tailor_status kernel_set_args(struct kernel_lease *lease, const struct kernel_args *args)
{
    REQUIRE(args->count == lease->arg_count, TAILOR_ERROR_INVALID_ARGUMENT,
            "internal error: %u arguments for kernel %s, which takes %u", args->count,
            kernel_table[lease->id].name, lease->arg_count);
    struct kernel_arg_cache *cache = lease->args;
    for (cl_uint index = 0; index < args->count; ++index) {
        const struct kernel_arg *arg = &args->arg[index];
        const void *value = arg->kind == ARG_WIDE ? (const void *)&args->wide : arg->bytes;
        size_t size = arg->kind == ARG_WIDE ? sizeof args->wide : arg->size;
        uint8_t *cached_size = NULL;
        unsigned char *cached =
            cache && arg->kind != ARG_MEMORY ? cached_value(cache, index, arg, &cached_size) : NULL;
        if (cached && *cached_size == size && memcmp(cached, value, size) == 0)
            continue;
        cl_int error = clSetKernelArg(lease->kernel, index, size, value);
        if (cached) {
            *cached_size = (uint8_t)(error == CL_SUCCESS ? size : 0);
            if (error == CL_SUCCESS)
                memcpy(cached, value, size);
        }
        if (error != CL_SUCCESS)
            return error_from_cl(error, "clSetKernelArg");
    }
    return TAILOR_SUCCESS;
}

tailor_status kernel_enqueue(const struct kernel_lease *lease, cl_command_queue queue,
                             cl_uint dimensions, const size_t *global, const size_t *local,
                             cl_uint wait_count, const cl_event *wait_list, cl_event *event)
{
    cl_int error = clEnqueueNDRangeKernel(queue, lease->kernel, dimensions, NULL, global, local,
                                          wait_count, wait_list, event);
    if (error != CL_SUCCESS)
        return error_from_cl(error, "clEnqueueNDRangeKernel");
    return TAILOR_SUCCESS;
}

tailor_status kernel_launch(tailor_context *ctx, enum program_id program, enum kernel_id kernel,
                            const struct kernel_args *args, cl_command_queue queue,
                            cl_uint dimensions, const size_t *global, const size_t *local,
                            cl_uint wait_count, const cl_event *wait_list, cl_event *event)
{
    struct kernel_lease lease;
    tailor_status status = kernel_acquire(ctx, program, kernel, &lease);
    if (status != TAILOR_SUCCESS)
        return status;
    status = kernel_set_args(&lease, args);
    if (status == TAILOR_SUCCESS)
        status = kernel_enqueue(&lease, queue, dimensions, global, local, wait_count, wait_list, event);
    kernel_release(&lease);
    return status;
}
