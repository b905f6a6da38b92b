#include "launch.h"

#include <stdarg.h>
#include <string.h>

#include "error.h"
#include "program.h"

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
        int cacheable = cache && kind == ARG_VALUE && index < KERNEL_CACHED_ARGS &&
                        size <= KERNEL_CACHED_BYTES;
        if (cacheable && cache->size[index] == size && memcmp(cache->value[index], value, size) == 0)
            continue;
        error = clSetKernelArg(lease->kernel, index, size, value);
        if (cache && index < KERNEL_CACHED_ARGS) {
            cache->size[index] = (uint8_t)(cacheable && error == CL_SUCCESS ? size : 0);
            if (cache->size[index])
                memcpy(cache->value[index], value, size);
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
