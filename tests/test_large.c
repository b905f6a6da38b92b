// Sizes past 2^31 elements, where a 32-bit index would wrap: a reduction of
// 2^31 + 5 floats (8 GiB) with markers beyond 2^31, and an offset range that
// straddles 2^31. Devices whose largest allocation is smaller are skipped
// (on POCL here; the H100 runs it).
#include <stdint.h>
#include <stdlib.h>

#include "support.h"

#define LARGE_N (((size_t)1 << 31) + 5)

static int write_float(const struct test_device *d, cl_mem buffer, size_t index, float value)
{
    return clEnqueueWriteBuffer(d->queue, buffer, CL_TRUE, index * sizeof value, sizeof value, &value, 0,
                                NULL, NULL) == CL_SUCCESS
               ? 0
               : -1;
}

static float reduce(const struct test_device *d, tailor_context *handle, tailor_reduce_op op, cl_mem x,
                    size_t offset, size_t n, cl_mem result)
{
    float got = -12345;
    CHECK_STATUS(tailor_reduce(handle, d->queue, op, TAILOR_F32, n, x, offset, result, 0, 0, NULL, NULL),
                 TAILOR_SUCCESS);
    test_read(d, result, 0, sizeof got, &got);
    return got;
}

// Returns whether the device could hold the data.
static int large_reduction(const struct test_device *d)
{
    size_t bytes = LARGE_N * sizeof(float);
    if (d->info.max_alloc_bytes < bytes || d->info.global_mem_bytes < bytes + bytes / 4) {
        fprintf(stderr, "  %s: largest allocation %.1f GiB, too small for 2^31 + 5 floats: skipped\n",
                d->choice.device_name, d->info.max_alloc_bytes / 1073741824.0);
        return 0;
    }
    tailor_context *handle = test_handle(d, NULL, NULL);
    cl_int error;
    cl_mem x = clCreateBuffer(d->context, CL_MEM_READ_WRITE, bytes, NULL, &error);
    cl_mem result = test_buffer(d, CL_MEM_READ_WRITE, sizeof(float), NULL);
    CHECK(error == CL_SUCCESS, "allocating %zu bytes: %d", bytes, (int)error);
    if (!handle || error != CL_SUCCESS || !result)
        goto done;
    // {1, -1, 2, -2} repeated sums to 0 over every whole period.
    const float pattern[4] = {1, -1, 2, -2};
    size_t whole = bytes / sizeof pattern * sizeof pattern;
    error = clEnqueueFillBuffer(d->queue, x, pattern, sizeof pattern, 0, whole, 0, NULL, NULL);
    CHECK(error == CL_SUCCESS && clFinish(d->queue) == CL_SUCCESS, "filling 8 GiB: %d", (int)error);
    size_t last = LARGE_N - 1; // index 2^31 + 4, pattern value 1 (not written by the fill)
    size_t high = ((size_t)1 << 31) + 1, low = ((size_t)1 << 31) - 3;
    CHECK(write_float(d, x, last, 1) == 0 && write_float(d, x, high, 1000) == 0 &&
              write_float(d, x, low, -3000) == 0,
          "writing the markers");
    // Markers replace pattern values -1 (at 2^31 + 1) and -1 (at 2^31 - 3).
    float expected_sum = 1 + (1000 - -1) + (-3000 - -1);
    float sum = reduce(d, handle, TAILOR_REDUCE_SUM, x, 0, LARGE_N, result);
    CHECK(sum == expected_sum, "sum of 2^31 + 5 floats: %g, expected %g", sum, expected_sum);
    float max = reduce(d, handle, TAILOR_REDUCE_MAX, x, 0, LARGE_N, result);
    CHECK(max == 1000, "max of 2^31 + 5 floats: %g, expected 1000", max);
    // A short range straddling 2^31 by its offset.
    float min = reduce(d, handle, TAILOR_REDUCE_MIN, x, low - 2, 8, result);
    CHECK(min == -3000, "min of 8 floats at offset 2^31 - 5: %g, expected -3000", min);
    float tail = reduce(d, handle, TAILOR_REDUCE_SUM, x, high, LARGE_N - high, result);
    CHECK(tail == 1000 + 2 - 2 + 1, "sum past 2^31 + 1: %g, expected 1001", tail);
    fprintf(stderr, "  %s: reductions over 2^31 + 5 floats checked\n", d->choice.device_name);
done:
    if (x)
        clReleaseMemObject(x);
    if (result)
        clReleaseMemObject(result);
    tailor_context_release(&handle);
    return 1;
}

int main(void)
{
    struct test_device devices[16];
    size_t count = test_open_devices(devices, 16);
    int ran = 0;
    for (size_t i = 0; i < count; ++i)
        ran += large_reduction(&devices[i]);
    test_close_devices(devices, count);
    if (!ran) {
        fprintf(stderr, "no device can hold 8 GiB in one buffer: skipped\n");
        return TEST_SKIPPED;
    }
    return test_exit_status("test_large");
}
