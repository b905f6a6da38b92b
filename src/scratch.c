#include "scratch.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "error.h"

#define SCRATCH_SLOTS 8

struct scratch_slot {
    atomic_flag busy;
    // Set when a launch ended abnormally and may have left the counter non-zero.
    atomic_int dirty;
    cl_mem buffer;
    struct scratch_pool *pool;
};

struct scratch_pool {
    atomic_int references; // the handle's, plus one per lease awaiting its callback
    cl_context context;
    size_t bytes;
    struct scratch_slot slots[SCRATCH_SLOTS];
};

struct scratch_pool *scratch_pool_create(cl_context context, size_t bytes)
{
    struct scratch_pool *pool = calloc(1, sizeof *pool);
    if (!pool)
        return NULL;
    atomic_init(&pool->references, 1);
    pool->context = context;
    pool->bytes = bytes;
    for (int s = 0; s < SCRATCH_SLOTS; ++s) {
        atomic_flag_clear(&pool->slots[s].busy);
        atomic_init(&pool->slots[s].dirty, 0);
        pool->slots[s].pool = pool;
    }
    return pool;
}

void scratch_pool_release(struct scratch_pool *pool)
{
    if (!pool || atomic_fetch_sub(&pool->references, 1) != 1)
        return;
    for (int s = 0; s < SCRATCH_SLOTS; ++s)
        if (pool->slots[s].buffer)
            clReleaseMemObject(pool->slots[s].buffer);
    free(pool);
}

size_t scratch_pool_bytes(const struct scratch_pool *pool)
{
    return pool->bytes;
}

static tailor_status zeroed_buffer(cl_context context, size_t bytes, cl_mem *out)
{
    void *zeros = calloc(1, bytes);
    REQUIRE(zeros, TAILOR_ERROR_OUT_OF_HOST_MEMORY, "no memory for a scratch buffer");
    cl_int error;
    *out = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, zeros, &error);
    free(zeros);
    if (error != CL_SUCCESS) {
        *out = NULL;
        return error_from_cl(error, "clCreateBuffer (scratch)");
    }
    return TAILOR_SUCCESS;
}

tailor_status scratch_acquire(struct scratch_pool *pool, size_t bytes, struct scratch_lease *lease)
{
    lease->buffer = NULL;
    lease->slot = NULL;
    if (bytes > pool->bytes)
        return zeroed_buffer(pool->context, bytes, &lease->buffer);
    for (int s = 0; s < SCRATCH_SLOTS; ++s) {
        struct scratch_slot *slot = &pool->slots[s];
        if (atomic_flag_test_and_set_explicit(&slot->busy, memory_order_acquire))
            continue;
        if (slot->buffer && atomic_exchange(&slot->dirty, 0)) {
            clReleaseMemObject(slot->buffer);
            slot->buffer = NULL;
        }
        if (!slot->buffer) {
            tailor_status status = zeroed_buffer(pool->context, pool->bytes, &slot->buffer);
            if (status != TAILOR_SUCCESS) {
                atomic_flag_clear_explicit(&slot->busy, memory_order_release);
                return status;
            }
        }
        lease->buffer = slot->buffer;
        lease->slot = slot;
        return TAILOR_SUCCESS;
    }
    return zeroed_buffer(pool->context, pool->bytes, &lease->buffer);
}

static void CL_CALLBACK slot_done(cl_event event, cl_int status, void *user)
{
    (void)event;
    struct scratch_slot *slot = user;
    struct scratch_pool *pool = slot->pool;
    if (status != CL_COMPLETE)
        atomic_store(&slot->dirty, 1);
    atomic_flag_clear_explicit(&slot->busy, memory_order_release);
    scratch_pool_release(pool);
}

void scratch_release_after(struct scratch_lease *lease, cl_event done)
{
    struct scratch_slot *slot = lease->slot;
    cl_mem buffer = lease->buffer;
    lease->buffer = NULL;
    lease->slot = NULL;
    if (!slot) {
        // OpenCL frees a released buffer once the commands using it complete.
        clReleaseMemObject(buffer);
        return;
    }
    atomic_fetch_add(&slot->pool->references, 1);
    if (clSetEventCallback(done, CL_COMPLETE, slot_done, slot) == CL_SUCCESS)
        return;
    // Without a callback nobody learns when the launch ends: retire the
    // buffer (freed after its commands) and free the slot for a new one.
    atomic_fetch_sub(&slot->pool->references, 1);
    clReleaseMemObject(slot->buffer);
    slot->buffer = NULL;
    atomic_flag_clear_explicit(&slot->busy, memory_order_release);
}

void scratch_release_unused(struct scratch_lease *lease)
{
    if (lease->slot)
        atomic_flag_clear_explicit(&lease->slot->busy, memory_order_release);
    else if (lease->buffer)
        clReleaseMemObject(lease->buffer);
    lease->buffer = NULL;
    lease->slot = NULL;
}
