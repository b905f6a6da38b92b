// Programs built on demand (in-memory table, then the disk cache, then the
// embedded source), each with the kernels the registry gives it resolved at
// build time, and pools of those kernels for lock-free launches.
#ifndef TAILOR_PROGRAM_H
#define TAILOR_PROGRAM_H

#include <stdint.h>

#include "context.h"

struct kernel_slot;

// The scalar arguments a pooled kernel object holds (size 0: unknown).
#define KERNEL_CACHED_WIDE_BYTES 128
struct kernel_arg_cache {
    uint8_t size[KERNEL_MAX_ARGS];
    unsigned char value[KERNEL_MAX_ARGS][KERNEL_ARG_BYTES];
    uint8_t wide_index, wide_size;
    unsigned char wide_value[KERNEL_CACHED_WIDE_BYTES];
};

// A kernel reserved for one launch: set its arguments, enqueue, release.
struct kernel_lease {
    cl_kernel kernel;
    struct kernel_slot *slot;      // NULL: a kernel made for this launch alone
    struct kernel_arg_cache *args; // the slot's, or NULL
    cl_uint arg_count;             // the kernel's parameters
    enum kernel_id id;
};

// Leases `kernel` of `program`, building the program first if needed. A
// kernel the program does not hold is an error of the library (the
// registry's tables disagree with the caller).
tailor_status kernel_acquire(tailor_context *ctx, enum program_id program, enum kernel_id kernel,
                             struct kernel_lease *lease);
void kernel_release(struct kernel_lease *lease);

// Builds the program now (used by tests and the tool to warm up).
tailor_status program_ensure(tailor_context *ctx, enum program_id program);

void programs_release(tailor_context *ctx);

#endif
