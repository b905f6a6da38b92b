// GEMV's sweep (floats, y = 1.5 op(A) x + 0.5 y): the aligned case first
// (row-major, as stored, square, packed, unit increments), then the other
// layouts and transposes, increments of 2, 3 and -1 on x and 2 on y, odd
// dimensions, a padded lda, offsets, tall and wide skinny matrices and a
// launch-bound size; beside CLBlast's Sgemv where the increments are
// positive (its API has no others). Every output is checked against a
// double-precision host reference within the documented bound, and every
// element of y's buffer between and around the outputs must be untouched.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_sweep.h"

#ifdef TAILOR_HAVE_CLBLAST
#include <clblast_c.h>
#endif

#define ALPHA SWEEP_GEMV_ALPHA
#define BETA SWEEP_GEMV_BETA

// Short patterns of coprime periods over each buffer's index (padding
// included), so that a wrong row, column, stride or offset changes outputs.
static const float a_pattern[7] = {0.125f, 0.25f, -0.5f, 0.375f, 1.0f, -0.25f, 0.75f};
static const float x_pattern[5] = {1.0f, -0.5f, 0.25f, 2.0f, -1.0f};
static const float y_pattern[3] = {2.0f, -1.0f, 0.5f};

struct gemv_case {
    const char *name;
    tailor_layout layout;
    tailor_trans trans;
    size_t m, n;
    size_t lda; // 0: packed (n row-major, m column-major)
    size_t a_offset, x_offset, y_offset;
    long long incx, incy;
};

struct gemv_state {
    struct gemv_case c; // lda resolved
    size_t outputs, k; // of op(A)
    size_t a_elements, x_elements, y_elements;
    cl_mem a, x, y;
    float *host_a, *host_x, *host_y0, *host_y;
};

static int call_tailor(struct bench *b, void *state)
{
    struct gemv_state *s = state;
    const struct gemv_case *c = &s->c;
    return tailor_sgemv(b->tailor, b->queue, c->layout, c->trans, c->m, c->n, ALPHA, s->a, c->a_offset, c->lda,
                        s->x, c->x_offset, c->incx, BETA, s->y, c->y_offset, c->incy, 0, NULL,
                        NULL) == TAILOR_SUCCESS
               ? 0
               : -1;
}

#ifdef TAILOR_HAVE_CLBLAST
static int call_clblast(struct bench *b, void *state)
{
    struct gemv_state *s = state;
    const struct gemv_case *c = &s->c;
    CLBlastLayout layout = c->layout == TAILOR_ROW_MAJOR ? CLBlastLayoutRowMajor : CLBlastLayoutColMajor;
    CLBlastTranspose trans = c->trans == TAILOR_NO_TRANS ? CLBlastTransposeNo : CLBlastTransposeYes;
    return CLBlastSgemv(layout, trans, c->m, c->n, ALPHA, s->a, c->a_offset, c->lda, s->x, c->x_offset,
                        (size_t)c->incx, BETA, s->y, c->y_offset, (size_t)c->incy, &b->queue,
                        NULL) == CLBlastSuccess
               ? 0
               : -1;
}
#endif

static size_t magnitude(long long inc)
{
    return (size_t)(inc < 0 ? -inc : inc);
}

// Where element q of a strided vector of `count` lies (BLAS: a negative
// increment starts at the far end).
static size_t vector_index(size_t offset, long long inc, size_t count, size_t q)
{
    return offset + (inc > 0 ? q : count - 1 - q) * magnitude(inc);
}

static cl_mem filled_buffer(struct bench *b, float *host, size_t count, const float *pattern, size_t period)
{
    float zero = 0;
    for (size_t i = 0; i < count; ++i)
        host[i] = pattern[i % period];
    cl_mem buffer = bench_buffer(b, count * sizeof(float), &zero, sizeof zero);
    if (buffer &&
        clEnqueueWriteBuffer(b->queue, buffer, CL_TRUE, 0, count * sizeof(float), host, 0, NULL, NULL) != CL_SUCCESS) {
        clReleaseMemObject(buffer);
        buffer = NULL;
    }
    return buffer;
}

static int make_buffers(struct bench *b, struct gemv_state *s)
{
    const struct gemv_case *c = &s->c;
    size_t lines = c->layout == TAILOR_ROW_MAJOR ? c->m : c->n, line = c->layout == TAILOR_ROW_MAJOR ? c->n : c->m;
    s->a_elements = c->a_offset + (lines - 1) * c->lda + line;
    s->x_elements = c->x_offset + (s->k - 1) * magnitude(c->incx) + 1;
    s->y_elements = c->y_offset + (s->outputs - 1) * magnitude(c->incy) + 1;
    if (bench_fit_elements(b, s->a_elements, sizeof(float), 1) < s->a_elements) {
        fprintf(stderr, "bench: gemv %s does not fit; skipped\n", c->name);
        return 1;
    }
    s->host_a = malloc(s->a_elements * sizeof(float));
    s->host_x = malloc(s->x_elements * sizeof(float));
    s->host_y0 = malloc(s->y_elements * sizeof(float));
    s->host_y = malloc(s->y_elements * sizeof(float));
    if (!s->host_a || !s->host_x || !s->host_y0 || !s->host_y)
        return -1;
    s->a = filled_buffer(b, s->host_a, s->a_elements, a_pattern, 7);
    s->x = filled_buffer(b, s->host_x, s->x_elements, x_pattern, 5);
    s->y = filled_buffer(b, s->host_y0, s->y_elements, y_pattern, 3);
    return s->a && s->x && s->y ? 0 : -1;
}

// One call of tailor's from y's first values, then each output against
// the double-precision reference (summed along A's stored lines, so that A
// is read in order), then every other element of y unchanged.
// 0 if right, 1 if wrong, -1 if a call failed.
static int check_y(struct bench *b, void *state)
{
    struct gemv_state *s = state;
    const struct gemv_case *c = &s->c;
    if (clEnqueueWriteBuffer(b->queue, s->y, CL_TRUE, 0, s->y_elements * sizeof(float), s->host_y0, 0, NULL,
                             NULL) != CL_SUCCESS ||
        call_tailor(b, s) != 0 ||
        clEnqueueReadBuffer(b->queue, s->y, CL_TRUE, 0, s->y_elements * sizeof(float), s->host_y, 0, NULL,
                            NULL) != CL_SUCCESS)
        return -1;
    double *sum = calloc(2 * s->outputs, sizeof *sum), *size = sum + s->outputs;
    if (!sum)
        return -1;
    int row_major = c->layout == TAILOR_ROW_MAJOR, as_stored = c->trans == TAILOR_NO_TRANS;
    size_t lines = row_major ? c->m : c->n, line = row_major ? c->n : c->m;
    for (size_t l = 0; l < lines; ++l) {
        const float *stored = s->host_a + c->a_offset + l * c->lda;
        for (size_t t = 0; t < line; ++t) {
            size_t i = row_major ? l : t, j = row_major ? t : l; // A(i, j)
            size_t p = as_stored ? i : j, q = as_stored ? j : i;  // output p, term q
            double term = (double)stored[t] * (double)s->host_x[vector_index(c->x_offset, c->incx, s->k, q)];
            sum[p] += term;
            size[p] += fabs(term);
        }
    }
    int wrong = 0;
    for (size_t p = 0; p < s->outputs && !wrong; ++p) {
        size_t at = vector_index(c->y_offset, c->incy, s->outputs, p);
        double y0 = s->host_y0[at];
        double expected = ALPHA * sum[p] + BETA * y0;
        double bound = ((double)s->k + 4) * 0x1p-24 * (fabs(ALPHA) * size[p] + fabs(BETA * y0));
        wrong = !(fabs((double)s->host_y[at] - expected) <= bound);
        if (wrong)
            fprintf(stderr, "bench: gemv %s: output %zu (y[%zu]) = %.9g, expected %.9g\n", c->name, p, at,
                    s->host_y[at], expected);
        s->host_y[at] = s->host_y0[at];
    }
    free(sum);
    if (!wrong && memcmp(s->host_y, s->host_y0, s->y_elements * sizeof(float)) != 0) {
        fprintf(stderr, "bench: gemv %s: y changed outside its outputs\n", c->name);
        wrong = 1;
    }
    return wrong;
}

static void sweep_case(struct bench *b, const struct gemv_case *c, int reference)
{
    struct gemv_state s;
    memset(&s, 0, sizeof s);
    s.c = *c;
    int row_major = c->layout == TAILOR_ROW_MAJOR, as_stored = c->trans == TAILOR_NO_TRANS;
    if (!c->lda)
        s.c.lda = row_major ? c->n : c->m;
    s.outputs = as_stored ? c->m : c->n;
    s.k = as_stored ? c->n : c->m;
    int made = make_buffers(b, &s);
    if (made != 0) {
        if (made < 0)
            bench_fail(b, "gemv sweep: buffers");
        goto done;
    }
    struct bench_row row = bench_row_init("gemv", "f32");
    row.sweep_case = c->name;
    row.sweep_reference = reference;
    row.element_bytes = (int)sizeof(float);
    row.m = (long long)c->m;
    row.n = (long long)c->n;
    row.lda = (long long)s.c.lda;
    row.a_offset = (long long)c->a_offset;
    row.x_offset = (long long)c->x_offset;
    row.y_offset = (long long)c->y_offset;
    row.incx = c->incx;
    row.incy = c->incy;
    row.layout = row_major ? 'R' : 'C';
    row.trans = as_stored ? 'N' : 'T';
    // A and x read, y read and written (as the ordinary GEMV rows count).
    row.bytes = 4.0 * ((double)c->m * (double)c->n + (double)s.k + 2.0 * (double)s.outputs);
    row.flops = 2.0 * (double)c->m * (double)c->n;
    bench_call comparison = CLBLAST_WHEN(b->have_clblast && c->incx > 0 && c->incy > 0);
    bench_sweep_case(b, &row, call_tailor, comparison, check_y, &s);
done:
    if (s.a)
        clReleaseMemObject(s.a);
    if (s.x)
        clReleaseMemObject(s.x);
    if (s.y)
        clReleaseMemObject(s.y);
    free(s.host_a);
    free(s.host_x);
    free(s.host_y0);
    free(s.host_y);
}

void bench_sweep_gemv(struct bench *b)
{
    const tailor_layout r = TAILOR_ROW_MAJOR, c = TAILOR_COLUMN_MAJOR;
    const tailor_trans no = TAILOR_NO_TRANS, t = TAILOR_TRANS;
    size_t n = bench_sweep_side(b, sizeof(float)), nn = n * n;
    // The first is the reference.
    const struct gemv_case cases[] = {
        {"aligned", r, no, n, n, 0, 0, 0, 0, 1, 1},
        {"trans", r, t, n, n, 0, 0, 0, 0, 1, 1},
        {"col", c, no, n, n, 0, 0, 0, 0, 1, 1},
        {"col-trans", c, t, n, n, 0, 0, 0, 0, 1, 1},
        {"incx2", r, no, n, n, 0, 0, 0, 0, 2, 1},
        {"incx-1", r, no, n, n, 0, 0, 0, 0, -1, 1},
        {"incx3", r, no, n, n, 0, 0, 0, 0, 3, 1},
        {"trans-incx2", r, t, n, n, 0, 0, 0, 0, 2, 1},
        {"incy2", r, no, n, n, 0, 0, 0, 0, 1, 2},
        {"odd", r, no, n + 1, n - 1, 0, 0, 0, 0, 1, 1},
        {"pad-lda", r, no, n, n, n + 3, 0, 0, 0, 1, 1},
        {"offsets", r, no, n, n, 0, 1, 1, 0, 1, 1},
        {"tall-skinny", r, no, nn / 64, 64, 0, 0, 0, 0, 1, 1},
        {"short-wide", r, no, 64, nn / 64, 0, 0, 0, 0, 1, 1},
        {"small-100", r, no, 100, 100, 0, 0, 0, 0, 1, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        sweep_case(b, &cases[i], i == 0);
}
