// What a tuning change rebuilds, read from the cache counters: programs are
// stored by a first handle; a handle that changes host thresholds only loads
// every one of them from the disk cache; a handle that changes one kernel
// parameter rebuilds exactly the programs that read it.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "context.h"
#include "program.h"
#include "support.h"

// The programs of the reduction (the device may lack fp64), and of SGEMM's
// the first that reads each SGEMM parameter changed below: storing a program
// makes POCL compile every kernel in it, and the seven tiled SGEMM programs
// took minutes of a cold run.
static size_t chosen_programs(const struct test_device *device, enum program_id *ids)
{
    static const enum param_id sgemm_params[] = {TUNE_SGEMM_SMALL_RM, TUNE_SGEMM_PAD_B};
    uint64_t sgemm_programs = 0, first_readers = 0;
    for (int id = 0; id < PROGRAM_COUNT; ++id)
        if (program_table[id].op == OP_SGEMM)
            sgemm_programs |= (uint64_t)1 << id;
    for (size_t k = 0; k < sizeof sgemm_params / sizeof sgemm_params[0]; ++k) {
        uint64_t readers = param_table[sgemm_params[k]].readers & sgemm_programs;
        first_readers |= readers & (~readers + 1);
    }
    size_t count = 0;
    for (int id = 0; id < PROGRAM_COUNT; ++id) {
        const struct program_info *p = &program_table[id];
        if ((p->op == OP_REDUCE || ((first_readers >> id) & 1)) && (!p->needs_fp64 || device->info.has_fp64))
            ids[count++] = (enum program_id)id;
    }
    return count;
}

static size_t readers_among(enum param_id param, const enum program_id *ids, size_t count)
{
    size_t readers = 0;
    for (size_t i = 0; i < count; ++i)
        readers += (param_table[param].readers >> ids[i]) & 1;
    return readers;
}

// Builds the programs on a handle with `tuning` and the cache in `dir`;
// returns its counters.
static tailor_cache_stats build_all(const struct test_device *device, const char *dir, const char *tuning,
                                    const enum program_id *ids, size_t count)
{
    tailor_cache_stats stats;
    memset(&stats, 0, sizeof stats);
    tailor_settings settings;
    tailor_default_settings(&settings);
    settings.cache_mode = TAILOR_CACHE_ON;
    settings.cache_dir = dir;
    settings.tuning = tuning;
    tailor_context *handle = NULL;
    CHECK_STATUS(tailor_context_create(device->context, device->choice.device, &settings, &handle),
                 TAILOR_SUCCESS);
    if (!handle)
        return stats;
    for (size_t i = 0; i < count; ++i)
        CHECK_STATUS(program_ensure(handle, ids[i]), TAILOR_SUCCESS);
    tailor_context_cache_stats(handle, &stats);
    tailor_context_release(&handle);
    return stats;
}

// The value `param` takes on this device with no tuning string.
static int default_value(const struct test_device *device, enum param_id param)
{
    tailor_settings settings;
    tailor_default_settings(&settings);
    settings.cache_mode = TAILOR_CACHE_OFF;
    tailor_context *handle = NULL;
    CHECK_STATUS(tailor_context_create(device->context, device->choice.device, &settings, &handle), TAILOR_SUCCESS);
    if (!handle)
        return -1;
    int value = tune(handle, param);
    tailor_context_release(&handle);
    return value;
}

int main(void)
{
    struct test_device devices[8];
    size_t device_count = test_open_devices(devices, 8);
    for (size_t d = 0; d < device_count; ++d) {
        char dir[] = "/tmp/tailor-rebuilds-XXXXXX";
        if (!mkdtemp(dir)) {
            CHECK(0, "mkdtemp failed");
            continue;
        }
        enum program_id ids[PROGRAM_COUNT];
        size_t count = chosen_programs(&devices[d], ids);
        tailor_cache_stats first = build_all(&devices[d], dir, NULL, ids, count);
        CHECK(first.source_builds == count && first.stores == count, "the first handle built %llu, stored %llu of %zu",
              (unsigned long long)first.source_builds, (unsigned long long)first.stores, count);

        tailor_cache_stats host = build_all(&devices[d], dir, "REDUCE_SMALL_N=7,SGEMM_SMALL_DIM=3,SGEMM_MID_PERCENT=9,"
                                                              "REDUCE_GROUPS_PER_CU=3",
                                            ids, count);
        CHECK(host.source_builds == 0 && host.disk_hits == count,
              "host thresholds rebuilt %llu programs (%llu from disk of %zu)",
              (unsigned long long)host.source_builds, (unsigned long long)host.disk_hits, count);

        // Each change takes the first of two valid values that differs
        // from the device's own, so that it is a change on every profile.
        static const struct {
            enum param_id param;
            int values[2];
        } kernel_changes[] = {
            {TUNE_SGEMM_SMALL_RM, {3, 2}},
            {TUNE_REDUCE_UNROLL, {3, 2}},
            {TUNE_SGEMM_PAD_B, {4, 0}},
        };
        for (size_t k = 0; k < sizeof kernel_changes / sizeof kernel_changes[0]; ++k) {
            enum param_id param = kernel_changes[k].param;
            int current = default_value(&devices[d], param);
            int value = kernel_changes[k].values[kernel_changes[k].values[0] == current];
            char tuning[64];
            snprintf(tuning, sizeof tuning, "%s=%d", param_table[param].name, value);
            size_t readers = readers_among(param, ids, count);
            tailor_cache_stats changed = build_all(&devices[d], dir, tuning, ids, count);
            CHECK(readers > 0 && changed.source_builds == readers && changed.disk_hits == count - readers,
                  "%s (default %d) rebuilt %llu programs and loaded %llu; %zu read it", tuning, current,
                  (unsigned long long)changed.source_builds, (unsigned long long)changed.disk_hits, readers);
        }
        char command[64];
        snprintf(command, sizeof command, "rm -rf %s", dir);
        CHECK(system(command) == 0, "removing %s", dir);
    }
    test_close_devices(devices, device_count);
    return test_exit_status("test_rebuilds");
}
