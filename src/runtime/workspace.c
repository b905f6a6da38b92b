#include "workspace.h"

#include <pthread.h>
#include <stdlib.h>

#include "checks.h"
#include "error.h"

// Queues a handle keeps a workspace for; the rest get temporary buffers.
#define WORKSPACE_QUEUES 32

// The smallest workspace a queue keeps, so that calls of growing small
// sizes do not each replace it. (Oclgrind's uninitialized-value check also
// keeps the shadow of a released buffer for the next buffer at its address:
// one larger than it reads as uninitialized past the old size, whatever is
// written there.)
#define WORKSPACE_MIN_BYTES ((size_t)64 << 10)

struct workspace_entry {
    pthread_mutex_t lock; // held by the lease using the buffer
    cl_command_queue queue; // retained, so its address cannot be reused by another queue; NULL: free
    cl_mem buffer;
    size_t bytes;
};

struct workspace_table {
    cl_context context;
    pthread_mutex_t lock; // guards the entries' queue fields
    int entries_ready;    // entry locks initialized
    struct workspace_entry entries[WORKSPACE_QUEUES];
};

struct workspace_table *workspace_table_create(cl_context context)
{
    struct workspace_table *table = calloc(1, sizeof *table);
    if (!table)
        return NULL;
    table->context = context;
    if (pthread_mutex_init(&table->lock, NULL) != 0) {
        free(table);
        return NULL;
    }
    for (; table->entries_ready < WORKSPACE_QUEUES; ++table->entries_ready)
        if (pthread_mutex_init(&table->entries[table->entries_ready].lock, NULL) != 0) {
            workspace_table_release(table);
            return NULL;
        }
    return table;
}

void workspace_table_release(struct workspace_table *table)
{
    if (!table)
        return;
    for (int i = 0; i < table->entries_ready; ++i) {
        struct workspace_entry *e = &table->entries[i];
        if (e->buffer)
            clReleaseMemObject(e->buffer);
        if (e->queue)
            clReleaseCommandQueue(e->queue);
        pthread_mutex_destroy(&e->lock);
    }
    pthread_mutex_destroy(&table->lock);
    free(table);
}

// The queue's entry, claimed on its first use; NULL when the table is full
// or the queue cannot be retained.
static struct workspace_entry *entry_of(struct workspace_table *table, cl_command_queue queue)
{
    struct workspace_entry *found = NULL, *free_entry = NULL;
    pthread_mutex_lock(&table->lock);
    for (int i = 0; i < WORKSPACE_QUEUES && !found; ++i) {
        struct workspace_entry *e = &table->entries[i];
        if (e->queue == queue)
            found = e;
        else if (!e->queue && !free_entry)
            free_entry = e;
    }
    if (!found && free_entry && clRetainCommandQueue(queue) == CL_SUCCESS) {
        free_entry->queue = queue;
        found = free_entry;
    }
    pthread_mutex_unlock(&table->lock);
    return found;
}

static tailor_status new_buffer(cl_context context, size_t bytes, cl_mem *out)
{
    cl_int error;
    *out = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &error);
    if (error != CL_SUCCESS) {
        *out = NULL;
        return error_from_cl(error, "clCreateBuffer (workspace)");
    }
    return TAILOR_SUCCESS;
}

size_t workspace_limit_bytes(const tailor_device_info *facts)
{
    return (size_t)(facts->global_mem_bytes / 8);
}

tailor_status workspace_acquire(struct workspace_table *table, cl_command_queue queue, size_t bytes,
                                struct workspace_lease *lease)
{
    lease->buffer = NULL;
    lease->held = NULL;
    struct workspace_entry *e = queue_in_order(queue) ? entry_of(table, queue) : NULL;
    if (!e)
        return new_buffer(table->context, bytes, &lease->buffer);
    pthread_mutex_lock(&e->lock);
    if (e->bytes < bytes) {
        // The old buffer is freed once the commands using it complete.
        cl_mem grown;
        size_t size = bytes < WORKSPACE_MIN_BYTES ? WORKSPACE_MIN_BYTES : bytes;
        tailor_status status = new_buffer(table->context, size, &grown);
        if (status != TAILOR_SUCCESS) {
            pthread_mutex_unlock(&e->lock);
            return status;
        }
        if (e->buffer)
            clReleaseMemObject(e->buffer);
        e->buffer = grown;
        e->bytes = size;
    }
    lease->buffer = e->buffer;
    lease->held = e;
    return TAILOR_SUCCESS;
}

void workspace_release(struct workspace_lease *lease)
{
    if (lease->held)
        pthread_mutex_unlock(&lease->held->lock);
    else if (lease->buffer)
        clReleaseMemObject(lease->buffer);
    lease->buffer = NULL;
    lease->held = NULL;
}
