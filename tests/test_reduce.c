// tailor_reduce against a C reference on every device, under every profile
// the device can run, over sizes that cross every threshold of the dispatch
// and the kernels, with misaligned offsets and guard elements around both
// ranges; f32, f64 where the device has it, f16 and bf16.
//
// usage: test_reduce [--small] [--profile NAME]
//   --small   sizes up to a few thousand (for oclgrind)
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "half_float.h"
#include "support.h"

#define GUARD 5
#define RESULT_OFFSET 3

// Documented bound of a float sum: 128 * 2^-24 * sum(|x_i|) (2^-53 for double).
#define SUM_ERROR_ULPS 128

static const char *const op_names[] = {"sum", "min", "max"};
static const char *const dtype_names[] = {"f32", "f64", "f16", "bf16"};

static size_t element_size(tailor_dtype dtype)
{
    return dtype == TAILOR_F64 ? 8 : dtype == TAILOR_F32 ? 4 : 2;
}

// v as the device stores it.
static double stored(double v, tailor_dtype dtype)
{
    switch (dtype) {
    case TAILOR_F32:
        return (float)v;
    case TAILOR_F16:
        return half_to_float(half_from_float((float)v));
    case TAILOR_BF16:
        return bf16_to_float(bf16_from_float((float)v));
    default:
        return v;
    }
}

struct run {
    const struct test_device *device;
    tailor_context *handle;
    const char *label; // profile and tuning, for messages
};

enum pattern {
    PATTERN_EXACT,  // small integers: every sum is exact, a lost element shows
    PATTERN_RANDOM, // uniform in [-1, 1): sums within the documented bound
};

static double poison_for(tailor_reduce_op op)
{
    // A guard element that changes the result if it is read.
    return op == TAILOR_REDUCE_SUM ? 1e6 : op == TAILOR_REDUCE_MIN ? -1e30 : 1e30;
}

static void fill(double *x, size_t n, enum pattern pattern, unsigned long long *seed)
{
    for (size_t i = 0; i < n; ++i)
        x[i] = pattern == PATTERN_EXACT ? (double)((i * 7 + 3) % 11) - 5.0
                                        : 2.0 * test_uniform(seed) - 1.0;
    if (pattern == PATTERN_EXACT && n >= 2) {
        x[0] += 1000;
        x[n - 1] += 2000;
        size_t lowest = (size_t)(test_random(seed) % n), highest = (size_t)(test_random(seed) % n);
        x[lowest] = -7777;
        x[highest] = 8888;
    }
}

struct reference {
    double value;
    double magnitude; // sum of |x_i|
};

static struct reference reference_of(tailor_reduce_op op, const double *x, size_t n)
{
    struct reference r = {op == TAILOR_REDUCE_SUM ? 0.0 : NAN, 0};
    long double sum = 0;
    for (size_t i = 0; i < n; ++i) {
        sum += x[i];
        r.magnitude += fabs(x[i]);
        if (op == TAILOR_REDUCE_MIN)
            r.value = fmin(r.value, x[i]);
        else if (op == TAILOR_REDUCE_MAX)
            r.value = fmax(r.value, x[i]);
    }
    if (op == TAILOR_REDUCE_SUM)
        r.value = (double)sum;
    return r;
}

// Copies x (in the storage type) between guards into a device buffer.
static cl_mem upload(const struct run *run, cl_mem_flags flags, tailor_dtype dtype, const double *x, size_t n,
                     size_t offset, double poison)
{
    size_t element = element_size(dtype), count = offset + n + GUARD;
    unsigned char *host = malloc(count * element);
    if (!host)
        return NULL;
    for (size_t i = 0; i < count; ++i) {
        double v = i >= offset && i < offset + n ? x[i - offset] : poison;
        float f = (float)v;
        uint16_t h = dtype == TAILOR_F16 ? half_from_float(f) : bf16_from_float(f);
        memcpy(host + i * element, dtype == TAILOR_F64 ? (void *)&v : dtype == TAILOR_F32 ? (void *)&f : (void *)&h,
               element);
    }
    cl_mem buffer = test_buffer(run->device, flags, count * element, host);
    free(host);
    return buffer;
}

static double element_at(const unsigned char *bytes, size_t index, tailor_dtype dtype)
{
    float f;
    double d;
    uint16_t h;
    switch (dtype) {
    case TAILOR_F32:
        memcpy(&f, bytes + 4 * index, 4);
        return f;
    case TAILOR_F64:
        memcpy(&d, bytes + 8 * index, 8);
        return d;
    default:
        memcpy(&h, bytes + 2 * index, 2);
        return dtype == TAILOR_F16 ? half_to_float(h) : bf16_to_float(h);
    }
}

// How far a sum may be from the exact sum of the stored values: the float
// (double) sum's bound, then for 16-bit data the one rounding of the result
// to the stored type, half an ulp (2^-11 relative for f16, 2^-8 for bf16;
// f16 results below 2^-14 are on its subnormal spacing, 2^-24).
static double sum_bound(tailor_dtype dtype, const struct reference *r)
{
    double unit = dtype == TAILOR_F64 ? DBL_EPSILON / 2 : FLT_EPSILON / 2;
    double bound = SUM_ERROR_ULPS * unit * r->magnitude;
    if (dtype == TAILOR_F16)
        bound += ldexp(fabs(r->value) + bound, -11) + ldexp(1, -25);
    else if (dtype == TAILOR_BF16)
        bound += ldexp(fabs(r->value) + bound, -8);
    return bound;
}

static int same_value(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

static void check_one(const struct run *run, tailor_reduce_op op, tailor_dtype dtype, const double *x,
                      size_t n, size_t offset, enum pattern pattern)
{
    size_t element = element_size(dtype);
    const char *type = dtype_names[dtype];
    // The reference sees the values as the device stores them.
    double *rounded = malloc((n ? n : 1) * sizeof *rounded);
    for (size_t i = 0; i < n; ++i)
        rounded[i] = stored(x[i], dtype);
    struct reference expected = reference_of(op, rounded, n);
    free(rounded);

    cl_mem input = upload(run, CL_MEM_READ_ONLY, dtype, x, n, offset, poison_for(op));
    double sentinel = -12345.0;
    cl_mem result = upload(run, CL_MEM_READ_WRITE, dtype, &sentinel, 1, RESULT_OFFSET, -54321.0);
    if (!input || !result)
        goto done;
    cl_event done_event = NULL;
    tailor_status status = tailor_reduce(run->handle, run->device->queue, op, dtype, n, input, offset,
                                         result, RESULT_OFFSET, 0, NULL, &done_event);
    CHECK(status == TAILOR_SUCCESS, "%s %s %s n=%zu offset=%zu: %s: %s", run->label, op_names[op], type, n,
          offset, tailor_status_name(status), tailor_last_error());
    if (status != TAILOR_SUCCESS)
        goto done;
    CHECK(done_event != NULL, "no event returned");
    if (done_event) {
        CHECK(clWaitForEvents(1, &done_event) == CL_SUCCESS, "waiting for the event failed");
        clReleaseEvent(done_event);
    }
    unsigned char out[8 * (RESULT_OFFSET + 1 + GUARD)];
    if (test_read(run->device, result, 0, sizeof out / 8 * element, out) != 0)
        goto done;
    for (size_t i = 0; i < RESULT_OFFSET + 1 + GUARD; ++i) {
        if (i == RESULT_OFFSET)
            continue;
        CHECK(element_at(out, i, dtype) == stored(-54321.0, dtype),
              "%s: write outside the result element at %zu", run->label, i);
    }
    double got = element_at(out, RESULT_OFFSET, dtype);
    if (n == 0) {
        CHECK(got == stored(-12345.0, dtype), "%s: n = 0 wrote the result", run->label);
    } else if (op != TAILOR_REDUCE_SUM || pattern == PATTERN_EXACT) {
        // Exact sums stay exact in float: only the final store rounds.
        double want = stored(expected.value, dtype);
        CHECK(same_value(got, want), "%s %s %s n=%zu offset=%zu: got %.17g, expected %.17g", run->label,
              op_names[op], type, n, offset, got, want);
    } else {
        double bound = sum_bound(dtype, &expected);
        CHECK(fabs(got - expected.value) <= bound,
              "%s sum %s n=%zu offset=%zu: got %.17g, expected %.17g, error %.3g > bound %.3g",
              run->label, type, n, offset, got, expected.value, fabs(got - expected.value), bound);
    }
done:
    if (input)
        clReleaseMemObject(input);
    if (result)
        clReleaseMemObject(result);
}

static void check_sizes(const struct run *run, tailor_dtype dtype, const size_t *sizes, size_t count,
                        const size_t *offsets, size_t offset_count, unsigned long long *seed)
{
    for (size_t s = 0; s < count; ++s) {
        size_t n = sizes[s];
        double *x = malloc((n ? n : 1) * sizeof *x);
        for (int pattern = PATTERN_EXACT; pattern <= PATTERN_RANDOM; ++pattern) {
            fill(x, n, (enum pattern)pattern, seed);
            for (size_t o = 0; o < offset_count; ++o)
                for (int op = TAILOR_REDUCE_SUM; op <= TAILOR_REDUCE_MAX; ++op)
                    check_one(run, (tailor_reduce_op)op, dtype, x, n, offsets[o], (enum pattern)pattern);
        }
        free(x);
    }
}

// NaNs are ignored by min and max, infinities are their extremes; infinities
// survive a sum.
static void check_special_values(const struct run *run, tailor_dtype dtype)
{
    static const size_t sizes[] = {3, 37, 5000};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        size_t n = sizes[s];
        double *x = malloc(n * sizeof *x);
        for (size_t i = 0; i < n; ++i)
            x[i] = i % 2 ? NAN : (double)i;
        check_one(run, TAILOR_REDUCE_MIN, dtype, x, n, 0, PATTERN_EXACT);
        check_one(run, TAILOR_REDUCE_MAX, dtype, x, n, 1, PATTERN_EXACT);
        x[n / 2] = -INFINITY;
        x[n - 1] = INFINITY;
        check_one(run, TAILOR_REDUCE_MIN, dtype, x, n, 1, PATTERN_EXACT);
        check_one(run, TAILOR_REDUCE_MAX, dtype, x, n, 0, PATTERN_EXACT);
        for (size_t i = 0; i < n; ++i)
            x[i] = NAN;
        check_one(run, TAILOR_REDUCE_MAX, dtype, x, n, 0, PATTERN_EXACT);
        for (size_t i = 0; i < n; ++i)
            x[i] = 1.0;
        x[n / 2] = INFINITY;
        check_one(run, TAILOR_REDUCE_SUM, dtype, x, n, 0, PATTERN_EXACT);
        x[n - 1] = -INFINITY;
        check_one(run, TAILOR_REDUCE_SUM, dtype, x, n, 0, PATTERN_EXACT);
        free(x);
    }
}

// A sum past f16's largest finite value, 65504, rounds to infinity from
// 65520 (half an ulp above) on, and to 65504 below that: three large f16
// values (first, middle, last) among small ones that add up to zero. Every
// partial sum is exact in float, so only the final store rounds.
static void check_f16_overflow(const struct run *run)
{
    static const size_t sizes[] = {3, 37, 5000, 100003};
    static const double large[][3] = {
        {32768, 30720, 2031},    // 65519: 65504
        {32768, 30720, 2032},    // 65520: infinity
        {65504, 65504, 65504},   // infinity
        {-32768, -30720, -2032}, // -infinity
    };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        size_t n = sizes[s], at[3] = {0, n / 2, n - 1}, first_small = n;
        double *x = malloc(n * sizeof *x);
        for (size_t t = 0; t < sizeof large / sizeof large[0]; ++t) {
            double small_sum = 0;
            for (size_t i = 0; i < n; ++i) {
                x[i] = (i % 2 ? 1.0 : -1.0) * (double)(i / 2 % 8 + 1);
                if (i == at[0] || i == at[1] || i == at[2])
                    continue;
                small_sum += x[i];
                first_small = first_small < n ? first_small : i;
            }
            if (first_small < n)
                x[first_small] -= small_sum;
            double total = 0;
            for (size_t k = 0; k < 3; ++k)
                x[at[k]] = large[t][k];
            for (size_t i = 0; i < n; ++i)
                total += x[i];
            CHECK(total == large[t][0] + large[t][1] + large[t][2], "n=%zu: the small values add up to %g",
                  n, total - (large[t][0] + large[t][1] + large[t][2]));
            check_one(run, TAILOR_REDUCE_SUM, TAILOR_F16, x, n, 1, PATTERN_EXACT);
        }
        free(x);
    }
}

// The returned event waits for the wait list: gated by a user event, the
// reduction must not complete before the gate opens.
static void check_wait_list(const struct run *run, size_t n)
{
    cl_int error;
    cl_event gate = clCreateUserEvent(run->device->context, &error);
    CHECK(error == CL_SUCCESS, "clCreateUserEvent failed");
    if (error != CL_SUCCESS)
        return;
    float *x = malloc((n ? n : 1) * sizeof *x);
    for (size_t i = 0; i < n; ++i)
        x[i] = 1.0f;
    float initial = -1.0f, got = 0;
    cl_mem input = test_buffer(run->device, CL_MEM_READ_ONLY, (n ? n : 1) * sizeof *x, x);
    cl_mem result = test_buffer(run->device, CL_MEM_READ_WRITE, sizeof initial, &initial);
    cl_event done = NULL;
    CHECK_STATUS(tailor_reduce(run->handle, run->device->queue, TAILOR_REDUCE_SUM, TAILOR_F32, n, input, 0,
                               result, 0, 1, &gate, &done),
                 TAILOR_SUCCESS);
    clFlush(run->device->queue);
    usleep(20000);
    cl_int state = CL_COMPLETE;
    if (done)
        clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, NULL);
    CHECK(done && state != CL_COMPLETE, "%s n=%zu: the reduction completed before its wait list",
          run->label, n);
    clSetUserEventStatus(gate, CL_COMPLETE);
    if (done) {
        CHECK(clWaitForEvents(1, &done) == CL_SUCCESS, "waiting failed");
        clReleaseEvent(done);
    }
    test_read(run->device, result, 0, sizeof got, &got);
    CHECK(got == (n ? (float)n : initial), "%s n=%zu: after the gate got %g", run->label, n, got);
    clReleaseEvent(gate);
    clReleaseMemObject(input);
    clReleaseMemObject(result);
    free(x);
}

// An out-of-order queue: the two passes must still run in order.
static void check_out_of_order_queue(const struct test_device *device, tailor_context *handle)
{
    cl_int error;
    cl_command_queue queue = clCreateCommandQueue(device->context, device->choice.device,
                                                  CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &error);
    if (error != CL_SUCCESS)
        return; // the device has none
    size_t n = 300001;
    float *x = malloc(n * sizeof *x);
    for (size_t i = 0; i < n; ++i)
        x[i] = (float)(i % 3);
    cl_mem input = test_buffer(device, CL_MEM_READ_ONLY, n * sizeof *x, x);
    float got = 0;
    cl_mem result = test_buffer(device, CL_MEM_READ_WRITE, sizeof got, &got);
    cl_event done = NULL;
    CHECK_STATUS(tailor_reduce(handle, queue, TAILOR_REDUCE_SUM, TAILOR_F32, n, input, 0, result, 0, 0, NULL,
                               &done),
                 TAILOR_SUCCESS);
    if (done) {
        clEnqueueReadBuffer(queue, result, CL_TRUE, 0, sizeof got, &got, 1, &done, NULL);
        clReleaseEvent(done);
    }
    CHECK(got == 300000.0f, "out-of-order queue: got %g, expected 300000", got);
    clReleaseMemObject(input);
    clReleaseMemObject(result);
    clReleaseCommandQueue(queue);
    free(x);
}

static void run_profile(const struct test_device *device, const char *profile, const char *tuning,
                        int small, unsigned long long *seed)
{
    struct run run = {device, test_handle(device, profile, tuning), NULL};
    char label[160];
    snprintf(label, sizeof label, "[%s %s]", profile, tuning ? tuning : "default tuning");
    run.label = label;
    if (!run.handle)
        return;
    fprintf(stderr, "  %s\n", label);
    static const size_t small_sizes[] = {0,  1,  2,  3,   4,   5,   7,   8,   15,  16,  17,   31,
                                         32, 33, 63, 64,  65,  127, 128, 129, 255, 256, 257, 999,
                                         1000, 1001, 1023, 1024, 1025, 2047, 2048, 2049, 3001};
    static const size_t large_sizes[] = {16383, 16384, 16385, 32767, 32769, 65535, 65536, 65537,
                                         100003, (1 << 20) + 7};
    // Under oclgrind the 16-bit types and f64, whose kernels differ from f32's
    // only in their loads, sums and final store, take a third of the sizes:
    // every path of the head, the vectors and the tail, at each misalignment.
    static const size_t small_sizes_few[] = {0, 1, 2, 7, 8, 9, 17, 63, 64, 65, 257, 1025, 3001};
    static const size_t offsets[] = {0, 1, 3, 6};
    static const tailor_dtype dtypes[] = {TAILOR_F32, TAILOR_F64, TAILOR_F16, TAILOR_BF16};
    for (size_t t = 0; t < sizeof dtypes / sizeof dtypes[0]; ++t) {
        if (dtypes[t] == TAILOR_F64 && !device->info.has_fp64)
            continue;
        if (small && dtypes[t] != TAILOR_F32)
            check_sizes(&run, dtypes[t], small_sizes_few, sizeof small_sizes_few / sizeof small_sizes_few[0],
                        offsets, sizeof offsets / sizeof offsets[0], seed);
        else
            check_sizes(&run, dtypes[t], small_sizes, sizeof small_sizes / sizeof small_sizes[0], offsets,
                        sizeof offsets / sizeof offsets[0], seed);
        if (!small)
            check_sizes(&run, dtypes[t], large_sizes, sizeof large_sizes / sizeof large_sizes[0], offsets, 2,
                        seed);
        check_special_values(&run, dtypes[t]);
    }
    check_f16_overflow(&run);
    if (!small) {
        check_wait_list(&run, 0);
        check_wait_list(&run, 100);
        check_wait_list(&run, 1000003);
        check_out_of_order_queue(device, run.handle);
    }
    tailor_context_release(&run.handle);
}

// 2^26 elements (and a few more, misaligned), exact and random, on the
// detected profile: the size the accuracy promise is stated up to (f16 adds
// the same float sum up, and only rounds its result).
static void run_large(const struct test_device *device, unsigned long long *seed)
{
    struct run run = {device, test_handle(device, NULL, NULL), "[detected, 2^26]"};
    if (!run.handle)
        return;
    size_t n = ((size_t)1 << 26) + 3;
    if (n * sizeof(float) * 2 > device->info.max_alloc_bytes) {
        tailor_context_release(&run.handle);
        return;
    }
    double *x = malloc(n * sizeof *x);
    for (int pattern = PATTERN_EXACT; pattern <= PATTERN_RANDOM; ++pattern) {
        fill(x, n, (enum pattern)pattern, seed);
        check_one(&run, TAILOR_REDUCE_SUM, TAILOR_F32, x, n, 1, (enum pattern)pattern);
        check_one(&run, TAILOR_REDUCE_MAX, TAILOR_F32, x, n, 0, (enum pattern)pattern);
        check_one(&run, TAILOR_REDUCE_SUM, TAILOR_F16, x, n, 1, (enum pattern)pattern);
    }
    free(x);
    tailor_context_release(&run.handle);
}

int main(int argc, char **argv)
{
    struct test_options options = test_parse_options(argc, argv);
    struct test_device devices[16];
    size_t count = test_open_devices(devices, 16);
    unsigned long long seed = 0x9e3779b97f4a7c15ull;
    for (size_t d = 0; d < count; ++d) {
        const char *profiles[4];
        size_t profile_count = test_chosen_profiles(&devices[d], &options, profiles, 4, 1);
        for (size_t p = 0; p < profile_count; ++p) {
            run_profile(&devices[d], profiles[p], NULL, options.small, &seed);
            // A low threshold sends small sizes through the multi-group kernels.
            run_profile(&devices[d], profiles[p], "REDUCE_SMALL_N=100", options.small, &seed);
        }
        if (!options.small && test_runs_own(&options))
            run_large(&devices[d], &seed);
    }
    test_close_devices(devices, count);
    return test_exit_status("test_reduce");
}
