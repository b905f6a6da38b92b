// tailor_gemm and tailor_gemm_strided_batched against a double-precision C
// reference on every device, under every profile the device can run, and
// with tuning strings that force each path: the tensor-core kernels in their
// big and small tile sets, asynchronous and register-prefetch, where the
// device has them, and the SIMT kernels (GEMM_MMA=0). Every input type (f16, bf16, f32, 3xTF32) with every C type, all 8
// layout/transpose combinations, batches with a shared A (stride 0), alpha
// and beta in {0, 1, other}, shapes of 1, primes, tile multiples +-1,
// offsets and padded leading dimensions that allow 16-byte loads and that do
// not. NaNs planted where no kernel may read (padding of A and B, C when
// beta = 0) must stay out of the result; elements between and after the
// C matrices must stay untouched; the bad inputs get their status.
//
// Inputs are multiples of 1/8 in [-4, 4], exact in every type, so the only
// errors are the f32 accumulation's and the rounding to C's type. Tolerance
// (tailor.h): 2 (k + 2) 2^-24 (|alpha| sum |a b| + |beta c|), plus 2^-11 of
// the result for f16 C and 2^-8 for bf16 C; 3xTF32 inputs (f32 storage) get
// their own bound.
//
// Then the accuracy of f32 products in f32 (tailor_sgemm) and in 3xTF32
// beside it, on inputs with full 24-bit significands, on wide exponent
// ranges and on sums that cancel: each kernel's largest and mean error in
// units of 2^-24 sum |a b|, printed, and held to its bound; and 3xTF32 with
// infinities, NaNs and values near FLT_MAX in A.
//
// usage: test_gemm [--small] [--profile NAME]
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_host.h"
#include "support.h"

#define GUARD 5
#define SENTINEL 77.0f

static char ta_char(tailor_trans t)
{
    return t == TAILOR_TRANS ? 't' : 'n';
}

struct gemm_case {
    tailor_layout layout;
    tailor_trans trans_a, trans_b;
    size_t m, n, k, batch;
    float alpha, beta;
    tailor_dtype ab, c;
    int aligned;  // offsets, leading dimensions and strides multiples of 8
    int shared_a; // stride_a = 0
};

// A stored matrix of the batch: `lines` lines of `length`, ld apart, stride apart.
struct layout {
    size_t lines, length, ld, offset, stride, count;
};

static struct layout layout_of(size_t lines, size_t length, size_t batch, int aligned, int shared,
                               size_t guard)
{
    struct layout l = {lines, length, 0, aligned ? 8 : 3, 0, 0};
    l.ld = aligned ? (length + 7) / 8 * 8 + 8 : length + 1;
    size_t extent = lines ? (lines - 1) * l.ld + length : 0;
    l.stride = shared ? 0 : aligned ? (extent + guard + 7) / 8 * 8 : extent + guard;
    l.count = l.offset + (batch ? batch - 1 : 0) * l.stride + extent + guard;
    return l;
}

static size_t at(const struct layout *l, size_t z, size_t line, size_t i)
{
    return l->offset + z * l->stride + line * l->ld + i;
}

// Element (row, col) of op(X) for an operand stored per `as_is`.
static size_t op_index(const struct layout *l, size_t z, int row_major, int trans, size_t row,
                       size_t col)
{
    int by_rows = (trans == 0) == row_major; // stored lines are op(X)'s rows
    return by_rows ? at(l, z, row, col) : at(l, z, col, row);
}

static void release_buffers(cl_mem a, cl_mem b, cl_mem c)
{
    cl_mem buffers[3] = {a, b, c};
    for (int i = 0; i < 3; ++i)
        if (buffers[i])
            clReleaseMemObject(buffers[i]);
}

static float sample(unsigned long long *rng)
{
    return (float)((long long)(test_random(rng) % 65) - 32) / 8.0f;
}

static void run_case(tailor_context *handle, const struct test_device *device,
                     const struct gemm_case *g, const char *label, unsigned long long *rng)
{
    int row_major = g->layout == TAILOR_ROW_MAJOR;
    int ta = g->trans_a == TAILOR_TRANS, tb = g->trans_b == TAILOR_TRANS;
    size_t m = g->m, n = g->n, k = g->k;
    int a_rows = (ta == 0) == row_major, b_rows = (tb == 0) == row_major;
    struct layout la = layout_of(a_rows ? m : k, a_rows ? k : m, g->batch, g->aligned, g->shared_a, 0);
    struct layout lb = layout_of(b_rows ? k : n, b_rows ? n : k, g->batch, g->aligned, 0, 0);
    struct layout lc = layout_of(row_major ? m : n, row_major ? n : m, g->batch, g->aligned, 0, GUARD);
    size_t ab = gemm_type_bytes(g->ab), cb = gemm_type_bytes(g->c);
    unsigned char *ha = malloc(la.count * ab), *hb = malloc(lb.count * ab);
    unsigned char *hc = malloc(lc.count * cb), *out = malloc(lc.count * cb);
    double *want = malloc(lc.count * sizeof(double)), *bound = malloc(lc.count * sizeof(double));
    if (!ha || !hb || !hc || !out || !want || !bound) {
        CHECK(0, "%s: out of host memory", label);
        goto done;
    }
    // NaN everywhere, then the matrices' elements: padding stays NaN.
    for (size_t i = 0; i < la.count; ++i)
        gemm_put(ha, g->ab, i, NAN);
    for (size_t i = 0; i < lb.count; ++i)
        gemm_put(hb, g->ab, i, NAN);
    for (size_t i = 0; i < lc.count; ++i)
        gemm_put(hc, g->c, i, SENTINEL);
    for (size_t z = 0; z < g->batch; ++z) {
        for (size_t line = 0; line < la.lines; ++line)
            for (size_t i = 0; i < la.length; ++i)
                gemm_put(ha, g->ab, at(&la, z, line, i), sample(rng));
        for (size_t line = 0; line < lb.lines; ++line)
            for (size_t i = 0; i < lb.length; ++i)
                gemm_put(hb, g->ab, at(&lb, z, line, i), sample(rng));
        for (size_t line = 0; line < lc.lines; ++line)
            for (size_t i = 0; i < lc.length; ++i)
                gemm_put(hc, g->c, at(&lc, z, line, i), g->beta == 0.0f ? NAN : sample(rng));
    }
    for (size_t i = 0; i < lc.count; ++i) {
        want[i] = gemm_get(hc, g->c, i);
        bound[i] = 0;
    }
    int product = k > 0 && g->alpha != 0.0f;
    double out_u = gemm_c_rounding(g->c);
    for (size_t z = 0; z < g->batch; ++z)
        for (size_t i = 0; i < m; ++i)
            for (size_t j = 0; j < n; ++j) {
                double sum = 0, magnitude = 0;
                for (size_t p = 0; product && p < k; ++p) {
                    double x = gemm_get(ha, g->ab, op_index(&la, z, row_major, ta, i, p));
                    double y = gemm_get(hb, g->ab, op_index(&lb, z, row_major, tb, p, j));
                    sum += x * y;
                    magnitude += fabs(x * y);
                }
                size_t ci = row_major ? at(&lc, z, i, j) : at(&lc, z, j, i);
                double c0 = g->beta == 0.0f ? 0 : want[ci];
                double exact = (product ? g->alpha * sum : 0) + g->beta * c0;
                want[ci] = exact;
                bound[ci] = gemm_error_steps(g->ab, k) * ldexp(1, -24) *
                                (fabs(g->alpha) * magnitude + fabs(g->beta * c0)) +
                            out_u * fabs(exact);
            }
    cl_mem a = test_buffer(device, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, la.count * ab, ha);
    cl_mem b = test_buffer(device, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, lb.count * ab, hb);
    cl_mem c = test_buffer(device, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, lc.count * cb, hc);
    if (a && b && c) {
        tailor_status status = tailor_gemm_strided_batched(
            handle, device->queue, g->layout, g->trans_a, g->trans_b, m, n, k, g->alpha, g->ab, a,
            la.offset, la.ld, la.stride, b, lb.offset, lb.ld, lb.stride, g->beta, g->c, c, lc.offset,
            lc.ld, lc.stride, g->batch, 0, NULL, NULL);
        CHECK(status == TAILOR_SUCCESS, "%s: %s (%s)", label, tailor_status_name(status),
              tailor_last_error());
        if (status == TAILOR_SUCCESS && test_read(device, c, 0, lc.count * cb, out) == 0) {
            size_t wrong = 0;
            for (size_t i = 0; i < lc.count; ++i) {
                double got = gemm_get(out, g->c, i);
                int ok = bound[i] == 0 && want[i] != want[i] ? got != got
                         : isfinite(want[i]) ? fabs(got - want[i]) <= bound[i]
                                             : got == want[i];
                if (!ok && wrong++ < 3)
                    CHECK(0, "%s [%s]: element %zu is %.9g, want %.9g (bound %.3g)", label,
                          tailor_last_variant(), i, got, want[i], bound[i]);
            }
            CHECK(wrong == 0, "%s: %zu elements wrong", label, wrong);
        }
    }
    release_buffers(a, b, c);
done:
    free(ha);
    free(hb);
    free(hc);
    free(out);
    free(want);
    free(bound);
}

static const size_t shapes[][4] = {
    // m, n, k, batch
    {1, 1, 1, 1},   {17, 13, 9, 3},  {64, 64, 64, 2},   {130, 67, 33, 1}, {5, 200, 70, 2},
    {129, 127, 48, 1}, {33, 31, 0, 2}, {200, 9, 257, 1},
};
static const size_t small_shapes[][4] = {{1, 1, 1, 1}, {17, 13, 9, 3}, {33, 31, 0, 2}};

static void run_profile(const struct test_device *device, const char *profile, const char *tuning,
                        int small)
{
    tailor_context *handle = test_handle(device, profile, tuning);
    if (!handle)
        return;
    unsigned long long rng = 12345;
    const tailor_dtype types[4] = {TAILOR_F16, TAILOR_BF16, TAILOR_F32, TAILOR_3XTF32};
    const float alphas[3] = {1.0f, 0.5f, 0.0f}, betas[3] = {0.0f, -1.5f, 1.0f};
    size_t count = small ? sizeof small_shapes / sizeof small_shapes[0] : sizeof shapes / sizeof shapes[0];
    int mma_seen = 0, big_seen = 0, async_seen = 0, tf32x3_seen = 0, tf32x3_cases = 0;
    size_t cases = 0;
    for (size_t s = 0; s < count; ++s)
        for (int combo = 0; combo < 8; ++combo)
            for (int t = 0; t < 4; ++t) {
                const size_t *shape = small ? small_shapes[s] : shapes[s];
                struct gemm_case g = {
                    .layout = combo & 4 ? TAILOR_COLUMN_MAJOR : TAILOR_ROW_MAJOR,
                    .trans_a = combo & 1 ? TAILOR_TRANS : TAILOR_NO_TRANS,
                    .trans_b = combo & 2 ? TAILOR_TRANS : TAILOR_NO_TRANS,
                    .m = shape[0], .n = shape[1], .k = shape[2], .batch = shape[3],
                    .alpha = alphas[(s + (size_t)combo) % 3],
                    .beta = betas[(s + (size_t)t + (size_t)combo) % 3],
                    .ab = types[t],
                    .c = types[(t + s + (size_t)combo / 2) % 3],
                    .aligned = (combo + (int)s) % 2 == 0,
                    .shared_a = combo == 3 && shape[3] > 1,
                };
                char label[512];
                snprintf(label, sizeof label, "%s [%s%s%s] %s %c%c %zux%zux%zu x%zu %s->%s a=%g b=%g%s%s",
                         device->info.device_name, profile ? profile : "detected", tuning ? " " : "",
                         tuning ? tuning : "", g.layout == TAILOR_ROW_MAJOR ? "row" : "col",
                         ta_char(g.trans_a), ta_char(g.trans_b), g.m, g.n, g.k, g.batch,
                         gemm_type_name(g.ab), gemm_type_name(g.c), (double)g.alpha, (double)g.beta,
                         g.aligned ? " aligned" : "", g.shared_a ? " shared-a" : "");
                run_case(handle, device, &g, label, &rng);
                if (g.ab == TAILOR_3XTF32) {
                    // Cases with nothing to multiply plan no kernel.
                    int product = g.k > 0 && g.alpha != 0.0f;
                    tf32x3_cases += product;
                    tf32x3_seen += product && strncmp(tailor_last_variant(), "mma-3xtf32", 10) == 0;
                    ++cases;
                    continue;
                }
                mma_seen += strncmp(tailor_last_variant(), "mma", 3) == 0;
                big_seen += strstr(tailor_last_variant(), "-big-") != NULL;
                async_seen += strncmp(tailor_last_variant(), "mma-async", 9) == 0;
                ++cases;
            }
    tailor_device_info info;
    tailor_context_device_info(handle, &info);
    int want_mma = info.kind == TAILOR_DEVICE_KIND_NVIDIA && info.cuda_sm >= 80 &&
                   !(tuning && strstr(tuning, "GEMM_MMA=0"));
    CHECK(!want_mma || mma_seen > 0, "%s: no call ran on tensor cores", device->info.device_name);
    CHECK(want_mma || mma_seen + tf32x3_seen == 0, "%s: a call ran on tensor cores with %s",
          device->info.device_name, tuning ? tuning : "the profile");
    CHECK(!want_mma || tf32x3_seen == tf32x3_cases, "%s: %d of %d 3xTF32 products ran on tensor cores",
          device->info.device_name, tf32x3_seen, tf32x3_cases);
    int async = !(tuning && strstr(tuning, "GEMM_MMA_ASYNC=0"));
    CHECK(!want_mma || (async ? async_seen > 0 && async_seen < mma_seen : async_seen == 0),
          "%s: %d of %d tensor-core calls ran the asynchronous kernels with %s (want %s)",
          device->info.device_name, async_seen, mma_seen, tuning ? tuning : "the profile",
          async ? "the aligned ones" : "none");
    // GEMM_SMALL_PERCENT=0 puts every call on the big tiles where they fit:
    // the profile's (40 KiB of local memory) always, those of GEMM_MMA_BK=64
    // (72 KiB, more than the device reports) where the handle's probe kernel
    // was built with as much, with 8 stages (288 KiB) nowhere; else none.
    cl_ulong big_bytes = !(tuning && strstr(tuning, "GEMM_MMA_BK=64")) ? 40u << 10
                         : strstr(tuning, "GEMM_MMA_STAGES=8")        ? 288u << 10
                                                                      : 72u << 10;
    int big_fits = info.local_mem_static_bytes >= big_bytes || info.local_mem_bytes >= big_bytes;
    // The probe kernel is built only where some tile set needs more local
    // memory than the device reports: not for the profile's (40 KiB at most).
    CHECK(big_bytes > (40u << 10) || info.local_mem_static_bytes == 0,
          "%s: the handle probed static local memory (%u KiB) that no tile set needs",
          device->info.device_name, info.local_mem_static_bytes >> 10);
    CHECK(!want_mma || !tuning || !strstr(tuning, "GEMM_SMALL_PERCENT=0") ||
              big_seen == (big_fits ? mma_seen : 0),
          "%s: GEMM_SMALL_PERCENT=0 ran %d of %d calls on small tiles (static local memory %u KiB)",
          device->info.device_name, mma_seen - big_seen, mma_seen,
          info.local_mem_static_bytes >> 10);
    printf("  %s%s%s: %zu cases, %d f16/bf16 on tensor cores (%d big tiles, %d asynchronous), %d "
           "3xTF32, static local memory %u KiB\n",
           profile ? profile : "detected", tuning ? " " : "", tuning ? tuning : "", cases, mma_seen,
           big_seen, async_seen, tf32x3_seen, info.local_mem_static_bytes >> 10);
    tailor_context_release(&handle);
}

// Uniform in [-1, 1) with a full 24-bit significand most of the time.
static float uniform(unsigned long long *rng)
{
    return (float)((double)(test_random(rng) >> 11) / (double)(1ull << 52) - 1.0);
}

enum accuracy_input { FULL_SIGNIFICANDS, WIDE_EXPONENTS, CANCELLING, INPUT_KINDS };
static const char *const input_names[] = {"full significands", "exponents -40..40", "cancelling sums"};

// A (m x k) and B (k x n), row-major, of one kind.
static void accuracy_inputs(enum accuracy_input kind, float *a, float *b, size_t m, size_t n,
                            size_t k, unsigned long long *rng)
{
    for (size_t i = 0; i < m * k; ++i)
        a[i] = uniform(rng);
    for (size_t i = 0; i < k * n; ++i)
        b[i] = uniform(rng);
    if (kind == WIDE_EXPONENTS) {
        for (size_t i = 0; i < m * k; ++i)
            a[i] = ldexpf(a[i], (int)(test_random(rng) % 81) - 40);
        for (size_t i = 0; i < k * n; ++i)
            b[i] = ldexpf(b[i], (int)(test_random(rng) % 81) - 40);
    } else if (kind == CANCELLING) {
        // The second half of each dot repeats the first with B negated and
        // nudged by 2^-20: the sum is about 2^-20 of sum |a b|.
        for (size_t i = 0; i < m; ++i)
            for (size_t p = k / 2; p < k; ++p)
                a[i * k + p] = a[i * k + p - k / 2];
        for (size_t p = k / 2; p < k; ++p)
            for (size_t j = 0; j < n; ++j)
                b[p * n + j] = -b[(p - k / 2) * n + j] * (1.0f + ldexpf(uniform(rng), -20));
    }
}

// C = A B in ab's arithmetic; the largest and mean error in units of
// 2^-24 sum |a b|, and whether every element holds the bound. Returns the
// largest, or -1 where the call failed.
static double accuracy_run(const struct test_device *device, tailor_context *handle,
                           tailor_dtype ab, const float *a, const float *b, size_t m, size_t n,
                           size_t k, double *mean, char *variant, size_t variant_size)
{
    cl_mem da = test_buffer(device, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, m * k * 4, (void *)a);
    cl_mem db = test_buffer(device, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, k * n * 4, (void *)b);
    cl_mem dc = test_buffer(device, CL_MEM_READ_WRITE, m * n * 4, NULL);
    float *c = malloc(m * n * sizeof *c);
    double worst = -1;
    *mean = 0;
    if (da && db && dc && c) {
        tailor_status status =
            tailor_gemm(handle, device->queue, TAILOR_ROW_MAJOR, TAILOR_NO_TRANS, TAILOR_NO_TRANS, m,
                        n, k, 1.0f, ab, da, 0, k, db, 0, n, 0.0f, TAILOR_F32, dc, 0, n, 0, NULL, NULL);
        CHECK(status == TAILOR_SUCCESS, "accuracy %s: %s", gemm_type_name(ab), tailor_last_error());
        snprintf(variant, variant_size, "%s", tailor_last_variant());
        if (status == TAILOR_SUCCESS && test_read(device, dc, 0, m * n * 4, c) == 0) {
            worst = 0;
            for (size_t i = 0; i < m; ++i)
                for (size_t j = 0; j < n; ++j) {
                    double sum = 0, magnitude = 0;
                    for (size_t p = 0; p < k; ++p) {
                        sum += (double)a[i * k + p] * b[p * n + j];
                        magnitude += fabs((double)a[i * k + p] * b[p * n + j]);
                    }
                    double units = fabs(c[i * n + j] - sum) / (ldexp(1, -24) * magnitude);
                    worst = units > worst || units != units ? units : worst;
                    *mean += units / (double)(m * n);
                }
        }
    }
    free(c);
    release_buffers(da, db, dc);
    return worst;
}

// 3xTF32 keeps IEEE's infinities and NaNs, and values near FLT_MAX do not
// overflow in its split: row 0 of A holds +inf (B positive: +inf), row 1 a
// NaN, row 2 FLT_MAX and -FLT_MAX (B 0.5 there: 0), row 3 FLT_MAX and zeros
// (B 0.5: FLT_MAX / 2 within the bound).
static void special_values(const struct test_device *device, tailor_context *handle)
{
    enum { M = 4, N = 16, K = 24 };
    float a[M * K] = {0}, b[K * N], c[M * N];
    for (size_t i = 0; i < K * N; ++i)
        b[i] = i < N ? 0.5f : 0.25f + (float)(i % 7) / 11.0f;
    for (size_t p = 0; p < K; ++p)
        a[p] = a[K + p] = 1.0f / 3.0f;
    a[3] = INFINITY;
    a[K + 5] = NAN;
    a[2 * K] = FLT_MAX;
    a[2 * K + 1] = -FLT_MAX;
    for (size_t j = 0; j < N; ++j)
        b[N + j] = 0.5f;
    a[3 * K] = FLT_MAX;
    cl_mem da = test_buffer(device, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a);
    cl_mem db = test_buffer(device, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof b, b);
    cl_mem dc = test_buffer(device, CL_MEM_READ_WRITE, sizeof c, NULL);
    if (da && db && dc) {
        tailor_status status = tailor_gemm(handle, device->queue, TAILOR_ROW_MAJOR, TAILOR_NO_TRANS,
                                           TAILOR_NO_TRANS, M, N, K, 1.0f, TAILOR_3XTF32, da, 0, K,
                                           db, 0, N, 0.0f, TAILOR_F32, dc, 0, N, 0, NULL, NULL);
        CHECK(status == TAILOR_SUCCESS, "3xTF32 special values: %s", tailor_last_error());
        if (status == TAILOR_SUCCESS && test_read(device, dc, 0, sizeof c, c) == 0)
            for (size_t j = 0; j < N; ++j) {
                CHECK(c[j] == INFINITY, "3xTF32 [%s]: inf * b gave %g", tailor_last_variant(),
                      (double)c[j]);
                CHECK(c[N + j] != c[N + j], "3xTF32 [%s]: NaN * b gave %g", tailor_last_variant(),
                      (double)c[N + j]);
                CHECK(c[2 * N + j] == 0.0f, "3xTF32 [%s]: FLT_MAX b - FLT_MAX b gave %g",
                      tailor_last_variant(), (double)c[2 * N + j]);
                CHECK(fabs(c[3 * N + j] - FLT_MAX / 2.0) <=
                          gemm_error_steps(TAILOR_3XTF32, K) * ldexp(FLT_MAX / 2.0, -24),
                      "3xTF32 [%s]: FLT_MAX * 0.5 gave %.9g", tailor_last_variant(),
                      (double)c[3 * N + j]);
            }
    }
    release_buffers(da, db, dc);
}

static void accuracy(const struct test_device *device)
{
    tailor_context *handle = test_handle(device, NULL, NULL);
    if (!handle)
        return;
    const size_t m = 64, n = 64, ks[] = {8, 256, 4096};
    unsigned long long rng = 777;
    float *a = malloc(m * 4096 * sizeof *a), *b = malloc(4096 * n * sizeof *b);
    printf("  accuracy, %zux%zu outputs: largest / mean error in 2^-24 sum |a b| (bound)\n", m, n);
    for (int kind = 0; a && b && kind < INPUT_KINDS; ++kind)
        for (size_t i = 0; i < sizeof ks / sizeof ks[0]; ++i) {
            size_t k = ks[i];
            accuracy_inputs((enum accuracy_input)kind, a, b, m, n, k, &rng);
            char f32_variant[128] = "", tf32_variant[128] = "";
            double f32_mean, tf32_mean;
            double f32 = accuracy_run(device, handle, TAILOR_F32, a, b, m, n, k, &f32_mean,
                                      f32_variant, sizeof f32_variant);
            double tf32 = accuracy_run(device, handle, TAILOR_3XTF32, a, b, m, n, k, &tf32_mean,
                                       tf32_variant, sizeof tf32_variant);
            printf("    %-18s k=%-5zu f32 %7.2f / %6.3f (%5.0f) %-26s 3xTF32 %7.2f / %6.3f (%5.0f) %s\n",
                   input_names[kind], k, f32, f32_mean, gemm_error_steps(TAILOR_F32, k), f32_variant,
                   tf32, tf32_mean, gemm_error_steps(TAILOR_3XTF32, k), tf32_variant);
            CHECK(f32 >= 0 && f32 <= gemm_error_steps(TAILOR_F32, k),
                  "f32 products, %s, k=%zu: error %.2f beyond the bound", input_names[kind], k, f32);
            CHECK(tf32 >= 0 && tf32 <= gemm_error_steps(TAILOR_3XTF32, k),
                  "3xTF32, %s, k=%zu: error %.2f beyond the bound", input_names[kind], k, tf32);
        }
    free(a);
    free(b);
    special_values(device, handle);
    tailor_context_release(&handle);
}

static void bad_inputs(const struct test_device *device)
{
    tailor_context *h = test_handle(device, NULL, NULL);
    if (!h)
        return;
    cl_command_queue q = device->queue;
    cl_mem buf = test_buffer(device, CL_MEM_READ_WRITE, 4096, NULL);
    cl_mem out = test_buffer(device, CL_MEM_READ_WRITE, 4096, NULL);
    const tailor_layout R = TAILOR_ROW_MAJOR;
    const tailor_trans N = TAILOR_NO_TRANS;
#define GEMM(ab, c_type, lda, stride_c, batch, a_buf, c_buf, c_offset)                                \
    tailor_gemm_strided_batched(h, q, R, N, N, 8, 8, 8, 1.0f, ab, a_buf, 0, lda, 64, buf, 0, 8, 64,   \
                                0.0f, c_type, c_buf, c_offset, 8, stride_c, batch, 0, NULL, NULL)
    CHECK_STATUS(GEMM(TAILOR_F16, TAILOR_F32, 8, 64, 2, buf, out, 0), TAILOR_SUCCESS);
    CHECK_STATUS(GEMM((tailor_dtype)9, TAILOR_F32, 8, 64, 2, buf, out, 0), TAILOR_ERROR_UNKNOWN_DTYPE);
    CHECK_STATUS(GEMM(TAILOR_F16, (tailor_dtype)-1, 8, 64, 2, buf, out, 0), TAILOR_ERROR_UNKNOWN_DTYPE);
    CHECK_STATUS(GEMM(TAILOR_F64, TAILOR_F32, 8, 64, 2, buf, out, 0), TAILOR_ERROR_UNSUPPORTED);
    CHECK_STATUS(GEMM(TAILOR_F16, TAILOR_F64, 8, 64, 2, buf, out, 0), TAILOR_ERROR_UNSUPPORTED);
    CHECK_STATUS(GEMM(TAILOR_F16, TAILOR_3XTF32, 8, 64, 2, buf, out, 0), TAILOR_ERROR_UNSUPPORTED);
    CHECK_STATUS(GEMM((tailor_dtype)5, TAILOR_F32, 8, 64, 2, buf, out, 0), TAILOR_ERROR_UNKNOWN_DTYPE);
    CHECK_STATUS(GEMM(TAILOR_3XTF32, TAILOR_F16, 8, 64, 2, buf, out, 0), TAILOR_SUCCESS);
    CHECK_STATUS(GEMM(TAILOR_F16, TAILOR_F32, 7, 64, 2, buf, out, 0), TAILOR_ERROR_INVALID_LEADING_DIMENSION);
    CHECK_STATUS(GEMM(TAILOR_F16, TAILOR_F32, 8, 63, 2, buf, out, 0), TAILOR_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(GEMM(TAILOR_F16, TAILOR_F32, 8, 64, 17, buf, out, 0), TAILOR_ERROR_BUFFER_TOO_SMALL);
    CHECK_STATUS(GEMM(TAILOR_F16, TAILOR_F32, 8, 64, 2, buf, buf, 0), TAILOR_ERROR_BUFFERS_OVERLAP);
    CHECK_STATUS(GEMM(TAILOR_F16, TAILOR_F32, 8, 64, 2, buf, buf, 512), TAILOR_SUCCESS);
    CHECK_STATUS(GEMM(TAILOR_F16, TAILOR_F32, 8, 64, 2, NULL, out, 0), TAILOR_ERROR_INVALID_BUFFER);
    CHECK_STATUS(GEMM(TAILOR_F16, TAILOR_F32, 8, 1, 0, NULL, NULL, 0), TAILOR_SUCCESS);
    CHECK_STATUS(tailor_gemm_strided_batched(h, q, R, N, N, 8, 8, 8, 1.0f, TAILOR_F16, buf, 0, 8,
                                             SIZE_MAX / 4, buf, 0, 8, 0, 0.0f, TAILOR_F32, out, 0, 8,
                                             64, 3, 0, NULL, NULL),
                 TAILOR_ERROR_SIZE_OVERFLOW);
    CHECK_STATUS(tailor_gemm(NULL, q, R, N, N, 1, 1, 1, 1.0f, TAILOR_F16, buf, 0, 1, buf, 0, 1, 0.0f,
                             TAILOR_F32, out, 0, 1, 0, NULL, NULL),
                 TAILOR_ERROR_NULL_HANDLE);
    CHECK_STATUS(tailor_gemm(h, q, (tailor_layout)5, N, N, 1, 1, 1, 1.0f, TAILOR_F16, buf, 0, 1, buf,
                             0, 1, 0.0f, TAILOR_F32, out, 0, 1, 0, NULL, NULL),
                 TAILOR_ERROR_UNKNOWN_LAYOUT);
    // k = 0 reads neither A nor B: they may be NULL.
    CHECK_STATUS(tailor_gemm(h, q, R, N, N, 4, 4, 0, 1.0f, TAILOR_F16, NULL, 0, 1, NULL, 0, 4, 2.0f,
                             TAILOR_BF16, out, 0, 4, 0, NULL, NULL),
                 TAILOR_SUCCESS);
    clFinish(q);
#undef GEMM
    if (buf)
        clReleaseMemObject(buf);
    if (out)
        clReleaseMemObject(out);
    tailor_context_release(&h);
}

int main(int argc, char **argv)
{
    struct test_options options = test_parse_options(argc, argv);
    struct test_device devices[8];
    size_t count = test_open_devices(devices, 8);
    for (size_t d = 0; d < count; ++d) {
        printf("device %s\n", devices[d].info.device_name);
        const char *profiles[8];
        size_t n = test_chosen_profiles(&devices[d], &options, profiles, 8, 0);
        for (size_t p = 0; p < n; ++p)
            run_profile(&devices[d], profiles[p], NULL, options.small);
        if (options.small || !test_runs_own(&options))
            continue;
        run_profile(&devices[d], NULL, "GEMM_MMA=0", 0);
        if (devices[d].info.kind == TAILOR_DEVICE_KIND_NVIDIA && devices[d].info.cuda_sm >= 80) {
            run_profile(&devices[d], NULL, "GEMM_SMALL_PERCENT=0", 0);
            run_profile(&devices[d], NULL, "GEMM_MMA_ASYNC=0", 0);
            run_profile(&devices[d], NULL, "GEMM_MMA_ASYNC=0,GEMM_SMALL_PERCENT=0", 0);
            run_profile(&devices[d], NULL, "GEMM_MMA_BK=64,GEMM_SMALL_PERCENT=0", 0);
            run_profile(&devices[d], NULL, "GEMM_MMA_BK=64,GEMM_MMA_STAGES=8,GEMM_SMALL_PERCENT=0", 0);
        }
        bad_inputs(&devices[d]);
        accuracy(&devices[d]);
    }
    test_close_devices(devices, count);
    return test_exit_status("test_gemm");
}
