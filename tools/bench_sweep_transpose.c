// The transpose's sweep. For each element size (1, 2, 4, 8, 16 bytes), the
// aligned square first, then: odd shapes, a tile multiple plus one, padded
// leading dimensions (unaligned and aligned), offsets, a single row or
// column (and a row written with ldb = 2), tall and wide skinny matrices,
// and two launch-bound sizes; beside CLBlast's omatcopy where it has the
// element size. Every element of B is checked bit for bit, and every byte
// of B's buffer outside the matrix (offset, padding between and after the
// lines, a guard past the end) must keep its sentinel.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_sweep.h"

#ifdef TAILOR_HAVE_CLBLAST
#include <clblast_c.h>
#endif

#define SENTINEL 0xa5
#define GUARD_ELEMENTS 16
#define CHECK_BLOCK 64

struct transpose_case {
    const char *name;
    size_t rows, cols;
    size_t lda, ldb; // 0: packed (cols, rows)
    size_t a_offset, b_offset;
};

struct transpose_state {
    size_t element_bytes;
    struct transpose_case c; // leading dimensions resolved
    size_t a_elements, b_elements;
    cl_mem a, b;
    unsigned char *host_a, *host_b;
};

static int call_tailor(struct bench *b, void *state)
{
    struct transpose_state *s = state;
    const struct transpose_case *c = &s->c;
    return tailor_transpose(b->tailor, b->queue, s->element_bytes, c->rows, c->cols, s->a, c->a_offset, c->lda,
                            s->b, c->b_offset, c->ldb, 0, NULL, NULL) == TAILOR_SUCCESS
               ? 0
               : -1;
}

#ifdef TAILOR_HAVE_CLBLAST
static int call_clblast(struct bench *b, void *state)
{
    struct transpose_state *s = state;
    const struct transpose_case *c = &s->c;
    CLBlastStatusCode code =
        s->element_bytes == 4
            ? CLBlastSomatcopy(CLBlastLayoutRowMajor, CLBlastTransposeYes, c->rows, c->cols, 1.0f, s->a,
                               c->a_offset, c->lda, s->b, c->b_offset, c->ldb, &b->queue, NULL)
            : CLBlastDomatcopy(CLBlastLayoutRowMajor, CLBlastTransposeYes, c->rows, c->cols, 1.0, s->a,
                               c->a_offset, c->lda, s->b, c->b_offset, c->ldb, &b->queue, NULL);
    return code == CLBlastSuccess ? 0 : -1;
}
#endif

// A over its whole extent (the padding too, so that a padding element read
// in place of a matrix element shows), B all sentinel.
static int make_buffers(struct bench *b, struct transpose_state *s)
{
    size_t e = s->element_bytes;
    const struct transpose_case *c = &s->c;
    s->a_elements = c->a_offset + (c->rows - 1) * c->lda + c->cols;
    s->b_elements = c->b_offset + c->cols * c->ldb + GUARD_ELEMENTS;
    if (bench_fit_elements(b, s->a_elements, e, 2) < s->a_elements ||
        bench_fit_elements(b, s->b_elements, e, 2) < s->b_elements) {
        fprintf(stderr, "bench: transpose %s of %zu-byte elements does not fit; skipped\n", c->name, e);
        return 1;
    }
    unsigned char sentinel = SENTINEL;
    s->host_a = malloc(s->a_elements * e);
    s->host_b = malloc(s->b_elements * e);
    s->a = bench_buffer(b, s->a_elements * e, &sentinel, 1);
    s->b = bench_buffer(b, s->b_elements * e, &sentinel, 1);
    if (!s->host_a || !s->host_b || !s->a || !s->b)
        return -1;
    for (size_t i = 0; i < s->a_elements; ++i)
        bench_transpose_pattern(i, e, s->host_a + i * e);
    return clEnqueueWriteBuffer(b->queue, s->a, CL_TRUE, 0, s->a_elements * e, s->host_a, 0, NULL, NULL) ==
                   CL_SUCCESS
               ? 0
               : -1;
}

// One call of tailor's into a B refilled with the sentinel (the
// comparison's calls may have written last), then B[j][i] == A[i][j] in
// blocks (both matrices read a cache line at a time), then every other
// byte of B's buffer. 0 if right, 1 if wrong, -1 if a call failed.
static int check_b(struct bench *b, void *state)
{
    struct transpose_state *s = state;
    size_t e = s->element_bytes;
    const struct transpose_case *c = &s->c;
    unsigned char sentinel = SENTINEL;
    if (clEnqueueFillBuffer(b->queue, s->b, &sentinel, 1, 0, s->b_elements * e, 0, NULL, NULL) != CL_SUCCESS ||
        call_tailor(b, s) != 0 ||
        clEnqueueReadBuffer(b->queue, s->b, CL_TRUE, 0, s->b_elements * e, s->host_b, 0, NULL, NULL) !=
            CL_SUCCESS)
        return -1;
    for (size_t i0 = 0; i0 < c->rows; i0 += CHECK_BLOCK)
        for (size_t j = 0; j < c->cols; ++j)
            for (size_t i = i0; i < c->rows && i < i0 + CHECK_BLOCK; ++i)
                if (memcmp(s->host_b + (c->b_offset + j * c->ldb + i) * e,
                           s->host_a + (c->a_offset + i * c->lda + j) * e, e) != 0) {
                    fprintf(stderr, "bench: transpose %s (%zu-byte): B[%zu][%zu] is not A[%zu][%zu]\n", c->name,
                            e, j, i, i, j);
                    return 1;
                }
    for (size_t j = 0; j < c->cols; ++j)
        memset(s->host_b + (c->b_offset + j * c->ldb) * e, SENTINEL, c->rows * e);
    for (size_t k = 0; k < s->b_elements * e; ++k)
        if (s->host_b[k] != SENTINEL) {
            fprintf(stderr, "bench: transpose %s (%zu-byte): byte %zu of B, outside the matrix, was written\n",
                    c->name, e, k);
            return 1;
        }
    return 0;
}

static void sweep_case(struct bench *b, size_t element_bytes, const struct transpose_case *c, int reference)
{
    static const char *const dtypes[17] = {[1] = "u8", [2] = "u16", [4] = "u32", [8] = "u64", [16] = "u128"};
    struct transpose_state s = {element_bytes, *c, 0, 0, NULL, NULL, NULL, NULL};
    s.c.lda = c->lda ? c->lda : c->cols;
    s.c.ldb = c->ldb ? c->ldb : c->rows;
    int made = make_buffers(b, &s);
    if (made != 0) {
        if (made < 0)
            bench_fail(b, "transpose sweep: buffers");
        goto done;
    }
    struct bench_row row = bench_row_init("transpose", dtypes[element_bytes]);
    row.sweep_case = c->name;
    row.sweep_reference = reference;
    row.element_bytes = (int)element_bytes;
    row.m = (long long)c->rows;
    row.n = (long long)c->cols;
    row.lda = (long long)s.c.lda;
    row.ldb = (long long)s.c.ldb;
    row.a_offset = (long long)c->a_offset;
    row.b_offset = (long long)c->b_offset;
    row.bytes = 2.0 * (double)c->rows * (double)c->cols * (double)element_bytes;
    int clblast_has_size = element_bytes == 4 || (element_bytes == 8 && b->info.has_fp64);
    bench_call comparison = CLBLAST_WHEN(b->have_clblast && clblast_has_size);
    bench_sweep_case(b, &row, call_tailor, comparison, check_b, &s);
done:
    if (s.a)
        clReleaseMemObject(s.a);
    if (s.b)
        clReleaseMemObject(s.b);
    free(s.host_a);
    free(s.host_b);
}

void bench_sweep_transpose(struct bench *b)
{
    static const size_t element_sizes[] = {1, 2, 4, 8, 16};
    for (size_t k = 0; k < sizeof element_sizes / sizeof element_sizes[0]; ++k) {
        size_t e = element_sizes[k], n = bench_sweep_side(b, e), nn = n * n;
        // The first is the reference: square, packed, no offsets, n a multiple of 256.
        const struct transpose_case cases[] = {
            {"aligned", n, n, 0, 0, 0, 0},
            {"odd", n + 1, n - 1, 0, 0, 0, 0},
            {"odd-square", n - 1, n - 1, 0, 0, 0, 0},
            {"tile-plus-1", n + 1, n, 0, 0, 0, 0},
            {"pad-unaligned", n, n, n + 3, n + 5, 0, 0},
            {"pad-aligned", n, n, n + 64, n + 64, 0, 0},
            {"offsets", n, n, 0, 0, 1, 3},
            {"row", 1, nn, 0, 0, 0, 0},
            {"column", nn, 1, 0, 0, 0, 0},
            {"row-ldb2", 1, nn, 0, 2, 0, 0},
            {"tall-skinny", nn / 8, 8, 0, 0, 0, 0},
            {"short-wide", 8, nn / 8, 0, 0, 0, 0},
            {"small-100", 100, 100, 0, 0, 0, 0},
            {"small-1000x37", 1000, 37, 0, 0, 0, 0},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
            sweep_case(b, e, &cases[i], i == 0);
    }
}
