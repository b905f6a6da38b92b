#include "profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "profile_records.h"
#include "symbols.h"

_Static_assert(DEVICE_GENERIC == TAILOR_DEVICE_KIND_GENERIC &&
                   DEVICE_NVIDIA == TAILOR_DEVICE_KIND_NVIDIA &&
                   DEVICE_AMD == TAILOR_DEVICE_KIND_AMD && DEVICE_INTEL == TAILOR_DEVICE_KIND_INTEL &&
                   DEVICE_CPU == TAILOR_DEVICE_KIND_CPU,
               "symbols.h and tailor.h disagree on device kinds");

static const char *const device_symbols[] = {
    [TAILOR_DEVICE_KIND_GENERIC] = "DEVICE_GENERIC", [TAILOR_DEVICE_KIND_NVIDIA] = "DEVICE_NVIDIA",
    [TAILOR_DEVICE_KIND_AMD] = "DEVICE_AMD",         [TAILOR_DEVICE_KIND_INTEL] = "DEVICE_INTEL",
    [TAILOR_DEVICE_KIND_CPU] = "DEVICE_CPU",
};

const char *device_symbol(tailor_device_kind kind)
{
    return device_symbols[kind];
}

struct profile_row {
    const char *name;
    tailor_device_kind kind;      // the code family it runs
    int min_cuda_sm, max_cuda_sm; // NVIDIA rows: the parts it is detected for
    int lockstep;                 // width of its lockstep code; AMD rows: the wavefront detected
    int use_subgroups;
    int simd_floats;              // CPU rows: detected from this native float vector width on
    enum builtin_record_id values; // src/profiles/<profile>.json
};

// The values are data: the tuning records in src/profiles, measured with the
// profile each is named after and shared by rows of the same code family
// (doc/tuning.md says how they were found and how to regenerate them).
// First match wins; the last row matches every device.
static const struct profile_row profile_rows[] = {
    {"nvidia-sm70", TAILOR_DEVICE_KIND_NVIDIA, 70, 1000, 32, 0, 0, RECORD_NVIDIA_SM70},
    {"nvidia-sm30", TAILOR_DEVICE_KIND_NVIDIA, 30, 69, 32, 0, 0, RECORD_NVIDIA_SM70},
    {"nvidia-sm20", TAILOR_DEVICE_KIND_NVIDIA, 0, 29, 32, 0, 0, RECORD_NVIDIA_SM70},
    {"amd-wave64", TAILOR_DEVICE_KIND_AMD, 0, 0, 64, 0, 0, RECORD_AMD_WAVE64},
    {"amd-wave32", TAILOR_DEVICE_KIND_AMD, 0, 0, 32, 0, 0, RECORD_AMD_WAVE64},
    {"intel-gpu", TAILOR_DEVICE_KIND_INTEL, 0, 0, 0, 1, 0, RECORD_INTEL_GPU},
    {"cpu-simd16", TAILOR_DEVICE_KIND_CPU, 0, 0, 0, 0, 16, RECORD_CPU_SIMD16},
    {"cpu-simd8", TAILOR_DEVICE_KIND_CPU, 0, 0, 0, 0, 8, RECORD_CPU_SIMD8},
    {"cpu", TAILOR_DEVICE_KIND_CPU, 0, 0, 0, 0, 0, RECORD_CPU},
    {"generic", TAILOR_DEVICE_KIND_GENERIC, 0, 0, 0, 0, 0, RECORD_GENERIC},
};

#define PROFILE_ROW_COUNT (sizeof profile_rows / sizeof profile_rows[0])

static int contains(const char *text, const char *word)
{
    return strstr(text, word) != NULL;
}

// The vendor code family the facts allow: vendor paths need the vendor's
// extension facts; without them a GPU is generic.
static tailor_device_kind classify(const tailor_device_info *facts)
{
    if (facts->type & CL_DEVICE_TYPE_CPU)
        return TAILOR_DEVICE_KIND_CPU;
    int nvidia = facts->vendor_id == 0x10de || contains(facts->vendor, "NVIDIA");
    int amd = facts->vendor_id == 0x1002 || contains(facts->vendor, "Advanced Micro Devices") ||
              contains(facts->vendor, "AMD");
    int intel = facts->vendor_id == 0x8086 || contains(facts->vendor, "Intel");
    if (nvidia && facts->nv_compute_major > 0 && facts->nv_warp_size == 32)
        return TAILOR_DEVICE_KIND_NVIDIA;
    if (amd && (facts->amd_wavefront_width == 32 || facts->amd_wavefront_width == 64))
        return TAILOR_DEVICE_KIND_AMD;
    if (intel && (facts->type & CL_DEVICE_TYPE_GPU) && facts->has_subgroups)
        return TAILOR_DEVICE_KIND_INTEL;
    return TAILOR_DEVICE_KIND_GENERIC;
}

// Lanes the device runs in lockstep, as its vendor's facts say (0: unknown).
static int lockstep_width(tailor_device_kind kind, const tailor_device_info *facts)
{
    if (kind == TAILOR_DEVICE_KIND_NVIDIA)
        return (int)facts->nv_warp_size;
    if (kind == TAILOR_DEVICE_KIND_AMD)
        return (int)facts->amd_wavefront_width;
    return 0;
}

static int row_matches(const struct profile_row *row, tailor_device_kind kind, int cuda_sm,
                       const tailor_device_info *facts)
{
    if (row->kind == TAILOR_DEVICE_KIND_GENERIC)
        return 1;
    if (row->kind != kind)
        return 0;
    if (kind == TAILOR_DEVICE_KIND_NVIDIA)
        return cuda_sm >= row->min_cuda_sm && cuda_sm <= row->max_cuda_sm;
    if (kind == TAILOR_DEVICE_KIND_AMD)
        return lockstep_width(kind, facts) == row->lockstep;
    if (kind == TAILOR_DEVICE_KIND_CPU)
        return (int)facts->native_vector_width_float >= row->simd_floats;
    return 1;
}

static const struct profile_row *find_row(const char *name)
{
    for (size_t i = 0; i < PROFILE_ROW_COUNT; ++i)
        if (strcmp(profile_rows[i].name, name) == 0)
            return &profile_rows[i];
    return NULL;
}

// A forced row runs on the device only where its code is correct there:
// inline PTX on NVIDIA, lockstep code on its own vendor's parts no wider than
// the device's lockstep, sub-groups where the device has them.
static tailor_status check_forced_row(const struct profile_row *row, tailor_device_kind kind,
                                      const tailor_device_info *facts)
{
    REQUIRE(row->kind != TAILOR_DEVICE_KIND_NVIDIA || kind == TAILOR_DEVICE_KIND_NVIDIA,
            TAILOR_ERROR_INVALID_PROFILE,
            "profile %s emits NVIDIA PTX; %s is not an NVIDIA device with compute capability and warp "
            "size queries", row->name, facts->device_name);
    REQUIRE(row->lockstep == 0 || (row->kind == kind && row->lockstep <= lockstep_width(kind, facts)),
            TAILOR_ERROR_INVALID_PROFILE,
            "profile %s runs barrier-free code for %d lanes in lockstep; %s runs %d lanes in lockstep",
            row->name, row->lockstep, facts->device_name,
            row->kind == kind ? lockstep_width(kind, facts) : 0);
    REQUIRE(!row->use_subgroups || facts->has_subgroups, TAILOR_ERROR_INVALID_PROFILE,
            "profile %s uses sub-groups, which %s lacks", row->name, facts->device_name);
    return TAILOR_SUCCESS;
}

static int is_power_of_two(long value)
{
    return value > 0 && (value & (value - 1)) == 0;
}

// Whether the programs are built with the parameter.
static int param_emitted(const struct profile *profile, enum param_id param)
{
    return !(param_table[param].flags & NVIDIA_ONLY) || profile->kind == TAILOR_DEVICE_KIND_NVIDIA;
}

// Whether the parameter may take other values than its built-in default.
static int param_applies(const struct profile *profile, enum param_id param)
{
    tailor_device_kind kind = profile->kind;
    return param_emitted(profile, param) &&
           (!(param_table[param].flags & DEVICE_FENCE_ONLY) || kind == TAILOR_DEVICE_KIND_NVIDIA ||
            kind == TAILOR_DEVICE_KIND_AMD || kind == TAILOR_DEVICE_KIND_CPU || profile->cpu_device);
}

// The first PTX requirement `value` of `param` fails on this device, or NULL.
static const struct ptx_requirement *unmet_ptx(const struct profile *profile, enum param_id param,
                                               int value)
{
    if (profile->kind != TAILOR_DEVICE_KIND_NVIDIA)
        return NULL;
    for (size_t i = 0; i < ptx_requirement_count; ++i) {
        const struct ptx_requirement *r = &ptx_requirements[i];
        if (r->param == param && value >= r->value &&
            (profile->cuda_sm < r->min_sm || profile->ptx_isa < r->min_ptx))
            return r;
    }
    return NULL;
}

tailor_status profile_set_value(struct profile *profile, enum param_id param, long value,
                                tailor_origin origin)
{
    const struct param_info *info = &param_table[param];
    const char *name = info->name;
    REQUIRE(value >= info->minimum && value <= info->maximum, TAILOR_ERROR_INVALID_PROFILE,
            "tuning %s=%ld is outside [%d, %d]", name, value, info->minimum, info->maximum);
    REQUIRE(!(info->flags & POW2) || is_power_of_two(value), TAILOR_ERROR_INVALID_PROFILE,
            "tuning %s=%ld must be a power of two", name, value);
    REQUIRE(param_applies(profile, param), TAILOR_ERROR_INVALID_PROFILE,
            "tuning %s applies to %s code only; profile %s runs %s code", name,
            param_table[param].flags & NVIDIA_ONLY ? "NVIDIA" : "NVIDIA and AMD GPU or any CPU",
            profile_name(profile), device_symbol(profile->kind));
    const struct ptx_requirement *ptx = unmet_ptx(profile, param, (int)value);
    REQUIRE(!ptx, TAILOR_ERROR_INVALID_PROFILE,
            "tuning %s=%ld emits %s, which needs sm_%d and PTX ISA %d.%d; the device is sm_%d with "
            "PTX ISA %d.%d", name, value, ptx ? ptx->instruction : "", ptx ? ptx->min_sm : 0,
            ptx ? ptx->min_ptx / 10 : 0, ptx ? ptx->min_ptx % 10 : 0, profile->cuda_sm,
            profile->ptx_isa / 10, profile->ptx_isa % 10);
    profile->tune[param] = (int)value;
    profile->origin[param] = (unsigned char)origin;
    return TAILOR_SUCCESS;
}

static tailor_status set_tuning(struct profile *profile, const char *name, long value)
{
    enum param_id param = param_find(name);
    REQUIRE(param != TUNE_COUNT, TAILOR_ERROR_INVALID_PROFILE, "no tuning parameter is named '%s'",
            name);
    return profile_set_value(profile, param, value, TAILOR_ORIGIN_OVERRIDE);
}

// Parses "NAME=VALUE" items separated by commas, semicolons or spaces.
static tailor_status apply_overrides(struct profile *profile, const char *overrides)
{
    const char *at = overrides;
    while (*at) {
        size_t skip = strspn(at, ",; \t");
        at += skip;
        if (!*at)
            break;
        size_t length = strcspn(at, ",; \t");
        char item[128];
        REQUIRE(length < sizeof item, TAILOR_ERROR_INVALID_PROFILE, "tuning item too long");
        memcpy(item, at, length);
        item[length] = '\0';
        at += length;
        char *equals = strchr(item, '=');
        REQUIRE(equals && equals != item, TAILOR_ERROR_INVALID_PROFILE,
                "tuning item '%s' is not NAME=VALUE", item);
        *equals = '\0';
        char *end;
        long value = strtol(equals + 1, &end, 0);
        REQUIRE(*end == '\0' && end != equals + 1, TAILOR_ERROR_INVALID_PROFILE,
                "tuning value of '%s' is not an integer", item);
        tailor_status status = set_tuning(profile, item, value);
        if (status != TAILOR_SUCCESS)
            return status;
    }
    return TAILOR_SUCCESS;
}

// The row's value of each parameter of `op` (every operation: OP_COUNT),
// where it applies and its PTX runs on this device; else the default.
static void apply_row(struct profile *profile, enum operation_id op, int to_defaults)
{
    for (int param = 0; param < TUNE_COUNT; ++param) {
        if (op != OP_COUNT && param_table[param].op != op)
            continue;
        profile->tune[param] = param_table[param].fallback;
        profile->origin[param] = TAILOR_ORIGIN_DEFAULT;
    }
    if (to_defaults)
        return;
    const struct tuning_value *values = builtin_records[profile->row->values];
    for (const struct tuning_value *v = values; v->param != TUNE_COUNT; ++v) {
        if ((op != OP_COUNT && param_table[v->param].op != op) || !param_applies(profile, v->param))
            continue;
        int unmet = unmet_ptx(profile, v->param, v->value) != NULL;
        profile->tune[v->param] = unmet ? param_table[v->param].fallback : v->value;
        profile->origin[v->param] = unmet ? TAILOR_ORIGIN_FALLBACK : TAILOR_ORIGIN_PROFILE;
    }
}

void profile_reset_operation(struct profile *profile, enum operation_id op, int to_defaults)
{
    apply_row(profile, op, to_defaults);
}

int profile_param_applies(const struct profile *profile, enum param_id param)
{
    return param_applies(profile, param);
}

int profile_overrides_operation(const struct profile *profile, enum operation_id op)
{
    for (int param = 0; param < TUNE_COUNT; ++param)
        if (param_table[param].op == op && profile->origin[param] == TAILOR_ORIGIN_OVERRIDE)
            return 1;
    return 0;
}

tailor_status profile_select(const tailor_device_info *facts, const char *forced,
                             const char *tuning_overrides, struct profile *profile)
{
    memset(profile, 0, sizeof *profile);
    tailor_device_kind kind = classify(facts);
    int cuda_sm = (int)(facts->nv_compute_major * 10 + facts->nv_compute_minor);
    const struct profile_row *row = NULL;
    if (forced && *forced) {
        row = find_row(forced);
        REQUIRE(row, TAILOR_ERROR_INVALID_PROFILE, "no profile is named '%s'", forced);
        tailor_status status = check_forced_row(row, kind, facts);
        if (status != TAILOR_SUCCESS)
            return status;
    } else {
        for (size_t i = 0; !row; ++i)
            if (row_matches(&profile_rows[i], kind, cuda_sm, facts))
                row = &profile_rows[i];
    }
    profile->row = row;
    profile->kind = row->kind;
    profile->cuda_sm = kind == TAILOR_DEVICE_KIND_NVIDIA ? cuda_sm : 0;
    profile->ptx_isa = kind == TAILOR_DEVICE_KIND_NVIDIA ? (int)facts->ptx_isa : 0;
    profile->lockstep = row->lockstep;
    profile->has_fp64 = facts->has_fp64;
    profile->cpu_device = (facts->type & CL_DEVICE_TYPE_CPU) != 0;
    profile->use_subgroups = row->use_subgroups;
    apply_row(profile, OP_COUNT, 0);
    return tuning_overrides ? apply_overrides(profile, tuning_overrides) : TAILOR_SUCCESS;
}

const char *profile_name(const struct profile *profile)
{
    return profile->row->name;
}

size_t profile_row_count(void)
{
    return PROFILE_ROW_COUNT;
}

tailor_device_kind profile_row_kind(size_t index)
{
    return index < PROFILE_ROW_COUNT ? profile_rows[index].kind : TAILOR_DEVICE_KIND_GENERIC;
}

int profile_row_value(size_t index, enum param_id param, int *value)
{
    if (index >= PROFILE_ROW_COUNT)
        return 0;
    const struct tuning_value *values = builtin_records[profile_rows[index].values];
    for (const struct tuning_value *v = values; v->param != TUNE_COUNT; ++v)
        if (v->param == param) {
            *value = v->value;
            return 1;
        }
    return 0;
}

const char *profile_row_name(size_t index)
{
    return index < PROFILE_ROW_COUNT ? profile_rows[index].name : NULL;
}

int profile_emits(const struct profile *profile, enum program_id program, enum param_id param)
{
    const struct param_info *info = &param_table[param];
    return info->kind == DEFINE && ((info->readers >> program) & 1) && param_emitted(profile, param);
}

int profile_build_options(const struct profile *profile, enum program_id program, const char *extra,
                          char *buffer, size_t size)
{
    int length = snprintf(buffer, size,
                          "-cl-std=CL1.2 -DDEVICE=%s -DCUDA_SM=%d -DLOCKSTEP=%d -DHAS_FP64=%d "
                          "-DUSE_SUBGROUPS=%d",
                          device_symbol(profile->kind), profile->cuda_sm, profile->lockstep,
                          profile->has_fp64, profile->use_subgroups);
    for (int param = 0; param < TUNE_COUNT && length >= 0 && (size_t)length < size; ++param) {
        if (!profile_emits(profile, program, (enum param_id)param))
            continue;
        int added = snprintf(buffer + length, size - (size_t)length, " -D%s=%d",
                             param_table[param].name, profile->tune[param]);
        length = added < 0 ? -1 : length + added;
    }
    if (length < 0 || (size_t)length >= size)
        return -1;
    int added = snprintf(buffer + length, size - (size_t)length, " %s%s%s",
                         program_table[program].defines, extra && *extra ? " " : "",
                         extra ? extra : "");
    if (added < 0 || (size_t)(length + added) >= size)
        return -1;
    return length + added;
}
