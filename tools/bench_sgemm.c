// Rows of SGEMM: products with CLBlast's sgemm on the same buffers (and on
// CPU devices OpenBLAS's on host copies) in the same run, transposed A,
// transposed B and both, row- and column-major, so the transposing loads and
// the layout mapping show, each result checked on sampled elements against a
// double reference on the host.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#ifdef TAILOR_HAVE_CLBLAST
#include <clblast_c.h>
#endif
#ifdef TAILOR_HAVE_CBLAS
#include <cblas.h>
#endif

#define SAMPLES 64

struct sgemm_state {
    tailor_layout layout;
    tailor_trans trans_a, trans_b;
    size_t m, n, k, lda, ldb, ldc;
    cl_mem a, b, c;
    const float *host_a, *host_b; // the CBLAS comparison's operands
    float *host_c;
};

static int call_tailor(struct bench *b, void *state)
{
    struct sgemm_state *s = state;
    return tailor_sgemm(b->tailor, b->queue, s->layout, s->trans_a, s->trans_b, s->m, s->n, s->k,
                        1.0f, s->a, 0, s->lda, s->b, 0, s->ldb, 0.0f, s->c, 0, s->ldc, 0, NULL,
                        NULL) == TAILOR_SUCCESS
               ? 0
               : -1;
}

#ifdef TAILOR_HAVE_CLBLAST
static int call_clblast(struct bench *b, void *state)
{
    struct sgemm_state *s = state;
    CLBlastTranspose ta = s->trans_a == TAILOR_TRANS ? CLBlastTransposeYes : CLBlastTransposeNo;
    CLBlastTranspose tb = s->trans_b == TAILOR_TRANS ? CLBlastTransposeYes : CLBlastTransposeNo;
    CLBlastLayout layout = s->layout == TAILOR_ROW_MAJOR ? CLBlastLayoutRowMajor : CLBlastLayoutColMajor;
    CLBlastStatusCode code = CLBlastSgemm(layout, ta, tb, s->m, s->n, s->k, 1.0f, s->a, 0,
                                          s->lda, s->b, 0, s->ldb, 0.0f, s->c, 0, s->ldc, &b->queue, NULL);
    return code == CLBlastSuccess ? 0 : -1;
}
#endif

#ifdef TAILOR_HAVE_CBLAS
// The host's CBLAS on host copies of the same operands: what a user of a CPU
// device would otherwise call.
static int call_cblas(struct bench *b, void *state)
{
    (void)b;
    struct sgemm_state *s = state;
    cblas_sgemm(s->layout == TAILOR_ROW_MAJOR ? CblasRowMajor : CblasColMajor, s->trans_a == TAILOR_TRANS ? CblasTrans : CblasNoTrans,
                s->trans_b == TAILOR_TRANS ? CblasTrans : CblasNoTrans, (int)s->m, (int)s->n, (int)s->k,
                1.0f, s->host_a, (int)s->lda, s->host_b, (int)s->ldb, 0.0f, s->host_c, (int)s->ldc);
    return 0;
}
#define CBLAS_WHEN(condition) ((condition) ? call_cblas : NULL)
#else
#define CBLAS_WHEN(condition) ((void)(condition), (bench_call)NULL)
#endif

// Uniform in [-1, 1) from a xorshift state: deterministic across runs.
static float next_value(unsigned long long *state)
{
    unsigned long long x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    return (float)((double)(x >> 40) / (double)(1ull << 23) - 1.0);
}

// Where element (i, j) of op(X) lies in X's storage.
static size_t stored_at(const struct sgemm_state *s, tailor_trans trans, size_t i, size_t j, size_t ld)
{
    int by_rows = (s->layout == TAILOR_ROW_MAJOR) == (trans == TAILOR_NO_TRANS);
    return by_rows ? i * ld + j : j * ld + i;
}

// Sampled elements of C against a double-precision product of the host
// copies, within 2 (k + 2) 2^-24 sum |a b| (the bound tailor.h states).
static int check_result(struct bench *b, const struct sgemm_state *s, const float *a, const float *bm)
{
    int wrong = 0;
    for (int i = 0; i < SAMPLES && !wrong; ++i) {
        size_t row = (size_t)i * 7919 % s->m, col = (size_t)i * 104729 % s->n;
        double exact = 0, magnitude = 0;
        for (size_t p = 0; p < s->k; ++p) {
            double x = a[stored_at(s, s->trans_a, row, p, s->lda)];
            double y = bm[stored_at(s, s->trans_b, p, col, s->ldb)];
            exact += x * y;
            magnitude += fabs(x * y);
        }
        float got = NAN;
        if (clEnqueueReadBuffer(b->queue, s->c, CL_TRUE, stored_at(s, TAILOR_NO_TRANS, row, col, s->ldc) * sizeof got,
                                sizeof got, &got, 0, NULL, NULL) != CL_SUCCESS)
            return -1;
        wrong = !(fabs((double)got - exact) <= 2.0 * (double)(s->k + 2) * ldexp(1.0, -24) * magnitude);
    }
    return wrong ? -1 : 0;
}

// A row in either layout; each matrix packed (its leading dimension the
// length of a stored line).
static void sgemm_layout_row(struct bench *b, tailor_layout layout, size_t m, size_t n, size_t k,
                             tailor_trans trans_a, tailor_trans trans_b)
{
    int row_major = layout == TAILOR_ROW_MAJOR;
    struct sgemm_state s = {layout, trans_a, trans_b, m, n, k,
                            (trans_a == TAILOR_TRANS) == row_major ? m : k,
                            (trans_b == TAILOR_TRANS) == row_major ? k : n, row_major ? n : m,
                            NULL, NULL, NULL, NULL, NULL, NULL};
    struct bench_row row = bench_row_init("sgemm", "f32");
    row.layout = row_major ? 0 : 'C';
    row.m = (long long)m;
    row.n = (long long)n;
    row.k = (long long)k;
    float *a = malloc(m * k * sizeof *a), *bm = malloc(k * n * sizeof *bm);
    float *host_c = b->have_cblas ? malloc(m * n * sizeof *host_c) : NULL;
    if (!a || !bm || (b->have_cblas && !host_c)) {
        bench_fail(b, "sgemm: host memory");
        goto done;
    }
    unsigned long long seed = 0x9e3779b97f4a7c15ull ^ (m * 31 + n * 17 + k);
    for (size_t i = 0; i < m * k; ++i)
        a[i] = next_value(&seed);
    for (size_t i = 0; i < k * n; ++i)
        bm[i] = next_value(&seed);
    float zero = 0;
    s.a = bench_upload(b, a, m * k * sizeof *a);
    s.b = bench_upload(b, bm, k * n * sizeof *bm);
    s.c = bench_buffer(b, m * n * sizeof zero, &zero, sizeof zero);
    if (!s.a || !s.b || !s.c) {
        bench_fail(b, "sgemm: buffers");
        goto done;
    }
    row.flops = 2.0 * (double)m * (double)n * (double)k;
    row.bytes = 4.0 * ((double)m * (double)k + (double)k * (double)n + 2.0 * (double)m * (double)n);
    s.host_a = a;
    s.host_b = bm;
    s.host_c = host_c;
    bench_call comparison = CLBLAST_WHEN(b->have_clblast);
    if (bench_time_row_cblas(b, &row, call_tailor, &s, comparison, &s, CBLAS_WHEN(b->have_cblas),
                             &s) != 0) {
        fprintf(stderr, "bench: sgemm %zux%zux%zu: %s\n", m, n, k, tailor_last_error());
        bench_fail(b, "sgemm: tailor_sgemm failed");
        goto done;
    }
    snprintf(row.variant, sizeof row.variant, "%s", tailor_last_variant());
    // The comparison's calls, in turn with tailor's, may have written last.
    if (call_tailor(b, &s) != 0 || check_result(b, &s, a, bm) != 0) {
        row.note = "WRONG RESULT";
        bench_fail(b, "sgemm: wrong result");
    }
    bench_add_row(b, &row);
done:
    free(a);
    free(bm);
    free(host_c);
    if (s.a)
        clReleaseMemObject(s.a);
    if (s.b)
        clReleaseMemObject(s.b);
    if (s.c)
        clReleaseMemObject(s.c);
}

static void sgemm_row(struct bench *b, size_t m, size_t n, size_t k, tailor_trans trans_a,
                      tailor_trans trans_b)
{
    sgemm_layout_row(b, TAILOR_ROW_MAJOR, m, n, k, trans_a, trans_b);
}

void bench_sgemm(struct bench *b)
{
    const tailor_trans N = TAILOR_NO_TRANS, T = TAILOR_TRANS;
    if (b->small_shapes) {
        // CPU devices: the first rows as before (their names stay), then the
        // criterion shapes of issue 16 in every orientation, sizes off every
        // block, a skinny output and a short k.
        sgemm_row(b, 1024, 1024, 2048, N, N);
        sgemm_row(b, 512, 512, 512, N, N);
        sgemm_row(b, 512, 512, 512, N, T);
        sgemm_row(b, 2048, 2048, 2048, N, N);
        sgemm_row(b, 1024, 1024, 2048, N, T);
        sgemm_row(b, 1024, 1024, 2048, T, N);
        sgemm_row(b, 1024, 1024, 2048, T, T);
        sgemm_row(b, 1001, 999, 1003, N, N);
        sgemm_row(b, 2048, 96, 2048, N, N);
        sgemm_row(b, 2048, 2048, 64, N, N);
        sgemm_layout_row(b, TAILOR_COLUMN_MAJOR, 1024, 1024, 2048, N, T);
        return;
    }
    sgemm_row(b, 1024, 1024, 2048, N, N);
    sgemm_row(b, 4096, 4096, 4096, N, N);
    sgemm_row(b, 8192, 8192, 8192, N, N);
    sgemm_row(b, 4096, 4096, 4096, T, N);
    sgemm_row(b, 4096, 4096, 4096, N, T);
    // Later rows keep the names of the rows above (a repeated shape is
    // numbered in order): both transposed, and B transposed on a mid shape.
    sgemm_row(b, 4096, 4096, 4096, T, T);
    sgemm_row(b, 1024, 1024, 2048, N, T);
    // Issue 16's classes: column-major (each mapping onto a row-major
    // kernel), sizes off every tile, tall-skinny and short-wide outputs,
    // short k, and long k with few output tiles.
    sgemm_layout_row(b, TAILOR_COLUMN_MAJOR, 4096, 4096, 4096, N, N);
    sgemm_layout_row(b, TAILOR_COLUMN_MAJOR, 4096, 4096, 4096, N, T);
    sgemm_layout_row(b, TAILOR_COLUMN_MAJOR, 4096, 4096, 4096, T, N);
    sgemm_row(b, 4097, 4095, 4093, N, N);
    sgemm_row(b, 8192, 256, 4096, N, N);
    sgemm_row(b, 256, 8192, 4096, N, T);
    sgemm_row(b, 4096, 4096, 128, N, N);
    sgemm_row(b, 256, 256, 65536, N, N);
    // A few columns, or rows, of C with the long operand stored along k.
    sgemm_row(b, 4096, 8, 4096, N, N);
    sgemm_row(b, 16, 4096, 4096, N, T);
}
