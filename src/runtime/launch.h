// Kernel arguments, typed, and launches. An operation fills a kernel_args in
// the order of the kernel's parameters; setting them checks their number
// against the kernel's.
#ifndef TAILOR_LAUNCH_H
#define TAILOR_LAUNCH_H

#include "operations.h"
#include "tailor.h"

struct kernel_lease;

#define KERNEL_MAX_ARGS 24
#define KERNEL_ARG_BYTES 16

enum kernel_arg_kind {
    ARG_VALUE,  // a scalar: skipped when the kernel object already holds it
    ARG_MEMORY, // a cl_mem: always set (a released buffer's handle may come back as another)
    ARG_WIDE,   // GEMV's packed ulong16, kept apart so every argument need not hold 128 bytes
};

struct kernel_args {
    cl_uint count;
    struct kernel_arg {
        unsigned char kind, size;
        unsigned char bytes[KERNEL_ARG_BYTES];
    } arg[KERNEL_MAX_ARGS];
    cl_ulong16 wide;
};

static inline void args_add(struct kernel_args *a, enum kernel_arg_kind kind, const void *value,
                            size_t size)
{
    struct kernel_arg *arg = &a->arg[a->count++];
    arg->kind = (unsigned char)kind;
    arg->size = (unsigned char)size;
    for (size_t i = 0; i < size; ++i)
        arg->bytes[i] = ((const unsigned char *)value)[i];
}

static inline void args_mem(struct kernel_args *a, cl_mem buffer)
{
    args_add(a, ARG_MEMORY, &buffer, sizeof buffer);
}
static inline void args_u32(struct kernel_args *a, cl_uint value)
{
    args_add(a, ARG_VALUE, &value, sizeof value);
}
static inline void args_u64(struct kernel_args *a, cl_ulong value)
{
    args_add(a, ARG_VALUE, &value, sizeof value);
}
static inline void args_i64(struct kernel_args *a, cl_long value)
{
    args_add(a, ARG_VALUE, &value, sizeof value);
}
static inline void args_f32(struct kernel_args *a, cl_float value)
{
    args_add(a, ARG_VALUE, &value, sizeof value);
}
static inline void args_f64(struct kernel_args *a, cl_double value)
{
    args_add(a, ARG_VALUE, &value, sizeof value);
}
static inline void args_ulong16(struct kernel_args *a, const cl_ulong16 *value)
{
    a->wide = *value;
    args_add(a, ARG_WIDE, NULL, 0);
}

// Sets the arguments of the leased kernel. Scalars equal to what the kernel
// object holds from its last launch are not set again: a small operation's
// host cost is mostly driver calls.
tailor_status kernel_set_args(struct kernel_lease *lease, const struct kernel_args *args);

// Enqueues the leased kernel over `dimensions` (1 to 3) dimensions; global
// must be a multiple of local in each.
tailor_status kernel_enqueue(const struct kernel_lease *lease, cl_command_queue queue,
                             cl_uint dimensions, const size_t *global, const size_t *local,
                             cl_uint wait_count, const cl_event *wait_list, cl_event *event);

// A kernel launched on its own: leased, its arguments set, enqueued over
// `dimensions` dimensions and given back.
tailor_status kernel_launch(tailor_context *ctx, enum program_id program, enum kernel_id kernel,
                            const struct kernel_args *args, cl_command_queue queue,
                            cl_uint dimensions, const size_t *global, const size_t *local,
                            cl_uint wait_count, const cl_event *wait_list, cl_event *event);

#endif
