// Device scratch buffers for multi-pass kernels (the reduction's partials and
// completion counter). Each in-order queue gets a buffer of its own, reused by
// every launch on it: the queue runs those launches one after another, so they
// never overlap. Out-of-order queues (and queues past the table's capacity) get
// a temporary buffer per launch. Buffers start with a zero counter and kernels
// leave it zero.
#ifndef TAILOR_SCRATCH_H
#define TAILOR_SCRATCH_H

#include "tailor.h"

struct scratch_table;

struct scratch_lease {
    cl_mem buffer;
    int temporary;
    cl_event ready; // a temporary buffer's zeroing, which its first kernel waits for
};

struct scratch_table *scratch_table_create(cl_context context, size_t bytes);

// Releases the buffers and the queues the table retained; work already
// enqueued completes normally.
void scratch_table_release(struct scratch_table *table);

// A buffer of at least `bytes` for a launch on `queue` after the wait list.
// A kernel of the launch waits for lease->ready if set, else for the wait list.
tailor_status scratch_acquire(struct scratch_table *table, cl_command_queue queue, size_t bytes,
                              cl_uint wait_count, const cl_event *wait_list,
                              struct scratch_lease *lease);

// Ends the lease once the launch is enqueued (or failed to be).
void scratch_release(struct scratch_lease *lease);

#endif
