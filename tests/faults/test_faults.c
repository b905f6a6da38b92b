// Fault walks: for every scenario (each public operation, on a cold handle
// that builds its programs and on a warm one), the N-th OpenCL call, the N-th
// allocation, or the N-th file-system call of the cache fails, for every N
// the scenario makes. Each time: a status comes back (or the fault was
// absorbed and the result is right), the handle works afterwards, and the
// cache holds no torn entry. The walk prints how many OpenCL entry points it
// failed. Leaks are for LeakSanitizer / valgrind, which run this test too.
//
// With --part I/N, the walk takes the scenarios whose index is I modulo N
// (and part 0 the real disk faults): check_coverage.py runs the parts side by
// side and adds up their counts.
//
// usage: test_faults [--quick] [--scenario INDEX] [--kind opencl|allocation|file] [--part I/N]
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "cache_entry.h"
#include "fault_injection.h"
#include "support.h"
#include "scenarios.h"

static char cache_dir[256];

// Every file the cache directory holds is a valid entry or a temporary file.
static void check_no_torn_entry(const char *label)
{
    DIR *listing = opendir(cache_dir);
    if (!listing)
        return;
    for (struct dirent *e; (e = readdir(listing));) {
        size_t length = strlen(e->d_name);
        if (length < 5 || strcmp(e->d_name + length - 4, ".bin") != 0)
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", cache_dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        static unsigned char data[1 << 22];
        size_t size = fread(data, 1, sizeof data, f);
        fclose(f);
        CHECK(cache_entry_parse(data, size, NULL, NULL, NULL, NULL, NULL) == CACHE_ENTRY_OK,
              "%s: torn cache entry %s", label, e->d_name);
    }
    closedir(listing);
}

static off_t largest_entry(void)
{
    off_t largest = 0;
    DIR *listing = opendir(cache_dir);
    for (struct dirent *e; listing && (e = readdir(listing));) {
        char path[512];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", cache_dir, e->d_name);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > largest)
            largest = st.st_size;
    }
    if (listing)
        closedir(listing);
    return largest;
}

static void empty_cache(void)
{
    DIR *listing = opendir(cache_dir);
    if (!listing)
        return;
    for (struct dirent *e; (e = readdir(listing));) {
        if (e->d_name[0] == '.' && (e->d_name[1] == '\0' || e->d_name[1] == '.'))
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", cache_dir, e->d_name);
        unlink(path);
    }
    closedir(listing);
}

struct walk_totals {
    unsigned long attempts, errors, absorbed;
};

// What a failed OpenCL call must come back as: doc/testing.md's table of
// faults, checked here so that the table and the library cannot drift apart.
enum fault_outcome {
    OUTCOME_ABSORBED, // the call succeeds with the right result
    OUTCOME_STATUS,   // the status in `status`
    OUTCOME_MAPPED,   // the status the OpenCL error maps to, with the code kept
    OUTCOME_EITHER,   // absorbed or mapped (clBuildProgram: from a binary or from source)
};

// Probe queries whose failure leaves a fact unknown: the extension list,
// the vendor attributes (cl_nv_/cl_amd_device_attribute_query, Intel
// sub-group sizes) and the native vector width.
static int is_optional_device_query(unsigned long query)
{
    static const unsigned long optional[] = {CL_DEVICE_EXTENSIONS, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT,
                                             0x4000, 0x4001, 0x4003, 0x4038, 0x4043, 0x404A, 0x404B,
                                             0x4108};
    for (size_t i = 0; i < sizeof optional / sizeof optional[0]; ++i)
        if (query == optional[i])
            return 1;
    return 0;
}

static enum fault_outcome expected_outcome(const char *function, unsigned long query,
                                           tailor_status *status)
{
    if (strncmp(function, "clRelease", 9) == 0 || strcmp(function, "clGetProgramBuildInfo") == 0 ||
        strcmp(function, "clCreateProgramWithBinary") == 0 ||
        (strcmp(function, "clGetDeviceInfo") == 0 && is_optional_device_query(query)) ||
        (strcmp(function, "clGetProgramInfo") == 0 && query != CL_PROGRAM_NUM_KERNELS) ||
        (strcmp(function, "clGetCommandQueueInfo") == 0 && query == CL_QUEUE_PROPERTIES))
        return OUTCOME_ABSORBED;
    if (strcmp(function, "clBuildProgram") == 0)
        return OUTCOME_EITHER;
    *status = strcmp(function, "clGetMemObjectInfo") == 0      ? TAILOR_ERROR_INVALID_BUFFER
              : strcmp(function, "clGetCommandQueueInfo") == 0 ? TAILOR_ERROR_INVALID_QUEUE
              : strcmp(function, "clGetEventInfo") == 0        ? TAILOR_ERROR_INVALID_WAIT_LIST
              : strcmp(function, "clGetContextInfo") == 0      ? TAILOR_ERROR_INVALID_CONTEXT
                                                                : TAILOR_SUCCESS;
    return *status != TAILOR_SUCCESS ? OUTCOME_STATUS : OUTCOME_MAPPED;
}

static tailor_status mapped_status(cl_int error, const char *function)
{
    if (error == CL_OUT_OF_RESOURCES || error == CL_MEM_OBJECT_ALLOCATION_FAILURE)
        return TAILOR_ERROR_OUT_OF_DEVICE_MEMORY;
    if (error == CL_OUT_OF_HOST_MEMORY)
        return TAILOR_ERROR_OUT_OF_HOST_MEMORY;
    if (error == CL_BUILD_PROGRAM_FAILURE && strcmp(function, "clBuildProgram") == 0)
        return TAILOR_ERROR_BUILD_FAILED;
    return TAILOR_ERROR_OPENCL;
}

// The documented outcome of the OpenCL fault that fired, if one did.
static void check_documented_outcome(const char *label, const struct scenario *scenario, int error,
                                     tailor_status status)
{
    int function = fault_last_function();
    if (function < 0)
        return;
    const char *name = fault_opencl_names[function];
    tailor_status wanted = TAILOR_SUCCESS;
    enum fault_outcome outcome = expected_outcome(name, fault_last_query(), &wanted);
    int absorbed = status == scenario->expected;
    if (outcome == OUTCOME_ABSORBED) {
        CHECK(absorbed, "%s: %s (query 0x%lx) failing must be absorbed; the call returned %s: %s",
              label, name, fault_last_query(), tailor_status_name(status), tailor_last_error());
    } else if (outcome == OUTCOME_STATUS) {
        CHECK(status == wanted, "%s: %s failing must return %s, not %s", label, name,
              tailor_status_name(wanted), tailor_status_name(status));
    } else if (!absorbed || outcome == OUTCOME_MAPPED) {
        wanted = mapped_status(error, name);
        CHECK(status == wanted && tailor_last_cl_error() == error,
              "%s: %s failing with %d must return %s and keep the code; got %s and %d", label, name,
              error, tailor_status_name(wanted), tailor_status_name(status), (int)tailor_last_cl_error());
    }
}

// One attempt: arm the N-th call of `kind`, run the scenario, disarm, judge.
static void attempt(struct scenario_state *s, const struct scenario *scenario, enum fault_kind kind,
                    unsigned long nth, int error, struct walk_totals *totals)
{
    char label[160];
    snprintf(label, sizeof label, "%s, %s fault at call %lu (error %d)", scenario->name,
             kind == FAULT_OPENCL ? "OpenCL" : kind == FAULT_ALLOCATION ? "allocation" : "file", nth,
             error);
    if (scenario->cold_cache)
        empty_cache();
    scenario_prepare(s, scenario);
    fault_arm(kind, nth, error);
    tailor_status status = scenario_run(s, scenario);
    fault_disarm();
    if (kind == FAULT_OPENCL)
        check_documented_outcome(label, scenario, error, status);
    scenario_complete(s);
    ++totals->attempts;
    if (status == scenario->expected) {
        ++totals->absorbed;
        CHECK(scenario_outcome_right(s, scenario, status), "%s: %s with a wrong result", label,
              tailor_status_name(status));
    } else {
        ++totals->errors;
        CHECK(status < 0 && strcmp(tailor_status_string(status), "unknown status") != 0,
              "%s: returned %d, not a tailor status", label, (int)status);
        CHECK(*tailor_last_error(), "%s: %s without a message", label, tailor_status_name(status));
        CHECK(kind != FAULT_FILE, "%s: a cache file fault failed the call: %s", label, tailor_last_error());
    }
    // Whatever happened, the handle (or a new one) works without faults.
    scenario_reset(s, scenario);
    status = scenario_run(s, scenario);
    CHECK(scenario_outcome_right(s, scenario, status), "%s: the next call without faults gave %s: %s", label,
          tailor_status_name(status), tailor_last_error());
    check_no_torn_entry(label);
    scenario_finish(s, scenario);
}

static struct walk_totals all_walks;

static void walk(struct scenario_state *s, const struct scenario *scenario, enum fault_kind kind,
                 int error, int quick)
{
    if (scenario->cold_cache)
        empty_cache();
    scenario_prepare(s, scenario);
    fault_arm(kind, 0, error);
    tailor_status status = scenario_run(s, scenario);
    unsigned long calls = fault_disarm();
    scenario_complete(s);
    const char *variant = tailor_last_variant();
    CHECK(!scenario->variant || status != TAILOR_SUCCESS || strstr(variant, scenario->variant),
          "%s ran variant '%s', not '%s'", scenario->name, variant, scenario->variant);
    CHECK(scenario_outcome_right(s, scenario, status), "%s without faults gave %s: %s", scenario->name,
          tailor_status_name(status), tailor_last_error());
    scenario_finish(s, scenario);
    struct walk_totals totals = {0};
    unsigned long step = quick && calls > 40 ? calls / 40 : 1;
    for (unsigned long nth = 1; nth <= calls; nth += step)
        attempt(s, scenario, kind, nth, error, &totals);
    scenario_finish(s, NULL);
    all_walks.attempts += totals.attempts;
    all_walks.errors += totals.errors;
    all_walks.absorbed += totals.absorbed;
    printf("%-36s %-10s error %-5d: %4lu calls, %4lu attempts, %4lu statuses, %4lu absorbed\n", scenario->name,
           kind == FAULT_OPENCL ? "OpenCL" : kind == FAULT_ALLOCATION ? "allocation" : "file", error, calls,
           totals.attempts, totals.errors, totals.absorbed);
    fflush(stdout);
}

// The real thing rather than injected errors: a file-size limit, the
// directory removed under a live handle, and a rename blocked by a directory.
static void real_disk_faults(struct scenario_state *s)
{
    const struct scenario *cold = &scenarios[0];
    // POCL itself writes large temporary files while it compiles, so under a
    // small RLIMIT_FSIZE it cannot build at all: the limit is put on the
    // cache's own store, with SIGXFSZ at its default action (death), so a
    // write past the limit would end the test.
    empty_cache();
    struct cache cache;
    cache_open(&cache, cache_dir, 0, 0);
    static char payload[64 * 1024];
    memset(payload, 'x', sizeof payload);
    struct rlimit saved, tiny;
    getrlimit(RLIMIT_FSIZE, &saved);
    tiny.rlim_cur = sizeof payload / 2;
    tiny.rlim_max = saved.rlim_max;
    fflush(stdout);
    fflush(stderr);
    setrlimit(RLIMIT_FSIZE, &tiny);
    unsigned evicted;
    int stored = cache_store(&cache, "a key", payload, sizeof payload, &evicted);
    setrlimit(RLIMIT_FSIZE, &saved);
    CHECK(stored != 0, "an entry larger than RLIMIT_FSIZE was stored");
    CHECK(largest_entry() == 0, "RLIMIT_FSIZE left a file behind");
    CHECK(cache_store(&cache, "a key", payload, sizeof payload, &evicted) == 0, "storing without the limit");
    check_no_torn_entry("RLIMIT_FSIZE");

    empty_cache();
    scenario_prepare(s, cold);
    rmdir(cache_dir);
    CHECK(scenario_run(s, cold) == TAILOR_SUCCESS && scenario_outcome_right(s, cold, TAILOR_SUCCESS),
          "cache directory removed: the call failed: %s", tailor_last_error());
    scenario_finish(s, cold);
    mkdir(cache_dir, 0700);

    // A directory at an entry's path makes the rename fail (EISDIR).
    empty_cache();
    scenario_prepare(s, cold);
    CHECK(scenario_run(s, cold) == TAILOR_SUCCESS, "populating: %s", tailor_last_error());
    scenario_finish(s, cold);
    DIR *listing = opendir(cache_dir);
    char blocked[512] = "";
    for (struct dirent *e; listing && (e = readdir(listing));)
        if (strstr(e->d_name, ".bin"))
            snprintf(blocked, sizeof blocked, "%s/%s", cache_dir, e->d_name);
    if (listing)
        closedir(listing);
    unlink(blocked);
    mkdir(blocked, 0700);
    scenario_prepare(s, cold);
    CHECK(scenario_run(s, cold) == TAILOR_SUCCESS && scenario_outcome_right(s, cold, TAILOR_SUCCESS),
          "rename blocked: the call failed: %s", tailor_last_error());
    scenario_finish(s, cold);
    rmdir(blocked);
    check_no_torn_entry("rename blocked");
    printf("real disk faults (RLIMIT_FSIZE, directory removed, rename blocked): done\n");
}

int main(int argc, char **argv)
{
    int quick = 0, only_scenario = -1, part = 0, parts = 1;
    const char *only_kind = NULL;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
        else if (i + 1 < argc && strcmp(argv[i], "--part") == 0) {
            if (sscanf(argv[++i], "%d/%d", &part, &parts) != 2 || parts < 1 || part < 0 || part >= parts) {
                fprintf(stderr, "--part takes I/N with 0 <= I < N\n");
                return 2;
            }
        }
        else if (i + 1 < argc && strcmp(argv[i], "--scenario") == 0)
            only_scenario = atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--kind") == 0)
            only_kind = argv[++i];
    }
    int filtered = only_scenario >= 0 || only_kind, selective = filtered || parts > 1;
    snprintf(cache_dir, sizeof cache_dir, "/tmp/tailor-faults-%ld", (long)getpid());
    mkdir(cache_dir, 0700);
    setenv("TAILOR_CACHE_DIR", cache_dir, 1);
    struct scenario_state state;
    if (scenario_open(&state) != 0) {
        fprintf(stderr, "no OpenCL device: skipped\n");
        return TEST_SKIPPED;
    }
    static const int opencl_errors[] = {CL_OUT_OF_RESOURCES, CL_OUT_OF_HOST_MEMORY, CL_BUILD_PROGRAM_FAILURE,
                                        CL_INVALID_BINARY};
    static const int file_errors[] = {ENOSPC, EACCES, EIO};
    size_t walked = 0;
    for (size_t i = 0; i < scenario_count; ++i) {
        const struct scenario *scenario = &scenarios[i];
        if ((only_scenario >= 0 && (size_t)only_scenario != i) || i % (size_t)parts != (size_t)part)
            continue;
        ++walked;
        for (size_t e = 0; e < sizeof opencl_errors / sizeof opencl_errors[0]; ++e)
            if (!only_kind || strcmp(only_kind, "opencl") == 0)
                walk(&state, scenario, FAULT_OPENCL, opencl_errors[e], quick);
        if (!only_kind || strcmp(only_kind, "allocation") == 0)
            walk(&state, scenario, FAULT_ALLOCATION, 0, quick);
        if (scenario->cold_cache || scenario->uses_cache)
            for (size_t e = 0; e < sizeof file_errors / sizeof file_errors[0]; ++e)
                if (!only_kind || strcmp(only_kind, "file") == 0)
                    walk(&state, scenario, FAULT_FILE, file_errors[e], quick);
    }
    if (part == 0 && !filtered)
        real_disk_faults(&state);

    int called = 0, failed = 0;
    printf("OpenCL entry points called and failed by the walk:\n");
    for (int f = 0; f < FAULT_OPENCL_FUNCTIONS; ++f) {
        if (!fault_opencl_calls(f))
            continue;
        ++called;
        failed += fault_opencl_failures(f) > 0;
        printf("  %-32s %6lu calls %6lu failed\n", fault_opencl_names[f], fault_opencl_calls(f),
               fault_opencl_failures(f));
    }
    printf("%zu scenarios, %lu attempts: %lu returned a status, %lu absorbed the fault with the right result\n",
           walked, all_walks.attempts, all_walks.errors,
           all_walks.absorbed);
    printf("%d OpenCL entry points called, %d of them failed at least once\n", called, failed);
    CHECK(quick || selective || failed == called, "the walk failed %d of the %d entry points the library calls", failed, called);
    scenario_close(&state);
    empty_cache();
    rmdir(cache_dir);
    return test_exit_status("test_faults");
}
