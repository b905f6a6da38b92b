// Profiles. What decides correctness comes from the probe: the code family a
// device may run (DEVICE), the width of its barrier-free lockstep code,
// sub-groups, fp64, CUDA_SM and the driver's PTX ISA. A profile row names
// the code family it runs and holds speed choices only: values of the
// operations' tuning parameters. Every value records where it came from.
#ifndef TAILOR_PROFILE_H
#define TAILOR_PROFILE_H

#include "registry.h"
#include "tailor.h"

struct profile_row;

struct profile {
    const struct profile_row *row;
    tailor_device_kind kind; // the code family: -DDEVICE
    int cuda_sm;             // NVIDIA: major*10+minor, else 0
    int ptx_isa;             // NVIDIA: the newest PTX ISA the driver takes (x10), 0 if unknown
    int lockstep;            // lanes of the lockstep code (0: barriers only)
    int has_fp64;
    int cpu_device; // the device is a CPU (whatever the code family)
    int use_subgroups;
    int tune[TUNE_COUNT];
    unsigned char origin[TUNE_COUNT]; // tailor_origin
};

// Chooses the row for the facts, or the row named `forced` (NULL or "":
// detect), refusing one whose code the device cannot run; then applies the
// "NAME=VALUE,..." overrides (may be NULL). Values whose inline PTX the
// device or driver lacks fall back to the built-in default; overrides that
// ask for it are refused. Constraints between parameters are the
// operations' (operation_check), checked when an operation is first used.
tailor_status profile_select(const tailor_device_info *facts, const char *forced,
                             const char *tuning_overrides, struct profile *profile);

const char *profile_name(const struct profile *profile);

// Number of rows and the name of the i-th (NULL past the end).
size_t profile_row_count(void);
const char *profile_row_name(size_t index);

// The code family of the index-th row, and the value it gives a parameter
// (0 if it leaves the parameter at its default).
tailor_device_kind profile_row_kind(size_t index);
int profile_row_value(size_t index, enum param_id param, int *value);

// Whether the profile passes the parameter to `program` as a -D option.
int profile_emits(const struct profile *profile, enum program_id program, enum param_id param);

// The -D options of the device facts every program reads, then the
// parameters the program reads, then its variant defines and `extra` (may be
// NULL). Returns the length, or -1 if it does not fit.
int profile_build_options(const struct profile *profile, enum program_id program, const char *extra,
                          char *buffer, size_t size);

// The symbol of a device kind as the kernels see it ("DEVICE_NVIDIA").
const char *device_symbol(tailor_device_kind kind);

// Gives an operation's parameters their values without the overrides and the
// tuned values: the row's (to_defaults = 0) or the built-in defaults (1).
void profile_reset_operation(struct profile *profile, enum operation_id op, int to_defaults);

// Sets one parameter, as an override is set: in its range, a power of two
// where it must be, NVIDIA-only parameters on NVIDIA code only, inline PTX
// the device and driver run; else TAILOR_ERROR_INVALID_PROFILE saying why.
tailor_status profile_set_value(struct profile *profile, enum param_id param, long value,
                                tailor_origin origin);

// Whether the parameter means anything to the profile's code (NVIDIA-only
// parameters elsewhere do not).
int profile_param_applies(const struct profile *profile, enum param_id param);

// Whether an operation has a value set by an override.
int profile_overrides_operation(const struct profile *profile, enum operation_id op);

#endif
