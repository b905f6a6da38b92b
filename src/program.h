// Programs built on demand (in-memory table, then the disk cache, then the
// embedded source) and pools of their kernels for lock-free launches.
#ifndef TAILOR_PROGRAM_H
#define TAILOR_PROGRAM_H

#include <stdint.h>

#include "context.h"

struct kernel_slot;

// The scalar arguments a pooled kernel object holds (size 0: unknown):
// small ones by index, and one wide one (GEMV's packed ulong16) apart, so
// that every slot need not hold 128 bytes per argument.
#define KERNEL_CACHED_ARGS 24
#define KERNEL_CACHED_BYTES 16
#define KERNEL_CACHED_WIDE_BYTES 128
struct kernel_arg_cache {
    uint8_t size[KERNEL_CACHED_ARGS];
    unsigned char value[KERNEL_CACHED_ARGS][KERNEL_CACHED_BYTES];
    uint8_t wide_index, wide_size;
    unsigned char wide_value[KERNEL_CACHED_WIDE_BYTES];
};

// A kernel reserved for one launch: set its arguments, enqueue, release.
struct kernel_lease {
    cl_kernel kernel;
    struct kernel_slot *slot;      // NULL: a kernel made for this launch alone
    struct kernel_arg_cache *args; // the slot's, or NULL
};

tailor_status kernel_acquire(tailor_context *ctx, enum program_id program, const char *kernel_name,
                             struct kernel_lease *lease);
void kernel_release(struct kernel_lease *lease);

// Builds the program now (used by tests and the tool to warm up).
tailor_status program_ensure(tailor_context *ctx, enum program_id program);

void programs_release(tailor_context *ctx);

#endif
