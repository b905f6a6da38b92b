#include "support.h"

#include <stdlib.h>
#include <string.h>

int test_failure_count;

size_t test_open_devices(struct test_device *devices, size_t capacity)
{
    const char *selector = getenv("TAILOR_TEST_DEVICE");
    struct device_choice all[64];
    size_t found = list_devices(all, sizeof all / sizeof all[0]);
    size_t count = 0;
    for (size_t i = 0; i < found && count < capacity; ++i) {
        if (selector && *selector && !device_matches(&all[i], selector))
            continue;
        struct test_device *d = &devices[count];
        memset(d, 0, sizeof *d);
        d->choice = all[i];
        cl_int error;
        d->context = clCreateContext(NULL, 1, &all[i].device, NULL, NULL, &error);
        if (error != CL_SUCCESS)
            continue;
        d->queue = clCreateCommandQueue(d->context, all[i].device, 0, &error);
        if (error != CL_SUCCESS) {
            clReleaseContext(d->context);
            continue;
        }
        tailor_context *probe = test_handle(d, NULL, NULL);
        if (!probe) {
            clReleaseCommandQueue(d->queue);
            clReleaseContext(d->context);
            continue;
        }
        tailor_context_device_info(probe, &d->info);
        tailor_context_release(&probe);
        fprintf(stderr, "device [%u:%u] %s / %s, profile %s\n", all[i].platform_index,
                all[i].device_index, all[i].platform_name, all[i].device_name, d->info.profile_name);
        ++count;
    }
    if (count == 0) {
        fprintf(stderr, "no OpenCL device%s%s: skipped\n", selector ? " matches " : "",
                selector ? selector : "");
        exit(TEST_SKIPPED);
    }
    return count;
}

void test_close_devices(struct test_device *devices, size_t count)
{
    for (size_t i = 0; i < count; ++i) {
        // POCL crashes at exit while a worker still compiles pending work.
        clFinish(devices[i].queue);
        clReleaseCommandQueue(devices[i].queue);
        clReleaseContext(devices[i].context);
    }
}

tailor_context *test_handle(const struct test_device *device, const char *profile, const char *tuning)
{
    tailor_settings settings;
    tailor_default_settings(&settings);
    settings.cache_mode = TAILOR_CACHE_OFF;
    settings.profile = profile ? profile : "";
    settings.tuning = tuning;
    tailor_context *handle = NULL;
    tailor_status status = tailor_context_create(device->context, device->choice.device, &settings, &handle);
    CHECK(status == TAILOR_SUCCESS, "tailor_context_create(profile %s): %s", profile ? profile : "detected",
          tailor_last_error());
    return handle;
}

size_t test_profiles(const struct test_device *device, const char **profiles, size_t capacity,
                     int uses_subgroups)
{
    size_t count = 0;
    if (count < capacity)
        profiles[count++] = device->info.profile_name;
    if (count < capacity && strcmp(device->info.profile_name, "generic") != 0)
        profiles[count++] = "generic";
    // The sub-group variants run wherever the device has sub-groups, a CPU's too.
    if (uses_subgroups && count < capacity && device->info.has_subgroups &&
        strcmp(device->info.profile_name, "intel-gpu") != 0)
        profiles[count++] = "intel-gpu";
    return count;
}

struct test_options test_parse_options(int argc, char **argv)
{
    struct test_options options = {0, NULL, TEST_PROFILES_ALL};
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--small") == 0)
            options.small = 1;
        else if (i + 1 < argc && strcmp(argv[i], "--profile") == 0)
            options.profile = argv[++i];
        else if (strcmp(argv[i], "--own-profile") == 0)
            options.share = TEST_PROFILES_OWN;
        else if (strcmp(argv[i], "--other-profiles") == 0)
            options.share = TEST_PROFILES_OTHERS;
    }
    return options;
}

size_t test_chosen_profiles(const struct test_device *device, const struct test_options *options,
                            const char **profiles, size_t capacity, int uses_subgroups)
{
    if (options->profile) {
        profiles[0] = options->profile;
        return 1;
    }
    size_t listed = test_profiles(device, profiles, capacity, uses_subgroups), count = 0;
    for (size_t i = 0; i < listed; ++i)
        if (test_takes_profile(options, device, profiles[i]))
            profiles[count++] = profiles[i];
    return count;
}

int test_takes_profile(const struct test_options *options, const struct test_device *device,
                       const char *profile)
{
    int own = !profile || strcmp(profile, device->info.profile_name) == 0;
    return options->share == TEST_PROFILES_ALL || (options->share == TEST_PROFILES_OWN) == own;
}

int test_runs_own(const struct test_options *options)
{
    return options->share != TEST_PROFILES_OTHERS;
}

cl_mem test_buffer(const struct test_device *device, cl_mem_flags flags, size_t bytes, const void *data)
{
    cl_int error;
    cl_mem buffer = clCreateBuffer(device->context, flags | (data ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                                   (void *)data, &error);
    CHECK(error == CL_SUCCESS, "clCreateBuffer(%zu bytes) failed: %d", bytes, (int)error);
    return error == CL_SUCCESS ? buffer : NULL;
}

int test_read(const struct test_device *device, cl_mem buffer, size_t offset, size_t bytes, void *data)
{
    cl_int error = clEnqueueReadBuffer(device->queue, buffer, CL_TRUE, offset, bytes, data, 0, NULL, NULL);
    CHECK(error == CL_SUCCESS, "clEnqueueReadBuffer failed: %d", (int)error);
    return error == CL_SUCCESS ? 0 : -1;
}

int test_exit_status(const char *test_name)
{
    if (test_failure_count)
        fprintf(stderr, "%s: %d check(s) failed\n", test_name, test_failure_count);
    else
        fprintf(stderr, "%s: all checks passed\n", test_name);
    return test_failure_count ? 1 : 0;
}

unsigned long long test_random(unsigned long long *state)
{
    unsigned long long x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

double test_uniform(unsigned long long *state)
{
    return (double)(test_random(state) >> 11) * (1.0 / 9007199254740992.0);
}
