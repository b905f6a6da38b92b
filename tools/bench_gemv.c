// Rows of GEMV: the seed's short dots (16384 x 16, 32, 128), the big square,
// few long dots (1024 x 65536), many medium ones (65536 x 1024), and the
// square transposed, each checked against a host reference on a sample of
// outputs; then the square in f16 and bf16 (A, x and y of one type). CPU
// devices run scaled-down shapes.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "gemm_host.h"

#ifdef TAILOR_HAVE_CLBLAST
#include <clblast_c.h>
#endif

#define ALPHA 1.0f
#define BETA 0.5f
#define Y_START 2.0f

// A and x repeat short patterns of coprime periods, so a wrong row, column
// or stride changes the sampled outputs.
static const float a_pattern[7] = {0.125f, 0.25f, -0.5f, 0.375f, 1.0f, -0.25f, 0.75f};
static const float x_pattern[5] = {1.0f, -0.5f, 0.25f, 2.0f, -1.0f};

struct gemv_state {
    tailor_trans trans;
    size_t m, n; // A is m x n, row-major, lda = n
    tailor_dtype type; // of A, x and y
    cl_mem a, x, y;
};

static int call_tailor(struct bench *b, void *state)
{
    struct gemv_state *s = state;
    tailor_status status =
        s->type == TAILOR_F32
            ? tailor_sgemv(b->tailor, b->queue, TAILOR_ROW_MAJOR, s->trans, s->m, s->n, ALPHA, s->a, 0, s->n,
                           s->x, 0, 1, BETA, s->y, 0, 1, 0, NULL, NULL)
            : tailor_gemv(b->tailor, b->queue, TAILOR_ROW_MAJOR, s->trans, s->m, s->n, ALPHA, s->type, s->a, 0,
                          s->n, s->x, 0, 1, BETA, s->type, s->y, 0, 1, 0, NULL, NULL);
    return status == TAILOR_SUCCESS ? 0 : -1;
}

#ifdef TAILOR_HAVE_CLBLAST
static int call_clblast(struct bench *b, void *state)
{
    struct gemv_state *s = state;
    CLBlastTranspose trans = s->trans == TAILOR_NO_TRANS ? CLBlastTransposeNo : CLBlastTransposeYes;
    return CLBlastSgemv(CLBlastLayoutRowMajor, trans, s->m, s->n, ALPHA, s->a, 0, s->n, s->x, 0, 1, BETA,
                        s->y, 0, 1, &b->queue, NULL) == CLBlastSuccess
               ? 0
               : -1;
}
#endif

// A buffer of `count` elements of `type` repeating a pattern of `period`
// (not a power of two, which clEnqueueFillBuffer would need); the patterns
// are exact in every type.
static cl_mem filled_buffer(struct bench *b, tailor_dtype type, size_t count, const float *pattern,
                            size_t period)
{
    float zero = 0;
    size_t bytes = gemm_type_bytes(type);
    void *host = malloc(count * bytes);
    cl_mem buffer = host ? bench_buffer(b, count * bytes, &zero, bytes) : NULL;
    if (buffer) {
        for (size_t i = 0; i < count; ++i)
            gemm_put(host, type, i, pattern[i % period]);
        if (clEnqueueWriteBuffer(b->queue, buffer, CL_TRUE, 0, count * bytes, host, 0, NULL, NULL) !=
            CL_SUCCESS) {
            clReleaseMemObject(buffer);
            buffer = NULL;
        }
    }
    free(host);
    return buffer;
}

// One call from a fresh y, then sampled outputs against a double reference
// within the documented bound.
static int check(struct bench *b, struct gemv_state *s)
{
    size_t outputs = s->trans == TAILOR_NO_TRANS ? s->m : s->n, k = s->trans == TAILOR_NO_TRANS ? s->n : s->m;
    size_t bytes = gemm_type_bytes(s->type);
    uint32_t start;
    gemm_put(&start, s->type, 0, Y_START);
    if (clEnqueueFillBuffer(b->queue, s->y, &start, bytes, 0, outputs * bytes, 0, NULL, NULL) != CL_SUCCESS ||
        call_tailor(b, s) != 0)
        return -1;
    void *raw = malloc(outputs * bytes);
    if (!raw || clEnqueueReadBuffer(b->queue, s->y, CL_TRUE, 0, outputs * bytes, raw, 0, NULL, NULL) != CL_SUCCESS) {
        free(raw);
        return -1;
    }
    int wrong = 0;
    for (size_t sample = 0; sample < 17 && !wrong; ++sample) {
        size_t p = sample == 16 ? outputs - 1 : sample * (outputs / 16);
        double sum = 0, size = 0;
        for (size_t q = 0; q < k; ++q) {
            size_t i = s->trans == TAILOR_NO_TRANS ? p : q, j = s->trans == TAILOR_NO_TRANS ? q : p;
            double term = (double)a_pattern[(i * s->n + j) % 7] * (double)x_pattern[q % 5];
            sum += term;
            size += fabs(term);
        }
        double expected = ALPHA * sum + BETA * Y_START, got = gemm_get(raw, s->type, p);
        double bound = ((double)k + 4) * 0x1p-24 * (fabs(ALPHA) * size + fabs(BETA * Y_START)) +
                       gemm_c_rounding(s->type) * fabs(expected);
        wrong = !(fabs(got - expected) <= bound);
        if (wrong)
            fprintf(stderr, "bench: gemv %s %zux%zu: y[%zu] = %.9g, expected %.9g\n", gemm_type_name(s->type), s->m,
                    s->n, p, got, expected);
    }
    free(raw);
    return wrong;
}

static void gemv_row(struct bench *b, size_t m, size_t n, tailor_trans trans, tailor_dtype type)
{
    struct gemv_state s = {trans, m, n, type, NULL, NULL, NULL};
    size_t outputs = trans == TAILOR_NO_TRANS ? m : n, k = trans == TAILOR_NO_TRANS ? n : m;
    size_t bytes = gemm_type_bytes(type);
    struct bench_row row = bench_row_init(trans == TAILOR_NO_TRANS ? "gemv" : "gemv-t", gemm_type_name(type));
    if (bench_fit_elements(b, m * n, bytes, 1) < m * n)
        return; // the device cannot hold A
    float zero = 0;
    s.a = filled_buffer(b, type, m * n, a_pattern, 7);
    s.x = filled_buffer(b, type, k, x_pattern, 5);
    s.y = bench_buffer(b, outputs * bytes, &zero, bytes);
    if (!s.a || !s.x || !s.y) {
        bench_fail(b, "gemv: buffers");
        goto done;
    }
    row.m = (long long)m;
    row.n = (long long)n;
    // A and x read, y read and written.
    row.bytes = (double)bytes * ((double)m * (double)n + (double)k + 2.0 * (double)outputs);
    row.flops = 2.0 * (double)m * (double)n;
    bench_call comparison = type == TAILOR_F32 ? CLBLAST_WHEN(b->have_clblast) : NULL;
    if (bench_time_row(b, &row, call_tailor, &s, comparison, &s) != 0) {
        fprintf(stderr, "bench: gemv %zux%zu: %s\n", m, n, tailor_last_error());
        bench_fail(b, "gemv: tailor_gemv failed");
        goto done;
    }
    snprintf(row.variant, sizeof row.variant, "%s", tailor_last_variant());
    if (check(b, &s) != 0) {
        row.note = "WRONG RESULT";
        bench_fail(b, "gemv: wrong result");
    }
    bench_add_row(b, &row);
done:
    if (s.a)
        clReleaseMemObject(s.a);
    if (s.x)
        clReleaseMemObject(s.x);
    if (s.y)
        clReleaseMemObject(s.y);
}

void bench_gemv(struct bench *b)
{
    static const size_t gpu[][3] = {
        {16384, 16, 0},  {16384, 32, 0},    {16384, 128, 0}, {8192, 8192, 0},
        {1024, 65536, 0}, {65536, 1024, 0}, {8192, 8192, 1},
    };
    // About 30 s of a POCL run with CLBlast beside it.
    static const size_t cpu[][3] = {
        {4096, 16, 0},  {4096, 32, 0},    {4096, 128, 0}, {2048, 2048, 0},
        {256, 16384, 0}, {16384, 256, 0}, {2048, 2048, 1},
    };
    const size_t(*shapes)[3] = b->small_shapes ? cpu : gpu;
    for (size_t i = 0; i < 7; ++i)
        gemv_row(b, shapes[i][0], shapes[i][1], shapes[i][2] ? TAILOR_TRANS : TAILOR_NO_TRANS, TAILOR_F32);
    size_t side = b->small_shapes ? 2048 : 8192;
    gemv_row(b, side, side, TAILOR_NO_TRANS, TAILOR_F16);
    gemv_row(b, side, side, TAILOR_TRANS, TAILOR_F16);
    gemv_row(b, side, side, TAILOR_NO_TRANS, TAILOR_BF16);
}
