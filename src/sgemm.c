// tailor_sgemm: argument checks, the column-major to row-major mapping, and
// the choice among the kernels of cl/sgemm.cl (CPU-blocked, small/skinny,
// tiled with the big or mid tile set, vector or scalar loads, fast or edge).
#include <stdint.h>
#include <stdio.h>

#include "checks.h"
#include "error.h"
#include "launch.h"
#include "program.h"

// The kernels index rows, columns and k with 32-bit integers.
#define SGEMM_MAX_DIMENSION ((size_t)INT32_MAX)

// Groups along launch dimensions 1 and 2: NVIDIA GPUs take at most 65535 in
// each (CUDA's grid limits), so the kernels' row groups spread over both.
#define MAX_GROUPS_12 ((size_t)65535)

// One call in row-major terms (after the column-major swap).
struct sgemm_call {
    tailor_context *ctx;
    cl_command_queue queue;
    cl_uint m, n, k;
    cl_float alpha, beta;
    int a_mn_contig; // A is stored transposed: element (i, p) at a[p * lda + i]
    int b_k_contig;  // B is stored transposed: element (p, j) at b[j * ldb + p]
    cl_mem a, b, c;
    cl_ulong a_offset, lda, b_offset, ldb, c_offset, ldc;
    cl_uint wait_count;
    const cl_event *wait_list;
    cl_event *event;
};

static size_t ceil_div(size_t a, size_t b)
{
    return (a + b - 1) / b;
}

static size_t round_up(size_t a, size_t b)
{
    return ceil_div(a, b) * b;
}

// A 3-D launch.
struct geometry {
    size_t global[3], local[3];
};

// `columns` work-items in groups of `local_columns` along dimension 0, and
// `row_groups` groups of `local_rows` work-items that the kernel indexes by
// group_row() (cl/sgemm.cl) over dimensions 1 and 2.
static struct geometry spread_rows(size_t columns, size_t local_columns, size_t row_groups,
                                   size_t local_rows)
{
    size_t first = row_groups < MAX_GROUPS_12 ? row_groups : MAX_GROUPS_12;
    return (struct geometry){{columns, first * local_rows, ceil_div(row_groups, first)},
                             {local_columns, local_rows, 1}};
}

// "nn", "nt", "tn" or "tt": op(A) and op(B) as the kernels see them.
static const char *orientation(const struct sgemm_call *c)
{
    static const char *const names[2][2] = {{"nn", "nt"}, {"tn", "tt"}};
    return names[c->a_mn_contig][c->b_k_contig];
}

// Enqueues the leased kernel (its arguments set, unless `status` says
// otherwise), gives it back, and records the variant on success.
static tailor_status finish(const struct sgemm_call *c, struct kernel_lease *kernel,
                            tailor_status status, const struct geometry *g, const char *variant)
{
    if (status == TAILOR_SUCCESS) {
        cl_int error = clEnqueueNDRangeKernel(c->queue, kernel->kernel, 3, NULL, g->global, g->local,
                                              c->wait_count, c->wait_list, c->event);
        if (error != CL_SUCCESS)
            status = error_from_cl(error, "clEnqueueNDRangeKernel");
    }
    kernel_release(kernel);
    if (status == TAILOR_SUCCESS)
        variant_set(variant);
    return status;
}

// C = beta * C: k = 0 or alpha = 0 (A and B are not read, as in BLAS).
static tailor_status sgemm_scale(const struct sgemm_call *c)
{
    const int *t = c->ctx->profile.tune;
    size_t wg_x = (size_t)t[TUNE_SGEMM_SMALL_WG_X], wg_y = (size_t)t[TUNE_SGEMM_SMALL_WG_Y];
    struct geometry g = spread_rows(round_up(c->n, wg_x), wg_x, ceil_div(c->m, wg_y), wg_y);
    struct kernel_lease kernel;
    tailor_status status = kernel_acquire(c->ctx, PROGRAM_SGEMM_SMALL, "sgemm_scale", &kernel);
    if (status != TAILOR_SUCCESS)
        return status;
    status = set_kernel_args(&kernel, 6, KERNEL_ARG(c->m), KERNEL_ARG(c->n),
                             KERNEL_ARG(c->beta), KERNEL_MEM(c->c), KERNEL_ARG(c->c_offset),
                             KERNEL_ARG(c->ldc));
    return finish(c, &kernel, status, &g, "scale");
}

// Few rows or columns, or little work: one work-item per small block of C.
static tailor_status sgemm_small(const struct sgemm_call *c)
{
    const int *t = c->ctx->profile.tune;
    size_t rm = (size_t)t[TUNE_SGEMM_SMALL_RM], rn = (size_t)t[TUNE_SGEMM_SMALL_RN];
    size_t wg_x = (size_t)t[TUNE_SGEMM_SMALL_WG_X], wg_y = (size_t)t[TUNE_SGEMM_SMALL_WG_Y];
    struct geometry g = spread_rows(round_up(ceil_div(c->n, rn), wg_x), wg_x,
                                    ceil_div(ceil_div(c->m, rm), wg_y), wg_y);
    // Element strides: A's rows and k, B's k and columns.
    cl_ulong a_row = c->a_mn_contig ? 1 : c->lda, a_k = c->a_mn_contig ? c->lda : 1;
    cl_ulong b_k = c->b_k_contig ? 1 : c->ldb, b_col = c->b_k_contig ? c->ldb : 1;
    char variant[64];
    snprintf(variant, sizeof variant, "small/%s", orientation(c));
    struct kernel_lease kernel;
    tailor_status status = kernel_acquire(c->ctx, PROGRAM_SGEMM_SMALL, "sgemm_small", &kernel);
    if (status != TAILOR_SUCCESS)
        return status;
    status = set_kernel_args(&kernel, 16, KERNEL_ARG(c->m), KERNEL_ARG(c->n), KERNEL_ARG(c->k),
                             KERNEL_ARG(c->alpha), KERNEL_ARG(c->beta), KERNEL_MEM(c->a),
                             KERNEL_ARG(c->a_offset), KERNEL_ARG(a_row), KERNEL_ARG(a_k),
                             KERNEL_MEM(c->b), KERNEL_ARG(c->b_offset), KERNEL_ARG(b_k),
                             KERNEL_ARG(b_col), KERNEL_MEM(c->c), KERNEL_ARG(c->c_offset),
                             KERNEL_ARG(c->ldc));
    return finish(c, &kernel, status, &g, variant);
}

// The CPU kernels: the broadcast form wherever B or A can supply vectors
// along the output's rows (nn, tn, and tt as C^T = B A with C's strides
// swapped), the dot form for nt.
static tailor_status sgemm_cpu(const struct sgemm_call *c)
{
    const int *t = c->ctx->profile.tune;
    size_t group = (size_t)t[TUNE_SGEMM_CPU_WG], rows = (size_t)t[TUNE_SGEMM_CPU_RM];
    int dot = !c->a_mn_contig && c->b_k_contig, swap = c->a_mn_contig && c->b_k_contig;
    size_t cols = dot ? (size_t)t[TUNE_SGEMM_CPU_DOT_RN]
                      : (size_t)t[TUNE_SGEMM_CPU_VN] * (size_t)t[TUNE_SGEMM_CPU_NV];
    cl_uint m = swap ? c->n : c->m, n = swap ? c->m : c->n;
    size_t blocks_m = ceil_div(m, rows), blocks_n = ceil_div(n, cols);
    // CPU devices have no limit on a launch's dimensions: plain 2-D.
    int rows_first = t[TUNE_SGEMM_CPU_ROWS_FIRST];
    struct geometry g = {{round_up(rows_first ? blocks_m : blocks_n, group),
                          rows_first ? blocks_n : blocks_m, 1},
                         {group, 1, 1}};
    char variant[64];
    snprintf(variant, sizeof variant, "cpu-%s-%zux%zu/%s", dot ? "dot" : "blocked", rows, cols,
             orientation(c));
    struct kernel_lease kernel;
    tailor_status status = kernel_acquire(c->ctx, PROGRAM_SGEMM_CPU,
                                          dot ? "sgemm_cpu_dot" : "sgemm_cpu_broadcast", &kernel);
    if (status != TAILOR_SUCCESS)
        return status;
    if (dot) {
        status = set_kernel_args(&kernel, 14, KERNEL_ARG(c->m), KERNEL_ARG(c->n),
                                 KERNEL_ARG(c->k), KERNEL_ARG(c->alpha), KERNEL_ARG(c->beta),
                                 KERNEL_MEM(c->a), KERNEL_ARG(c->a_offset), KERNEL_ARG(c->lda),
                                 KERNEL_MEM(c->b), KERNEL_ARG(c->b_offset), KERNEL_ARG(c->ldb),
                                 KERNEL_MEM(c->c), KERNEL_ARG(c->c_offset), KERNEL_ARG(c->ldc));
        return finish(c, &kernel, status, &g, variant);
    }
    // The broadcast operand x gives the output's rows, the vector operand y
    // its columns; both with element strides, as is C.
    cl_mem x = swap ? c->b : c->a, y = swap ? c->a : c->b;
    cl_ulong x_offset = swap ? c->b_offset : c->a_offset;
    cl_ulong x_row = swap ? c->ldb : c->a_mn_contig ? 1 : c->lda;
    cl_ulong x_k = swap ? 1 : c->a_mn_contig ? c->lda : 1;
    cl_ulong y_offset = swap ? c->a_offset : c->b_offset, ldy = swap ? c->lda : c->ldb;
    cl_ulong c_row = swap ? 1 : c->ldc, c_col = swap ? c->ldc : 1;
    status = set_kernel_args(&kernel, 16, KERNEL_ARG(m), KERNEL_ARG(n), KERNEL_ARG(c->k),
                             KERNEL_ARG(c->alpha), KERNEL_ARG(c->beta), KERNEL_MEM(x),
                             KERNEL_ARG(x_offset), KERNEL_ARG(x_row), KERNEL_ARG(x_k), KERNEL_MEM(y),
                             KERNEL_ARG(y_offset), KERNEL_ARG(ldy), KERNEL_MEM(c->c),
                             KERNEL_ARG(c->c_offset), KERNEL_ARG(c_row), KERNEL_ARG(c_col));
    return finish(c, &kernel, status, &g, variant);
}

static int divides(cl_ulong value, int by)
{
    return value % (cl_ulong)by == 0;
}

static tailor_status sgemm_tiled(const struct sgemm_call *c)
{
    static const char *const kernels[2][2][2] = {
        {{"sgemm_tiled_nn", "sgemm_tiled_nt"}, {"sgemm_tiled_tn", "sgemm_tiled_tt"}},
        {{"sgemm_tiled_nn_edge", "sgemm_tiled_nt_edge"},
         {"sgemm_tiled_tn_edge", "sgemm_tiled_tt_edge"}},
    };
    const struct profile *profile = &c->ctx->profile;
    struct sgemm_tiles tiles;
    sgemm_tiles_of(profile, 0, &tiles);
    // The mid tile set when the big one would give the compute units too few groups.
    size_t big_groups = ceil_div(c->m, (size_t)tiles.bm) * ceil_div(c->n, (size_t)tiles.bn);
    int mid = big_groups * 100 <
              (size_t)profile->tune[TUNE_SGEMM_MID_PERCENT] * c->ctx->info.compute_units;
    if (mid)
        sgemm_tiles_of(profile, 1, &tiles);
    // 128-bit loads and stores need every row start aligned to the vector.
    int load_vec = profile->tune[TUNE_SGEMM_LOAD_VEC];
    int vector = divides(c->a_offset, load_vec) && divides(c->lda, load_vec) &&
                 divides(c->b_offset, load_vec) && divides(c->ldb, load_vec) &&
                 divides(c->c_offset, tiles.vwn) && divides(c->ldc, tiles.vwn);
    int edge = c->m % (cl_uint)tiles.bm || c->n % (cl_uint)tiles.bn || c->k % (cl_uint)tiles.bk;
    enum program_id program =
        mid ? (vector ? PROGRAM_SGEMM_TILED_MID : PROGRAM_SGEMM_TILED_MID_SCALAR)
            : (vector ? PROGRAM_SGEMM_TILED : PROGRAM_SGEMM_TILED_SCALAR);
    // Dimension 0: the tiles of a band of SWIZZLE tile rows; dimension 1: bands.
    size_t threads = (size_t)(tiles.bm / tiles.tm) * (size_t)(tiles.bn / tiles.tn);
    size_t swizzle = (size_t)profile->tune[TUNE_SGEMM_SWIZZLE];
    struct geometry g = spread_rows(swizzle * ceil_div(c->n, (size_t)tiles.bn) * threads, threads,
                                    ceil_div(ceil_div(c->m, (size_t)tiles.bm), swizzle), 1);
    char variant[96], loads[16] = "scalar";
    if (vector)
        snprintf(loads, sizeof loads, "vec%d", load_vec);
    snprintf(variant, sizeof variant, "tiled-%dx%dx%d/%s%s/%s", tiles.bm, tiles.bn, tiles.bk, loads,
             edge ? "/edge" : "", orientation(c));
    struct kernel_lease kernel;
    tailor_status status =
        kernel_acquire(c->ctx, program, kernels[edge][c->a_mn_contig][c->b_k_contig], &kernel);
    if (status != TAILOR_SUCCESS)
        return status;
    status = set_kernel_args(&kernel, 14, KERNEL_ARG(c->m), KERNEL_ARG(c->n), KERNEL_ARG(c->k),
                             KERNEL_ARG(c->alpha), KERNEL_ARG(c->beta), KERNEL_MEM(c->a),
                             KERNEL_ARG(c->a_offset), KERNEL_ARG(c->lda), KERNEL_MEM(c->b),
                             KERNEL_ARG(c->b_offset), KERNEL_ARG(c->ldb), KERNEL_MEM(c->c),
                             KERNEL_ARG(c->c_offset), KERNEL_ARG(c->ldc));
    return finish(c, &kernel, status, &g, variant);
}

// A product with one row or one column of C is a matrix-vector product: the
// GEMV kernels stream the matrix once at full bandwidth, where GEMM tiles
// would leave the device idle. In row-major terms (after the layout swap):
// m = 1 takes y = B^T a over B's storage, n = 1 takes y = A b over A's.
static tailor_status sgemm_as_gemv(const struct sgemm_call *c)
{
    tailor_status status;
    if (c->m == 1) {
        long long incx = c->a_mn_contig ? (long long)c->lda : 1;
        status = c->b_k_contig
                     ? tailor_sgemv(c->ctx, c->queue, TAILOR_ROW_MAJOR, TAILOR_NO_TRANS, c->n, c->k, c->alpha,
                                    c->b, c->b_offset, c->ldb, c->a, c->a_offset, incx, c->beta, c->c,
                                    c->c_offset, 1, c->wait_count, c->wait_list, c->event)
                     : tailor_sgemv(c->ctx, c->queue, TAILOR_ROW_MAJOR, TAILOR_TRANS, c->k, c->n, c->alpha,
                                    c->b, c->b_offset, c->ldb, c->a, c->a_offset, incx, c->beta, c->c,
                                    c->c_offset, 1, c->wait_count, c->wait_list, c->event);
    } else {
        long long incx = c->b_k_contig ? 1 : (long long)c->ldb;
        status = c->a_mn_contig
                     ? tailor_sgemv(c->ctx, c->queue, TAILOR_ROW_MAJOR, TAILOR_TRANS, c->k, c->m, c->alpha,
                                    c->a, c->a_offset, c->lda, c->b, c->b_offset, incx, c->beta, c->c,
                                    c->c_offset, (long long)c->ldc, c->wait_count, c->wait_list, c->event)
                     : tailor_sgemv(c->ctx, c->queue, TAILOR_ROW_MAJOR, TAILOR_NO_TRANS, c->m, c->k, c->alpha,
                                    c->a, c->a_offset, c->lda, c->b, c->b_offset, incx, c->beta, c->c,
                                    c->c_offset, (long long)c->ldc, c->wait_count, c->wait_list, c->event);
    }
    if (status == TAILOR_SUCCESS) {
        char name[128];
        snprintf(name, sizeof name, "gemv:%s", tailor_last_variant());
        variant_set(name);
    }
    return status;
}

static tailor_status sgemm_dispatch(const struct sgemm_call *c)
{
    const int *t = c->ctx->profile.tune;
    if (c->m == 1 || c->n == 1)
        return sgemm_as_gemv(c);
    if (t[TUNE_SGEMM_CPU_KERNEL])
        return sgemm_cpu(c);
    double cube = (double)t[TUNE_SGEMM_SMALL_CUBE];
    cl_uint small_dim = (cl_uint)t[TUNE_SGEMM_SMALL_DIM];
    if (c->m <= small_dim || c->n <= small_dim ||
        (double)c->m * (double)c->n * (double)c->k <= cube * cube * cube)
        return sgemm_small(c);
    return sgemm_tiled(c);
}

// A stored operand: `lines` lines of `length` elements, ld apart.
struct stored {
    size_t lines, length;
};

static size_t extent_of(struct stored s, size_t ld)
{
    return s.lines && s.length ? (s.lines - 1) * ld + s.length : 0;
}

static tailor_status check_overlap(cl_mem input, const char *name, size_t offset, size_t extent,
                                   cl_mem c, size_t c_offset, size_t c_extent)
{
    REQUIRE(input != c || !ranges_overlap(offset * sizeof(float), extent * sizeof(float),
                                          c_offset * sizeof(float), c_extent * sizeof(float)),
            TAILOR_ERROR_BUFFERS_OVERLAP, "c overlaps %s in the same buffer", name);
    return TAILOR_SUCCESS;
}

tailor_status tailor_sgemm(tailor_context *ctx, cl_command_queue queue, tailor_layout layout,
                           tailor_trans trans_a, tailor_trans trans_b, size_t m, size_t n,
                           size_t k, float alpha, cl_mem a, size_t a_offset, size_t lda, cl_mem b,
                           size_t b_offset, size_t ldb, float beta, cl_mem c, size_t c_offset,
                           size_t ldc, cl_uint num_events_in_wait_list,
                           const cl_event *event_wait_list, cl_event *event)
{
    error_clear();
    REQUIRE(ctx, TAILOR_ERROR_NULL_HANDLE, "the tailor handle is NULL");
    REQUIRE(layout == TAILOR_ROW_MAJOR || layout == TAILOR_COLUMN_MAJOR, TAILOR_ERROR_UNKNOWN_LAYOUT,
            "%d is not a tailor_layout", (int)layout);
    REQUIRE(trans_a == TAILOR_NO_TRANS || trans_a == TAILOR_TRANS, TAILOR_ERROR_UNKNOWN_TRANSPOSE,
            "trans_a %d is not a tailor_trans", (int)trans_a);
    REQUIRE(trans_b == TAILOR_NO_TRANS || trans_b == TAILOR_TRANS, TAILOR_ERROR_UNKNOWN_TRANSPOSE,
            "trans_b %d is not a tailor_trans", (int)trans_b);
    tailor_status status = check_queue(ctx, queue);
    if (status == TAILOR_SUCCESS)
        status = check_wait_list(ctx, num_events_in_wait_list, event_wait_list);
    if (status != TAILOR_SUCCESS)
        return status;

    // How each matrix lies in memory: op(A) is m x k, op(B) k x n, C m x n,
    // each stored by rows in row-major layout and by columns in column-major.
    int row_major = layout == TAILOR_ROW_MAJOR;
    int a_as_is = (trans_a == TAILOR_NO_TRANS) == row_major;
    int b_as_is = (trans_b == TAILOR_NO_TRANS) == row_major;
    struct stored sa = {a_as_is ? m : k, a_as_is ? k : m};
    struct stored sb = {b_as_is ? k : n, b_as_is ? n : k};
    struct stored sc = {row_major ? m : n, row_major ? n : m};
    // Leading dimensions as BLAS checks them, before any quick return.
    REQUIRE(lda >= sa.length && lda >= 1, TAILOR_ERROR_INVALID_LEADING_DIMENSION,
            "lda is %zu, less than the %zu elements of a stored line of a", lda, sa.length);
    REQUIRE(ldb >= sb.length && ldb >= 1, TAILOR_ERROR_INVALID_LEADING_DIMENSION,
            "ldb is %zu, less than the %zu elements of a stored line of b", ldb, sb.length);
    REQUIRE(ldc >= sc.length && ldc >= 1, TAILOR_ERROR_INVALID_LEADING_DIMENSION,
            "ldc is %zu, less than the %zu elements of a stored line of c", ldc, sc.length);
    if (m == 0 || n == 0)
        return enqueue_nothing(queue, num_events_in_wait_list, event_wait_list, event);
    REQUIRE(m <= SGEMM_MAX_DIMENSION && n <= SGEMM_MAX_DIMENSION && k <= SGEMM_MAX_DIMENSION,
            TAILOR_ERROR_UNSUPPORTED, "m, n and k must be at most 2^31 - 1 (got %zu, %zu, %zu)", m,
            n, k);

    // k = 0 or alpha = 0: C = beta * C, A and B not read (BLAS semantics).
    int product = k > 0 && alpha != 0.0f;
    status = check_matrix(ctx, c, "c", c_offset, sc.lines, sc.length, ldc, sizeof(float),
                          beta == 0.0f ? BUFFER_WRITE : BUFFER_READ | BUFFER_WRITE);
    if (status == TAILOR_SUCCESS && product)
        status = check_matrix(ctx, a, "a", a_offset, sa.lines, sa.length, lda, sizeof(float),
                              BUFFER_READ);
    if (status == TAILOR_SUCCESS && product)
        status = check_matrix(ctx, b, "b", b_offset, sb.lines, sb.length, ldb, sizeof(float),
                              BUFFER_READ);
    size_t c_extent = extent_of(sc, ldc);
    if (status == TAILOR_SUCCESS && product)
        status = check_overlap(a, "a", a_offset, extent_of(sa, lda), c, c_offset, c_extent);
    if (status == TAILOR_SUCCESS && product)
        status = check_overlap(b, "b", b_offset, extent_of(sb, ldb), c, c_offset, c_extent);
    if (status != TAILOR_SUCCESS)
        return status;
    if (!product && beta == 1.0f)
        return enqueue_nothing(queue, num_events_in_wait_list, event_wait_list, event);

    // Column-major C = op(A) op(B) is row-major C^T = op(B)^T op(A)^T: the
    // operands swap, m and n swap, each keeps its transpose flag.
    struct sgemm_call call = {
        .ctx = ctx,
        .queue = queue,
        .m = (cl_uint)(row_major ? m : n),
        .n = (cl_uint)(row_major ? n : m),
        .k = (cl_uint)k,
        .alpha = alpha,
        .beta = beta,
        .a_mn_contig = (row_major ? trans_a : trans_b) == TAILOR_TRANS,
        .b_k_contig = (row_major ? trans_b : trans_a) == TAILOR_TRANS,
        .a = row_major ? a : b,
        .b = row_major ? b : a,
        .c = c,
        .a_offset = row_major ? a_offset : b_offset,
        .lda = row_major ? lda : ldb,
        .b_offset = row_major ? b_offset : a_offset,
        .ldb = row_major ? ldb : lda,
        .c_offset = c_offset,
        .ldc = ldc,
        .wait_count = num_events_in_wait_list,
        .wait_list = event_wait_list,
        .event = event,
    };
    if (!product)
        return sgemm_scale(&call);
    return sgemm_dispatch(&call);
}
