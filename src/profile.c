#include "profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "symbols.h"
#include "transpose.h"

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

static const struct tuning_param_info {
    const char *name;
    enum kernel_source source;
    int fallback;
    int minimum;
    int maximum;
    int power_of_two;
} tuning_params[TUNE_COUNT] = {
#define TUNING_INFO_(name, source, fallback, minimum, maximum, power_of_two)                        \
    {#name, source, fallback, minimum, maximum, power_of_two},
    TUNING_PARAMETERS(TUNING_INFO_)
#undef TUNING_INFO_
};

struct profile_row {
    const char *name;
    tailor_device_kind kind;
    int min_cuda_sm, max_cuda_sm; // NVIDIA rows
    int wavefront;                // AMD rows
    int lockstep;
    int use_subgroups;
    const struct tuning_value *tuning; // overrides of the defaults, ended by TUNE_COUNT
};

#define END_OF_TUNING {TUNE_COUNT, 0}

// Measured on an H100 (tailor bench, TAILOR_TUNE sweeps): whole-SM groups
// with 32-byte loads stream a 2^28 sum at about 3.0 TB/s.
// GEMV: 8 groups of 256 fill an SM's 2048 threads, and whole-group dots
// start at 16384 elements. Dots up to 128 elements long take 16 elements per
// work-item in float4 loads (16384 x 128: one launch floor + 2.0 us, where a
// warp per row took + 2.7 us; x16 and x32 are bound by the launch either way).
// Transpose, from H100 sweeps (tailor bench --op transpose, TAILOR_TUNE):
// 64 x 64 local-memory tiles moved by 16 x 8 work-groups in float4 steps
// reach 2.87-2.88 TB/s for floats and doubles, where the seed's 4x4 register
// tiles in 8 x 8 groups gave 2.64-2.72; 1-byte elements keep register tiles.
// Then, for an 8192 x 8192 float transpose (a plain copy kernel of the same
// bytes: 180.5 us): evict-first hints on both the loads and the stores,
// 186.1-186.3 us against 186.9-187.1 without (either hint alone was slower);
// the tiles in column order (one band of every tile row), 185.5-185.8; and
// 16 x 32 groups (two float4 rows per work-item), 185.2-185.5, where 16 x 4
// and 16 x 16 took 186.3-186.7. Without the store hint the column order
// took 189 us; bands of 2 to 64 tile rows were slower than either order.
// Two float4 steps a work-item suit doubles too: their 32 x 32 tiles in
// 16 x 16 groups took 369.1-369.8 us at 8192 x 8192 (2.90-2.91 TB/s), against
// 374.7-375.0 us in 16 x 32 groups of one step each.
// SGEMM (to be swept on the H100): 128x128x16 tiles of 256 work-items with
// 8x8 register tiles as 2x2 float4 quadrants, warps as interleaved 8x4
// patches, float4 global loads, both local tiles padded and double-buffered
// with register prefetch; 64x64 tiles of 128 work-items (8x4 each) when the
// big tiles would fill fewer than two groups per SM.
static const struct tuning_value nvidia_tuning[] = {
    {TUNE_REDUCE_WG_SIZE, 1024}, {TUNE_REDUCE_GROUPS_PER_CU, 2}, {TUNE_REDUCE_VECTOR_BYTES, 32},
    {TUNE_REDUCE_UNROLL, 4},     {TUNE_REDUCE_ONE_PASS, 1},      {TUNE_REDUCE_SMALL_N, 32768},
    {TUNE_GEMV_GROUPS_PER_CU, 8}, {TUNE_GEMV_GROUP_MIN_K, 16384}, {TUNE_GEMV_ONE_PASS, 1},
    {TUNE_GEMV_MULTI_ROW_MAX_K, 128}, {TUNE_GEMV_MULTI_ROW_ELEMENTS, 16},
    {TUNE_TRANSPOSE_WG_X, 16},   {TUNE_TRANSPOSE_WG_Y, 32},      {TUNE_TRANSPOSE_LOADS, 8},
    {TUNE_TRANSPOSE_METHOD_4, TRANSPOSE_LOCAL}, {TUNE_TRANSPOSE_METHOD_8, TRANSPOSE_LOCAL},
    {TUNE_TRANSPOSE_LOAD_HINT, 1}, {TUNE_TRANSPOSE_STORE_HINT, 1}, {TUNE_TRANSPOSE_BAND, 4096},
    {TUNE_TRANSPOSE_LOCAL_STEPS, 2},
    {TUNE_SGEMM_BM, 128},        {TUNE_SGEMM_BN, 128},           {TUNE_SGEMM_BK, 16},
    {TUNE_SGEMM_TM, 8},          {TUNE_SGEMM_TN, 8},             {TUNE_SGEMM_VWM, 4},
    {TUNE_SGEMM_VWN, 4},         {TUNE_SGEMM_WARP_TX, 8},        {TUNE_SGEMM_WARP_TY, 4},
    {TUNE_SGEMM_MID_BM, 64},     {TUNE_SGEMM_MID_BN, 64},        {TUNE_SGEMM_MID_BK, 16},
    {TUNE_SGEMM_MID_TM, 8},      {TUNE_SGEMM_MID_TN, 4},         {TUNE_SGEMM_MID_VWM, 4},
    {TUNE_SGEMM_MID_VWN, 4},     {TUNE_SGEMM_MID_WARP_TX, 8},    {TUNE_SGEMM_MID_WARP_TY, 4},
    {TUNE_SGEMM_WARP_INTERLEAVE, 1},
    {TUNE_SGEMM_LOAD_VEC, 4},    {TUNE_SGEMM_KTHREADS, 2},       {TUNE_SGEMM_PAD_A, 4},
    {TUNE_SGEMM_PAD_B, 4},       {TUNE_SGEMM_DOUBLE_BUFFER, 1},  {TUNE_SGEMM_PREFETCH, 0},
    {TUNE_SGEMM_MID_DOUBLE_BUFFER, 1}, {TUNE_SGEMM_MID_PREFETCH, 1},
    {TUNE_SGEMM_SWIZZLE, 8},     {TUNE_SGEMM_MID_PERCENT, 200},  {TUNE_SGEMM_SMALL_DIM, 32},
    {TUNE_SGEMM_SMALL_CUBE, 256},
    END_OF_TUNING,
};

// SGEMM on AMD and Intel GPUs: not measured yet; the shapes the public
// tuned GEMMs use there (128x128 tiles of 256 work-items, 8x8 per item).
static const struct tuning_value amd_tuning[] = {
    {TUNE_REDUCE_WG_SIZE, 256}, {TUNE_REDUCE_GROUPS_PER_CU, 8}, {TUNE_REDUCE_ONE_PASS, 1},
    {TUNE_GEMV_GROUPS_PER_CU, 8}, {TUNE_GEMV_ONE_PASS, 1},
    {TUNE_SGEMM_BM, 128},        {TUNE_SGEMM_BN, 128},           {TUNE_SGEMM_BK, 16},
    {TUNE_SGEMM_TM, 8},          {TUNE_SGEMM_TN, 8},             {TUNE_SGEMM_MID_BM, 64},
    {TUNE_SGEMM_MID_BN, 64},     {TUNE_SGEMM_MID_TM, 4},         {TUNE_SGEMM_MID_TN, 4},
    {TUNE_SGEMM_MID_VWM, 4},     {TUNE_SGEMM_MID_VWN, 4},        {TUNE_SGEMM_PAD_A, 4},
    {TUNE_SGEMM_PAD_B, 4},       {TUNE_SGEMM_KTHREADS, 2},       {TUNE_SGEMM_DOUBLE_BUFFER, 1},
    {TUNE_SGEMM_PREFETCH, 1},    {TUNE_SGEMM_MID_DOUBLE_BUFFER, 1}, {TUNE_SGEMM_MID_PREFETCH, 1},
    {TUNE_SGEMM_SWIZZLE, 8},     {TUNE_SGEMM_MID_PERCENT, 200},
    {TUNE_SGEMM_SMALL_DIM, 32},  {TUNE_SGEMM_SMALL_CUBE, 256},
    END_OF_TUNING,
};

static const struct tuning_value intel_gpu_tuning[] = {
    {TUNE_REDUCE_WG_SIZE, 256},  {TUNE_REDUCE_GROUPS_PER_CU, 4}, {TUNE_SGEMM_BM, 128},
    {TUNE_SGEMM_BN, 128},        {TUNE_SGEMM_BK, 16},            {TUNE_SGEMM_TM, 8},
    {TUNE_SGEMM_TN, 8},          {TUNE_SGEMM_MID_BM, 64},        {TUNE_SGEMM_MID_BN, 64},
    {TUNE_SGEMM_MID_TM, 4},      {TUNE_SGEMM_MID_TN, 4},         {TUNE_SGEMM_MID_VWM, 4},
    {TUNE_SGEMM_MID_VWN, 4},     {TUNE_SGEMM_PAD_A, 4},          {TUNE_SGEMM_PAD_B, 4},
    {TUNE_SGEMM_DOUBLE_BUFFER, 1}, {TUNE_SGEMM_PREFETCH, 1},     {TUNE_SGEMM_MID_DOUBLE_BUFFER, 1},
    {TUNE_SGEMM_MID_PREFETCH, 1}, {TUNE_SGEMM_MID_PERCENT, 200},
    {TUNE_SGEMM_SMALL_DIM, 32},  {TUNE_SGEMM_SMALL_CUBE, 256},
    END_OF_TUNING,
};

// CPUs: one work-item per group and a few groups per core, each streaming a
// long contiguous run through 64-byte vectors.
// GEMV on CPUs: 8-float (32-byte) vectors, blocks of 8 lines (16 float16
// sums would take all 32 AVX-512 registers and spill on AVX2), column
// work-items of up to 1024 outputs, two work-items per core, and splits that
// leave each work-item 256 KiB. POCL 3.1 on two AVX2 cores (EPYC VM), with
// CLBlast in the same run: 4096x16 ~22 us (16-float vectors and 16 lines:
// ~32 us), gemv-t 2048x2048 0.4-0.8 ms (four work-items per core: 0.8-1.1 ms).
// Transpose: one 128 x 128 block per work-item (fewer, larger work-groups
// cost POCL less scheduling), moved as register tiles of 32-byte vectors (a
// 16 x 16 tile of 64-byte vectors takes 32 AVX2 registers: 2048x2048 f32
// 4.8-5.3 ms, 32-byte 2.5-2.9 ms), B from 8 MiB on written with
// non-temporal stores (2048x2048 f64 5.5-5.7 ms, streamed 3.3-3.7 ms).
// SGEMM: the CPU kernel, each work-item a 6 x 64 block of C in 24 float16
// registers (POCL 3.1 on two AVX-512 cores, 1024x1024x2048: 6 x 64 about
// 300 GFLOP/s, 8 x 48 and 8 x 32 150-250, CLBlast 11-16). A CPU with 16
// vector registers (AVX2) wants a smaller block, e.g.
// SGEMM_CPU_RM=6,SGEMM_CPU_VN=8,SGEMM_CPU_NV=2.
static const struct tuning_value cpu_tuning[] = {
    {TUNE_REDUCE_WG_SIZE, 1},   {TUNE_REDUCE_GROUPS_PER_CU, 4}, {TUNE_REDUCE_VECTOR_BYTES, 64},
    {TUNE_REDUCE_ONE_PASS, 1},  {TUNE_REDUCE_SMALL_N, 65536},   {TUNE_GEMV_CPU_VECTOR, 8},
    {TUNE_GEMV_CPU_COLS, 1024},     {TUNE_GEMV_GROUPS_PER_CU, 2},
    {TUNE_GEMV_SPLIT_MIN_ELEMENTS, 65536}, {TUNE_GEMV_ONE_PASS, 1},
    {TUNE_TRANSPOSE_METHOD_1, TRANSPOSE_CPU}, {TUNE_TRANSPOSE_METHOD_2, TRANSPOSE_CPU},
    {TUNE_TRANSPOSE_METHOD_4, TRANSPOSE_CPU}, {TUNE_TRANSPOSE_METHOD_8, TRANSPOSE_CPU},
    {TUNE_TRANSPOSE_METHOD_16, TRANSPOSE_CPU}, {TUNE_TRANSPOSE_WG_X, 1}, {TUNE_TRANSPOSE_WG_Y, 1},
    {TUNE_TRANSPOSE_VECTOR_BYTES, 32}, {TUNE_TRANSPOSE_CPU_BLOCK, 128},
    {TUNE_TRANSPOSE_CPU_STREAM_BYTES, 8 << 20},
    {TUNE_SGEMM_CPU_KERNEL, 1}, {TUNE_SGEMM_CPU_RM, 6}, {TUNE_SGEMM_CPU_NV, 4},
    END_OF_TUNING,
};

static const struct tuning_value generic_tuning[] = {END_OF_TUNING};

// First match wins; the last row matches every device.
static const struct profile_row profile_rows[] = {
    {"nvidia-sm70", TAILOR_DEVICE_KIND_NVIDIA, 70, 1000, 0, 32, 0, nvidia_tuning},
    {"nvidia-sm30", TAILOR_DEVICE_KIND_NVIDIA, 30, 69, 0, 32, 0, nvidia_tuning},
    {"nvidia-sm20", TAILOR_DEVICE_KIND_NVIDIA, 0, 29, 0, 32, 0, nvidia_tuning},
    {"amd-wave64", TAILOR_DEVICE_KIND_AMD, 0, 0, 64, 64, 0, amd_tuning},
    {"amd-wave32", TAILOR_DEVICE_KIND_AMD, 0, 0, 32, 32, 0, amd_tuning},
    {"intel-gpu", TAILOR_DEVICE_KIND_INTEL, 0, 0, 0, 0, 1, intel_gpu_tuning},
    {"cpu", TAILOR_DEVICE_KIND_CPU, 0, 0, 0, 0, 0, cpu_tuning},
    {"generic", TAILOR_DEVICE_KIND_GENERIC, 0, 0, 0, 0, 0, generic_tuning},
};

#define PROFILE_ROW_COUNT (sizeof profile_rows / sizeof profile_rows[0])

static int contains(const char *text, const char *word)
{
    return strstr(text, word) != NULL;
}

// Vendor paths need the vendor's extension facts; without them a GPU is generic.
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
        return (int)facts->amd_wavefront_width == row->wavefront;
    return 1;
}

static const struct profile_row *find_row(const char *name)
{
    for (size_t i = 0; i < PROFILE_ROW_COUNT; ++i)
        if (strcmp(profile_rows[i].name, name) == 0)
            return &profile_rows[i];
    return NULL;
}

static int is_power_of_two(int value)
{
    return value > 0 && (value & (value - 1)) == 0;
}

static tailor_status set_tuning(struct profile *profile, const char *name, long value)
{
    for (int param = 0; param < TUNE_COUNT; ++param) {
        const struct tuning_param_info *info = &tuning_params[param];
        if (strcmp(info->name, name) != 0)
            continue;
        REQUIRE(value >= info->minimum && value <= info->maximum, TAILOR_ERROR_INVALID_PROFILE,
                "tuning %s=%ld is outside [%d, %d]", name, value, info->minimum, info->maximum);
        REQUIRE(!info->power_of_two || is_power_of_two((int)value), TAILOR_ERROR_INVALID_PROFILE,
                "tuning %s=%ld must be a power of two", name, value);
        profile->tune[param] = (int)value;
        return TAILOR_SUCCESS;
    }
    return error_set(TAILOR_ERROR_INVALID_PROFILE, "no tuning parameter is named '%s'", name);
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

int profile_gemv_row_lanes(const struct profile *profile)
{
    int lanes = profile->tune[TUNE_GEMV_ROW_LANES];
    return lanes ? lanes : profile->lockstep ? profile->lockstep : 32;
}

// Segments wider than a lockstep group reduce in two lockstep steps, so no
// segment may exceed LOCKSTEP^2 work-items.
static tailor_status check_gemv(const struct profile *profile, const tailor_device_info *facts)
{
    const int *t = profile->tune;
    int lockstep = profile->lockstep, row_group = t[TUNE_GEMV_ROW_WG];
    int lanes = profile_gemv_row_lanes(profile);
    REQUIRE((size_t)row_group <= facts->max_work_group_size &&
                (size_t)t[TUNE_GEMV_COL_WG] <= facts->max_work_group_size,
            TAILOR_ERROR_INVALID_PROFILE, "GEMV_ROW_WG=%d or GEMV_COL_WG=%d exceeds the device's %zu",
            row_group, t[TUNE_GEMV_COL_WG], facts->max_work_group_size);
    REQUIRE(is_power_of_two(lanes) && lanes <= row_group, TAILOR_ERROR_INVALID_PROFILE,
            "GEMV_ROW_LANES=%d must be a power of two no larger than GEMV_ROW_WG=%d", lanes,
            row_group);
    REQUIRE(lockstep == 0 || (row_group >= lockstep && row_group <= lockstep * lockstep),
            TAILOR_ERROR_INVALID_PROFILE, "GEMV_ROW_WG=%d must lie in [LOCKSTEP, LOCKSTEP^2]",
            row_group);
    REQUIRE(t[TUNE_GEMV_COL_THREADS] <= t[TUNE_GEMV_COL_WG], TAILOR_ERROR_INVALID_PROFILE,
            "GEMV_COL_THREADS=%d exceeds GEMV_COL_WG=%d", t[TUNE_GEMV_COL_THREADS],
            t[TUNE_GEMV_COL_WG]);
    // The column kernels stage GEMV_COL_VECTOR floats per work-item in local memory.
    size_t column_local = (size_t)t[TUNE_GEMV_COL_WG] * (size_t)t[TUNE_GEMV_COL_VECTOR] * 4 + 64;
    REQUIRE(facts->local_mem_bytes == 0 || column_local <= facts->local_mem_bytes,
            TAILOR_ERROR_INVALID_PROFILE,
            "GEMV_COL_WG=%d times GEMV_COL_VECTOR=%d floats exceed the device's %llu bytes of local "
            "memory", t[TUNE_GEMV_COL_WG], t[TUNE_GEMV_COL_VECTOR],
            (unsigned long long)facts->local_mem_bytes);
    REQUIRE(t[TUNE_GEMV_CPU_COLS] >= t[TUNE_GEMV_CPU_VECTOR], TAILOR_ERROR_INVALID_PROFILE,
            "GEMV_CPU_COLS=%d must be a multiple of GEMV_CPU_VECTOR=%d", t[TUNE_GEMV_CPU_COLS],
            t[TUNE_GEMV_CPU_VECTOR]);
    return TAILOR_SUCCESS;
}

// The transpose's work-group fits the device; a local-memory tile (edge
// WG_X * VEC elements) divides into steps of whole rows of work-items and
// fits in local memory where the device says how much it has.
static tailor_status check_transpose(const struct profile *profile, const tailor_device_info *facts)
{
    const int *t = profile->tune;
    size_t group = (size_t)t[TUNE_TRANSPOSE_WG_X] * (size_t)t[TUNE_TRANSPOSE_WG_Y];
    REQUIRE(group <= facts->max_work_group_size, TAILOR_ERROR_INVALID_PROFILE,
            "TRANSPOSE_WG_X * TRANSPOSE_WG_Y = %zu exceeds the device's %zu", group,
            facts->max_work_group_size);
    for (int e = 0; e < 5; ++e) {
        size_t bytes = (size_t)1 << e;
        if (t[TUNE_TRANSPOSE_METHOD_1 + e] != TRANSPOSE_LOCAL)
            continue;
        size_t tile = (size_t)t[TUNE_TRANSPOSE_WG_X] *
                      transpose_vector(t[TUNE_TRANSPOSE_VECTOR_BYTES], bytes);
        int steps = t[TUNE_TRANSPOSE_LOCAL_STEPS];
        if (steps) {
            REQUIRE(is_power_of_two(steps) && (size_t)steps <= tile, TAILOR_ERROR_INVALID_PROFILE,
                    "TRANSPOSE_LOCAL_STEPS=%d is not a power of two up to the %zu-element local "
                    "tile of %zu-byte elements",
                    steps, tile, bytes);
        } else {
            REQUIRE((size_t)t[TUNE_TRANSPOSE_WG_Y] <= tile, TAILOR_ERROR_INVALID_PROFILE,
                    "TRANSPOSE_WG_Y=%d exceeds the %zu-element local tile of %zu-byte elements",
                    t[TUNE_TRANSPOSE_WG_Y], tile, bytes);
        }
        size_t local_group = (size_t)t[TUNE_TRANSPOSE_WG_X] *
                             transpose_local_group_rows(steps, t[TUNE_TRANSPOSE_WG_Y], tile);
        REQUIRE(local_group <= facts->max_work_group_size, TAILOR_ERROR_INVALID_PROFILE,
                "the local-tile group of %zu-byte elements has %zu work-items; the device "
                "takes %zu",
                bytes, local_group, facts->max_work_group_size);
        size_t local = tile * (tile + (size_t)t[TUNE_TRANSPOSE_LOCAL_PAD]) * bytes;
        REQUIRE(facts->local_mem_bytes == 0 || local <= facts->local_mem_bytes,
                TAILOR_ERROR_INVALID_PROFILE,
                "the local tile of %zu-byte elements needs %zu bytes; the device has %llu", bytes,
                local, (unsigned long long)facts->local_mem_bytes);
    }
    return TAILOR_SUCCESS;
}

void sgemm_tiles_of(const struct profile *profile, int mid, struct sgemm_tiles *tiles)
{
    const int *t = profile->tune;
#define SGEMM_TILES_FROM_(P)                                                                        \
    (struct sgemm_tiles)                                                                            \
    {                                                                                               \
        t[TUNE_##P##BM], t[TUNE_##P##BN], t[TUNE_##P##BK], t[TUNE_##P##TM], t[TUNE_##P##TN],        \
            t[TUNE_##P##VWM], t[TUNE_##P##VWN], t[TUNE_##P##WARP_TX], t[TUNE_##P##WARP_TY],         \
            t[TUNE_##P##DOUBLE_BUFFER], t[TUNE_##P##PREFETCH]                                       \
    }
    *tiles = mid ? SGEMM_TILES_FROM_(SGEMM_MID_) : SGEMM_TILES_FROM_(SGEMM_);
#undef SGEMM_TILES_FROM_
}

// The largest work-group the device takes (synthetic facts may leave it 0).
static size_t max_group(const tailor_device_info *facts)
{
    return facts->max_work_group_size ? facts->max_work_group_size : 1024;
}

// A tile set of the tiled SGEMM kernel must split evenly: the register tile
// into local-memory vectors, the group tile into register tiles, each
// operand's tile into global-load vectors along either dimension (KTHREADS
// work-items side by side along k), and fit the device's work-group size and
// local memory.
static tailor_status check_sgemm_tiles(const struct profile *profile,
                                       const tailor_device_info *facts, int mid)
{
    struct sgemm_tiles s;
    sgemm_tiles_of(profile, mid, &s);
    const int *t = profile->tune;
    const char *set = mid ? "SGEMM_MID_" : "SGEMM_";
    int vec = t[TUNE_SGEMM_LOAD_VEC], kthreads = t[TUNE_SGEMM_KTHREADS];
    int pad_a = t[TUNE_SGEMM_PAD_A], pad_b = t[TUNE_SGEMM_PAD_B];
    REQUIRE(s.tm % s.vwm == 0 && s.tn % s.vwn == 0 && s.bm % s.tm == 0 && s.bn % s.tn == 0,
            TAILOR_ERROR_INVALID_PROFILE,
            "%sVWM must divide %sTM, %sTM divide %sBM (and the same along N)", set, set, set, set);
    int tx = s.bn / s.tn, ty = s.bm / s.tm, threads = tx * ty;
    REQUIRE((size_t)threads <= max_group(facts), TAILOR_ERROR_INVALID_PROFILE,
            "%s tiles need %d work-items a group; the device takes %zu", set, threads,
            max_group(facts));
    REQUIRE(s.bm % vec == 0 && s.bn % vec == 0 && s.bk % (vec * kthreads) == 0,
            TAILOR_ERROR_INVALID_PROFILE,
            "%s tiles (%dx%dx%d) do not split into SGEMM_LOAD_VEC=%d loads with SGEMM_KTHREADS=%d",
            set, s.bm, s.bn, s.bk, vec, kthreads);
    REQUIRE(pad_a % vec == 0 && pad_a % s.vwm == 0 && pad_b % vec == 0 && pad_b % s.vwn == 0,
            TAILOR_ERROR_INVALID_PROFILE,
            "SGEMM_PAD_A and SGEMM_PAD_B must keep rows aligned to SGEMM_LOAD_VEC and %sVWM/VWN",
            set);
    REQUIRE((s.warp_tx == 0 && s.warp_ty == 0) ||
                (s.warp_tx > 0 && s.warp_ty > 0 && tx % s.warp_tx == 0 && ty % s.warp_ty == 0),
            TAILOR_ERROR_INVALID_PROFILE,
            "%sWARP_TX x %sWARP_TY must both be 0 or tile the %d x %d work-items", set, set, tx, ty);
    REQUIRE(!t[TUNE_SGEMM_WARP_INTERLEAVE] || s.warp_tx == 0 || s.warp_ty % 2 == 0,
            TAILOR_ERROR_INVALID_PROFILE, "SGEMM_WARP_INTERLEAVE needs an even %sWARP_TY", set);
    size_t local_bytes = sizeof(float) * (size_t)(1 + s.double_buffer) * (size_t)s.bk *
                         (size_t)(s.bm + pad_a + s.bn + pad_b);
    REQUIRE(facts->local_mem_bytes == 0 || local_bytes <= facts->local_mem_bytes,
            TAILOR_ERROR_INVALID_PROFILE, "%s tiles need %zu bytes of local memory; the device has %llu",
            set, local_bytes, (unsigned long long)facts->local_mem_bytes);
    return TAILOR_SUCCESS;
}

// Constraints between parameters and the device that no single range states.
static tailor_status check_consistency(const struct profile *profile,
                                       const tailor_device_info *facts)
{
    int group = profile->tune[TUNE_REDUCE_WG_SIZE];
    REQUIRE((size_t)group <= facts->max_work_group_size, TAILOR_ERROR_INVALID_PROFILE,
            "REDUCE_WG_SIZE=%d exceeds the device's %zu", group, facts->max_work_group_size);
    REQUIRE(profile->lockstep == 0 ||
                (group >= profile->lockstep && group <= profile->lockstep * profile->lockstep),
            TAILOR_ERROR_INVALID_PROFILE, "REDUCE_WG_SIZE=%d must lie in [LOCKSTEP, LOCKSTEP^2]",
            group);
    tailor_status status = check_gemv(profile, facts);
    if (status == TAILOR_SUCCESS)
        status = check_transpose(profile, facts);
    if (status == TAILOR_SUCCESS)
        status = check_sgemm_tiles(profile, facts, 0);
    if (status == TAILOR_SUCCESS)
        status = check_sgemm_tiles(profile, facts, 1);
    if (status != TAILOR_SUCCESS)
        return status;
    const int *t = profile->tune;
    size_t small_group = (size_t)t[TUNE_SGEMM_SMALL_WG_X] * (size_t)t[TUNE_SGEMM_SMALL_WG_Y];
    REQUIRE(small_group <= max_group(facts), TAILOR_ERROR_INVALID_PROFILE,
            "SGEMM_SMALL_WG_X * SGEMM_SMALL_WG_Y = %zu exceeds the device's %zu work-items",
            small_group, max_group(facts));
    REQUIRE((size_t)t[TUNE_SGEMM_CPU_WG] <= max_group(facts), TAILOR_ERROR_INVALID_PROFILE,
            "SGEMM_CPU_WG=%d exceeds the device's %zu work-items", t[TUNE_SGEMM_CPU_WG],
            max_group(facts));
    return TAILOR_SUCCESS;
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
        kind = row->kind;
    } else {
        for (size_t i = 0; !row; ++i)
            if (row_matches(&profile_rows[i], kind, cuda_sm, facts))
                row = &profile_rows[i];
    }
    profile->row = row;
    profile->kind = row->kind;
    profile->cuda_sm = kind == TAILOR_DEVICE_KIND_NVIDIA ? cuda_sm : 0;
    profile->lockstep = row->lockstep;
    profile->has_fp64 = facts->has_fp64;
    profile->use_subgroups = row->use_subgroups && facts->has_subgroups;
    for (int param = 0; param < TUNE_COUNT; ++param)
        profile->tune[param] = tuning_params[param].fallback;
    for (const struct tuning_value *v = row->tuning; v->param != TUNE_COUNT; ++v)
        profile->tune[v->param] = v->value;
    if (tuning_overrides) {
        tailor_status status = apply_overrides(profile, tuning_overrides);
        if (status != TAILOR_SUCCESS)
            return status;
    }
    return check_consistency(profile, facts);
}

const char *profile_name(const struct profile *profile)
{
    return profile->row->name;
}

size_t profile_row_count(void)
{
    return PROFILE_ROW_COUNT;
}

const char *profile_row_name(size_t index)
{
    return index < PROFILE_ROW_COUNT ? profile_rows[index].name : NULL;
}

const char *tuning_param_name(enum tuning_param param)
{
    return tuning_params[param].name;
}

int profile_build_options(const struct profile *profile, enum kernel_source source, char *buffer,
                          size_t size)
{
    int length = snprintf(buffer, size,
                          "-cl-std=CL1.2 -DDEVICE=%s -DCUDA_SM=%d -DLOCKSTEP=%d -DHAS_FP64=%d "
                          "-DUSE_SUBGROUPS=%d",
                          device_symbols[profile->kind], profile->cuda_sm, profile->lockstep,
                          profile->has_fp64, profile->use_subgroups);
    for (int param = 0; param < TUNE_COUNT && length >= 0 && (size_t)length < size; ++param) {
        if (tuning_params[param].source != source)
            continue;
        int added = snprintf(buffer + length, size - (size_t)length, " -D%s=%d",
                             tuning_params[param].name, profile->tune[param]);
        length = added < 0 ? -1 : length + added;
    }
    return length >= 0 && (size_t)length < size ? length : -1;
}
