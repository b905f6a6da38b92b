#include "checks.h"

#include <stdint.h>

#include "error.h"

int queue_in_order(cl_command_queue queue)
{
    cl_command_queue_properties properties = 0;
    return clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof properties, &properties, NULL) ==
               CL_SUCCESS &&
           !(properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
}

tailor_status check_queue(const tailor_context *ctx, cl_command_queue queue)
{
    REQUIRE(queue, TAILOR_ERROR_INVALID_QUEUE, "the queue is NULL");
    cl_context context;
    REQUIRE(clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof context, &context, NULL) == CL_SUCCESS,
            TAILOR_ERROR_INVALID_QUEUE, "the queue is not a valid command queue");
    REQUIRE(context == ctx->context, TAILOR_ERROR_INVALID_QUEUE,
            "the queue belongs to another OpenCL context than the handle");
    // A context of one device has queues of that device only: one driver
    // call fewer on every launch.
    cl_device_id device = ctx->device;
    REQUIRE(ctx->context_has_one_device ||
                clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, NULL) == CL_SUCCESS,
            TAILOR_ERROR_INVALID_QUEUE, "the queue is not a valid command queue");
    REQUIRE(device == ctx->device, TAILOR_ERROR_INVALID_QUEUE,
            "the queue belongs to another device than the handle");
    return TAILOR_SUCCESS;
}

tailor_status check_wait_list(const tailor_context *ctx, cl_uint count, const cl_event *events)
{
    REQUIRE((count == 0) == (events == NULL), TAILOR_ERROR_INVALID_WAIT_LIST,
            "the wait list is %s but its length is %u", events ? "not NULL" : "NULL", count);
    for (cl_uint i = 0; i < count; ++i) {
        cl_context context;
        REQUIRE(events[i] && clGetEventInfo(events[i], CL_EVENT_CONTEXT, sizeof context, &context,
                                            NULL) == CL_SUCCESS,
                TAILOR_ERROR_INVALID_WAIT_LIST, "event %u of the wait list is not a valid event", i);
        REQUIRE(context == ctx->context, TAILOR_ERROR_INVALID_WAIT_LIST,
                "event %u of the wait list belongs to another OpenCL context", i);
    }
    return TAILOR_SUCCESS;
}

tailor_status check_enqueue(const tailor_context *ctx, cl_command_queue queue, cl_uint count,
                            const cl_event *events)
{
    tailor_status status = check_queue(ctx, queue);
    return status != TAILOR_SUCCESS ? status : check_wait_list(ctx, count, events);
}

tailor_status check_buffer(const tailor_context *ctx, cl_mem buffer, const char *name, size_t offset,
                           size_t extent, size_t element_bytes, enum buffer_access access)
{
    REQUIRE(buffer, TAILOR_ERROR_INVALID_BUFFER, "buffer %s is NULL", name);
    cl_mem_object_type type;
    cl_context context;
    cl_mem_flags flags;
    size_t size;
    REQUIRE(clGetMemObjectInfo(buffer, CL_MEM_TYPE, sizeof type, &type, NULL) == CL_SUCCESS &&
                clGetMemObjectInfo(buffer, CL_MEM_CONTEXT, sizeof context, &context, NULL) == CL_SUCCESS &&
                clGetMemObjectInfo(buffer, CL_MEM_FLAGS, sizeof flags, &flags, NULL) == CL_SUCCESS &&
                clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof size, &size, NULL) == CL_SUCCESS,
            TAILOR_ERROR_INVALID_BUFFER, "buffer %s is not a valid memory object", name);
    REQUIRE(type == CL_MEM_OBJECT_BUFFER, TAILOR_ERROR_INVALID_BUFFER, "%s is an image, not a buffer",
            name);
    REQUIRE(context == ctx->context, TAILOR_ERROR_INVALID_BUFFER,
            "buffer %s belongs to another OpenCL context than the handle", name);
    REQUIRE(!(access & BUFFER_READ) || !(flags & CL_MEM_WRITE_ONLY), TAILOR_ERROR_INVALID_BUFFER,
            "buffer %s is CL_MEM_WRITE_ONLY but is read", name);
    REQUIRE(!(access & BUFFER_WRITE) || !(flags & CL_MEM_READ_ONLY), TAILOR_ERROR_INVALID_BUFFER,
            "buffer %s is CL_MEM_READ_ONLY but is written", name);
    size_t end, bytes;
    REQUIRE(!__builtin_add_overflow(offset, extent, &end) &&
                !__builtin_mul_overflow(end, element_bytes, &bytes),
            TAILOR_ERROR_SIZE_OVERFLOW, "offset %zu plus extent %zu of %s overflows", offset, extent,
            name);
    REQUIRE(bytes <= size, TAILOR_ERROR_BUFFER_TOO_SMALL,
            "buffer %s holds %zu bytes; offset %zu plus %zu elements need %zu", name, size, offset,
            extent, bytes);
    return TAILOR_SUCCESS;
}

tailor_status check_matrix(const tailor_context *ctx, cl_mem buffer, const char *name, size_t offset,
                           size_t lines, size_t length, size_t ld, size_t element_bytes,
                           enum buffer_access access)
{
    REQUIRE(ld >= length && ld >= 1, TAILOR_ERROR_INVALID_LEADING_DIMENSION,
            "the leading dimension of %s is %zu, less than the %zu elements of its rows", name, ld,
            length);
    size_t extent = 0;
    if (lines > 0 && length > 0)
        REQUIRE(!__builtin_mul_overflow(lines - 1, ld, &extent) &&
                    !__builtin_add_overflow(extent, length, &extent),
                TAILOR_ERROR_SIZE_OVERFLOW, "the extent of %s (%zu lines of ld %zu) overflows", name,
                lines, ld);
    return check_buffer(ctx, buffer, name, offset, extent, element_bytes, access);
}

tailor_status check_vector(const tailor_context *ctx, cl_mem buffer, const char *name, size_t offset,
                           size_t n, long long increment, size_t element_bytes,
                           enum buffer_access access)
{
    REQUIRE(increment != 0, TAILOR_ERROR_INVALID_INCREMENT, "the increment of %s is 0", name);
    unsigned long long step = increment < 0 ? 0ull - (unsigned long long)increment
                                            : (unsigned long long)increment;
    size_t extent = 0;
    if (n > 0)
        REQUIRE(step <= SIZE_MAX && !__builtin_mul_overflow(n - 1, (size_t)step, &extent) &&
                    !__builtin_add_overflow(extent, 1, &extent),
                TAILOR_ERROR_SIZE_OVERFLOW, "the extent of %s (%zu elements, increment %lld) overflows",
                name, n, increment);
    return check_buffer(ctx, buffer, name, offset, extent, element_bytes, access);
}

int ranges_overlap(size_t a, size_t a_bytes, size_t b, size_t b_bytes)
{
    return a_bytes > 0 && b_bytes > 0 && a < b + b_bytes && b < a + a_bytes;
}

tailor_status enqueue_nothing(cl_command_queue queue, cl_uint count, const cl_event *events,
                              cl_event *event)
{
    if (!event)
        return TAILOR_SUCCESS;
    cl_int error = clEnqueueMarkerWithWaitList(queue, count, events, event);
    return error == CL_SUCCESS ? TAILOR_SUCCESS : error_from_cl(error, "clEnqueueMarkerWithWaitList");
}
