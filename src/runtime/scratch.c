#include "scratch.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "checks.h"
#include "error.h"

// Queues a handle keeps a buffer for; a handle used with more queues than
// this gives the rest temporary buffers.
#define SCRATCH_QUEUES 32

enum entry_state {
    ENTRY_FREE,
    ENTRY_CLAIMED, // being filled in by the thread that claimed it
    ENTRY_READY,
};

struct scratch_entry {
    atomic_int state;
    cl_command_queue queue; // retained, so its address cannot be reused by another queue
    cl_mem buffer;
};

struct scratch_table {
    cl_context context;
    size_t bytes;
    struct scratch_entry entries[SCRATCH_QUEUES];
};

struct scratch_table *scratch_table_create(cl_context context, size_t bytes)
{
    struct scratch_table *table = calloc(1, sizeof *table);
    if (!table)
        return NULL;
    table->context = context;
    table->bytes = bytes;
    for (int i = 0; i < SCRATCH_QUEUES; ++i)
        atomic_init(&table->entries[i].state, ENTRY_FREE);
    return table;
}

void scratch_table_release(struct scratch_table *table)
{
    if (!table)
        return;
    for (int i = 0; i < SCRATCH_QUEUES; ++i) {
        struct scratch_entry *e = &table->entries[i];
        if (atomic_load(&e->state) == ENTRY_READY) {
            clReleaseMemObject(e->buffer);
            clReleaseCommandQueue(e->queue);
        }
    }
    free(table);
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

// The queue's buffer, made on its first use. Returns 0 (and no status) when
// the table is full.
static int queue_buffer(struct scratch_table *table, cl_command_queue queue, cl_mem *buffer,
                        tailor_status *status)
{
    *status = TAILOR_SUCCESS;
    for (int i = 0; i < SCRATCH_QUEUES; ++i) {
        struct scratch_entry *e = &table->entries[i];
        if (atomic_load_explicit(&e->state, memory_order_acquire) == ENTRY_READY && e->queue == queue) {
            *buffer = e->buffer;
            return 1;
        }
    }
    if (!queue_in_order(queue))
        return 0;
    for (int i = 0; i < SCRATCH_QUEUES; ++i) {
        struct scratch_entry *e = &table->entries[i];
        int expected = ENTRY_FREE;
        if (!atomic_compare_exchange_strong(&e->state, &expected, ENTRY_CLAIMED))
            continue;
        *status = zeroed_buffer(table->context, table->bytes, &e->buffer);
        cl_int error = *status == TAILOR_SUCCESS ? clRetainCommandQueue(queue) : CL_SUCCESS;
        if (error != CL_SUCCESS) {
            clReleaseMemObject(e->buffer);
            *status = error_from_cl(error, "clRetainCommandQueue");
        }
        if (*status != TAILOR_SUCCESS) {
            atomic_store(&e->state, ENTRY_FREE);
            return 1;
        }
        e->queue = queue;
        atomic_store_explicit(&e->state, ENTRY_READY, memory_order_release);
        *buffer = e->buffer;
        return 1;
    }
    return 0;
}

static tailor_status temporary_buffer(cl_context context, cl_command_queue queue, size_t bytes,
                                      cl_uint wait_count, const cl_event *wait_list,
                                      struct scratch_lease *lease)
{
    cl_int error;
    lease->buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &error);
    if (error != CL_SUCCESS) {
        lease->buffer = NULL;
        return error_from_cl(error, "clCreateBuffer (scratch)");
    }
    lease->temporary = 1;
    cl_uint zero = 0;
    error = clEnqueueFillBuffer(queue, lease->buffer, &zero, sizeof zero, 0, bytes, wait_count, wait_list,
                                &lease->ready);
    if (error != CL_SUCCESS) {
        lease->ready = NULL;
        return error_from_cl(error, "clEnqueueFillBuffer (scratch)");
    }
    return TAILOR_SUCCESS;
}

tailor_status scratch_acquire(struct scratch_table *table, cl_command_queue queue, size_t bytes,
                              cl_uint wait_count, const cl_event *wait_list,
                              struct scratch_lease *lease)
{
    lease->buffer = NULL;
    lease->temporary = 0;
    lease->ready = NULL;
    tailor_status status = TAILOR_SUCCESS;
    if (bytes <= table->bytes && queue_buffer(table, queue, &lease->buffer, &status))
        return status;
    return temporary_buffer(table->context, queue, bytes, wait_count, wait_list, lease);
}

void scratch_release(struct scratch_lease *lease)
{
    // OpenCL frees a released buffer once the commands using it complete.
    if (lease->temporary && lease->buffer)
        clReleaseMemObject(lease->buffer);
    if (lease->ready)
        clReleaseEvent(lease->ready);
    lease->buffer = NULL;
    lease->ready = NULL;
    lease->temporary = 0;
}
