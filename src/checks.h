// Argument checks shared by every operation: each returns a status with a
// message naming the argument, before any work is enqueued.
#ifndef TAILOR_CHECKS_H
#define TAILOR_CHECKS_H

#include "context.h"

enum buffer_access {
    BUFFER_READ = 1,
    BUFFER_WRITE = 2,
};

// The queue exists and belongs to the handle's context and device.
tailor_status check_queue(const tailor_context *ctx, cl_command_queue queue);

// The list and its length agree, and every event belongs to the handle's context.
tailor_status check_wait_list(const tailor_context *ctx, cl_uint count, const cl_event *events);

// `buffer` is a buffer of the handle's context with the access the operation
// needs, and holds elements [offset, offset + extent) of element_bytes each.
tailor_status check_buffer(const tailor_context *ctx, cl_mem buffer, const char *name, size_t offset,
                           size_t extent, size_t element_bytes, enum buffer_access access);

// Completes an operation that has nothing to do: if the caller wants an
// event, it is a marker of the wait list.
tailor_status enqueue_nothing(cl_command_queue queue, cl_uint count, const cl_event *events,
                              cl_event *event);

#endif
