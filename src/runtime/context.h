// The handle: the application's context and device, what the probe found,
// the profile, the cache, the programs built so far, and each operation's
// state (its parameters checked, its scratch), the workspaces.
#ifndef TAILOR_CONTEXT_H
#define TAILOR_CONTEXT_H

#include <pthread.h>
#include <stdatomic.h>

#include "cache.h"
#include "launch.h"
#include "operation.h"
#include "profile.h"
#include "tailor.h"
#include "tuned.h"

struct built_program;
struct scratch_table;
struct workspace_table;

struct cache_counters {
    atomic_uint_fast64_t memory_hits;
    atomic_uint_fast64_t disk_hits;
    atomic_uint_fast64_t disk_misses;
    atomic_uint_fast64_t source_builds;
    atomic_uint_fast64_t bad_entries;
    atomic_uint_fast64_t stores;
    atomic_uint_fast64_t store_failures;
    atomic_uint_fast64_t evictions;
};

enum op_readiness {
    OP_UNCHECKED,
    OP_READY,
    OP_FAILED,
};

struct op_state {
    atomic_int readiness; // enum op_readiness, published under build_lock
    tailor_status status; // OP_FAILED: what every call returns
    char message[1024];
    struct scratch_table *scratch;
};

struct tailor_context {
    cl_context context;
    cl_device_id device;
    int context_has_one_device; // then a queue of the context is a queue of the device
    tailor_device_info info;
    struct profile profile;
    char extra_build_options[1024];
    struct cache cache;
    struct cache_counters counters;
    struct tuned_state tuned;
    // Programs are built, and operations made ready, once, under this lock;
    // launches read the published pointers and states without it.
    pthread_mutex_t build_lock;
    _Atomic(struct built_program *) programs[PROGRAM_COUNT];
    struct op_state ops[OP_COUNT];
    struct workspace_table *workspaces; // per-queue buffers for repacked operands
};

static inline int tune(const tailor_context *ctx, enum param_id param)
{
    return ctx->profile.tune[param];
}

#endif
