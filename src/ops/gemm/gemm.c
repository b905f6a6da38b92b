// tailor_gemm and tailor_gemm_strided_batched: argument checks, the
// column-major to row-major mapping, and the choice between the tensor-core
// kernels (NVIDIA CUDA_SM >= 80, f16 and bf16: asynchronous where A and B
// allow 16-byte loads, register prefetch otherwise, in their big or small
// tile set; 3xTF32 in its own tile set) and the SIMT kernels of cl/gemm.cl.
// A single f32 x f32 -> f32 product, and a 3xTF32 one where the tensor cores
// do not take it, is handed to tailor_sgemm.
#include "gemm.h"

#include <stdint.h>
#include <stdio.h>

#include "checks.h"
#include "context.h"
#include "error.h"
#include "launch.h"
#include "matrix_product.h"
#include "symbols.h"

// The kernels index rows, columns and k with 32-bit integers, and the batch.
#define GEMM_MAX_DIMENSION ((size_t)INT32_MAX)
#define GEMM_MAX_BATCH ((size_t)UINT32_MAX)

// Groups along launch dimension 1 (the batch): CUDA's grid limit; the
// kernels walk the batch in steps of the groups launched.
#define MAX_BATCH_GROUPS ((size_t)65535)

_Static_assert(DTYPE_F32 == TAILOR_F32 && DTYPE_F16 == TAILOR_F16 &&
                   DTYPE_BF16 == TAILOR_BF16,
               "the kernels' c_type values are tailor_dtype's");

// One call in row-major terms (after the column-major swap).
struct gemm_call {
    tailor_context *ctx;
    cl_command_queue queue;
    cl_uint m, n, k;
    cl_float alpha, beta;
    tailor_dtype ab_type, c_type;
    int a_mn_contig; // op(A) is stored transposed: element (i, p) at a[p * lda + i]
    int b_k_contig;  // op(B) is stored transposed: element (p, j) at b[j * ldb + p]
    cl_mem a, b, c;
    cl_ulong a_offset, lda, stride_a, b_offset, ldb, stride_b, c_offset, ldc, stride_c;
    cl_ulong batch;
    int scale_only; // k = 0 or alpha = 0: C = beta * C, A and B not read
    cl_uint wait_count;
    const cl_event *wait_list;
    cl_event *event;
};

static const char *type_name(tailor_dtype type)
{
    return type == TAILOR_F32    ? "f32"
           : type == TAILOR_F16  ? "f16"
           : type == TAILOR_BF16 ? "bf16"
                                 : "3xtf32";
}

// Tensor cores are a probed fact: NVIDIA's compute capability and the PTX ISA
// its driver takes (mma.sync.m16n8k16 with f16 and bf16, m16n8k8 with tf32:
// sm_80, PTX 7.0).
static int has_mma(const struct profile *profile)
{
    return profile->kind == TAILOR_DEVICE_KIND_NVIDIA && profile->cuda_sm >= 80 &&
           profile->ptx_isa >= 70;
}

static size_t max_group(const tailor_device_info *facts)
{
    return facts->max_work_group_size ? facts->max_work_group_size : 1024;
}

// The tensor-core tile sets: f16 and bf16 in big and small tiles
// (GEMM_MMA_*, GEMM_MMA_SMALL_*), and 3xTF32 (GEMM_TF32X3_*).
enum tile_set { TILES_BIG, TILES_SMALL, TILES_TF32X3 };

static const char *const tile_set_prefix[] = {"GEMM_MMA_", "GEMM_MMA_SMALL_", "GEMM_TF32X3_"};

// One tensor-core tile set as the profile holds it.
struct mma_tiles {
    int bm, bn, bk, warps_m, warps_n, stages;
};

static struct mma_tiles mma_tiles_of(const int *t, enum tile_set set)
{
    static const enum param_id ids[][6] = {
        {TUNE_GEMM_MMA_BM, TUNE_GEMM_MMA_BN, TUNE_GEMM_MMA_BK, TUNE_GEMM_MMA_WARPS_M,
         TUNE_GEMM_MMA_WARPS_N, TUNE_GEMM_MMA_STAGES},
        {TUNE_GEMM_MMA_SMALL_BM, TUNE_GEMM_MMA_SMALL_BN, TUNE_GEMM_MMA_SMALL_BK,
         TUNE_GEMM_MMA_SMALL_WARPS_M, TUNE_GEMM_MMA_SMALL_WARPS_N, TUNE_GEMM_MMA_SMALL_STAGES},
        {TUNE_GEMM_TF32X3_BM, TUNE_GEMM_TF32X3_BN, TUNE_GEMM_TF32X3_BK, TUNE_GEMM_TF32X3_WARPS_M,
         TUNE_GEMM_TF32X3_WARPS_N, TUNE_GEMM_TF32X3_STAGES},
    };
    const enum param_id *id = ids[set];
    return (struct mma_tiles){t[id[0]], t[id[1]], t[id[2]], t[id[3]], t[id[4]], t[id[5]]};
}

static size_t mma_threads(struct mma_tiles s)
{
    return 32 * (size_t)s.warps_m * (size_t)s.warps_n;
}

static size_t larger(size_t a, size_t b)
{
    return a > b ? a : b;
}

// A tensor-core tile set splits into warps whose tiles are whole mma tiles
// (16 x 8, and 16 x 16 for the asynchronous kernels, which read B fragments
// two n-tiles at a time), and each operand tile into 16-byte chunks (of 8
// halves, and pairs of them per work-item; of 4 floats for 3xTF32).
static tailor_status check_mma_tiles(const int *t, enum tile_set set)
{
    const char *name = tile_set_prefix[set];
    struct mma_tiles s = mma_tiles_of(t, set);
    int threads = (int)mma_threads(s);
    int per_chunk = set == TILES_TF32X3 ? 4 : 16;
    REQUIRE(s.bm % (16 * s.warps_m) == 0 && s.bn % (16 * s.warps_n) == 0,
            TAILOR_ERROR_INVALID_PROFILE,
            "%sBM / WARPS_M and %sBN / WARPS_N must be multiples of 16", name, name);
    REQUIRE((s.bm * s.bk / per_chunk) % threads == 0 && (s.bn * s.bk / per_chunk) % threads == 0,
            TAILOR_ERROR_INVALID_PROFILE,
            "%s tiles (%dx%dx%d) do not split into 16-byte loads for %d work-items", name, s.bm,
            s.bn, s.bk, threads);
    return TAILOR_SUCCESS;
}

// The tensor-core kernels' tiles are static local arrays, which NVIDIA's
// compiler takes beyond the local memory the device reports (probe.c).
static int mma_local_fits(const tailor_device_info *facts, size_t bytes)
{
    return local_memory_fits(facts, bytes) || bytes <= facts->local_mem_static_bytes;
}

// The local memory of a tile set's largest kernel: of the register-prefetch
// one (32-bit k-pair words, rows padded by 4 words or pairs of rows by 8, one
// or two buffers) and the asynchronous one (STAGES tiles of halves, lines
// padded by 8); the 3xTF32 set has only the asynchronous one (tiles of
// floats, K-contiguous lines padded by 4, others by 8).
static size_t mma_tiles_bytes(const int *t, enum tile_set set)
{
    struct mma_tiles s = mma_tiles_of(t, set);
    size_t bm = (size_t)s.bm, bn = (size_t)s.bn, bk = (size_t)s.bk;
    if (set == TILES_TF32X3)
        return sizeof(cl_float) * (size_t)s.stages *
               (larger(bm * (bk + 4), bk * (bm + 8)) + larger(bn * (bk + 4), bk * (bn + 8)));
    size_t prefetch_bytes = sizeof(cl_uint) * (size_t)(1 + t[TUNE_GEMM_MMA_DOUBLE_BUFFER]) *
                            (larger(bm * (bk / 2 + 4), bk / 2 * (bm + 8)) +
                             larger(bn * (bk / 2 + 4), bk / 2 * (bn + 8)));
    size_t async_bytes = sizeof(cl_ushort) * (size_t)s.stages *
                         (larger(bm * (bk + 8), bk * (bm + 8)) +
                          larger(bn * (bk + 8), bk * (bn + 8)));
    return larger(prefetch_bytes, async_bytes);
}

// Whether a tile set's kernels fit the device's work-groups and local memory.
static int mma_tiles_fit(const int *t, const tailor_device_info *facts, enum tile_set set)
{
    return mma_threads(mma_tiles_of(t, set)) <= max_group(facts) &&
           mma_local_fits(facts, mma_tiles_bytes(t, set));
}

static size_t static_local_bytes(const struct profile *profile)
{
    size_t most = 0;
    for (int set = TILES_BIG; has_mma(profile) && set <= TILES_TF32X3; ++set)
        most = larger(most, mma_tiles_bytes(profile->tune, (enum tile_set)set));
    return most;
}

// Tensor cores where the device has them and the small tile set fits it (a
// device with too little local memory for them runs the SIMT kernels); where
// the big set does not fit, every call takes the small one.
static int mma_ready(const struct profile *profile, const tailor_device_info *facts)
{
    return has_mma(profile) && mma_tiles_fit(profile->tune, facts, TILES_SMALL);
}

static tailor_status check(const struct profile *profile, const tailor_device_info *facts)
{
    const int *t = profile->tune;
    int bm = t[TUNE_GEMM_SIMT_BM], bn = t[TUNE_GEMM_SIMT_BN], bk = t[TUNE_GEMM_SIMT_BK];
    int tm = t[TUNE_GEMM_SIMT_TM], tn = t[TUNE_GEMM_SIMT_TN];
    REQUIRE(bm % tm == 0 && bn % tn == 0, TAILOR_ERROR_INVALID_PROFILE,
            "GEMM_SIMT_TM must divide GEMM_SIMT_BM and GEMM_SIMT_TN GEMM_SIMT_BN");
    int threads = (bm / tm) * (bn / tn);
    REQUIRE((size_t)threads <= max_group(facts), TAILOR_ERROR_INVALID_PROFILE,
            "the SIMT tiles need %d work-items a group; the device takes %zu", threads,
            max_group(facts));
    REQUIRE((bm * bk) % threads == 0 && (bn * bk) % threads == 0, TAILOR_ERROR_INVALID_PROFILE,
            "the SIMT tiles (%dx%dx%d) do not split evenly over %d work-items", bm, bn, bk,
            threads);
    size_t local_bytes = sizeof(cl_float) * (size_t)bk * (size_t)(bm + 1 + bn + 1);
    REQUIRE(local_memory_fits(facts, local_bytes), TAILOR_ERROR_INVALID_PROFILE,
            "the SIMT tiles need %zu bytes of local memory; the device has %llu", local_bytes,
            (unsigned long long)facts->local_mem_bytes);
    if (!has_mma(profile))
        return TAILOR_SUCCESS;
    tailor_status status = TAILOR_SUCCESS;
    for (int set = TILES_BIG; set <= TILES_TF32X3 && status == TAILOR_SUCCESS; ++set)
        status = check_mma_tiles(t, (enum tile_set)set);
    return status;
}

static int launches_program(const struct profile *profile, enum program_id program)
{
    return !(((uint64_t)1 << program) & (GEMM_MMA_SET | GEMM_TF32X3_SET)) || has_mma(profile);
}

// The launch: one kernel, tiles along dimension 0, the batch along 1; whether
// A and B allow 16-byte loads.
struct gemm_plan {
    struct op_plan op;
    size_t threads, tiles;
    cl_uint vector_a, vector_b;
};

static size_t ceil_div(size_t a, size_t b)
{
    return (a + b - 1) / b;
}

static size_t tiles_of(const struct gemm_call *c, int bm, int bn)
{
    return ceil_div(c->m, (size_t)bm) * ceil_div(c->n, (size_t)bn);
}

static int uses_mma(const struct gemm_call *c)
{
    return (c->ab_type == TAILOR_F16 || c->ab_type == TAILOR_BF16) && tune(c->ctx, TUNE_GEMM_MMA) &&
           mma_ready(&c->ctx->profile, &c->ctx->info);
}

// 3xTF32 on tensor cores where the device has them and its tiles fit.
static int tf32x3_ready(tailor_context *ctx)
{
    return tune(ctx, TUNE_GEMM_MMA) && has_mma(&ctx->profile) &&
           mma_tiles_fit(ctx->profile.tune, &ctx->info, TILES_TF32X3);
}

// 16-byte loads need the matrix's every line, and every matrix of the batch,
// to start on 16 bytes (the buffer itself is aligned far beyond).
static cl_uint vector_loads(const struct gemm_call *c, cl_ulong offset, cl_ulong ld,
                            cl_ulong stride)
{
    cl_ulong per_chunk = 16 / dtype_bytes(c->ab_type);
    return offset % per_chunk == 0 && ld % per_chunk == 0 &&
           (c->batch == 1 || stride % per_chunk == 0);
}

// The variants' orientation of a row-major call: whether op(A) and op(B)
// are stored transposed.
static const char *const orientation[4] = {"nn", "nt", "tn", "tt"};

// The 3xTF32 kernels copy 16 bytes at a time where A and B allow it, else
// float by float.
static void plan_tf32x3(const struct gemm_call *c, struct gemm_plan *p, int which)
{
    struct mma_tiles s = mma_tiles_of(c->ctx->profile.tune, TILES_TF32X3);
    p->op.program = PROGRAM_GEMM_MMA_TF32X3;
    p->op.kernel = (enum kernel_id)(KERNEL_GEMM_MMA_ASYNC_NN + which);
    p->threads = mma_threads(s);
    p->tiles = tiles_of(c, s.bm, s.bn);
    snprintf(p->op.variant, sizeof p->op.variant, "mma-3xtf32-%dx%d%s:%s:3xtf32->%s", s.bm, s.bn,
             p->vector_a && p->vector_b ? "" : "-by-float", orientation[which],
             type_name(c->c_type));
}

static void plan_call(const struct gemm_call *c, struct gemm_plan *p)
{
    int which = 2 * c->a_mn_contig + c->b_k_contig;
    int f16 = c->ab_type == TAILOR_F16;
    p->op.launches = 1;
    p->vector_a = vector_loads(c, c->a_offset, c->lda, c->stride_a);
    p->vector_b = vector_loads(c, c->b_offset, c->ldb, c->stride_b);
    if (c->ab_type == TAILOR_3XTF32 && tf32x3_ready(c->ctx)) {
        plan_tf32x3(c, p, which);
        return;
    }
    if (uses_mma(c)) {
        struct mma_tiles big = mma_tiles_of(c->ctx->profile.tune, TILES_BIG);
        struct mma_tiles small = mma_tiles_of(c->ctx->profile.tune, TILES_SMALL);
        size_t big_tiles = tiles_of(c, big.bm, big.bn);
        size_t small_tiles = tiles_of(c, small.bm, small.bn);
        size_t wanted = (size_t)c->ctx->info.compute_units *
                        (size_t)tune(c->ctx, TUNE_GEMM_SMALL_PERCENT) / 100;
        // Small tiles where the big ones do not fit the local memory, and
        // where they leave too few groups or pad the matrices with a quarter
        // more work than the small ones do (the percentage 0: never for
        // these two).
        double big_area = (double)big_tiles * big.bm * big.bn;
        double small_area = (double)small_tiles * small.bm * small.bn;
        int use_small =
            !mma_tiles_fit(c->ctx->profile.tune, &c->ctx->info, TILES_BIG) ||
            (wanted > 0 && (big_tiles * c->batch < wanted || big_area > 1.25 * small_area));
        struct mma_tiles s = use_small ? small : big;
        p->op.program = use_small
                            ? (f16 ? PROGRAM_GEMM_MMA_SMALL_F16 : PROGRAM_GEMM_MMA_SMALL_BF16)
                            : (f16 ? PROGRAM_GEMM_MMA_F16 : PROGRAM_GEMM_MMA_BF16);
        int async = tune(c->ctx, TUNE_GEMM_MMA_ASYNC) && p->vector_a && p->vector_b;
        enum kernel_id first = async ? KERNEL_GEMM_MMA_ASYNC_NN : KERNEL_GEMM_MMA_NN;
        p->op.kernel = (enum kernel_id)(first + which);
        p->threads = mma_threads(s);
        p->tiles = use_small ? small_tiles : big_tiles;
        snprintf(p->op.variant, sizeof p->op.variant, "mma-%s-%s-%dx%d:%s:%s->%s",
                 async ? "async" : "prefetch", use_small ? "small" : "big", s.bm, s.bn,
                 orientation[which], type_name(c->ab_type), type_name(c->c_type));
        return;
    }
    // 3xTF32 without tensor cores multiplies in f32, which its bound allows.
    p->op.program = c->ab_type == TAILOR_F16    ? PROGRAM_GEMM_SIMT_F16
                    : c->ab_type == TAILOR_BF16 ? PROGRAM_GEMM_SIMT_BF16
                                                : PROGRAM_GEMM_SIMT_F32;
    p->op.kernel = (enum kernel_id)(KERNEL_GEMM_SIMT_NN + which);
    int bm = tune(c->ctx, TUNE_GEMM_SIMT_BM), bn = tune(c->ctx, TUNE_GEMM_SIMT_BN);
    p->threads = (size_t)(bm / tune(c->ctx, TUNE_GEMM_SIMT_TM)) *
                 (size_t)(bn / tune(c->ctx, TUNE_GEMM_SIMT_TN));
    p->tiles = tiles_of(c, bm, bn);
    snprintf(p->op.variant, sizeof p->op.variant, "simt-%dx%d:%s:%s->%s", bm, bn,
             orientation[which], type_name(c->ab_type), type_name(c->c_type));
}

static tailor_status launch(const struct gemm_call *c, const struct gemm_plan *p)
{
    struct kernel_args args = {0};
    args_u32(&args, c->m);
    args_u32(&args, c->n);
    args_u32(&args, c->scale_only ? 0 : c->k);
    args_f32(&args, c->scale_only ? 0.0f : c->alpha);
    args_f32(&args, c->beta);
    // With nothing to multiply, A and B are neither checked nor read: C stands in.
    args_mem(&args, c->scale_only ? c->c : c->a);
    args_u64(&args, c->a_offset);
    args_u64(&args, c->lda);
    args_u64(&args, c->stride_a);
    args_mem(&args, c->scale_only ? c->c : c->b);
    args_u64(&args, c->b_offset);
    args_u64(&args, c->ldb);
    args_u64(&args, c->stride_b);
    args_mem(&args, c->c);
    args_u64(&args, c->c_offset);
    args_u64(&args, c->ldc);
    args_u64(&args, c->stride_c);
    args_u32(&args, (cl_uint)c->c_type);
    args_u32(&args, (cl_uint)c->batch);
    args_u32(&args, p->vector_a);
    args_u32(&args, p->vector_b);
    size_t batch_groups = c->batch < MAX_BATCH_GROUPS ? (size_t)c->batch : MAX_BATCH_GROUPS;
    size_t global[2] = {p->tiles * p->threads, batch_groups}, local[2] = {p->threads, 1};
    return kernel_launch(c->ctx, p->op.program, p->op.kernel, &args, c->queue, 2, global, local,
                         c->wait_count, c->wait_list, c->event);
}

// Elements from the first matrix's offset to the last matrix's last element,
// or SIZE_MAX where that overflows.
static size_t span_of(size_t extent, size_t stride, size_t batch)
{
    size_t steps;
    if (extent == 0)
        return 0;
    if (__builtin_mul_overflow(stride, batch - 1, &steps) || steps > SIZE_MAX - extent)
        return SIZE_MAX;
    return steps + extent;
}

static tailor_status check_types(tailor_dtype ab_type, tailor_dtype c_type)
{
    REQUIRE((unsigned)ab_type <= TAILOR_3XTF32, TAILOR_ERROR_UNKNOWN_DTYPE,
            "ab_type %d is not a tailor_dtype", (int)ab_type);
    REQUIRE((unsigned)c_type <= TAILOR_3XTF32, TAILOR_ERROR_UNKNOWN_DTYPE,
            "c_type %d is not a tailor_dtype", (int)c_type);
    REQUIRE(c_type != TAILOR_3XTF32, TAILOR_ERROR_UNSUPPORTED,
            "TAILOR_3XTF32 says how A and B are multiplied; C is f32, f16 or bf16");
    REQUIRE(ab_type != TAILOR_F64 && c_type != TAILOR_F64, TAILOR_ERROR_UNSUPPORTED,
            "tailor_gemm takes f16, bf16 and f32, not f64");
    return TAILOR_SUCCESS;
}

// The checks that need no buffer (after the queue's), in the order the calls
// make them: enums, leading dimensions, sizes, the batch's strides.
static tailor_status check_call(tailor_layout layout, tailor_trans trans_a, tailor_trans trans_b,
                                tailor_dtype ab_type, tailor_dtype c_type, const struct storage *s,
                                size_t m, size_t n, size_t k, size_t lda, size_t ldb, size_t ldc,
                                size_t stride_c, size_t batch)
{
    tailor_status status = check_product_enums(layout, trans_a, trans_b);
    if (status == TAILOR_SUCCESS)
        status = check_types(ab_type, c_type);
    if (status == TAILOR_SUCCESS)
        status = check_leading_dimensions(s, lda, ldb, ldc);
    if (status != TAILOR_SUCCESS)
        return status;
    if (m == 0 || n == 0 || batch == 0)
        return TAILOR_SUCCESS;
    REQUIRE(m <= GEMM_MAX_DIMENSION && n <= GEMM_MAX_DIMENSION && k <= GEMM_MAX_DIMENSION,
            TAILOR_ERROR_UNSUPPORTED, "m, n and k must be at most 2^31 - 1 (got %zu, %zu, %zu)", m,
            n, k);
    REQUIRE(batch <= GEMM_MAX_BATCH, TAILOR_ERROR_UNSUPPORTED,
            "batch_count must be at most 2^32 - 1 (got %zu)", batch);
    REQUIRE(batch == 1 || stride_c >= extent_of(s->c, ldc), TAILOR_ERROR_INVALID_ARGUMENT,
            "stride_c %zu is less than the %zu elements of one c: the products would overlap",
            stride_c, extent_of(s->c, ldc));
    return TAILOR_SUCCESS;
}

static struct gemm_call row_major_call(tailor_context *ctx, tailor_layout layout,
                                       tailor_trans trans_a, tailor_trans trans_b, size_t m,
                                       size_t n, size_t k, float alpha, tailor_dtype ab_type,
                                       size_t a_offset, size_t lda, size_t stride_a,
                                       size_t b_offset, size_t ldb, size_t stride_b, float beta,
                                       tailor_dtype c_type, size_t c_offset, size_t ldc,
                                       size_t stride_c, size_t batch)
{
    struct row_major_product r = row_major_product(layout, trans_a, trans_b, m, n);
    return (struct gemm_call){
        .ctx = ctx,
        .m = (cl_uint)r.m,
        .n = (cl_uint)r.n,
        .k = (cl_uint)k,
        .alpha = alpha,
        .beta = beta,
        .ab_type = ab_type,
        .c_type = c_type,
        .a_mn_contig = r.a_mn_contig,
        .b_k_contig = r.b_k_contig,
        .a_offset = r.swap ? b_offset : a_offset,
        .lda = r.swap ? ldb : lda,
        .stride_a = r.swap ? stride_b : stride_a,
        .b_offset = r.swap ? a_offset : b_offset,
        .ldb = r.swap ? lda : ldb,
        .stride_b = r.swap ? stride_a : stride_b,
        .c_offset = c_offset,
        .ldc = ldc,
        .stride_c = stride_c,
        .batch = batch,
        .scale_only = k == 0 || alpha == 0.0f,
    };
}

// One f32 x f32 -> f32 product is tailor_sgemm's (its kernels are tuned for
// it), and so is a 3xTF32 one that the tensor cores do not take: f32
// arithmetic holds the 3xTF32 bound.
static int is_sgemm(tailor_context *ctx, tailor_dtype ab_type, tailor_dtype c_type, size_t batch)
{
    return (ab_type == TAILOR_F32 || (ab_type == TAILOR_3XTF32 && !tf32x3_ready(ctx))) &&
           c_type == TAILOR_F32 && batch == 1;
}

static tailor_status explain(tailor_context *ctx, const tailor_call *call, struct op_plan *plan)
{
    size_t m = call->m, n = call->n, k = call->k, batch = call->batch ? call->batch : 1;
    struct storage s = storage_of(call->layout, call->trans_a, call->trans_b, m, n, k);
    // Zero leading dimensions: packed; zero strides of a batch: packed too.
    size_t lda = call->lda ? call->lda : s.a.length + !s.a.length;
    size_t ldb = call->ldb ? call->ldb : s.b.length + !s.b.length;
    size_t ldc = call->ldc ? call->ldc : s.c.length + !s.c.length;
    size_t stride_a = call->stride_a || batch == 1 ? call->stride_a : extent_of(s.a, lda);
    size_t stride_b = call->stride_b || batch == 1 ? call->stride_b : extent_of(s.b, ldb);
    size_t stride_c = call->stride_c || batch == 1 ? call->stride_c : extent_of(s.c, ldc);
    tailor_status status = check_call(call->layout, call->trans_a, call->trans_b, call->dtype,
                                      call->c_type, &s, m, n, k, lda, ldb, ldc, stride_c, batch);
    if (status != TAILOR_SUCCESS || m == 0 || n == 0)
        return status;
    if (is_sgemm(ctx, call->dtype, call->c_type, batch)) {
        tailor_call sgemm = *call;
        sgemm.operation = TAILOR_OP_SGEMM;
        sgemm.dtype = TAILOR_F32;
        sgemm.c_type = TAILOR_F32;
        sgemm.batch = sgemm.stride_a = sgemm.stride_b = sgemm.stride_c = 0;
        status = operation_ready(ctx, OP_SGEMM);
        if (status == TAILOR_SUCCESS)
            status = operation_table[OP_SGEMM]->explain(ctx, &sgemm, plan);
        name_prefix(plan->variant, sizeof plan->variant, "sgemm:");
        return status;
    }
    struct gemm_call c = row_major_call(ctx, call->layout, call->trans_a, call->trans_b, m, n, k,
                                        call->alpha, call->dtype, call->a_offset, lda, stride_a,
                                        call->b_offset, ldb, stride_b, call->beta, call->c_type,
                                        call->c_offset, ldc, stride_c, batch);
    if (c.scale_only && c.beta == 1.0f)
        return TAILOR_SUCCESS;
    struct gemm_plan p;
    plan_call(&c, &p);
    *plan = p.op;
    return TAILOR_SUCCESS;
}

// The tuner does not search these parameters yet (src/tune/tune_data.c makes
// and checks the data of the other operations only): they stay at the
// profile's values.
// Smaller SIMT tiles (the tensor-core tiles do not shrink: where they do not
// fit, f16 and bf16 run on the SIMT kernels).
static const struct shrink_step shrink_steps[] = {
    {16, 2, {TUNE_GEMM_SIMT_BM, TUNE_GEMM_SIMT_BN}},
    {4, 1, {TUNE_GEMM_SIMT_BK}},
};

const struct operation gemm_operation = {
    check, NULL, explain, launches_program, NULL, shrink_steps,
    sizeof shrink_steps / sizeof shrink_steps[0], static_local_bytes};

static tailor_status check_operand(tailor_context *ctx, cl_mem buffer, const char *name,
                                   size_t offset, size_t span, size_t bytes,
                                   enum buffer_access access)
{
    REQUIRE(span != SIZE_MAX, TAILOR_ERROR_SIZE_OVERFLOW,
            "the batch of %s overflows a size_t of elements", name);
    return check_buffer(ctx, buffer, name, offset, span, bytes, access);
}

tailor_status tailor_gemm_strided_batched(
    tailor_context *ctx, cl_command_queue queue, tailor_layout layout, tailor_trans trans_a,
    tailor_trans trans_b, size_t m, size_t n, size_t k, float alpha, tailor_dtype ab_type, cl_mem a,
    size_t a_offset, size_t lda, size_t stride_a, cl_mem b, size_t b_offset, size_t ldb,
    size_t stride_b, float beta, tailor_dtype c_type, cl_mem c, size_t c_offset, size_t ldc,
    size_t stride_c, size_t batch_count, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event)
{
    operation_begin();
    REQUIRE(ctx, TAILOR_ERROR_NULL_HANDLE, "the tailor handle is NULL");
    struct storage s = storage_of(layout, trans_a, trans_b, m, n, k);
    tailor_status status = check_call(layout, trans_a, trans_b, ab_type, c_type, &s, m, n, k, lda,
                                      ldb, ldc, stride_c, batch_count);
    if (status == TAILOR_SUCCESS)
        status = check_enqueue(ctx, queue, num_events_in_wait_list, event_wait_list);
    if (status == TAILOR_SUCCESS)
        status = operation_ready(ctx, OP_GEMM);
    if (status != TAILOR_SUCCESS)
        return status;
    if (m == 0 || n == 0 || batch_count == 0)
        return enqueue_nothing(queue, num_events_in_wait_list, event_wait_list, event);
    if (is_sgemm(ctx, ab_type, c_type, batch_count)) {
        status = tailor_sgemm(ctx, queue, layout, trans_a, trans_b, m, n, k, alpha, a, a_offset,
                              lda, b, b_offset, ldb, beta, c, c_offset, ldc,
                              num_events_in_wait_list, event_wait_list, event);
        if (status == TAILOR_SUCCESS)
            variant_prefix("sgemm:");
        return status;
    }

    // k = 0 or alpha = 0: C = beta * C, A and B not read (BLAS semantics).
    int product = k > 0 && alpha != 0.0f;
    size_t ab_bytes = dtype_bytes(ab_type), c_bytes = dtype_bytes(c_type);
    size_t a_span = span_of(extent_of(s.a, lda), stride_a, batch_count);
    size_t b_span = span_of(extent_of(s.b, ldb), stride_b, batch_count);
    size_t c_span = span_of(extent_of(s.c, ldc), stride_c, batch_count);
    status = check_operand(ctx, c, "c", c_offset, c_span, c_bytes,
                           beta == 0.0f ? BUFFER_WRITE : BUFFER_READ | BUFFER_WRITE);
    if (status == TAILOR_SUCCESS && product)
        status = check_operand(ctx, a, "a", a_offset, a_span, ab_bytes, BUFFER_READ);
    if (status == TAILOR_SUCCESS && product)
        status = check_operand(ctx, b, "b", b_offset, b_span, ab_bytes, BUFFER_READ);
    if (status == TAILOR_SUCCESS && product)
        status = check_product_overlap(a, "a", a_offset, a_span, ab_bytes, c, c_offset, c_span,
                                       c_bytes);
    if (status == TAILOR_SUCCESS && product)
        status = check_product_overlap(b, "b", b_offset, b_span, ab_bytes, c, c_offset, c_span,
                                       c_bytes);
    if (status != TAILOR_SUCCESS)
        return status;
    if (!product && beta == 1.0f)
        return enqueue_nothing(queue, num_events_in_wait_list, event_wait_list, event);

    int row_major = layout == TAILOR_ROW_MAJOR;
    struct gemm_call call = row_major_call(ctx, layout, trans_a, trans_b, m, n, k, alpha, ab_type,
                                           a_offset, lda, stride_a, b_offset, ldb, stride_b, beta,
                                           c_type, c_offset, ldc, stride_c, batch_count);
    call.queue = queue;
    call.a = row_major ? a : b;
    call.b = row_major ? b : a;
    call.c = c;
    call.wait_count = num_events_in_wait_list;
    call.wait_list = event_wait_list;
    call.event = event;
    struct gemm_plan plan;
    plan_call(&call, &plan);
    status = launch(&call, &plan);
    if (status == TAILOR_SUCCESS)
        variant_set(plan.op.variant);
    return status;
}

tailor_status tailor_gemm(tailor_context *ctx, cl_command_queue queue, tailor_layout layout,
                          tailor_trans trans_a, tailor_trans trans_b, size_t m, size_t n, size_t k,
                          float alpha, tailor_dtype ab_type, cl_mem a, size_t a_offset, size_t lda,
                          cl_mem b, size_t b_offset, size_t ldb, float beta, tailor_dtype c_type,
                          cl_mem c, size_t c_offset, size_t ldc, cl_uint num_events_in_wait_list,
                          const cl_event *event_wait_list, cl_event *event)
{
    return tailor_gemm_strided_batched(ctx, queue, layout, trans_a, trans_b, m, n, k, alpha,
                                       ab_type, a, a_offset, lda, 0, b, b_offset, ldb, 0, beta,
                                       c_type, c, c_offset, ldc, 0, 1, num_events_in_wait_list,
                                       event_wait_list, event);
}
