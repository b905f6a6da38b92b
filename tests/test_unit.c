// Unit tests that need no device: SHA-256, the cache entry format, the
// profile table and its build options, forced profiles a device cannot run,
// tuning overrides and the operations' constraints, PTX requirements, a
// device too small for one operation's tiles, the status table.
#include <stdlib.h>
#include <string.h>

#include "cache_entry.h"
#include "operation.h"
#include "profile.h"
#include "registry.h"
#include "sha256.h"
#include "support.h"

static void test_sha256(void)
{
    static const struct {
        const char *input;
        const char *hex;
    } vectors[] = {
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    };
    for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; ++i) {
        uint8_t digest[SHA256_BYTES];
        char hex[SHA256_HEX_BYTES];
        sha256_digest(vectors[i].input, strlen(vectors[i].input), digest);
        sha256_hex(digest, hex);
        CHECK(strcmp(hex, vectors[i].hex) == 0, "sha256(\"%s\") = %s", vectors[i].input, hex);
    }
    // A million 'a', fed in uneven pieces.
    struct sha256 h;
    sha256_init(&h);
    char piece[997];
    memset(piece, 'a', sizeof piece);
    size_t left = 1000000;
    while (left) {
        size_t take = left < sizeof piece ? left : sizeof piece;
        sha256_update(&h, piece, take);
        left -= take;
    }
    uint8_t digest[SHA256_BYTES];
    char hex[SHA256_HEX_BYTES];
    sha256_final(&h, digest);
    sha256_hex(digest, hex);
    CHECK(strcmp(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0") == 0,
          "sha256(a * 10^6) = %s", hex);
}

static uint8_t *make_entry(const char *key, const char *payload, size_t *size)
{
    size_t key_length = strlen(key), payload_size = strlen(payload);
    *size = CACHE_ENTRY_HEADER_BYTES + key_length + payload_size;
    uint8_t *entry = malloc(*size);
    cache_entry_header(key, key_length, payload, payload_size, entry);
    memcpy(entry + CACHE_ENTRY_HEADER_BYTES, key, key_length);
    memcpy(entry + CACHE_ENTRY_HEADER_BYTES + key_length, payload, payload_size);
    return entry;
}

static void test_cache_entry(void)
{
    size_t size;
    uint8_t *entry = make_entry("key one", "binary payload", &size);
    const uint8_t *payload;
    size_t payload_size;
    CHECK(cache_entry_parse(entry, size, "key one", &payload, &payload_size, NULL, NULL) == CACHE_ENTRY_OK,
          "a fresh entry parses");
    CHECK(payload_size == 14 && memcmp(payload, "binary payload", 14) == 0, "payload round-trips");
    CHECK(cache_entry_parse(entry, size, "key two", NULL, NULL, NULL, NULL) == CACHE_ENTRY_OTHER_KEY,
          "another key is refused");
    for (size_t cut = 0; cut < size; ++cut)
        CHECK(cache_entry_parse(entry, cut, "key one", NULL, NULL, NULL, NULL) == CACHE_ENTRY_TRUNCATED,
              "truncated to %zu bytes", cut);
    uint8_t *longer = malloc(size + 1);
    memcpy(longer, entry, size);
    longer[size] = 0;
    CHECK(cache_entry_parse(longer, size + 1, "key one", NULL, NULL, NULL, NULL) == CACHE_ENTRY_TRUNCATED,
          "a trailing byte is refused");
    free(longer);
    for (size_t at = 0; at < size; ++at) {
        entry[at] ^= 0x10;
        enum cache_entry_check check = cache_entry_parse(entry, size, "key one", NULL, NULL, NULL, NULL);
        CHECK(check != CACHE_ENTRY_OK, "a flipped bit at byte %zu went unnoticed", at);
        CHECK(at >= 12 || check == CACHE_ENTRY_FOREIGN, "flipped magic/version at %zu is %s", at,
              cache_entry_check_name(check));
        entry[at] ^= 0x10;
    }
    static const uint8_t png[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H'};
    CHECK(cache_entry_parse(png, sizeof png, "key one", NULL, NULL, NULL, NULL) == CACHE_ENTRY_FOREIGN,
          "another program's file is foreign");
    free(entry);
}

static tailor_device_info nvidia(unsigned major, unsigned minor)
{
    tailor_device_info d = {0};
    snprintf(d.vendor, sizeof d.vendor, "NVIDIA Corporation");
    d.vendor_id = 0x10de;
    d.type = CL_DEVICE_TYPE_GPU;
    d.nv_compute_major = major;
    d.nv_compute_minor = minor;
    d.nv_warp_size = 32;
    d.max_work_group_size = 1024;
    d.has_fp64 = 1;
    d.ptx_isa = 90; // a CUDA 13 driver
    return d;
}

static tailor_device_info amd(unsigned wavefront, unsigned gfx_major)
{
    tailor_device_info d = {0};
    snprintf(d.vendor, sizeof d.vendor, "Advanced Micro Devices, Inc.");
    d.vendor_id = 0x1002;
    d.type = CL_DEVICE_TYPE_GPU;
    d.amd_wavefront_width = wavefront;
    d.amd_gfx_major = gfx_major;
    d.max_work_group_size = 256;
    d.has_fp64 = 1;
    return d;
}

static void expect_profile(const tailor_device_info *facts, const char *name, const char *options_part)
{
    struct profile profile;
    tailor_status status = profile_select(facts, NULL, NULL, &profile);
    CHECK(status == TAILOR_SUCCESS, "profile_select: %s", tailor_last_error());
    if (status != TAILOR_SUCCESS)
        return;
    CHECK(strcmp(profile_name(&profile), name) == 0, "expected profile %s, got %s", name,
          profile_name(&profile));
    char options[2048];
    CHECK(profile_build_options(&profile, PROGRAM_REDUCE_SUM_F32, NULL, options, sizeof options) > 0,
          "options fit");
    CHECK(strstr(options, options_part) != NULL, "%s: '%s' lacks '%s'", name, options, options_part);
}

static void test_profile_table(void)
{
    tailor_device_info h100 = nvidia(9, 0);
    expect_profile(&h100, "nvidia-sm70", "-DDEVICE=DEVICE_NVIDIA -DCUDA_SM=90 -DLOCKSTEP=32");
    tailor_device_info a100 = nvidia(8, 0);
    expect_profile(&a100, "nvidia-sm70", "-DCUDA_SM=80");
    tailor_device_info v100 = nvidia(7, 0);
    expect_profile(&v100, "nvidia-sm70", "-DCUDA_SM=70");
    tailor_device_info p100 = nvidia(6, 0);
    expect_profile(&p100, "nvidia-sm30", "-DCUDA_SM=60");
    tailor_device_info k40 = nvidia(3, 5);
    expect_profile(&k40, "nvidia-sm30", "-DCUDA_SM=35");
    tailor_device_info fermi = nvidia(2, 0);
    expect_profile(&fermi, "nvidia-sm20", "-DCUDA_SM=20 -DLOCKSTEP=32");
    tailor_device_info no_extension = nvidia(0, 0);
    expect_profile(&no_extension, "generic", "-DDEVICE=DEVICE_GENERIC -DCUDA_SM=0 -DLOCKSTEP=0");
    tailor_device_info mi100 = amd(64, 9);
    expect_profile(&mi100, "amd-wave64", "-DDEVICE=DEVICE_AMD -DCUDA_SM=0 -DLOCKSTEP=64");
    tailor_device_info rdna = amd(32, 10);
    expect_profile(&rdna, "amd-wave32", "-DLOCKSTEP=32");
    tailor_device_info intel = {0};
    snprintf(intel.vendor, sizeof intel.vendor, "Intel(R) Corporation");
    intel.type = CL_DEVICE_TYPE_GPU;
    intel.has_subgroups = 1;
    intel.max_work_group_size = 512;
    expect_profile(&intel, "intel-gpu", "-DDEVICE=DEVICE_INTEL -DCUDA_SM=0 -DLOCKSTEP=0 -DHAS_FP64=0 -DUSE_SUBGROUPS=1");
    tailor_device_info cpu = {0};
    snprintf(cpu.vendor, sizeof cpu.vendor, "GenuineIntel");
    cpu.type = CL_DEVICE_TYPE_CPU;
    cpu.max_work_group_size = 4096;
    expect_profile(&cpu, "cpu", "-DDEVICE=DEVICE_CPU -DCUDA_SM=0 -DLOCKSTEP=0");
    cpu.native_vector_width_float = 8;
    expect_profile(&cpu, "cpu-simd8", "-DDEVICE=DEVICE_CPU");
    cpu.native_vector_width_float = 16;
    expect_profile(&cpu, "cpu-simd16", "-DDEVICE=DEVICE_CPU");
    tailor_device_info unknown = {0};
    snprintf(unknown.vendor, sizeof unknown.vendor, "Some Accelerator Inc.");
    unknown.type = CL_DEVICE_TYPE_ACCELERATOR;
    unknown.max_work_group_size = 256;
    expect_profile(&unknown, "generic", "-DDEVICE=DEVICE_GENERIC");

    struct profile profile;
    CHECK(profile_select(&h100, "no-such-profile", NULL, &profile) == TAILOR_ERROR_INVALID_PROFILE,
          "an unknown profile name is refused");
}

// A forced profile whose code the device cannot run is refused: lockstep
// code wider than the device's lockstep or of another vendor, NVIDIA PTX on
// another device, sub-groups the device lacks. Barrier-only rows run
// anywhere.
static void test_forced_profiles(void)
{
    tailor_device_info h100 = nvidia(9, 0), wave64 = amd(64, 9), wave32 = amd(32, 10);
    tailor_device_info cpu = {0};
    snprintf(cpu.vendor, sizeof cpu.vendor, "GenuineIntel");
    cpu.type = CL_DEVICE_TYPE_CPU;
    cpu.max_work_group_size = 4096;
    const struct {
        const char *profile;
        const tailor_device_info *device;
        const char *device_name;
        int allowed;
    } cases[] = {
        {"nvidia-sm70", &h100, "h100", 1},      {"nvidia-sm20", &h100, "h100", 1},
        {"generic", &h100, "h100", 1},          {"cpu", &h100, "h100", 1},
        {"amd-wave32", &h100, "h100", 0},       {"amd-wave64", &h100, "h100", 0},
        {"intel-gpu", &h100, "h100", 0},        {"amd-wave64", &wave64, "wave64", 1},
        {"amd-wave32", &wave64, "wave64", 1},   {"amd-wave64", &wave32, "wave32", 0},
        {"nvidia-sm70", &wave64, "wave64", 0},  {"nvidia-sm70", &cpu, "cpu", 0},
        {"amd-wave32", &cpu, "cpu", 0},         {"generic", &cpu, "cpu", 1},
        {"cpu-simd16", &cpu, "cpu", 1},         {"intel-gpu", &cpu, "cpu", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        struct profile profile;
        tailor_status status = profile_select(cases[i].device, cases[i].profile, NULL, &profile);
        CHECK(cases[i].allowed ? status == TAILOR_SUCCESS : status == TAILOR_ERROR_INVALID_PROFILE,
              "forcing %s on the %s device gave %s: %s", cases[i].profile, cases[i].device_name,
              tailor_status_name(status), tailor_last_error());
    }
    // Every row runs on a device it was written for.
    for (size_t i = 0; i < profile_row_count(); ++i) {
        const char *name = profile_row_name(i);
        const tailor_device_info *device = strncmp(name, "nvidia", 6) == 0 ? &h100
                                           : strcmp(name, "amd-wave32") == 0 ? &wave32
                                           : strncmp(name, "amd", 3) == 0    ? &wave64
                                                                             : &cpu;
        struct profile profile;
        if (strcmp(name, "intel-gpu") == 0)
            continue; // needs sub-groups: test_profile_table detects it
        CHECK(profile_select(device, name, NULL, &profile) == TAILOR_SUCCESS, "forcing %s: %s", name,
              tailor_last_error());
        // Its record's values pass the checks an override gets, constraints included.
        for (int param = 0; param < TUNE_COUNT; ++param) {
            int value;
            if (profile_row_value(i, (enum param_id)param, &value))
                CHECK(profile_set_value(&profile, (enum param_id)param, value, TAILOR_ORIGIN_OVERRIDE) ==
                          TAILOR_SUCCESS,
                      "%s: %s", name, tailor_last_error());
        }
        CHECK(operations_check_overrides(&profile, device) == TAILOR_SUCCESS, "%s: %s", name,
              tailor_last_error());
    }
}

// profile_select and the constraints of the operations the overrides touch,
// as tailor_context_create applies them.
static tailor_status configure(const tailor_device_info *facts, const char *overrides,
                               struct profile *profile)
{
    tailor_status status = profile_select(facts, NULL, overrides, profile);
    return status == TAILOR_SUCCESS ? operations_check_overrides(profile, facts) : status;
}

static void test_tuning(void)
{
    tailor_device_info h100 = nvidia(9, 0);
    struct profile profile;
    CHECK(profile_select(&h100, NULL, "REDUCE_WG_SIZE=512, REDUCE_UNROLL=2;REDUCE_SMALL_N=0x10", &profile) ==
              TAILOR_SUCCESS,
          "valid overrides: %s", tailor_last_error());
    CHECK(profile.tune[TUNE_REDUCE_WG_SIZE] == 512 && profile.tune[TUNE_REDUCE_UNROLL] == 2 &&
              profile.tune[TUNE_REDUCE_SMALL_N] == 16,
          "overrides applied");
    CHECK(profile.origin[TUNE_REDUCE_WG_SIZE] == TAILOR_ORIGIN_OVERRIDE &&
              profile.origin[TUNE_REDUCE_ONE_PASS] == TAILOR_ORIGIN_PROFILE &&
              profile.origin[TUNE_REDUCE_CONTIGUOUS] == TAILOR_ORIGIN_DEFAULT,
          "origins: %d %d %d", profile.origin[TUNE_REDUCE_WG_SIZE],
          profile.origin[TUNE_REDUCE_ONE_PASS], profile.origin[TUNE_REDUCE_CONTIGUOUS]);
    char options[2048];
    profile_build_options(&profile, PROGRAM_REDUCE_SUM_F32, "-DEXTRA=1", options, sizeof options);
    CHECK(strstr(options, "-DREDUCE_WG_SIZE=512") && strstr(options, "-DEXTRA=1"), "options: %s", options);
    static const char *const bad[] = {"NO_SUCH=1", "REDUCE_WG_SIZE", "REDUCE_WG_SIZE=abc",
                                      "REDUCE_WG_SIZE=300", "REDUCE_WG_SIZE=0", "REDUCE_UNROLL=99",
                                      "=5", "REDUCE_WG_SIZE=16" /* below the warp */};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        CHECK(configure(&h100, bad[i], &profile) == TAILOR_ERROR_INVALID_PROFILE,
              "'%s' is refused", bad[i]);
    // Host thresholds never reach a compiler.
    CHECK(profile_select(&h100, NULL, "REDUCE_SMALL_N=5,SGEMM_SMALL_DIM=3", &profile) == TAILOR_SUCCESS,
          "%s", tailor_last_error());
    for (int program = 0; program < PROGRAM_COUNT; ++program) {
        profile_build_options(&profile, (enum program_id)program, NULL, options, sizeof options);
        CHECK(!strstr(options, "SMALL_N") && !strstr(options, "SMALL_DIM") && !strstr(options, "METHOD_"),
              "%s: %s", program_table[program].name, options);
    }
}

// Inline PTX needs an SM and a driver new enough: a profile value falls back,
// an override is refused.
static void test_ptx_requirements(void)
{
    tailor_device_info h100 = nvidia(9, 0), p100 = nvidia(6, 0), old_driver = nvidia(9, 0);
    old_driver.ptx_isa = 0; // a driver version tailor does not recognise
    struct profile profile;
    CHECK(profile_select(&h100, NULL, "TRANSPOSE_LOAD_HINT=2", &profile) == TAILOR_SUCCESS,
          "sm_90 with PTX ISA 9.0 takes ld.global.nc.L1::no_allocate: %s", tailor_last_error());
    CHECK(profile_select(&p100, NULL, "TRANSPOSE_LOAD_HINT=2", &profile) == TAILOR_ERROR_INVALID_PROFILE,
          "sm_60 refuses ld.global.nc.L1::no_allocate");
    CHECK(strstr(tailor_last_error(), "sm_70"), "the message names the SM: %s", tailor_last_error());
    CHECK(profile_select(&old_driver, NULL, NULL, &profile) == TAILOR_SUCCESS, "%s", tailor_last_error());
    CHECK(profile.tune[TUNE_TRANSPOSE_LOAD_HINT] == 0 &&
              profile.origin[TUNE_TRANSPOSE_LOAD_HINT] == TAILOR_ORIGIN_FALLBACK,
          "an unknown driver falls back from the profile's load hint (%d, origin %d)",
          profile.tune[TUNE_TRANSPOSE_LOAD_HINT], profile.origin[TUNE_TRANSPOSE_LOAD_HINT]);
    tailor_device_info wave64 = amd(64, 9);
    CHECK(profile_select(&wave64, NULL, "TRANSPOSE_LOAD_HINT=1", &profile) == TAILOR_ERROR_INVALID_PROFILE,
          "NVIDIA-only parameters are refused on AMD code");
    char options[2048];
    CHECK(profile_select(&wave64, NULL, NULL, &profile) == TAILOR_SUCCESS, "%s", tailor_last_error());
    profile_build_options(&profile, PROGRAM_TRANSPOSE_REGISTERS_4, NULL, options, sizeof options);
    CHECK(!strstr(options, "HINT"), "AMD options hold no NVIDIA hint: %s", options);
}

// One-pass GEMV and reductions need a fence at device scope (device_fence):
// NVIDIA and AMD code and CPU devices take them; the generic and Intel code on
// a GPU refuses them and builds two passes.
static void test_device_fence_parameters(void)
{
    tailor_device_info h100 = nvidia(9, 0), wave64 = amd(64, 9), gpu = nvidia(9, 0), cpu = {0};
    cpu.type = CL_DEVICE_TYPE_CPU;
    cpu.max_work_group_size = 4096;
    struct profile profile;
    char options[2048];
    CHECK(profile_select(&h100, NULL, NULL, &profile) == TAILOR_SUCCESS, "%s", tailor_last_error());
    profile_build_options(&profile, PROGRAM_GEMV_F32, NULL, options, sizeof options);
    CHECK(strstr(options, "-DGEMV_ONE_PASS=1"), "NVIDIA's profile finishes in one pass: %s", options);
    CHECK(profile_select(&wave64, NULL, "GEMV_ONE_PASS=1,REDUCE_ONE_PASS=1", &profile) == TAILOR_SUCCESS,
          "AMD code takes one pass: %s", tailor_last_error());
    CHECK(profile_select(&cpu, "generic", "GEMV_ONE_PASS=1", &profile) == TAILOR_SUCCESS,
          "the generic code on a CPU takes one pass: %s", tailor_last_error());
    CHECK(profile_select(&gpu, "generic", "GEMV_ONE_PASS=1", &profile) == TAILOR_ERROR_INVALID_PROFILE,
          "the generic code on a GPU refuses GEMV_ONE_PASS");
    CHECK(strstr(tailor_last_error(), "GEMV_ONE_PASS"), "the message names it: %s", tailor_last_error());
    CHECK(profile_select(&gpu, "generic", "REDUCE_ONE_PASS=1", &profile) == TAILOR_ERROR_INVALID_PROFILE,
          "the generic code on a GPU refuses REDUCE_ONE_PASS");
    CHECK(profile_select(&gpu, "generic", NULL, &profile) == TAILOR_SUCCESS, "%s", tailor_last_error());
    profile_build_options(&profile, PROGRAM_GEMV_F32, NULL, options, sizeof options);
    CHECK(strstr(options, "-DGEMV_ONE_PASS=0"), "the generic code on a GPU builds two passes: %s", options);
}

// A device with 32 KiB of local memory: the AMD profile's SGEMM tiles need
// 33,792 bytes, so SGEMM falls back to the default tiles; every other
// operation keeps the profile's values.
static void test_small_local_memory(void)
{
    tailor_device_info small = amd(64, 9);
    small.local_mem_bytes = 32768;
    struct profile profile;
    CHECK(profile_select(&small, NULL, NULL, &profile) == TAILOR_SUCCESS, "%s", tailor_last_error());
    CHECK(profile.tune[TUNE_SGEMM_BM] == 128, "the AMD row asks for 128-row tiles");
    for (int op = 0; op < OP_COUNT; ++op)
        CHECK(operation_settle(&profile, &small, (enum operation_id)op) == TAILOR_SUCCESS, "%s: %s",
              operation_name((enum operation_id)op), tailor_last_error());
    CHECK(profile.tune[TUNE_SGEMM_BM] == param_table[TUNE_SGEMM_BM].fallback &&
              profile.origin[TUNE_SGEMM_BM] == TAILOR_ORIGIN_FALLBACK,
          "SGEMM fell back to its default tiles (%d)", profile.tune[TUNE_SGEMM_BM]);
    CHECK(profile.tune[TUNE_REDUCE_GROUPS_PER_CU] == 8 &&
              profile.origin[TUNE_REDUCE_GROUPS_PER_CU] == TAILOR_ORIGIN_PROFILE,
          "the reduction keeps the profile's values");
    // An override that does not fit is an error, not a fallback.
    CHECK(configure(&small, "SGEMM_BK=32", &profile) == TAILOR_ERROR_INVALID_PROFILE,
          "an SGEMM override that does not fit is refused");

    // Below the defaults' needs, smaller shapes than the defaults.
    tailor_device_info tiny = amd(64, 9);
    tiny.local_mem_bytes = 2048;
    CHECK(profile_select(&tiny, NULL, NULL, &profile) == TAILOR_SUCCESS, "%s", tailor_last_error());
    CHECK(operation_settle(&profile, &tiny, OP_SGEMM) == TAILOR_SUCCESS, "2 KiB: SGEMM shrinks: %s",
          tailor_last_error());
    CHECK(profile.tune[TUNE_SGEMM_BK] < param_table[TUNE_SGEMM_BK].fallback &&
              profile.origin[TUNE_SGEMM_BK] == TAILOR_ORIGIN_FALLBACK,
          "SGEMM_BK below its default (%d)", profile.tune[TUNE_SGEMM_BK]);
    CHECK(operation_settle(&profile, &tiny, OP_REDUCE) == TAILOR_SUCCESS &&
              profile.tune[TUNE_REDUCE_WG_SIZE] >= 64 && profile.tune[TUNE_REDUCE_WG_SIZE] < 256,
          "the reduction's groups shrink, not below the wavefront (%d): %s",
          profile.tune[TUNE_REDUCE_WG_SIZE], tailor_last_error());

    // Nothing fits: that operation alone is unsupported, and says why.
    tailor_device_info none = amd(64, 9);
    none.local_mem_bytes = 256;
    CHECK(profile_select(&none, NULL, NULL, &profile) == TAILOR_SUCCESS, "%s", tailor_last_error());
    CHECK(operation_settle(&profile, &none, OP_SGEMM) == TAILOR_ERROR_UNSUPPORTED &&
              strstr(tailor_last_error(), "local memory") && strstr(tailor_last_error(), "no smaller shape"),
          "256 bytes of local memory: SGEMM is unsupported: %s", tailor_last_error());
    CHECK(operation_settle(&profile, &none, OP_REDUCE) == TAILOR_ERROR_UNSUPPORTED,
          "a 64-wide lockstep reduction needs 64 doubles of local memory");
    CHECK(operation_settle(&profile, &none, OP_TRANSPOSE) == TAILOR_SUCCESS, "the transpose still runs: %s",
          tailor_last_error());
}

// Every operation settles on every kind of device down to 4 KiB of local
// memory and 64-item work-groups (OpenCL's full profile guarantees 32 KiB and
// 1, so this is beyond what real devices need), with values its own check
// accepts; below that an operation is supported or refused, never broken.
static void test_small_devices(void)
{
    tailor_device_info kinds[6] = {nvidia(9, 0), nvidia(3, 5), amd(64, 9), amd(32, 10)};
    snprintf(kinds[4].vendor, sizeof kinds[4].vendor, "Unknown Vendor");
    kinds[4].type = CL_DEVICE_TYPE_ACCELERATOR;
    snprintf(kinds[5].vendor, sizeof kinds[5].vendor, "GenuineIntel");
    kinds[5].type = CL_DEVICE_TYPE_CPU;
    kinds[5].has_fp64 = 1;
    static const cl_ulong local_sizes[] = {65536, 32768, 16384, 8192, 4096, 2048, 1024, 512};
    static const size_t groups[] = {1024, 256, 64, 16};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k)
        for (size_t l = 0; l < sizeof local_sizes / sizeof local_sizes[0]; ++l)
            for (size_t g = 0; g < sizeof groups / sizeof groups[0]; ++g) {
                tailor_device_info facts = kinds[k];
                facts.local_mem_bytes = local_sizes[l];
                facts.max_work_group_size = groups[g];
                struct profile profile;
                CHECK(profile_select(&facts, NULL, NULL, &profile) == TAILOR_SUCCESS, "%s",
                      tailor_last_error());
                for (int op = 0; op < OP_COUNT; ++op) {
                    tailor_status status = operation_settle(&profile, &facts, (enum operation_id)op);
                    int lockstep_fits = (size_t)profile.lockstep <= groups[g];
                    CHECK(status == TAILOR_SUCCESS || (status == TAILOR_ERROR_UNSUPPORTED &&
                                                       (local_sizes[l] < 4096 || groups[g] < 64 ||
                                                        !lockstep_fits)),
                          "%s on a %s device, %llu bytes of local memory, %zu-item groups: %s",
                          operation_name((enum operation_id)op), kinds[k].vendor,
                          (unsigned long long)local_sizes[l], groups[g], tailor_last_error());
                    if (status == TAILOR_SUCCESS)
                        CHECK(operation_table[op]->check(&profile, &facts) == TAILOR_SUCCESS,
                              "the settled values pass the check");
                }
            }
}

// SGEMM's tile parameters are checked against each other and the device.
static void test_sgemm_tuning(void)
{
    tailor_device_info h100 = nvidia(9, 0);
    h100.local_mem_bytes = 49152;
    struct profile profile;
    CHECK(profile_select(&h100, NULL, NULL, &profile) == TAILOR_SUCCESS, "H100 defaults: %s",
          tailor_last_error());
    char options[4096];
    profile_build_options(&profile, PROGRAM_SGEMM_TILED_MID, NULL, options, sizeof options);
    CHECK(!strstr(options, "-DSGEMM_BM=") && strstr(options, "-DSGEMM_MID_BM=64") &&
              !strstr(options, "SGEMM_SMALL_") && !strstr(options, "SGEMM_CPU_") &&
              strstr(options, "-DSGEMM_TILES=SGEMM_TILES_MID") && strstr(options, "-DSGEMM_VECTOR_LOADS=1"),
          "the mid tile program reads its own tile set only: %s", options);
    profile_build_options(&profile, PROGRAM_SGEMM_SMALL, NULL, options, sizeof options);
    CHECK(strstr(options, "-DSGEMM_SMALL_RM=") && !strstr(options, "SGEMM_SMALL_DIM") &&
              !strstr(options, "SGEMM_BM") && !strstr(options, "SGEMM_LOAD_VEC"),
          "the small program reads the small kernel's defines only: %s", options);
    static const char *const good[] = {"SGEMM_BK=32,SGEMM_DOUBLE_BUFFER=0", "SGEMM_WARP_TX=0,SGEMM_WARP_TY=0",
                                       "SGEMM_TM=4,SGEMM_TN=4,SGEMM_BM=64,SGEMM_BN=64", "SGEMM_LOAD_VEC=1"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; ++i)
        CHECK(configure(&h100, good[i], &profile) == TAILOR_SUCCESS, "'%s': %s", good[i],
              tailor_last_error());
    static const char *const bad[] = {
        "SGEMM_TM=3",                          // not a power of two
        "SGEMM_TM=2",                          // SGEMM_VWM=4 does not divide it
        "SGEMM_BK=32",                         // 67584 bytes of local memory, double-buffered
        "SGEMM_BM=256,SGEMM_TM=4",             // 1024 work-items, but 50176 bytes
        "SGEMM_WARP_TX=3",                     // does not tile 16 work-items
        "SGEMM_WARP_TX=8,SGEMM_WARP_TY=0",     // both or neither
        "SGEMM_WARP_TX=16,SGEMM_WARP_TY=1",    // interleaved lanes need pairs of rows
        "SGEMM_KTHREADS=8",                    // BK=16 holds 4 float4 along k
        "SGEMM_PAD_A=2",                       // breaks float4 rows
        "SGEMM_MID_TN=2",                      // SGEMM_MID_VWN=4
        "SGEMM_SMALL_WG_X=64,SGEMM_SMALL_WG_Y=32", // 2048 work-items
        "SGEMM_CPU_VN=3",                      // not a vector width
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        CHECK(configure(&h100, bad[i], &profile) == TAILOR_ERROR_INVALID_PROFILE, "'%s' is refused",
              bad[i]);
}

static void test_status_table(void)
{
    static const tailor_status statuses[] = {
#define STATUS_VALUE_(name, value, message) name,
        TAILOR_STATUS_TABLE(STATUS_VALUE_)
#undef STATUS_VALUE_
    };
    for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; ++i) {
        CHECK(i == 0 ? statuses[i] == 0 : statuses[i] < 0, "status %zu is %d", i, (int)statuses[i]);
        CHECK(strncmp(tailor_status_name(statuses[i]), "TAILOR_", 7) == 0, "name of %d", (int)statuses[i]);
        CHECK(strcmp(tailor_status_string(statuses[i]), "unknown status") != 0, "message of %d",
              (int)statuses[i]);
        for (size_t j = 0; j < i; ++j)
            CHECK(statuses[i] != statuses[j], "two statuses share %d", (int)statuses[i]);
    }
    CHECK(strcmp(tailor_status_string((tailor_status)-999), "unknown status") == 0, "unknown value");
}

// The local-tile transpose's steps are checked against its tile and the
// device's work-group limit.
static void test_transpose_tuning(void)
{
    tailor_device_info h100 = nvidia(9, 0);
    h100.local_mem_bytes = 49152;
    struct profile profile;
    static const char *const good[] = {"TRANSPOSE_LOCAL_STEPS=1", "TRANSPOSE_LOCAL_STEPS=16"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; ++i)
        CHECK(configure(&h100, good[i], &profile) == TAILOR_SUCCESS, "'%s': %s", good[i],
              tailor_last_error());
    static const char *const bad[] = {
        "TRANSPOSE_LOCAL_STEPS=0",  // a group moves at least one vector a row
        "TRANSPOSE_LOCAL_STEPS=3",  // not a power of two
        "TRANSPOSE_LOCAL_STEPS=32", // more than the 16 rows of the 16-byte elements' tile
        "TRANSPOSE_LOCAL_STEPS=64", // more than the 32 rows of the double tile
        // 64 x 64 work-items for the float tile of 64 x 64 single elements
        "TRANSPOSE_WG_X=64,TRANSPOSE_WG_Y=1,TRANSPOSE_VECTOR_BYTES=4,TRANSPOSE_LOCAL_STEPS=1",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        CHECK(configure(&h100, bad[i], &profile) == TAILOR_ERROR_INVALID_PROFILE,
              "'%s' is refused", bad[i]);
}

int main(void)
{
    test_sha256();
    test_cache_entry();
    test_profile_table();
    test_forced_profiles();
    test_tuning();
    test_ptx_requirements();
    test_device_fence_parameters();
    test_small_local_memory();
    test_small_devices();
    test_sgemm_tuning();
    test_transpose_tuning();
    test_status_table();
    return test_exit_status("test_unit");
}
