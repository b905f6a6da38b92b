// tailor_sgemv and tailor_gemv against a double-precision C reference on
// every device, under
// every profile it can run and tunings that force each kernel variant (the
// lockstep-free versions on POCL), over both layouts and transposes, alpha and
// beta in {0, 1, other}, increments {1, 2, -1, -3}, offsets, padded leading
// dimensions, and shapes from (1, 1) across every threshold; guard elements
// around y and between its strided elements must come back untouched. Each
// run repeats the shapes with A and x in f32, f16 and bf16 and y in each of
// them (tailor_gemv), on values stored exactly in those types.
//
// Tolerance: each output within (k + 4) * 2^-24 * (|alpha| * sum_j |a_ij x_j|
// + |beta y_i|) of the exact value (k the dot length: the float rounding of a
// dot of k terms, however the kernels order it, plus alpha and beta); on
// small-integer data with alpha and beta in {0, 1, 2, -0.5} every kernel must
// be exact, so a lost or doubled element always shows. A 16-bit y adds its
// rounding (2^-11 of the result for f16, 2^-8 for bf16).
//
// usage: test_gemv [--small] [--profile NAME]
//   --small   small shapes and fewer tunings (for oclgrind)
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gemm_host.h"
#include "support.h"

#define GUARD 3
#define POISON -777.0f
#define SENTINEL 4242.0f

struct run {
    const struct test_device *device;
    tailor_context *handle;
    char label[256];
    // Variant names seen, for the coverage check.
    char seen[64][64];
    size_t seen_count;
    int calls;
};

struct gemv_case {
    tailor_layout layout;
    tailor_trans trans;
    size_t m, n, lda;
    float alpha, beta;
    size_t a_offset, x_offset, y_offset;
    long long incx, incy;
    int integers;  // small-integer data: exact results expected
    int nan_y;     // y holds NaN (with beta == 0 it must not propagate)
    int nan_ax;    // A and x hold NaN (with alpha == 0 they must not be read)
    tailor_dtype in_type, y_type; // A and x; y (f32 and f32: tailor_sgemv)
};

static size_t magnitude(long long inc)
{
    return (size_t)(inc < 0 ? -inc : inc);
}

static size_t extent(size_t count, long long inc)
{
    return count ? (count - 1) * magnitude(inc) + 1 : 0;
}

// Index of element p of a vector of `count` elements in BLAS order.
static size_t vector_index(size_t offset, size_t count, long long inc, size_t p)
{
    return inc > 0 ? offset + p * (size_t)inc : offset + (count - 1 - p) * magnitude(inc);
}

static size_t matrix_index(const struct gemv_case *c, size_t i, size_t j)
{
    return c->layout == TAILOR_ROW_MAJOR ? c->a_offset + i * c->lda + j : c->a_offset + i + j * c->lda;
}

static float value(unsigned long long *seed, int integers)
{
    return integers ? (float)((int)(test_random(seed) % 9) - 4) : (float)(2.0 * test_uniform(seed) - 1.0);
}

// v as `type` stores it.
static float stored(tailor_dtype type, float v)
{
    uint16_t element[2];
    gemm_put(element, type, 0, v);
    return gemm_get(element, type, 0);
}

// A buffer of `count` elements of `type` holding data (values of that type).
static cl_mem typed_buffer(const struct run *run, cl_mem_flags flags, tailor_dtype type, const float *data,
                           size_t count)
{
    size_t bytes = gemm_type_bytes(type);
    void *raw = malloc(count * bytes);
    for (size_t i = 0; i < count; ++i)
        gemm_put(raw, type, i, data[i]);
    cl_mem buffer = test_buffer(run->device, flags, count * bytes, raw);
    free(raw);
    return buffer;
}

static void note_variant(struct run *run)
{
    const char *variant = tailor_last_variant();
    for (size_t i = 0; i < run->seen_count; ++i)
        if (strcmp(run->seen[i], variant) == 0)
            return;
    if (run->seen_count < sizeof run->seen / sizeof run->seen[0])
        snprintf(run->seen[run->seen_count++], sizeof run->seen[0], "%s", variant);
}

// Whether a variant seen holds `part`, in which '*' stands for any text.
static int saw(const struct run *run, const char *part)
{
    char pattern[600];
    snprintf(pattern, sizeof pattern, "*%s*", part);
    for (size_t i = 0; i < run->seen_count; ++i)
        if (fnmatch(pattern, run->seen[i], 0) == 0)
            return 1;
    return 0;
}

static void describe(const struct gemv_case *c, char *buffer, size_t size)
{
    snprintf(buffer, size,
             "%s/%s %s %s m=%zu n=%zu lda=%zu alpha=%g beta=%g offsets a=%zu x=%zu y=%zu incx=%lld "
             "incy=%lld%s%s",
             gemm_type_name(c->in_type), gemm_type_name(c->y_type),
             c->layout == TAILOR_ROW_MAJOR ? "row-major" : "column-major",
             c->trans == TAILOR_NO_TRANS ? "no-trans" : "trans", c->m, c->n, c->lda, c->alpha, c->beta,
             c->a_offset, c->x_offset, c->y_offset, c->incx, c->incy, c->integers ? " integers" : "",
             c->nan_y ? " NaN-y" : c->nan_ax ? " NaN-A-x" : "");
}

static void check_case(struct run *run, const struct gemv_case *c, unsigned long long *seed)
{
    size_t outputs = c->trans == TAILOR_NO_TRANS ? c->m : c->n, k = c->trans == TAILOR_NO_TRANS ? c->n : c->m;
    size_t lines = c->layout == TAILOR_ROW_MAJOR ? c->m : c->n, length = c->layout == TAILOR_ROW_MAJOR ? c->n : c->m;
    size_t a_count = c->a_offset + (lines && length ? (lines - 1) * c->lda + length : 0) + GUARD;
    size_t x_count = c->x_offset + extent(k, c->incx) + GUARD;
    size_t y_count = c->y_offset + extent(outputs, c->incy) + GUARD;
    float *a = malloc(a_count * sizeof *a), *x = malloc(x_count * sizeof *x);
    float *y = malloc(y_count * sizeof *y), *got = malloc(y_count * sizeof *got);
    char what[320];
    describe(c, what, sizeof what);
    const tailor_dtype in = c->in_type, out = c->y_type;
    const float sentinel = stored(out, SENTINEL);
    for (size_t i = 0; i < a_count; ++i)
        a[i] = stored(in, POISON);
    for (size_t i = 0; i < x_count; ++i)
        x[i] = stored(in, POISON);
    for (size_t i = 0; i < y_count; ++i)
        y[i] = sentinel;
    for (size_t i = 0; i < c->m; ++i)
        for (size_t j = 0; j < c->n; ++j)
            a[matrix_index(c, i, j)] = c->nan_ax && (i + j) % 3 == 0 ? NAN : stored(in, value(seed, c->integers));
    for (size_t p = 0; p < k; ++p)
        x[vector_index(c->x_offset, k, c->incx, p)] =
            c->nan_ax && p % 2 ? NAN : stored(in, value(seed, c->integers));
    for (size_t p = 0; p < outputs; ++p)
        y[vector_index(c->y_offset, outputs, c->incy, p)] = c->nan_y ? NAN : stored(out, value(seed, c->integers));

    cl_mem a_buffer = typed_buffer(run, CL_MEM_READ_ONLY, in, a, a_count);
    cl_mem x_buffer = typed_buffer(run, CL_MEM_READ_ONLY, in, x, x_count);
    cl_mem y_buffer = typed_buffer(run, CL_MEM_READ_WRITE, out, y, y_count);
    void *raw_y = malloc(y_count * gemm_type_bytes(out));
    if (!a_buffer || !x_buffer || !y_buffer)
        goto done;
    cl_event event = NULL;
    if (getenv("TEST_GEMV_VERBOSE"))
        fprintf(stderr, "%s\n", what);
    tailor_status status =
        in == TAILOR_F32 && out == TAILOR_F32
            ? tailor_sgemv(run->handle, run->device->queue, c->layout, c->trans, c->m, c->n, c->alpha, a_buffer,
                           c->a_offset, c->lda, x_buffer, c->x_offset, c->incx, c->beta, y_buffer, c->y_offset,
                           c->incy, 0, NULL, &event)
            : tailor_gemv(run->handle, run->device->queue, c->layout, c->trans, c->m, c->n, c->alpha, in,
                          a_buffer, c->a_offset, c->lda, x_buffer, c->x_offset, c->incx, c->beta, out, y_buffer,
                          c->y_offset, c->incy, 0, NULL, &event);
    ++run->calls;
    CHECK(status == TAILOR_SUCCESS, "%s %s: %s: %s", run->label, what, tailor_status_name(status),
          tailor_last_error());
    if (status != TAILOR_SUCCESS)
        goto done;
    note_variant(run);
    CHECK(event != NULL, "%s %s: no event", run->label, what);
    if (event) {
        CHECK(clWaitForEvents(1, &event) == CL_SUCCESS, "waiting for the event failed");
        clReleaseEvent(event);
    }
    if (test_read(run->device, y_buffer, 0, y_count * gemm_type_bytes(out), raw_y) != 0)
        goto done;
    for (size_t i = 0; i < y_count; ++i)
        got[i] = gemm_get(raw_y, out, i);
    int failures = 0;
    for (size_t i = 0; i < y_count; ++i)
        if (y[i] == sentinel && !(got[i] == sentinel) && failures++ < 3)
            CHECK(0, "%s %s [%s]: element %zu outside y was written (%g)", run->label, what,
                  tailor_last_variant(), i, got[i]);
    for (size_t p = 0; p < outputs && failures < 3; ++p) {
        double sum = 0, size = 0;
        for (size_t q = 0; q < k; ++q) {
            size_t i = c->trans == TAILOR_NO_TRANS ? p : q, j = c->trans == TAILOR_NO_TRANS ? q : p;
            double term = (double)a[matrix_index(c, i, j)] * (double)x[vector_index(c->x_offset, k, c->incx, q)];
            sum += term;
            size += fabs(term);
        }
        double old = y[vector_index(c->y_offset, outputs, c->incy, p)];
        double expected = c->alpha == 0 ? 0 : (double)c->alpha * sum;
        double bound_size = c->alpha == 0 ? 0 : fabs((double)c->alpha) * size;
        if (c->beta != 0) {
            expected += (double)c->beta * old;
            bound_size += fabs((double)c->beta * old);
        }
        double result = got[vector_index(c->y_offset, outputs, c->incy, p)];
        double bound = c->integers ? 0 : ((double)k + 4) * 0x1p-24 * bound_size;
        // The rounding to y's type, and half its smallest subnormal.
        bound += gemm_c_rounding(out) * fabs(expected) + (out == TAILOR_F16 ? 0x1p-25 : 0);
        if (out == TAILOR_F16 && fabs(expected) > 65520 && isinf(result) && (result > 0) == (expected > 0))
            continue;
        if (!(fabs(result - expected) <= bound) && failures++ < 3)
            CHECK(0, "%s %s [%s]: y[%zu] = %.9g, expected %.9g (bound %.3g)", run->label, what,
                  tailor_last_variant(), p, result, expected, bound);
    }
done:
    if (a_buffer)
        clReleaseMemObject(a_buffer);
    if (x_buffer)
        clReleaseMemObject(x_buffer);
    if (y_buffer)
        clReleaseMemObject(y_buffer);
    free(a);
    free(x);
    free(y);
    free(got);
    free(raw_y);
}

static const float alphas[] = {1.0f, -0.5f, 0.7f, 0.0f, 2.0f};
static const float betas[] = {0.0f, 1.0f, 2.0f, -0.3f};
static const long long increments[] = {1, 2, -1, -3};

// The types of A and x, and of y, that tailor_gemv takes.
static const tailor_dtype gemv_types[] = {TAILOR_F32, TAILOR_F16, TAILOR_BF16};

// Every shape under both layouts and transposes, the other parameters
// rotating through their values so that every combination of layout,
// transpose, alpha, beta and increments meets over the list; `typed`: the
// pair of types rotating through all nine as well (else f32 throughout).
static void check_shapes(struct run *run, const size_t (*shapes)[2], size_t count, int typed,
                         unsigned long long *seed)
{
    size_t turn = 0;
    for (size_t s = 0; s < count; ++s)
        for (int layout = 0; layout < 2; ++layout)
            for (int trans = 0; trans < 2; ++trans, ++turn) {
                struct gemv_case c = {.layout = (tailor_layout)layout, .trans = (tailor_trans)trans,
                                      .m = shapes[s][0], .n = shapes[s][1]};
                size_t length = layout == TAILOR_ROW_MAJOR ? c.n : c.m;
                // Mostly unit increments and aligned offsets (the fast paths).
                int plain = turn % 3 != 2;
                c.lda = length + (turn % 4 == 1 ? 3 : turn % 4 == 3 ? 4 : 0);
                if (c.lda == 0)
                    c.lda = 1;
                c.alpha = alphas[turn % 5 == 3 ? 2 : turn % 5];
                c.beta = betas[turn / 2 % 4];
                c.incx = plain ? 1 : increments[1 + turn / 3 % 3];
                c.incy = plain ? 1 : increments[turn / 5 % 4];
                c.a_offset = plain ? 4 * (turn % 2) : 1 + turn % 3;
                c.x_offset = plain ? 8 * (turn % 2) : turn % 5;
                c.y_offset = turn % 3;
                c.integers = turn % 2 == 0 || c.alpha == 0;
                if (c.integers && c.alpha == 0.7f)
                    c.alpha = -0.5f;
                if (c.integers && c.beta == -0.3f)
                    c.beta = 2.0f;
                if (typed) {
                    c.in_type = gemv_types[turn % 3];
                    c.y_type = gemv_types[turn / 3 % 3];
                }
                check_case(run, &c, seed);
            }
}

// Every alpha, beta and pair of increments on one shape per layout and
// transpose; NaN in y under beta = 0, NaN in A and x under alpha = 0.
static void check_parameters(struct run *run, size_t m, size_t n, unsigned long long *seed)
{
    for (int layout = 0; layout < 2; ++layout)
        for (int trans = 0; trans < 2; ++trans)
            for (size_t ai = 0; ai < sizeof alphas / sizeof alphas[0]; ++ai)
                for (size_t bi = 0; bi < sizeof betas / sizeof betas[0]; ++bi)
                    for (size_t xi = 0; xi < 3; ++xi)
                        for (size_t yi = 0; yi < 3; ++yi) {
                            struct gemv_case c = {.layout = (tailor_layout)layout, .trans = (tailor_trans)trans,
                                                  .m = m, .n = n};
                            c.lda = (layout == TAILOR_ROW_MAJOR ? n : m) + (xi == 2);
                            c.alpha = alphas[ai];
                            c.beta = betas[bi];
                            c.incx = increments[xi];
                            c.incy = increments[(yi + xi) % 4];
                            c.a_offset = 4 * yi;
                            c.x_offset = xi;
                            c.y_offset = 2;
                            c.integers = c.alpha != 0.7f && c.beta != -0.3f;
                            c.nan_y = c.beta == 0 && yi != 1;
                            c.nan_ax = c.alpha == 0 && xi == 0;
                            check_case(run, &c, seed);
                        }
}

// Dots along aligned lines with x strided or off the vector: 2101 and 203
// elements, long enough for the one-lockstep-group-per-line kernels (x
// staged in local memory where GEMV_X_CHUNK allows; on CPUs gathered in
// chunks of 1024 for the lines of a block), neither a whole number of
// vectors nor of chunks of 32 or 1024; and 37, for the short-dot kernels.
// Kernels that do not stage x gather it into a workspace first under
// GEMV_GATHER_X_MIN_ELEMENTS = 1. Each input type. No group-per-row kernel
// may stage x.
static void check_strided_x(struct run *run, unsigned long long *seed)
{
    static const long long x_increments[] = {2, -3, 1};
    static const size_t lengths[] = {2101, 203, 37};
    for (size_t i = 0; i < 9; ++i) {
        int row_major = i % 2 == 0;
        size_t k = lengths[i / 3];
        struct gemv_case c = {.layout = row_major ? TAILOR_ROW_MAJOR : TAILOR_COLUMN_MAJOR,
                              .trans = row_major ? TAILOR_NO_TRANS : TAILOR_TRANS,
                              .m = row_major ? 9 : k, .n = row_major ? k : 9, .lda = k + 4 - k % 4};
        c.alpha = 1.0f;
        c.beta = 0.5f;
        c.incx = x_increments[i % 3];
        c.incy = 1;
        c.x_offset = 1 + i % 2;
        c.integers = 1;
        c.in_type = gemv_types[i % 3];
        c.y_type = TAILOR_F32;
        check_case(run, &c, seed);
        const char *variant = tailor_last_variant();
        CHECK(!strstr(variant, "group-per-row") || !strstr(variant, "staged-x"), "%s k = %zu: %s",
              run->label, k, variant);
    }
}

// Dots along lines that share one alignment (lda a multiple of 16 elements)
// with A's offset off the vector: each line's first elements come before its
// first whole vector. Such a call must take the shifted form of the vector
// kernel of its twin whose A starts on a vector (with x moved by as many
// elements, so that x is as far off the vector against A), or the twin's
// scalar kernel; short dots (the multi-row kernels) scalar loads. And be
// right: dots from shorter than the head (3) to long, x unit-stride off or
// on A's alignment, strided and gathered.
static void check_shared_alignment(struct run *run, unsigned long long *seed)
{
    static const size_t lengths[] = {2101, 203, 37, 3};
    static const long long x_increments[] = {1, 1, -2};
    for (size_t i = 0; i < 12; ++i) {
        int row_major = i % 2 == 0;
        size_t k = lengths[i % 4];
        struct gemv_case c = {.layout = row_major ? TAILOR_ROW_MAJOR : TAILOR_COLUMN_MAJOR,
                              .trans = row_major ? TAILOR_NO_TRANS : TAILOR_TRANS,
                              .m = row_major ? 9 : k, .n = row_major ? k : 9};
        c.lda = (k + 15) / 16 * 16 + 16 * (i % 3 == 1);
        c.alpha = 1.0f;
        c.beta = 0.5f;
        c.incx = x_increments[i % 3];
        c.incy = 1;
        c.integers = 1;
        c.in_type = gemv_types[i / 4 % 3];
        c.y_type = TAILOR_F32;
        struct gemv_case twin = c;
        twin.a_offset = 16;
        twin.x_offset = 16 + i / 3 % 3;
        check_case(run, &twin, seed);
        char expected[128];
        snprintf(expected, sizeof expected, "%s%s", tailor_last_variant(),
                 strstr(tailor_last_variant(), "-vec") ? "/shifted" : "");
        int short_dots = strstr(expected, "multi-row") != NULL;
        c.a_offset = 1 + 2 * (i % 8);
        c.x_offset = twin.x_offset - (16 - c.a_offset);
        check_case(run, &c, seed);
        const char *variant = tailor_last_variant();
        CHECK(short_dots ? !strstr(variant, "-vec") : strcmp(variant, expected) == 0,
              "%s k = %zu, A at %zu: %s, at 16 %s", run->label, k, c.a_offset, variant, expected);
    }
}

// Empty outputs leave y alone (and need no buffers); empty dots scale y.
static void check_empty(struct run *run, unsigned long long *seed)
{
    cl_event event = NULL;
    CHECK_STATUS(tailor_sgemv(run->handle, run->device->queue, TAILOR_ROW_MAJOR, TAILOR_NO_TRANS, 0, 5, 1.0f,
                              NULL, 0, 5, NULL, 0, 1, 0.0f, NULL, 0, 1, 0, NULL, &event),
                 TAILOR_SUCCESS);
    CHECK(event && clWaitForEvents(1, &event) == CL_SUCCESS, "m = 0 returned no usable event");
    if (event)
        clReleaseEvent(event);
    CHECK_STATUS(tailor_sgemv(run->handle, run->device->queue, TAILOR_COLUMN_MAJOR, TAILOR_TRANS, 4, 0, 1.0f,
                              NULL, 0, 4, NULL, 0, 1, 0.0f, NULL, 0, -1, 0, NULL, NULL),
                 TAILOR_SUCCESS);
    CHECK(*tailor_last_variant() == '\0', "an empty output enqueued %s", tailor_last_variant());
    for (int layout = 0; layout < 2; ++layout)
        for (int trans = 0; trans < 2; ++trans)
            for (size_t bi = 0; bi < sizeof betas / sizeof betas[0]; ++bi) {
                // k = 0: y = beta * y, NaN in y ignored when beta = 0.
                struct gemv_case c = {.layout = (tailor_layout)layout, .trans = (tailor_trans)trans,
                                      .m = 6, .n = 6};
                if (trans == TAILOR_NO_TRANS)
                    c.n = 0;
                else
                    c.m = 0;
                c.lda = 7;
                c.alpha = 1.0f;
                c.beta = betas[bi];
                c.incx = 1;
                c.incy = bi % 2 ? -2 : 1;
                c.y_offset = 1;
                c.integers = 1;
                c.nan_y = c.beta == 0;
                check_case(run, &c, seed);
                CHECK(c.beta == 1.0f ? *tailor_last_variant() == '\0' : strcmp(tailor_last_variant(), "scale") == 0,
                      "%s k = 0, beta %g ran '%s'", run->label, c.beta, tailor_last_variant());
            }
}

// The event waits for the wait list: gated by a user event, the call must
// not complete before the gate opens (split launches included).
static void check_wait_list(struct run *run, size_t m, size_t n)
{
    cl_int error;
    cl_event gate = clCreateUserEvent(run->device->context, &error);
    CHECK(error == CL_SUCCESS, "clCreateUserEvent failed");
    if (error != CL_SUCCESS)
        return;
    float *a = malloc(m * n * sizeof *a), *x = malloc(n * sizeof *x), *y = malloc(m * sizeof *y);
    for (size_t i = 0; i < m * n; ++i)
        a[i] = 1.0f;
    for (size_t i = 0; i < n; ++i)
        x[i] = 1.0f;
    for (size_t i = 0; i < m; ++i)
        y[i] = -1.0f;
    cl_mem a_buffer = test_buffer(run->device, CL_MEM_READ_ONLY, m * n * sizeof *a, a);
    cl_mem x_buffer = test_buffer(run->device, CL_MEM_READ_ONLY, n * sizeof *x, x);
    cl_mem y_buffer = test_buffer(run->device, CL_MEM_READ_WRITE, m * sizeof *y, y);
    cl_event done = NULL;
    CHECK_STATUS(tailor_sgemv(run->handle, run->device->queue, TAILOR_ROW_MAJOR, TAILOR_NO_TRANS, m, n, 1.0f,
                              a_buffer, 0, n, x_buffer, 0, 1, 0.0f, y_buffer, 0, 1, 1, &gate, &done),
                 TAILOR_SUCCESS);
    clFlush(run->device->queue);
    usleep(20000);
    cl_int state = CL_COMPLETE;
    if (done)
        clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, NULL);
    CHECK(done && state != CL_COMPLETE, "%s %zux%zu: completed before its wait list", run->label, m, n);
    clSetUserEventStatus(gate, CL_COMPLETE);
    if (done) {
        CHECK(clWaitForEvents(1, &done) == CL_SUCCESS, "waiting failed");
        clReleaseEvent(done);
    }
    test_read(run->device, y_buffer, 0, m * sizeof *y, y);
    for (size_t i = 0; i < m; ++i)
        if (y[i] != (float)n) {
            CHECK(0, "%s %zux%zu after the gate: y[%zu] = %g", run->label, m, n, i, y[i]);
            break;
        }
    clReleaseEvent(gate);
    clReleaseMemObject(a_buffer);
    clReleaseMemObject(x_buffer);
    clReleaseMemObject(y_buffer);
    free(a);
    free(x);
    free(y);
}

// Split launches finished in one pass, called back to back: each group
// writes its partial dots and counts itself on a ticket, and the last reads
// them all, which is right only if every group's partials reach memory before
// its ticket does (device_fence in cl/prelude.cl). On an H200, NVIDIA's
// work-group-scope fence left these shapes' results wrong in about half the
// calls. Integer values keep every sum exact in any order.
static void check_split_repeats(const struct test_device *device)
{
    struct run run = {.device = device, .handle = test_handle(device, NULL, NULL)};
    snprintf(run.label, sizeof run.label, "[%s repeated splits]", device->info.profile_name);
    if (!run.handle)
        return;
    static const size_t split_shapes[][2] = {{112, 100038}, {191, 175389}, {7, 1000003}};
    for (size_t s = 0; s < sizeof split_shapes / sizeof split_shapes[0]; ++s) {
        size_t m = split_shapes[s][0], n = split_shapes[s][1];
        float *a = malloc(m * n * sizeof *a), *x = malloc(n * sizeof *x), *y = malloc(m * sizeof *y);
        double *expected = calloc(m, sizeof *expected);
        if (!a || !x || !y || !expected) {
            CHECK(0, "%s: no host memory", run.label);
            free(a);
            free(x);
            free(y);
            free(expected);
            break;
        }
        for (size_t j = 0; j < n; ++j)
            x[j] = (float)((int)(j % 5) - 2);
        for (size_t i = 0; i < m; ++i)
            for (size_t j = 0; j < n; ++j) {
                a[i * n + j] = (float)((int)((i * 7 + j * 3) % 5) - 2);
                expected[i] += (double)a[i * n + j] * x[j];
            }
        cl_mem a_buffer = test_buffer(device, CL_MEM_READ_ONLY, m * n * sizeof *a, a);
        cl_mem x_buffer = test_buffer(device, CL_MEM_READ_ONLY, n * sizeof *x, x);
        cl_mem y_buffer = test_buffer(device, CL_MEM_READ_WRITE, m * sizeof *y, NULL);
        int wrong = 0;
        for (int call = 0; call < 24 && !wrong && a_buffer && x_buffer && y_buffer; ++call) {
            CHECK_STATUS(tailor_sgemv(run.handle, device->queue, TAILOR_ROW_MAJOR, TAILOR_NO_TRANS, m, n, 1.0f,
                                      a_buffer, 0, n, x_buffer, 0, 1, 0.0f, y_buffer, 0, 1, 0, NULL, NULL),
                         TAILOR_SUCCESS);
            if (call == 0)
                fprintf(stderr, "    %zux%zu: %s\n", m, n, tailor_last_variant());
            if (test_read(device, y_buffer, 0, m * sizeof *y, y) != 0)
                break;
            for (size_t i = 0; i < m && !wrong; ++i)
                if (y[i] != (float)expected[i]) {
                    CHECK(0, "%s %zux%zu, call %d: y[%zu] = %g, expected %g", run.label, m, n, call, i,
                          y[i], expected[i]);
                    wrong = 1;
                }
        }
        if (a_buffer)
            clReleaseMemObject(a_buffer);
        if (x_buffer)
            clReleaseMemObject(x_buffer);
        if (y_buffer)
            clReleaseMemObject(y_buffer);
        free(a);
        free(x);
        free(y);
        free(expected);
    }
    tailor_context_release(&run.handle);
}

// An out-of-order queue: split launches get a scratch buffer of their own;
// where x is gathered first, a workspace of its own and an event between
// the two launches (the second call's x is strided, NaN between its
// elements).
static void check_out_of_order_queue(struct run *run)
{
    cl_int error;
    cl_command_queue queue = clCreateCommandQueue(run->device->context, run->device->choice.device,
                                                  CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &error);
    if (error != CL_SUCCESS)
        return;
    size_t m = 3, n = 70000;
    float *a = malloc(m * n * sizeof *a), x_one = 1.0f, y[3] = {0};
    for (size_t i = 0; i < m * n; ++i)
        a[i] = (float)(i / n + 1);
    float *x = malloc(2 * n * sizeof *x);
    for (size_t i = 0; i < 2 * n; ++i)
        x[i] = i % 2 ? NAN : x_one;
    cl_mem a_buffer = test_buffer(run->device, CL_MEM_READ_ONLY, m * n * sizeof *a, a);
    cl_mem x_strided = test_buffer(run->device, CL_MEM_READ_ONLY, 2 * n * sizeof *x, x);
    for (size_t i = 0; i < n; ++i)
        x[i] = x_one;
    cl_mem x_unit = test_buffer(run->device, CL_MEM_READ_ONLY, n * sizeof *x, x);
    cl_mem y_buffer = test_buffer(run->device, CL_MEM_READ_WRITE, sizeof y, y);
    for (int repeat = 0; repeat < 3; ++repeat) {
        cl_event done = NULL;
        int strided = repeat == 1;
        CHECK_STATUS(tailor_sgemv(run->handle, queue, TAILOR_ROW_MAJOR, TAILOR_NO_TRANS, m, n, 1.0f, a_buffer, 0,
                                  n, strided ? x_strided : x_unit, 0, strided ? 2 : 1, 0.0f, y_buffer, 0, 1, 0,
                                  NULL, &done),
                     TAILOR_SUCCESS);
        if (done) {
            clEnqueueReadBuffer(queue, y_buffer, CL_TRUE, 0, sizeof y, y, 1, &done, NULL);
            clReleaseEvent(done);
        }
        for (size_t i = 0; i < m; ++i)
            CHECK(y[i] == (float)((i + 1) * n), "%s out-of-order queue [%s]: y[%zu] = %g", run->label,
                  tailor_last_variant(), i, y[i]);
    }
    clReleaseMemObject(a_buffer);
    clReleaseMemObject(x_unit);
    clReleaseMemObject(x_strided);
    clReleaseMemObject(y_buffer);
    clReleaseCommandQueue(queue);
    free(a);
    free(x);
}

// Shapes from (1, 1) across every threshold of the default tunings: the
// multi-row limit (16), vector loads (128), whole-group dots (8192), and
// splits of few long dots.
static const size_t shapes[][2] = {
    {1, 1},    {1, 2},    {2, 1},    {1, 17},   {17, 1},   {3, 5},     {5, 15},    {7, 16},  {9, 17},
    {16, 15},  {31, 33},  {37, 53},  {33, 64},  {12, 127}, {10, 128},  {11, 129},  {6, 256}, {2, 300}, {300, 3},
    {129, 70}, {61, 257}, {3, 8191}, {2, 8193}, {1, 9000}, {4, 40000}, {160, 1200}, {1000, 2},
};

static const size_t small_shapes[][2] = {
    {1, 1}, {3, 5}, {7, 16}, {9, 17}, {37, 53}, {10, 128}, {11, 129}, {2, 300}, {65, 3},
};

// The seed's shapes, row-major no-trans, on the detected profile.
static const size_t seed_shapes[][2] = {{16384, 16}, {16384, 32}, {16384, 128}, {1024, 4096}, {4096, 1024}};

struct tuning {
    const char *profile;  // NULL: the device's own
    const char *tuning;
    const char *expected; // variant name parts that must appear, separated by '|'
    int full;             // also every alpha, beta and increment, wait lists, queues
    int one_pass;         // atomic tickets, which Oclgrind takes for data races: not --small
};

static void check_coverage(const struct run *run, const char *expected)
{
    char parts[512];
    snprintf(parts, sizeof parts, "%s", expected);
    for (char *part = strtok(parts, "|"); part; part = strtok(NULL, "|"))
        CHECK(saw(run, part), "%s: no call ran a variant named like '%s'", run->label, part);
}

static void run_tuning(const struct test_device *device, const struct tuning *t, int small,
                       unsigned long long *seed)
{
    static struct run run;
    if (small && t->one_pass)
        return;
    // One pass with the generic profile's code needs a CPU (DEVICE_FENCE_ONLY).
    if (t->tuning && strstr(t->tuning, "ONE_PASS=1") && !(device->info.type & CL_DEVICE_TYPE_CPU))
        return;
    memset(&run, 0, sizeof run);
    run.device = device;
    const char *profile = t->profile ? t->profile : device->info.profile_name;
    run.handle = test_handle(device, profile, t->tuning);
    snprintf(run.label, sizeof run.label, "[%s %s]", profile, t->tuning ? t->tuning : "default tuning");
    if (!run.handle)
        return;
    fprintf(stderr, "  %s\n", run.label);
    check_strided_x(&run, seed);
    check_shared_alignment(&run, seed);
    if (small) {
        for (int typed = 0; typed < 2; ++typed)
            check_shapes(&run, small_shapes, sizeof small_shapes / sizeof small_shapes[0], typed, seed);
    } else {
        for (int typed = 0; typed < 2; ++typed)
            check_shapes(&run, shapes, sizeof shapes / sizeof shapes[0], typed, seed);
        if (t->full) {
            check_parameters(&run, 23, 29, seed);
            check_parameters(&run, 5, 200, seed);
            check_empty(&run, seed);
            check_wait_list(&run, 3, 70000);
            check_wait_list(&run, 100, 10);
        }
        check_out_of_order_queue(&run);
    }
    fprintf(stderr, "    %d calls; variants:", run.calls);
    for (size_t i = 0; i < run.seen_count; ++i)
        fprintf(stderr, " %s", run.seen[i]);
    fputc('\n', stderr);
    if (!small)
        check_coverage(&run, t->expected);
    tailor_context_release(&run.handle);
}

static void run_seed_shapes(const struct test_device *device, unsigned long long *seed)
{
    struct run run = {.device = device, .handle = test_handle(device, NULL, NULL)};
    snprintf(run.label, sizeof run.label, "[%s seed shapes]", device->info.profile_name);
    if (!run.handle)
        return;
    for (size_t s = 0; s < sizeof seed_shapes / sizeof seed_shapes[0]; ++s)
        for (int trans = 0; trans < 2; ++trans) {
            struct gemv_case c = {.layout = TAILOR_ROW_MAJOR, .trans = (tailor_trans)trans,
                                  .m = seed_shapes[s][0], .n = seed_shapes[s][1], .lda = seed_shapes[s][1],
                                  .alpha = 1.5f, .beta = 0.5f};
            c.incx = c.incy = 1;
            check_case(&run, &c, seed);
        }
    tailor_context_release(&run.handle);
}

// Tunings that send the test shapes through every variant. GPU-shaped
// kernels run on POCL under the generic profile (no lockstep: barrier
// reductions), CPU kernels under the cpu profile.
static const struct tuning gpu_tunings[] = {
    {"generic", NULL,
     "row/multi-row-1|row/multi-row-16|row/warp-per-row|row/warp-per-row-vec4|row/group-per-row-vec4|"
     "/split-k|general-stride|column-vec4|column/general-stride|column-vec4/split-k|two-pass|"
     "row/warp-per-row-vec4/staged-x|row/warp-per-row-vec4/shifted|row/group-per-row-vec4/shifted|"
     "row/warp-per-row-vec4/staged-x/shifted|row/warp-per-row/general-stride/long-lines",
     1, 0},
    // Splits everywhere: every row and column kernel through its partials, then
    // gemv_finish or (one pass) the tickets; x staged in chunks of 32, or
    // gathered first.
    {"generic", "GEMV_SPLIT_MIN_ELEMENTS=1,GEMV_GROUPS_PER_CU=64,GEMV_X_CHUNK=32,GEMV_GATHER_X_MIN_ELEMENTS=1",
     "row/warp-per-row/split-k|row/warp-per-row-vec4/split-k|"
     "row/group-per-row-vec4/split-k|row/group-per-row/split-k|column-vec4/split-k|column/split-k|two-pass|"
     "row/warp-per-row-vec4/staged-x/split-k|row/warp-per-row/gathered-x/split-k|"
     "row/warp-per-row-vec4/split-k*/two-pass/shifted|row/warp-per-row-vec4/staged-x/split-k*/shifted|"
     "row/group-per-row-vec4/gathered-x/split-k*/shifted",
     0, 0},
    {"generic", "GEMV_SPLIT_MIN_ELEMENTS=1,GEMV_GROUPS_PER_CU=64,GEMV_ONE_PASS=1,GEMV_X_CHUNK=32",
     "row/warp-per-row/split-k|row/warp-per-row-vec4/split-k|"
     "row/group-per-row-vec4/split-k|row/group-per-row/split-k|column-vec4/split-k|column/split-k|"
     "row/warp-per-row-vec4/staged-x/split-k|row/warp-per-row-vec4/split-k*/shifted|"
     "row/warp-per-row-vec4/staged-x/split-k*/shifted|row/group-per-row-vec4/split-k*/shifted",
     0, 1},
    // Other geometries: batches of lines, narrow segments, wide vectors, odd unrolls.
    {"generic",
     "GEMV_ROW_WG=64,GEMV_ROW_LANES=8,GEMV_ROW_BATCH=3,GEMV_MULTI_ROW_LANES=4,GEMV_VECTOR=8,"
     "GEMV_GROUP_MIN_K=300,GEMV_UNROLL=3,GEMV_COL_WG=32,GEMV_COL_THREADS=8,GEMV_COL_VECTOR=2,"
     "GEMV_COL_UNROLL=1,GEMV_GROUPS_PER_CU=16,GEMV_SPLIT_MIN_ELEMENTS=64,GEMV_GATHER_X_MIN_ELEMENTS=1",
     "row/multi-row-4/split-k|row/warp-per-row-vec8|row/group-per-row-vec8|column-vec2/split-k|"
     "row/group-per-row-vec8/gathered-x|row/group-per-row-vec8/gathered-x/shifted|"
     "row/warp-per-row-vec16/split-k*/shifted",
     0, 0},
    // Short dots with several elements per work-item: vector and scalar multi-row kernels.
    {"generic",
     "GEMV_MULTI_ROW_MAX_K=128,GEMV_MULTI_ROW_ELEMENTS=8,GEMV_MULTI_ROW_LANES=32,GEMV_GATHER_X_MIN_ELEMENTS=1",
     "row/multi-row-1|row/multi-row-2-vec4|row/multi-row-8-vec4|multi-row-4/general-stride|"
     "row/multi-row-8-vec4/gathered-x",
     0, 0},
    {"generic", "GEMV_MULTI_ROW_MAX_K=0,GEMV_VECTOR_MIN_K=1,GEMV_ROW_LANES=64,GEMV_COL_VECTOR=16,GEMV_COL_WG=64",
     "row/warp-per-row-vec4|column-vec16", 0, 0},
};

static const struct tuning cpu_tunings[] = {
    {"cpu", NULL, "cpu/rows|cpu/columns|cpu/rows/split-k|cpu/columns/split-k", 1, 1},
    {"cpu", "GEMV_SPLIT_MIN_ELEMENTS=1,GEMV_GROUPS_PER_CU=16", "cpu/rows/split-k|cpu/columns/split-k", 0, 1},
    {"cpu", "GEMV_SPLIT_MIN_ELEMENTS=1,GEMV_GROUPS_PER_CU=16,GEMV_ONE_PASS=0",
     "cpu/rows/split-k2/two-pass|cpu/columns/split-k2/two-pass", 0, 0},
    {"cpu", "GEMV_CPU_VECTOR=4,GEMV_CPU_COLS=8,GEMV_CPU_LINE_MIN_K=5,GEMV_SPLIT_MIN_ELEMENTS=100",
     "cpu/rows|cpu/columns/split-k", 0, 1},
    // A strided x gathered once before the row kernel, whole and split.
    {"cpu", "GEMV_GATHER_X_MIN_ELEMENTS=1,GEMV_SPLIT_MIN_ELEMENTS=1,GEMV_GROUPS_PER_CU=16",
     "cpu/rows/gathered-x|cpu/rows/gathered-x/split-k", 1, 1},
};

#define EXPECT(call, status)                                                                        \
    do {                                                                                            \
        CHECK_STATUS(call, status);                                                                 \
        CHECK((status) == TAILOR_SUCCESS || *tailor_last_error(), "%s: no message", #call);         \
    } while (0)

// A 4 x 6 row-major A (24 floats), x of 6, y of 4, in buffers of exactly
// that size; each bad argument alone gets its status.
static void check_bad_inputs(const struct test_device *device)
{
    tailor_context *h = test_handle(device, NULL, NULL);
    if (!h)
        return;
    cl_command_queue q = device->queue;
    float ones[24];
    for (int i = 0; i < 24; ++i)
        ones[i] = 1.0f;
    cl_mem a = test_buffer(device, CL_MEM_READ_ONLY, sizeof ones, ones);
    cl_mem x = test_buffer(device, CL_MEM_READ_ONLY, 6 * sizeof(float), ones);
    cl_mem y = test_buffer(device, CL_MEM_READ_WRITE, 4 * sizeof(float), ones);
    cl_mem write_only = test_buffer(device, CL_MEM_WRITE_ONLY, 4 * sizeof(float), NULL);
    cl_mem big = test_buffer(device, CL_MEM_READ_WRITE, 64 * sizeof(float), NULL);
    const tailor_layout R = TAILOR_ROW_MAJOR, C = TAILOR_COLUMN_MAJOR;
    const tailor_trans N = TAILOR_NO_TRANS, T = TAILOR_TRANS;
#define GEMV(handle, queue, layout, trans, m, n, a_, ao, lda, x_, xo, incx, beta, y_, yo, incy)          \
    tailor_sgemv(handle, queue, layout, trans, m, n, 1.0f, a_, ao, lda, x_, xo, incx, beta, y_, yo, incy, 0, \
                 NULL, NULL)
    EXPECT(GEMV(h, q, R, N, 4, 6, a, 0, 6, x, 0, 1, 1.0f, y, 0, 1), TAILOR_SUCCESS);
    EXPECT(GEMV(NULL, q, R, N, 4, 6, a, 0, 6, x, 0, 1, 1.0f, y, 0, 1), TAILOR_ERROR_NULL_HANDLE);
    EXPECT(GEMV(h, NULL, R, N, 4, 6, a, 0, 6, x, 0, 1, 1.0f, y, 0, 1), TAILOR_ERROR_INVALID_QUEUE);
    EXPECT(GEMV(h, q, (tailor_layout)2, N, 4, 6, a, 0, 6, x, 0, 1, 1.0f, y, 0, 1), TAILOR_ERROR_UNKNOWN_LAYOUT);
    EXPECT(GEMV(h, q, (tailor_layout)-1, N, 4, 6, a, 0, 6, x, 0, 1, 1.0f, y, 0, 1), TAILOR_ERROR_UNKNOWN_LAYOUT);
    EXPECT(GEMV(h, q, R, (tailor_trans)2, 4, 6, a, 0, 6, x, 0, 1, 1.0f, y, 0, 1),
           TAILOR_ERROR_UNKNOWN_TRANSPOSE);
    // lda below the row length: n row-major, m column-major; at least 1.
    EXPECT(GEMV(h, q, R, N, 4, 6, a, 0, 5, x, 0, 1, 1.0f, y, 0, 1), TAILOR_ERROR_INVALID_LEADING_DIMENSION);
    EXPECT(GEMV(h, q, C, T, 6, 4, a, 0, 5, x, 0, 1, 1.0f, y, 0, 1), TAILOR_ERROR_INVALID_LEADING_DIMENSION);
    EXPECT(GEMV(h, q, C, N, 0, 4, a, 0, 0, x, 0, 1, 1.0f, y, 0, 1), TAILOR_ERROR_INVALID_LEADING_DIMENSION);
    EXPECT(GEMV(h, q, C, T, 6, 4, a, 0, 6, x, 0, 1, 1.0f, y, 0, 1), TAILOR_SUCCESS);
    // Increments of 0, even for an empty output.
    EXPECT(GEMV(h, q, R, N, 4, 6, a, 0, 6, x, 0, 0, 1.0f, y, 0, 1), TAILOR_ERROR_INVALID_INCREMENT);
    EXPECT(GEMV(h, q, R, N, 4, 6, a, 0, 6, x, 0, 1, 1.0f, y, 0, 0), TAILOR_ERROR_INVALID_INCREMENT);
    EXPECT(GEMV(h, q, R, N, 0, 6, a, 0, 6, x, 0, 1, 1.0f, y, 0, 0), TAILOR_ERROR_INVALID_INCREMENT);
    // Buffers too small for the strided extents, offsets and the transposed shape.
    EXPECT(GEMV(h, q, R, N, 4, 6, a, 0, 7, x, 0, 1, 1.0f, y, 0, 1), TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(GEMV(h, q, R, N, 4, 6, a, 1, 6, x, 0, 1, 1.0f, y, 0, 1), TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(GEMV(h, q, R, N, 4, 6, a, 0, 6, x, 0, 2, 1.0f, y, 0, 1), TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(GEMV(h, q, R, N, 4, 6, a, 0, 6, x, 0, -2, 1.0f, y, 0, 1), TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(GEMV(h, q, R, N, 4, 6, a, 0, 6, x, 1, 1, 1.0f, y, 0, 1), TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(GEMV(h, q, R, N, 4, 6, a, 0, 6, x, 0, 1, 1.0f, y, 0, -2), TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(GEMV(h, q, R, N, 4, 6, a, 0, 6, x, 0, 1, 1.0f, y, 1, 1), TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(GEMV(h, q, R, T, 4, 6, a, 0, 6, x, 0, 1, 1.0f, y, 0, 1), TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(GEMV(h, q, R, T, 4, 6, a, 0, 6, y, 0, 1, 1.0f, x, 0, 1), TAILOR_ERROR_INVALID_BUFFER);
    EXPECT(GEMV(h, q, R, T, 4, 6, a, 0, 6, y, 0, 1, 1.0f, big, 0, 1), TAILOR_SUCCESS);
    // Extents, offsets and increments that overflow.
    EXPECT(GEMV(h, q, R, N, 4, 6, a, SIZE_MAX, 6, x, 0, 1, 1.0f, y, 0, 1), TAILOR_ERROR_SIZE_OVERFLOW);
    EXPECT(GEMV(h, q, R, N, 4, 6, a, 0, SIZE_MAX / 2, x, 0, 1, 1.0f, y, 0, 1), TAILOR_ERROR_SIZE_OVERFLOW);
    EXPECT(GEMV(h, q, R, N, SIZE_MAX / 2, 6, a, 0, 6, x, 0, 1, 1.0f, y, 0, 1), TAILOR_ERROR_SIZE_OVERFLOW);
    EXPECT(GEMV(h, q, R, N, 4, 6, a, 0, 6, x, 0, LLONG_MAX, 1.0f, y, 0, 1), TAILOR_ERROR_SIZE_OVERFLOW);
    EXPECT(GEMV(h, q, R, N, 4, 6, a, 0, 6, x, 0, LLONG_MIN, 1.0f, y, 0, 1), TAILOR_ERROR_SIZE_OVERFLOW);
    EXPECT(GEMV(h, q, R, N, 4, 6, a, 0, 6, x, 0, 1, 1.0f, y, SIZE_MAX / 4, 1), TAILOR_ERROR_SIZE_OVERFLOW);
    // NULL, read-only or write-only buffers where they are written or read.
    EXPECT(GEMV(h, q, R, N, 4, 6, NULL, 0, 6, x, 0, 1, 1.0f, y, 0, 1), TAILOR_ERROR_INVALID_BUFFER);
    EXPECT(GEMV(h, q, R, N, 4, 6, a, 0, 6, NULL, 0, 1, 1.0f, y, 0, 1), TAILOR_ERROR_INVALID_BUFFER);
    EXPECT(GEMV(h, q, R, N, 4, 6, a, 0, 6, x, 0, 1, 1.0f, NULL, 0, 1), TAILOR_ERROR_INVALID_BUFFER);
    EXPECT(GEMV(h, q, R, N, 4, 6, a, 0, 6, x, 0, 1, 1.0f, x, 0, 1), TAILOR_ERROR_INVALID_BUFFER);
    EXPECT(GEMV(h, q, R, N, 4, 6, a, 0, 6, x, 0, 1, 1.0f, write_only, 0, 1), TAILOR_ERROR_INVALID_BUFFER);
    EXPECT(GEMV(h, q, R, N, 4, 6, a, 0, 6, x, 0, 1, 0.0f, write_only, 0, 1), TAILOR_SUCCESS);
    EXPECT(GEMV(h, q, R, N, 1, 4, write_only, 0, 4, x, 0, 1, 0.0f, y, 0, 1), TAILOR_ERROR_INVALID_BUFFER);
    // y overlapping A or x in one buffer; disjoint parts of one buffer are fine.
    EXPECT(GEMV(h, q, R, N, 4, 6, big, 0, 6, big, 30, 1, 1.0f, big, 23, 1), TAILOR_ERROR_BUFFERS_OVERLAP);
    EXPECT(GEMV(h, q, R, N, 4, 6, big, 0, 6, big, 30, 1, 1.0f, big, 33, 1), TAILOR_ERROR_BUFFERS_OVERLAP);
    EXPECT(GEMV(h, q, R, N, 4, 6, big, 0, 6, big, 30, 1, 1.0f, big, 40, -3), TAILOR_SUCCESS);
    // Types: f32, f16 and bf16 only; element sizes follow them.
#define TYPED(ab_type, ao, lda, incx, y_type, incy)                                                     \
    tailor_gemv(h, q, R, N, 4, 6, 1.0f, ab_type, a, ao, lda, x, 0, incx, 1.0f, y_type, y, 0, incy, 0, NULL, NULL)
    EXPECT(TYPED(TAILOR_F16, 0, 6, 1, TAILOR_BF16, 1), TAILOR_SUCCESS);
    EXPECT(TYPED(TAILOR_F64, 0, 6, 1, TAILOR_F32, 1), TAILOR_ERROR_UNSUPPORTED);
    EXPECT(TYPED(TAILOR_3XTF32, 0, 6, 1, TAILOR_F32, 1), TAILOR_ERROR_UNSUPPORTED);
    EXPECT(TYPED(TAILOR_F32, 0, 6, 1, TAILOR_3XTF32, 1), TAILOR_ERROR_UNSUPPORTED);
    EXPECT(TYPED(TAILOR_F32, 0, 6, 1, TAILOR_F64, 1), TAILOR_ERROR_UNSUPPORTED);
    EXPECT(TYPED((tailor_dtype)5, 0, 6, 1, TAILOR_F32, 1), TAILOR_ERROR_UNKNOWN_DTYPE);
    EXPECT(TYPED(TAILOR_F32, 0, 6, 1, (tailor_dtype)-1, 1), TAILOR_ERROR_UNKNOWN_DTYPE);
    // 24 floats hold 48 halves (A: 3 * 14 + 6), x's 6 floats 12 (1 + 5 * 2),
    // y's 4 floats 8 (1 + 3 * 2); one more is too many.
    EXPECT(TYPED(TAILOR_BF16, 0, 14, 2, TAILOR_F16, 2), TAILOR_SUCCESS);
    EXPECT(TYPED(TAILOR_BF16, 1, 14, 2, TAILOR_F16, 2), TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(TYPED(TAILOR_F16, 0, 6, 3, TAILOR_F16, 2), TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(TYPED(TAILOR_F16, 0, 6, 2, TAILOR_F32, 2), TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(TYPED(TAILOR_F16, 0, 6, 2, TAILOR_BF16, 3), TAILOR_ERROR_BUFFER_TOO_SMALL);
#undef TYPED
    // Wait lists whose pointer and length disagree.
    cl_event none = NULL;
    EXPECT(tailor_sgemv(h, q, R, N, 4, 6, 1.0f, a, 0, 6, x, 0, 1, 1.0f, y, 0, 1, 1, NULL, NULL),
           TAILOR_ERROR_INVALID_WAIT_LIST);
    EXPECT(tailor_sgemv(h, q, R, N, 4, 6, 1.0f, a, 0, 6, x, 0, 1, 1.0f, y, 0, 1, 0, &none, NULL),
           TAILOR_ERROR_INVALID_WAIT_LIST);
    // An empty output needs no buffers, but still valid enums, lda and increments.
    EXPECT(GEMV(h, q, R, N, 0, 6, NULL, 0, 6, NULL, 0, 1, 1.0f, NULL, 0, 1), TAILOR_SUCCESS);
    EXPECT(GEMV(h, q, R, T, 4, 0, NULL, 0, 1, NULL, 0, -1, 1.0f, NULL, 0, 1), TAILOR_SUCCESS);
    EXPECT(GEMV(h, NULL, R, N, 0, 6, NULL, 0, 6, NULL, 0, 1, 1.0f, NULL, 0, 1), TAILOR_ERROR_INVALID_QUEUE);
    // Empty dots still check y.
    EXPECT(GEMV(h, q, R, N, 4, 0, a, 0, 1, x, 0, 1, 1.0f, NULL, 0, 1), TAILOR_ERROR_INVALID_BUFFER);
#undef GEMV
    clFinish(q);
    clReleaseMemObject(a);
    clReleaseMemObject(x);
    clReleaseMemObject(y);
    clReleaseMemObject(write_only);
    clReleaseMemObject(big);
    tailor_context_release(&h);
}

int main(int argc, char **argv)
{
    struct test_options options = test_parse_options(argc, argv);
    int small = options.small;
    const char *only_profile = options.profile;
    struct test_device devices[16];
    size_t count = test_open_devices(devices, 16);
    unsigned long long seed = 0x2545f4914f6cdd1dull;
    for (size_t d = 0; d < count; ++d) {
        const struct test_device *device = &devices[d];
        int cpu = device->info.kind == TAILOR_DEVICE_KIND_CPU;
        int own = test_runs_own(&options);
        // The generic profile's GPU kernels are the device's own only on a
        // device that selects generic; the CPU kernels are a CPU's own.
        int generic = only_profile ? strcmp(only_profile, "generic") == 0
                                   : test_takes_profile(&options, device, "generic");
        for (size_t t = 0; t < sizeof gpu_tunings / sizeof gpu_tunings[0]; ++t)
            if (generic)
                run_tuning(device, &gpu_tunings[t], small, &seed);
        if (cpu && own && (!only_profile || strcmp(only_profile, "cpu") == 0))
            for (size_t t = 0; t < sizeof cpu_tunings / sizeof cpu_tunings[0]; ++t)
                run_tuning(device, &cpu_tunings[t], small, &seed);
        if (!cpu && own && !only_profile) {
            // The device's own profile (lockstep kernels on GPUs).
            struct tuning own = {NULL, NULL, "row/", 1, 1};
            run_tuning(device, &own, small, &seed);
        }
        if (!small && own) {
            run_seed_shapes(device, &seed);
            check_bad_inputs(device);
        }
        if (!small && own && !cpu && !only_profile)
            check_split_repeats(device);
    }
    test_close_devices(devices, count);
    return test_exit_status("test_gemv");
}
