// Rows of the mixed-precision GEMM (tailor_gemm): f16 and bf16 inputs with C
// of the same type, as a half-precision linear layer or attention head uses
// it, in single products and strided batches of small matrices; and f32
// products in 3xTF32 (C in f32). Each result is checked on sampled elements
// against a double reference on the host. Rows that ran on tensor cores say
// so: the FP32 FLOP limit of the roofline does not bound them. cuBLAS's
// numbers for the same shapes come from tools/cublas_reference.py --dtype
// f16|bf16|f32 in the same session.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "gemm_host.h"

#define SAMPLES 64

struct gemm_state {
    tailor_trans trans_a, trans_b;
    tailor_dtype type, c_type;
    size_t m, n, k, batch, lda, ldb, ldc;
    cl_mem a, b, c;
};

static int call_tailor(struct bench *b, void *state)
{
    struct gemm_state *s = state;
    return tailor_gemm_strided_batched(b->tailor, b->queue, TAILOR_ROW_MAJOR, s->trans_a, s->trans_b,
                                       s->m, s->n, s->k, 1.0f, s->type, s->a, 0, s->lda, s->m * s->k,
                                       s->b, 0, s->ldb, s->k * s->n, 0.0f, s->c_type, s->c, 0, s->ldc,
                                       s->m * s->n, s->batch, 0, NULL, NULL) == TAILOR_SUCCESS
               ? 0
               : -1;
}

// Element (i, j) of op(X) of product z, stored row-major with the transpose.
static size_t stored_at(tailor_trans trans, size_t z, size_t matrix, size_t i, size_t j, size_t ld)
{
    return z * matrix + (trans == TAILOR_NO_TRANS ? i * ld + j : j * ld + i);
}

// Sampled elements within 2 (k + 2) 2^-24 sum |a b| plus the rounding to C's
// type; 3xTF32 within its own bound (include/tailor.h).
static int check_result(struct bench *b, const struct gemm_state *s, const void *a, const void *bm)
{
    double u = gemm_c_rounding(s->c_type), steps = gemm_error_steps(s->type, s->k);
    for (int i = 0; i < SAMPLES; ++i) {
        size_t z = (size_t)i * 31 % s->batch, row = (size_t)i * 7919 % s->m, col = (size_t)i * 104729 % s->n;
        double exact = 0, magnitude = 0;
        for (size_t p = 0; p < s->k; ++p) {
            double x = gemm_get(a, s->type, stored_at(s->trans_a, z, s->m * s->k, row, p, s->lda));
            double y = gemm_get(bm, s->type, stored_at(s->trans_b, z, s->k * s->n, p, col, s->ldb));
            exact += x * y;
            magnitude += fabs(x * y);
        }
        float got[1] = {0};
        size_t at = z * s->m * s->n + row * s->ldc + col, c_bytes = gemm_type_bytes(s->c_type);
        if (clEnqueueReadBuffer(b->queue, s->c, CL_TRUE, at * c_bytes, c_bytes, got, 0, NULL,
                                NULL) != CL_SUCCESS)
            return -1;
        double bound = steps * ldexp(1, -24) * magnitude + u * fabs(exact);
        if (!(fabs(gemm_get(got, s->c_type, 0) - exact) <= bound))
            return -1;
    }
    return 0;
}

static void gemm_row(struct bench *b, tailor_dtype type, size_t m, size_t n, size_t k, size_t batch,
                     tailor_trans trans_a, tailor_trans trans_b)
{
    tailor_dtype c_type = type == TAILOR_3XTF32 ? TAILOR_F32 : type;
    struct gemm_state s = {trans_a, trans_b, type, c_type, m, n, k, batch,
                           trans_a == TAILOR_TRANS ? m : k, trans_b == TAILOR_TRANS ? k : n, n,
                           NULL, NULL, NULL};
    const char *name = gemm_type_name(type);
    size_t ab_bytes = gemm_type_bytes(type);
    struct bench_row row = bench_row_init(batch > 1 ? "gemm-batched" : "gemm", name);
    row.m = (long long)m;
    row.n = (long long)n;
    row.k = (long long)k;
    size_t na = batch * m * k, nb = batch * k * n;
    unsigned char *a = malloc(na * ab_bytes), *bm = malloc(nb * ab_bytes);
    if (!a || !bm) {
        bench_fail(b, "gemm: host memory");
        goto done;
    }
    unsigned long long seed = 0x9e3779b97f4a7c15ull ^ (m * 31 + n * 17 + k + batch);
    for (size_t i = 0; i < na + nb; ++i) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        float v = (float)((double)(seed >> 40) / (double)(1ull << 23) - 1.0);
        gemm_put(i < na ? (void *)a : (void *)bm, type, i < na ? i : i - na, v);
    }
    float zero = 0;
    size_t c_bytes = gemm_type_bytes(c_type);
    s.a = bench_upload(b, a, na * ab_bytes);
    s.b = bench_upload(b, bm, nb * ab_bytes);
    s.c = bench_buffer(b, batch * m * n * c_bytes, &zero, c_bytes);
    if (!s.a || !s.b || !s.c) {
        bench_fail(b, "gemm: buffers");
        goto done;
    }
    row.flops = 2.0 * (double)batch * (double)m * (double)n * (double)k;
    row.bytes = (double)batch * ((double)ab_bytes * ((double)m * (double)k + (double)k * (double)n) +
                                 (double)c_bytes * (double)m * (double)n);
    if (bench_time_row(b, &row, call_tailor, &s, NULL, NULL) != 0) {
        fprintf(stderr, "bench: gemm %zux%zux%zu: %s\n", m, n, k, tailor_last_error());
        bench_fail(b, "gemm: tailor_gemm failed");
        goto done;
    }
    snprintf(row.variant, sizeof row.variant, "%s", tailor_last_variant());
    if (strncmp(row.variant, "mma", 3) == 0)
        row.note = "tensor cores: beyond the FP32 FLOP limit";
    if (check_result(b, &s, a, bm) != 0) {
        row.note = "WRONG RESULT";
        bench_fail(b, "gemm: wrong result");
    }
    bench_add_row(b, &row);
done:
    free(a);
    free(bm);
    if (s.a)
        clReleaseMemObject(s.a);
    if (s.b)
        clReleaseMemObject(s.b);
    if (s.c)
        clReleaseMemObject(s.c);
}

void bench_gemm(struct bench *b)
{
    const tailor_trans N = TAILOR_NO_TRANS, T = TAILOR_TRANS;
    if (b->small_shapes) {
        gemm_row(b, TAILOR_F16, 512, 512, 512, 1, N, N);
        gemm_row(b, TAILOR_BF16, 512, 512, 512, 1, N, T);
        gemm_row(b, TAILOR_F16, 64, 64, 64, 256, N, N);
        gemm_row(b, TAILOR_3XTF32, 256, 256, 256, 1, N, N);
        return;
    }
    gemm_row(b, TAILOR_F16, 4096, 4096, 4096, 1, N, N);
    gemm_row(b, TAILOR_F16, 8192, 8192, 8192, 1, N, N);
    gemm_row(b, TAILOR_F16, 4096, 4096, 4096, 1, N, T);
    gemm_row(b, TAILOR_F16, 4096, 4096, 4096, 1, T, N);
    gemm_row(b, TAILOR_BF16, 4096, 4096, 4096, 1, N, N);
    gemm_row(b, TAILOR_BF16, 8192, 8192, 8192, 1, N, N);
    gemm_row(b, TAILOR_F16, 4097, 4095, 4093, 1, N, N);
    gemm_row(b, TAILOR_F16, 64, 64, 64, 4096, N, N);
    gemm_row(b, TAILOR_3XTF32, 4096, 4096, 4096, 1, N, N);
    gemm_row(b, TAILOR_3XTF32, 8192, 8192, 8192, 1, N, N);
    gemm_row(b, TAILOR_3XTF32, 4096, 4096, 4096, 1, N, T);
    gemm_row(b, TAILOR_3XTF32, 4096, 4096, 4096, 1, T, N);
    gemm_row(b, TAILOR_3XTF32, 4097, 4095, 4093, 1, N, N);
}
