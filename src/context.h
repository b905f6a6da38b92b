// The handle: the application's context and device, what the probe found,
// the profile, the cache, and the programs built so far.
#ifndef TAILOR_CONTEXT_H
#define TAILOR_CONTEXT_H

#include <pthread.h>
#include <stdatomic.h>

#include "cache.h"
#include "profile.h"
#include "programs.h"
#include "tailor.h"

struct built_program;
struct scratch_table;

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

struct tailor_context {
    cl_context context;
    cl_device_id device;
    int context_has_one_device; // then a queue of the context is a queue of the device
    tailor_device_info info;
    struct profile profile;
    char extra_build_options[1024];
    struct cache cache;
    struct cache_counters counters;
    // Programs are built once, under this lock; launches read the published
    // pointer without it.
    pthread_mutex_t build_lock;
    _Atomic(struct built_program *) programs[PROGRAM_COUNT];
    struct scratch_table *scratch;
};

#endif
