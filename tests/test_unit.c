// Unit tests that need no device: SHA-256, the cache entry format, the
// profile table and its build options, tuning overrides, the status table.
#include <stdlib.h>
#include <string.h>

#include "cache_entry.h"
#include "profile.h"
#include "programs.h"
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
    CHECK(program_build_options(&profile, PROGRAM_REDUCE_SUM_F32, NULL, options, sizeof options) > 0,
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
    tailor_device_info unknown = {0};
    snprintf(unknown.vendor, sizeof unknown.vendor, "Some Accelerator Inc.");
    unknown.type = CL_DEVICE_TYPE_ACCELERATOR;
    unknown.max_work_group_size = 256;
    expect_profile(&unknown, "generic", "-DDEVICE=DEVICE_GENERIC");

    // Every row can be forced by name, and only rows can.
    for (size_t i = 0; i < profile_row_count(); ++i) {
        struct profile forced;
        CHECK(profile_select(&h100, profile_row_name(i), NULL, &forced) == TAILOR_SUCCESS,
              "forcing %s: %s", profile_row_name(i), tailor_last_error());
    }
    struct profile profile;
    CHECK(profile_select(&h100, "no-such-profile", NULL, &profile) == TAILOR_ERROR_INVALID_PROFILE,
          "an unknown profile name is refused");
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
    char options[2048];
    program_build_options(&profile, PROGRAM_REDUCE_SUM_F32, "-DEXTRA=1", options, sizeof options);
    CHECK(strstr(options, "-DREDUCE_WG_SIZE=512") && strstr(options, "-DEXTRA=1"), "options: %s", options);
    static const char *const bad[] = {"NO_SUCH=1", "REDUCE_WG_SIZE", "REDUCE_WG_SIZE=abc",
                                      "REDUCE_WG_SIZE=300", "REDUCE_WG_SIZE=0", "REDUCE_UNROLL=99",
                                      "=5", "REDUCE_WG_SIZE=16" /* below the warp */};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        CHECK(profile_select(&h100, NULL, bad[i], &profile) == TAILOR_ERROR_INVALID_PROFILE,
              "'%s' is refused", bad[i]);
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
    program_build_options(&profile, PROGRAM_SGEMM_TILED_MID, NULL, options, sizeof options);
    CHECK(strstr(options, "-DSGEMM_BM=128") && strstr(options, "-DSGEMM_MID_BM=64") &&
              strstr(options, "-DSGEMM_TILES=SGEMM_TILES_MID") && strstr(options, "-DSGEMM_VECTOR_LOADS=1"),
          "options: %s", options);
    struct sgemm_tiles mid;
    sgemm_tiles_of(&profile, 1, &mid);
    CHECK(mid.bm == 64 && mid.tn == 4, "the mid tile set is read from SGEMM_MID_*");
    static const char *const good[] = {"SGEMM_BK=32,SGEMM_DOUBLE_BUFFER=0", "SGEMM_WARP_TX=0,SGEMM_WARP_TY=0",
                                       "SGEMM_TM=4,SGEMM_TN=4,SGEMM_BM=64,SGEMM_BN=64", "SGEMM_LOAD_VEC=1"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; ++i)
        CHECK(profile_select(&h100, NULL, good[i], &profile) == TAILOR_SUCCESS, "'%s': %s", good[i],
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
        CHECK(profile_select(&h100, NULL, bad[i], &profile) == TAILOR_ERROR_INVALID_PROFILE, "'%s' is refused",
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
    static const char *const good[] = {"TRANSPOSE_LOCAL_STEPS=1", "TRANSPOSE_LOCAL_STEPS=32",
                                       "TRANSPOSE_LOCAL_STEPS=0,TRANSPOSE_WG_Y=8"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; ++i)
        CHECK(profile_select(&h100, NULL, good[i], &profile) == TAILOR_SUCCESS, "'%s': %s", good[i],
              tailor_last_error());
    static const char *const bad[] = {
        "TRANSPOSE_LOCAL_STEPS=3",  // not a power of two
        "TRANSPOSE_LOCAL_STEPS=64", // more than the 32 rows of the double tile
        // 64 x 64 work-items for the float tile of 64 x 64 single elements
        "TRANSPOSE_WG_X=64,TRANSPOSE_WG_Y=1,TRANSPOSE_VECTOR_BYTES=4,TRANSPOSE_LOCAL_STEPS=1",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        CHECK(profile_select(&h100, NULL, bad[i], &profile) == TAILOR_ERROR_INVALID_PROFILE,
              "'%s' is refused", bad[i]);
}

int main(void)
{
    test_sha256();
    test_cache_entry();
    test_profile_table();
    test_tuning();
    test_sgemm_tuning();
    test_transpose_tuning();
    test_status_table();
    return test_exit_status("test_unit");
}
