// What the runtime asks of an operation (src/ops/operations.c lists one
// descriptor per operation), and what an operation asks of the runtime
// before it plans a call.
#ifndef TAILOR_OPERATION_H
#define TAILOR_OPERATION_H

#include <stddef.h>

#include "profile.h"

typedef struct tailor_context tailor_context;

// One planned call: its main kernel (program PROGRAM_COUNT: none), the
// variant tailor_last_variant() names, and how many kernels it enqueues.
struct op_plan {
    enum program_id program;
    enum kernel_id kernel;
    size_t launches;
    char variant[128];
};

// Parameters that halve together, none below `floor` (nor its minimum), when
// even the built-in defaults do not fit a device (little local memory, small
// work-groups).
struct shrink_step {
    int floor;
    int count;
    enum param_id params[4];
};

struct operation {
    // The constraints between the operation's parameters and the device
    // beyond each parameter's range (messages through error_set); NULL: none.
    tailor_status (*check)(const struct profile *profile, const tailor_device_info *facts);
    // Bytes of the per-queue scratch buffer a call may need (0: none), at
    // the values `profile` holds for the operation.
    size_t (*scratch_bytes)(const struct profile *profile, const tailor_device_info *facts);
    // Plans one call described without buffers (tailor_explain), with the
    // checks the operation makes before it looks at buffers.
    tailor_status (*explain)(tailor_context *ctx, const tailor_call *call, struct op_plan *plan);
    // Whether some call at the values `profile` holds can launch `program`
    // (one of the operation's); NULL: every program of the operation can.
    // A program no call launches need not build with those values.
    int (*launches_program)(const struct profile *profile, enum program_id program);
    // What the tuner searches (src/tune/tune_task.h).
    const struct tune_tasks *tuning;
    // The device gets the fewest halvings in total that pass `check` (among
    // equals, the most from the first steps); none: the defaults or nothing.
    const struct shrink_step *shrink;
    size_t shrink_count;
    // The most local memory one of the operation's kernels declares
    // statically at the values `profile` holds; NULL: none beyond what every
    // device reports. The handle probes how much NVIDIA's compiler takes
    // beyond that (probe_static_local_memory) only where an operation asks
    // for more than the device reports.
    size_t (*static_local_bytes)(const struct profile *profile);
};

// Whether `bytes` of local memory fit the device (synthetic facts may leave
// its size 0: unknown, no limit).
static inline int local_memory_fits(const tailor_device_info *facts, size_t bytes)
{
    return facts->local_mem_bytes == 0 || bytes <= facts->local_mem_bytes;
}

// Whether some call of the program's operation can launch it on `profile`.
int operation_launches_program(const struct profile *profile, enum program_id program);

// The most static local memory any operation's kernels declare on `profile`.
size_t operations_static_local_bytes(const struct profile *profile);

extern const struct operation *const operation_table[OP_COUNT];

// Checks the constraints of every operation an override touched (a bad
// override fails the handle's creation rather than its first call).
tailor_status operations_check_overrides(const struct profile *profile,
                                         const tailor_device_info *facts);

// The values an operation runs with on the device: the profile's where they
// meet its constraints, else (if no override set one) the built-in defaults,
// origin TAILOR_ORIGIN_FALLBACK; TAILOR_ERROR_UNSUPPORTED if those fail too.
tailor_status operation_settle(struct profile *profile, const tailor_device_info *facts,
                               enum operation_id op);

// Makes the operation's parameters valid for the device, once per handle:
// values an override set that break a constraint are an error
// (TAILOR_ERROR_INVALID_PROFILE, for every call of the operation); tuned
// values that break one fall back to the profile row's, and values of the
// profile that break one to the built-in defaults, and if those
// break one too the operation is TAILOR_ERROR_UNSUPPORTED on this device.
// Every other operation keeps working either way.
tailor_status operation_ready(tailor_context *ctx, enum operation_id op);

// The operation's per-queue scratch table (NULL if it needs none); valid
// once operation_ready succeeded.
struct scratch_table *operation_scratch(const tailor_context *ctx, enum operation_id op);

#endif
