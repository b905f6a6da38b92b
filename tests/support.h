// What the device tests share: the devices to run on, handles with a chosen
// profile, buffers, and checks that count failures instead of stopping.
#ifndef TAILOR_TEST_SUPPORT_H
#define TAILOR_TEST_SUPPORT_H

#include <stdio.h>

#include "device_select.h"
#include "tailor.h"

#define TEST_SKIPPED 77

struct test_device {
    struct device_choice choice;
    cl_context context;
    cl_command_queue queue;
    tailor_device_info info; // as the detected profile sees it
};

// Opens every device TAILOR_TEST_DEVICE selects (every device if unset), at
// most `capacity`. Exits with TEST_SKIPPED if there is none.
size_t test_open_devices(struct test_device *devices, size_t capacity);
void test_close_devices(struct test_device *devices, size_t count);

// A handle with the cache off and the profile forced (NULL: detected).
// Returns NULL (and records a failure) if creation fails.
tailor_context *test_handle(const struct test_device *device, const char *profile, const char *tuning);

// The profiles a device can run: its detected one, "generic", and, for
// kernels with sub-group variants, "intel-gpu" where the device has
// sub-groups. Returns how many.
size_t test_profiles(const struct test_device *device, const char **profiles, size_t capacity,
                     int uses_subgroups);

// The options the device tests share: --small (small shapes, for oclgrind),
// --profile NAME (only that profile), and --own-profile / --other-profiles:
// of test_profiles, only the device's own (with the checks that run under
// the detected profile, its default tuning and bad input), or only the
// others (plain meson test runs the first, the `profiles` suite the second).
enum test_profile_share { TEST_PROFILES_ALL, TEST_PROFILES_OWN, TEST_PROFILES_OTHERS };
struct test_options {
    int small;
    const char *profile;
    enum test_profile_share share;
};
struct test_options test_parse_options(int argc, char **argv);

// The profiles a test runs on a device: the --profile given, else those of
// test_profiles that the share takes.
size_t test_chosen_profiles(const struct test_device *device, const struct test_options *options,
                            const char **profiles, size_t capacity, int uses_subgroups);

// Whether a run under `profile` (NULL: the device's own) belongs to the
// share the options ask for: the device's own profile to --own-profile,
// the others to --other-profiles, every one to neither.
int test_takes_profile(const struct test_options *options, const struct test_device *device,
                       const char *profile);

// Whether the test runs its checks outside the profile loop (the detected
// profile's default tuning, bad input, large sizes): all but
// --other-profiles.
int test_runs_own(const struct test_options *options);

cl_mem test_buffer(const struct test_device *device, cl_mem_flags flags, size_t bytes, const void *data);
int test_read(const struct test_device *device, cl_mem buffer, size_t offset, size_t bytes, void *data);

extern int test_failure_count;

#define CHECK(condition, ...)                                                                       \
    do {                                                                                            \
        if (!(condition)) {                                                                         \
            ++test_failure_count;                                                                   \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #condition);           \
            fprintf(stderr, __VA_ARGS__);                                                           \
            fputc('\n', stderr);                                                                    \
        }                                                                                           \
    } while (0)

#define CHECK_STATUS(call, expected)                                                                \
    do {                                                                                            \
        tailor_status got_ = (call);                                                                \
        CHECK(got_ == (expected), "%s returned %s, expected %s (%s)", #call,                        \
              tailor_status_name(got_), tailor_status_name(expected), tailor_last_error());          \
    } while (0)

// 0 if no check failed, else 1, with a summary on stderr.
int test_exit_status(const char *test_name);

// Deterministic pseudo-random numbers (xorshift), so failures reproduce.
unsigned long long test_random(unsigned long long *state);
double test_uniform(unsigned long long *state); // [0, 1)

#endif
