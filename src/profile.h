// Profiles: one table maps the probed facts to a device kind, a lockstep
// width and tuning parameters, and from those to clBuildProgram options.
#ifndef TAILOR_PROFILE_H
#define TAILOR_PROFILE_H

#include "tailor.h"

enum kernel_source {
    SOURCE_REDUCE,
    SOURCE_TRANSPOSE,
    SOURCE_COUNT
};

// Every tuning parameter: name (also its -D define), the source it tunes, the
// generic default, the smallest and largest value TAILOR_TUNE may set, and
// whether it must be a power of two.
#define TUNING_PARAMETERS(X)                                                                        \
    X(REDUCE_WG_SIZE, SOURCE_REDUCE, 256, 1, 1024, 1)                                               \
    X(REDUCE_GROUPS_PER_CU, SOURCE_REDUCE, 4, 1, 64, 0)                                             \
    X(REDUCE_VECTOR_BYTES, SOURCE_REDUCE, 16, 16, 64, 1)                                            \
    X(REDUCE_UNROLL, SOURCE_REDUCE, 4, 1, 16, 0)                                                    \
    X(REDUCE_ONE_PASS, SOURCE_REDUCE, 0, 0, 1, 0)                                                   \
    X(REDUCE_SMALL_N, SOURCE_REDUCE, 16384, 0, 1 << 30, 0)                                         \
    X(TRANSPOSE_METHOD_1, SOURCE_TRANSPOSE, 1, 0, 2, 0)                                             \
    X(TRANSPOSE_METHOD_2, SOURCE_TRANSPOSE, 1, 0, 2, 0)                                             \
    X(TRANSPOSE_METHOD_4, SOURCE_TRANSPOSE, 1, 0, 2, 0)                                             \
    X(TRANSPOSE_METHOD_8, SOURCE_TRANSPOSE, 1, 0, 2, 0)                                             \
    X(TRANSPOSE_METHOD_16, SOURCE_TRANSPOSE, 1, 0, 2, 0)                                            \
    X(TRANSPOSE_WG_X, SOURCE_TRANSPOSE, 8, 1, 256, 1)                                               \
    X(TRANSPOSE_WG_Y, SOURCE_TRANSPOSE, 8, 1, 256, 1)                                               \
    X(TRANSPOSE_VECTOR_BYTES, SOURCE_TRANSPOSE, 16, 4, 64, 1)                                       \
    X(TRANSPOSE_LOADS, SOURCE_TRANSPOSE, 8, 1, 64, 1)                                               \
    X(TRANSPOSE_LOCAL_PAD, SOURCE_TRANSPOSE, 1, 0, 8, 0)                                            \
    X(TRANSPOSE_DIAGONAL, SOURCE_TRANSPOSE, 0, 0, 1, 0)                                             \
    X(TRANSPOSE_CPU_BLOCK, SOURCE_TRANSPOSE, 64, 16, 1024, 1)

enum tuning_param {
#define TUNING_ENUM_(name, source, fallback, minimum, maximum, power_of_two) TUNE_##name,
    TUNING_PARAMETERS(TUNING_ENUM_)
#undef TUNING_ENUM_
    TUNE_COUNT
};

struct tuning_value {
    enum tuning_param param;
    int value;
};

struct profile_row;

struct profile {
    const struct profile_row *row;
    tailor_device_kind kind;
    int cuda_sm;
    int lockstep;
    int has_fp64;
    int use_subgroups;
    int tune[TUNE_COUNT];
};

// Chooses the profile for the facts (or the row named `forced`, if not NULL
// or empty) and applies the "NAME=VALUE,..." tuning overrides (may be NULL).
tailor_status profile_select(const tailor_device_info *facts, const char *forced,
                             const char *tuning_overrides, struct profile *profile);

const char *profile_name(const struct profile *profile);

// Number of rows and the name of the i-th (NULL past the end).
size_t profile_row_count(void);
const char *profile_row_name(size_t index);

// The options every program gets on this profile followed by the tuning
// defines of `source`. Returns the length, or -1 if it does not fit.
int profile_build_options(const struct profile *profile, enum kernel_source source, char *buffer,
                          size_t size);

const char *tuning_param_name(enum tuning_param param);

#endif
