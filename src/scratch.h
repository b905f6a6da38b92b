// Device scratch buffers for multi-pass kernels (the reduction's partials and
// completion counter). A buffer is lent to one launch and returns to the pool
// when that launch's last command completes (an event callback), so launches
// on several queues never share one. Buffers start zeroed; kernels that use
// the counter leave it zero again.
#ifndef TAILOR_SCRATCH_H
#define TAILOR_SCRATCH_H

#include "tailor.h"

struct scratch_pool;
struct scratch_slot;

struct scratch_lease {
    cl_mem buffer;
    struct scratch_slot *slot; // NULL: a buffer made for this launch alone
};

struct scratch_pool *scratch_pool_create(cl_context context, size_t bytes);

// Drops the handle's reference; buffers still lent go when their launches complete.
void scratch_pool_release(struct scratch_pool *pool);

size_t scratch_pool_bytes(const struct scratch_pool *pool);

tailor_status scratch_acquire(struct scratch_pool *pool, size_t bytes, struct scratch_lease *lease);

// The lease ends when `done` completes.
void scratch_release_after(struct scratch_lease *lease, cl_event done);

// Ends a lease whose buffer no enqueued command uses.
void scratch_release_unused(struct scratch_lease *lease);

#endif
