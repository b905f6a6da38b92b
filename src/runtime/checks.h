// Argument checks shared by every operation: each returns a status with a
// message naming the argument, before any work is enqueued.
#ifndef TAILOR_CHECKS_H
#define TAILOR_CHECKS_H

#include "context.h"

// Bytes of one stored element of a type an operation has accepted: f64 8,
// f32 (and 3xTF32's f32 operands) 4, f16 and bf16 2.
static inline size_t dtype_bytes(tailor_dtype type)
{
    return type == TAILOR_F64                             ? sizeof(cl_double)
           : type == TAILOR_F32 || type == TAILOR_3XTF32 ? sizeof(cl_float)
                                                         : sizeof(cl_ushort);
}

enum buffer_access {
    BUFFER_READ = 1,
    BUFFER_WRITE = 2,
};

// The queue exists and belongs to the handle's context and device.
tailor_status check_queue(const tailor_context *ctx, cl_command_queue queue);

// Whether the queue runs its commands in order (no, when the query fails).
int queue_in_order(cl_command_queue queue);

// The list and its length agree, and every event belongs to the handle's context.
tailor_status check_wait_list(const tailor_context *ctx, cl_uint count, const cl_event *events);

// check_queue, then check_wait_list: what every call checks of its enqueue.
tailor_status check_enqueue(const tailor_context *ctx, cl_command_queue queue, cl_uint count,
                            const cl_event *events);

// `buffer` is a buffer of the handle's context with the access the operation
// needs, and holds elements [offset, offset + extent) of element_bytes each.
tailor_status check_buffer(const tailor_context *ctx, cl_mem buffer, const char *name, size_t offset,
                           size_t extent, size_t element_bytes, enum buffer_access access);

// A matrix of `lines` lines (rows in row-major storage, columns in column-
// major) of `length` elements each, `ld` elements apart: ld >= length (and
// ld >= 1), and the buffer holds its (lines - 1) * ld + length elements from
// `offset`. An empty matrix needs nothing of the buffer but a valid ld.
tailor_status check_matrix(const tailor_context *ctx, cl_mem buffer, const char *name, size_t offset,
                           size_t lines, size_t length, size_t ld, size_t element_bytes,
                           enum buffer_access access);

// A vector of n elements `increment` apart (negative: BLAS order, from the
// far end): increment != 0, and the buffer holds (n - 1) * |increment| + 1
// elements from `offset`.
tailor_status check_vector(const tailor_context *ctx, cl_mem buffer, const char *name, size_t offset,
                           size_t n, long long increment, size_t element_bytes,
                           enum buffer_access access);

// Whether byte ranges [a, a + a_bytes) and [b, b + b_bytes) of one buffer meet.
int ranges_overlap(size_t a, size_t a_bytes, size_t b, size_t b_bytes);

// Completes an operation that has nothing to do: if the caller wants an
// event, it is a marker of the wait list.
tailor_status enqueue_nothing(cl_command_queue queue, cl_uint count, const cl_event *events,
                              cl_event *event);

#endif
