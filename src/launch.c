#include "launch.h"

#include <stdarg.h>

#include "error.h"

tailor_status set_kernel_args(cl_kernel kernel, cl_uint count, ...)
{
    va_list args;
    va_start(args, count);
    cl_int error = CL_SUCCESS;
    cl_uint index = 0;
    for (; index < count && error == CL_SUCCESS; ++index) {
        size_t size = va_arg(args, size_t);
        const void *value = va_arg(args, const void *);
        error = clSetKernelArg(kernel, index, size, value);
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
