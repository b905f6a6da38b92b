// Device workspaces: buffers an operation fills before its kernel reads them
// (an operand repacked into the layout the fast kernel reads). Each in-order
// queue has one that grows to the largest request and is kept until the
// handle is released. A lease holds the queue's workspace from acquisition
// until the launches that fill and read it are enqueued, so two threads
// enqueueing on one queue cannot interleave their fills and reads; the
// queue then runs them in order. Out-of-order queues (and queues past the
// table's capacity) get a temporary buffer per call.
#ifndef TAILOR_WORKSPACE_H
#define TAILOR_WORKSPACE_H

#include "tailor.h"

struct workspace_table;
struct workspace_entry;

struct workspace_lease {
    cl_mem buffer;
    struct workspace_entry *held; // the queue's entry, locked; NULL for a temporary buffer
};

struct workspace_table *workspace_table_create(cl_context context);

// Releases the buffers and the queues the table retained; work already
// enqueued completes normally.
void workspace_table_release(struct workspace_table *table);

// The most bytes a call's workspace may take: an eighth of the device's
// memory. Operations whose fast path needs more take another path.
size_t workspace_limit_bytes(const tailor_device_info *facts);

// A buffer of at least `bytes` (not initialized) for launches on `queue`.
tailor_status workspace_acquire(struct workspace_table *table, cl_command_queue queue, size_t bytes,
                                struct workspace_lease *lease);

// Ends the lease once its launches are enqueued (or failed to be).
void workspace_release(struct workspace_lease *lease);

#endif
