// Every operation on whatever device runs it, at the shapes each operation
// settles on there: under Oclgrind with --max-wgsize 64 those are smaller
// than the defaults (tests/meson.build runs it so), on POCL the defaults.
// Integer-valued data, so every result is exact.
//
// usage: test_small_device [--profile NAME]   (default: generic)
#include <stdlib.h>
#include <string.h>

#include "support.h"

// Whether the plan of `call` holds a -D option that fell back for this device.
static int plan_fell_back(tailor_context *handle, const tailor_call *call, char *program, size_t size)
{
    tailor_plan plan;
    if (tailor_explain(handle, call, &plan) != TAILOR_SUCCESS)
        return -1;
    snprintf(program, size, "%s", plan.program);
    for (size_t i = 0; i < plan.define_count; ++i)
        if (plan.defines[i].origin == TAILOR_ORIGIN_FALLBACK)
            return 1;
    return 0;
}

static float small_integer(unsigned long long *seed)
{
    return (float)(int)(test_random(seed) % 7) - 3.0f;
}

static float *random_floats(size_t count, unsigned long long *seed)
{
    float *values = malloc(count * sizeof *values);
    for (size_t i = 0; values && i < count; ++i)
        values[i] = small_integer(seed);
    return values;
}

static void check_reduce(const struct test_device *device, tailor_context *handle, unsigned long long *seed)
{
    static const size_t sizes[] = {1, 1000, 100003};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        size_t n = sizes[s];
        float *x = random_floats(n, seed), result = 0.0f;
        double expected = 0.0;
        for (size_t i = 0; i < n; ++i)
            expected += x[i];
        cl_mem xb = test_buffer(device, CL_MEM_READ_ONLY, n * sizeof(float), x);
        cl_mem rb = test_buffer(device, CL_MEM_READ_WRITE, sizeof(float), NULL);
        CHECK_STATUS(tailor_reduce(handle, device->queue, TAILOR_REDUCE_SUM, TAILOR_F32, n, xb, 0, rb, 0, 0,
                                   NULL, NULL),
                     TAILOR_SUCCESS);
        CHECK(test_read(device, rb, 0, sizeof result, &result) == 0 && result == (float)expected,
              "sum of %zu: %g, expected %g", n, result, expected);
        clReleaseMemObject(xb);
        clReleaseMemObject(rb);
        free(x);
    }
}

static void check_gemv(const struct test_device *device, tailor_context *handle, unsigned long long *seed)
{
    static const struct {
        tailor_layout layout;
        tailor_trans trans;
        size_t m, n;
    } cases[] = {
        {TAILOR_ROW_MAJOR, TAILOR_NO_TRANS, 37, 300}, {TAILOR_ROW_MAJOR, TAILOR_TRANS, 37, 300},
        {TAILOR_COLUMN_MAJOR, TAILOR_NO_TRANS, 300, 37}, {TAILOR_ROW_MAJOR, TAILOR_NO_TRANS, 3000, 5},
        {TAILOR_ROW_MAJOR, TAILOR_TRANS, 5, 3000},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        size_t m = cases[c].m, n = cases[c].n;
        int row_major = cases[c].layout == TAILOR_ROW_MAJOR, trans = cases[c].trans == TAILOR_TRANS;
        size_t x_len = trans ? m : n, y_len = trans ? n : m;
        float *a = random_floats(m * n, seed), *x = random_floats(x_len, seed), *y = calloc(y_len, sizeof *y);
        cl_mem ab = test_buffer(device, CL_MEM_READ_ONLY, m * n * sizeof(float), a);
        cl_mem xb = test_buffer(device, CL_MEM_READ_ONLY, x_len * sizeof(float), x);
        cl_mem yb = test_buffer(device, CL_MEM_READ_WRITE, y_len * sizeof(float), y);
        CHECK_STATUS(tailor_sgemv(handle, device->queue, cases[c].layout, cases[c].trans, m, n, 1.0f, ab, 0,
                                  row_major ? n : m, xb, 0, 1, 0.0f, yb, 0, 1, 0, NULL, NULL),
                     TAILOR_SUCCESS);
        CHECK(test_read(device, yb, 0, y_len * sizeof(float), y) == 0, "reading y");
        int wrong = 0;
        for (size_t i = 0; i < y_len; ++i) {
            double expected = 0.0;
            for (size_t j = 0; j < x_len; ++j) {
                size_t row = trans ? j : i, col = trans ? i : j;
                expected += a[row_major ? row * n + col : col * m + row] * x[j];
            }
            wrong += y[i] != (float)expected;
        }
        CHECK(!wrong, "gemv case %zu (%zux%zu): %d wrong elements", c, m, n, wrong);
        clReleaseMemObject(ab);
        clReleaseMemObject(xb);
        clReleaseMemObject(yb);
        free(a);
        free(x);
        free(y);
    }
}

static void check_transpose(const struct test_device *device, tailor_context *handle, unsigned long long *seed)
{
    static const struct {
        size_t element_bytes, rows, cols;
    } cases[] = {{4, 67, 45}, {4, 128, 256}, {1, 33, 70}, {8, 40, 24}, {16, 9, 31}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        size_t e = cases[c].element_bytes, rows = cases[c].rows, cols = cases[c].cols, bytes = rows * cols * e;
        unsigned char *a = malloc(bytes), *b = malloc(bytes);
        for (size_t i = 0; i < bytes; ++i)
            a[i] = (unsigned char)test_random(seed);
        cl_mem ab = test_buffer(device, CL_MEM_READ_ONLY, bytes, a);
        cl_mem bb = test_buffer(device, CL_MEM_READ_WRITE, bytes, NULL);
        CHECK_STATUS(tailor_transpose(handle, device->queue, e, rows, cols, ab, 0, cols, bb, 0, rows, 0, NULL, NULL),
                     TAILOR_SUCCESS);
        int wrong = test_read(device, bb, 0, bytes, b) != 0;
        for (size_t r = 0; r < rows && !wrong; ++r)
            for (size_t col = 0; col < cols; ++col)
                wrong |= memcmp(b + (col * rows + r) * e, a + (r * cols + col) * e, e) != 0;
        CHECK(!wrong, "transpose of %zu-byte elements, %zux%zu", e, rows, cols);
        clReleaseMemObject(ab);
        clReleaseMemObject(bb);
        free(a);
        free(b);
    }
}

static void check_sgemm(const struct test_device *device, tailor_context *handle, unsigned long long *seed)
{
    static const struct {
        size_t m, n, k;
    } shapes[] = {{70, 50, 40}, {130, 66, 33}, {256, 256, 64}, {3, 90, 17}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
        for (int t = 0; t < 4; ++t) {
            size_t m = shapes[s].m, n = shapes[s].n, k = shapes[s].k;
            tailor_trans ta = (t & 1) ? TAILOR_TRANS : TAILOR_NO_TRANS, tb = (t & 2) ? TAILOR_TRANS : TAILOR_NO_TRANS;
            size_t lda = ta == TAILOR_TRANS ? m : k, ldb = tb == TAILOR_TRANS ? k : n;
            float *a = random_floats(m * k, seed), *b = random_floats(k * n, seed), *c = calloc(m * n, sizeof *c);
            cl_mem abuf = test_buffer(device, CL_MEM_READ_ONLY, m * k * sizeof(float), a);
            cl_mem bbuf = test_buffer(device, CL_MEM_READ_ONLY, k * n * sizeof(float), b);
            cl_mem cbuf = test_buffer(device, CL_MEM_READ_WRITE, m * n * sizeof(float), c);
            CHECK_STATUS(tailor_sgemm(handle, device->queue, TAILOR_ROW_MAJOR, ta, tb, m, n, k, 1.0f, abuf, 0, lda,
                                      bbuf, 0, ldb, 0.0f, cbuf, 0, n, 0, NULL, NULL),
                         TAILOR_SUCCESS);
            int wrong = test_read(device, cbuf, 0, m * n * sizeof(float), c) != 0;
            for (size_t i = 0; i < m; ++i)
                for (size_t j = 0; j < n; ++j) {
                    double expected = 0.0;
                    for (size_t p = 0; p < k; ++p)
                        expected += (ta == TAILOR_TRANS ? a[p * lda + i] : a[i * lda + p]) *
                                    (tb == TAILOR_TRANS ? b[j * ldb + p] : b[p * ldb + j]);
                    wrong += c[i * n + j] != (float)expected;
                }
            CHECK(!wrong, "sgemm %zux%zux%zu, %s%s: %d wrong elements (%s)", m, n, k,
                  ta == TAILOR_TRANS ? "t" : "n", tb == TAILOR_TRANS ? "t" : "n", wrong, tailor_last_variant());
            clReleaseMemObject(abuf);
            clReleaseMemObject(bbuf);
            clReleaseMemObject(cbuf);
            free(a);
            free(b);
            free(c);
        }
}

// On a device with less local memory than the SGEMM defaults need (8 KiB)
// or smaller work-groups (256 items), the tiled kernel runs with tiles that
// fell back below them.
static void check_fallback(const struct test_device *device, tailor_context *handle)
{
    cl_ulong local = 0;
    size_t group = 0;
    clGetDeviceInfo(device->choice.device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
    clGetDeviceInfo(device->choice.device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof group, &group, NULL);
    tailor_call call = {.operation = TAILOR_OP_SGEMM, .m = 256, .n = 256, .k = 64, .alpha = 1.0f};
    char program[64] = "";
    int fell_back = plan_fell_back(handle, &call, program, sizeof program);
    printf("%llu bytes of local memory, %zu-item groups: 256x256x64 runs %s, %s\n", (unsigned long long)local,
           group, program, fell_back > 0 ? "with smaller tiles than the defaults" : "at the profile's values");
    if (local < 8192 || group < 256)
        CHECK(fell_back == 1 && strstr(program, "sgemm_tiled"), "SGEMM on smaller tiles: %s (%d)", program,
              fell_back);
}

int main(int argc, char **argv)
{
    struct test_options options = test_parse_options(argc, argv);
    struct test_device devices[16];
    size_t count = test_open_devices(devices, 16);
    unsigned long long seed = 0x9e3779b97f4a7c15ull;
    for (size_t d = 0; d < count; ++d) {
        tailor_context *handle = test_handle(&devices[d], options.profile ? options.profile : "generic", NULL);
        if (!handle)
            continue;
        check_fallback(&devices[d], handle);
        check_reduce(&devices[d], handle, &seed);
        check_gemv(&devices[d], handle, &seed);
        check_transpose(&devices[d], handle, &seed);
        check_sgemm(&devices[d], handle, &seed);
        tailor_context_release(&handle);
    }
    test_close_devices(devices, count);
    return test_exit_status("test_small_device");
}
