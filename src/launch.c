#include "launch.h"

#include <stdarg.h>
#include <string.h>

#include "error.h"
#include "program.h"

// Where the cache keeps argument `index` of `size` bytes, NULL if nowhere;
// *cached_size is what it holds there now.
static unsigned char *cached_value(struct kernel_arg_cache *cache, cl_uint index, size_t size,
                                   uint8_t **cached_size)
{
    if (size <= KERNEL_CACHED_BYTES && index < KERNEL_CACHED_ARGS) {
        *cached_size = &cache->size[index];
        return cache->value[index];
    }
    if (size <= KERNEL_CACHED_WIDE_BYTES) {
        if (cache->wide_index != index) {
            cache->wide_index = (uint8_t)index;
            cache->wide_size = 0;
        }
        *cached_size = &cache->wide_size;
        return cache->wide_value;
    }
    return NULL;
}

tailor_status set_kernel_args(struct kernel_lease *lease, cl_uint count, ...)
{
    struct kernel_arg_cache *cache = lease->args;
    va_list args;
    va_start(args, count);
    cl_int error = CL_SUCCESS;
    cl_uint index = 0;
    for (; index < count && error == CL_SUCCESS; ++index) {
        enum kernel_arg_kind kind = (enum kernel_arg_kind)va_arg(args, int);
        size_t size = va_arg(args, size_t);
        const void *value = va_arg(args, const void *);
        uint8_t *cached_size = NULL;
        unsigned char *cached =
            cache && kind == ARG_VALUE ? cached_value(cache, index, size, &cached_size) : NULL;
        if (cached && *cached_size == size && memcmp(cached, value, size) == 0)
            continue;
        error = clSetKernelArg(lease->kernel, index, size, value);
        if (cached) {
            *cached_size = (uint8_t)(error == CL_SUCCESS ? size : 0);
            if (error == CL_SUCCESS)
                memcpy(cached, value, size);
        }
    }
    va_end(args);
    if (error != CL_SUCCESS)
        return error_from_cl(error, "clSetKernelArg");
    return TAILOR_SUCCESS;
}

tailor_status enqueue_1d(cl_command_queue queue, cl_kernel kernel, size_t global, size_t local,
                         cl_uint wait_count, const cl_event *wait_list, cl_event *event)
{
    cl_int error =
        clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, wait_count, wait_list, event);
    if (error != CL_SUCCESS)
        return error_from_cl(error, "clEnqueueNDRangeKernel");
    return TAILOR_SUCCESS;
}

tailor_status enqueue_2d(cl_command_queue queue, cl_kernel kernel, const size_t global[2],
                         const size_t local[2], cl_uint wait_count, const cl_event *wait_list,
                         cl_event *event)
{
    cl_int error =
        clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global, local, wait_count, wait_list, event);
    if (error != CL_SUCCESS)
        return error_from_cl(error, "clEnqueueNDRangeKernel");
    return TAILOR_SUCCESS;
}
