// The runtime's view of what the operations declare (src/ops/operations.h):
// every program, kernel and tuning parameter, indexed by its enum.
#ifndef TAILOR_REGISTRY_H
#define TAILOR_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

#include "operations.h"

struct embedded_source;

struct program_info {
    const char *name;
    enum operation_id op;
    const struct embedded_source *source;
    int needs_fp64;
    const char *defines; // the variant's own -D options
};

struct kernel_info {
    const char *name; // the entry point
    uint64_t programs;
    const char *variant;
};

enum param_kind {
    DEFINE, // a -D option of the programs that read it
    HOST,   // read by the host only: never reaches a compiler or a cache key
};

enum param_flags {
    POW2 = 1,        // the value must be a power of two
    NVIDIA_ONLY = 2, // read only by NVIDIA code paths: not emitted, and not settable, elsewhere
    // needs device_fence (cl/prelude.cl) for values other than the default:
    // those are settable only for NVIDIA and AMD code and on CPU devices
    DEVICE_FENCE_ONLY = 4,
};

struct param_info {
    const char *name;
    enum operation_id op;
    enum param_kind kind;
    uint64_t readers; // the programs whose source reads it (DEFINE)
    int fallback;     // the built-in default
    int minimum, maximum;
    unsigned flags;
    const char *doc;
};

// An inline-PTX choice: `param` at `value` or above emits `instruction`, which
// needs compute capability min_sm and PTX ISA min_ptx (both major*10+minor).
struct ptx_requirement {
    enum param_id param;
    int value;
    int min_sm, min_ptx;
    const char *instruction;
};

extern const struct program_info program_table[PROGRAM_COUNT];
extern const struct kernel_info kernel_table[KERNEL_COUNT];
extern const struct param_info param_table[TUNE_COUNT];
extern const struct ptx_requirement ptx_requirements[];
extern const size_t ptx_requirement_count;

const char *operation_name(enum operation_id op);

// PROGRAM_COUNT, KERNEL_COUNT or TUNE_COUNT when no entry has the name.
enum program_id program_find(const char *name);
enum param_id param_find(const char *name);

static inline int program_has_kernel(enum program_id program, enum kernel_id kernel)
{
    return (kernel_table[kernel].programs >> program) & 1;
}

#endif
