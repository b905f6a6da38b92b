// Rows of the transpose: floats at 8192x8192, 4096x16384 and the seed's
// 2048x512, 1- and 8-byte elements at 8192x8192 (on CPU devices 2048x2048,
// 1024x4096, 2048x512, and 2048x2048 for 1 and 8 bytes), beside CLBlast's
// Somatcopy / Domatcopy (alpha 1, row-major, transposed) on the same shape;
// CLBlast has nothing for 1-byte elements. Bytes count A read and B written.
// Each result is checked element by element.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#ifdef TAILOR_HAVE_CLBLAST
#include <clblast_c.h>
#endif

struct transpose_state {
    size_t element_bytes, rows, cols;
    cl_mem a, b;
};

static int call_tailor(struct bench *b, void *state)
{
    struct transpose_state *s = state;
    return tailor_transpose(b->tailor, b->queue, s->element_bytes, s->rows, s->cols, s->a, 0,
                                   s->cols, s->b, 0, s->rows, 0, NULL, NULL) == TAILOR_SUCCESS
               ? 0
               : -1;
}

#ifdef TAILOR_HAVE_CLBLAST
static int call_clblast(struct bench *b, void *state)
{
    struct transpose_state *s = state;
    CLBlastStatusCode code =
        s->element_bytes == 4
            ? CLBlastSomatcopy(CLBlastLayoutRowMajor, CLBlastTransposeYes, s->rows, s->cols, 1.0f, s->a, 0,
                               s->cols, s->b, 0, s->rows, &b->queue, NULL)
            : CLBlastDomatcopy(CLBlastLayoutRowMajor, CLBlastTransposeYes, s->rows, s->cols, 1.0, s->a, 0,
                               s->cols, s->b, 0, s->rows, &b->queue, NULL);
    return code == CLBlastSuccess ? 0 : -1;
}
#endif

void bench_transpose_pattern(size_t index, size_t element_bytes, unsigned char *out)
{
    uint64_t x = (uint64_t)index * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 29;
    for (size_t k = 0; k < element_bytes; ++k)
        out[k] = (unsigned char)(x >> (8 * (k % 8))) ^ (unsigned char)(k / 8 * 0x5a);
}

static int fill_a(struct bench *b, const struct transpose_state *s, unsigned char *host)
{
    size_t e = s->element_bytes;
    for (size_t i = 0; i < s->rows * s->cols; ++i)
        bench_transpose_pattern(i, e, host + i * e);
    return clEnqueueWriteBuffer(b->queue, s->a, CL_TRUE, 0, s->rows * s->cols * e, host, 0, NULL, NULL) ==
                   CL_SUCCESS
               ? 0
               : -1;
}

// B[j][i] holds element (i, j) of A.
static int check_b(struct bench *b, const struct transpose_state *s, unsigned char *host)
{
    size_t e = s->element_bytes;
    if (clEnqueueReadBuffer(b->queue, s->b, CL_TRUE, 0, s->rows * s->cols * e, host, 0, NULL, NULL) !=
        CL_SUCCESS)
        return -1;
    unsigned char expected[16];
    for (size_t j = 0; j < s->cols; ++j)
        for (size_t i = 0; i < s->rows; ++i) {
            bench_transpose_pattern(i * s->cols + j, e, expected);
            if (memcmp(host + (j * s->rows + i) * e, expected, e) != 0)
                return -1;
        }
    return 0;
}

static void transpose_row(struct bench *b, size_t element_bytes, size_t rows, size_t cols)
{
    static const char *const dtypes[17] = {[1] = "u8", [4] = "f32", [8] = "f64"};
    struct transpose_state s = {element_bytes, rows, cols, NULL, NULL};
    struct bench_row row = bench_row_init("transpose", dtypes[element_bytes]);
    size_t bytes = rows * cols * element_bytes;
    unsigned char *host = NULL;
    if (bench_fit_elements(b, rows * cols, element_bytes, 2) < rows * cols) {
        fprintf(stderr, "bench: transpose %zux%zu of %zu-byte elements does not fit; skipped\n", rows, cols,
                element_bytes);
        return;
    }
    unsigned char zero = 0;
    s.a = bench_buffer(b, bytes, &zero, 1);
    s.b = bench_buffer(b, bytes, &zero, 1);
    host = malloc(bytes);
    if (!s.a || !s.b || !host || fill_a(b, &s, host) != 0) {
        bench_fail(b, "transpose: buffers");
        goto done;
    }
    row.m = (long long)rows;
    row.n = (long long)cols;
    row.bytes = 2.0 * (double)bytes;
    row.flops = 0;
    int clblast_has_size = element_bytes == 4 || (element_bytes == 8 && b->info.has_fp64);
    bench_call comparison = CLBLAST_WHEN(b->have_clblast && clblast_has_size);
    if (bench_time_row(b, &row, call_tailor, &s, comparison, &s) != 0) {
        fprintf(stderr, "bench: transpose: %s\n", tailor_last_error());
        bench_fail(b, "transpose: tailor_transpose failed");
        goto done;
    }
    snprintf(row.variant, sizeof row.variant, "%s", tailor_last_variant());
    // The comparison's calls, in turn with tailor's, may have written last.
    if (call_tailor(b, &s) != 0 || check_b(b, &s, host) != 0) {
        row.note = "WRONG RESULT";
        bench_fail(b, "transpose: wrong result");
    }
    bench_add_row(b, &row);
done:
    if (s.a)
        clReleaseMemObject(s.a);
    if (s.b)
        clReleaseMemObject(s.b);
    free(host);
}

void bench_transpose(struct bench *b)
{
    if (b->small_shapes) {
        transpose_row(b, 4, 2048, 2048);
        transpose_row(b, 4, 1024, 4096);
        transpose_row(b, 4, 2048, 512);
        transpose_row(b, 1, 2048, 2048);
        transpose_row(b, 8, 2048, 2048);
        return;
    }
    transpose_row(b, 4, 8192, 8192);
    transpose_row(b, 4, 4096, 16384);
    transpose_row(b, 4, 2048, 512);
    transpose_row(b, 1, 8192, 8192);
    transpose_row(b, 8, 8192, 8192);
}
