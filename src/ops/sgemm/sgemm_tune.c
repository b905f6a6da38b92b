// What the tuner searches for SGEMM: on GPUs the big tile set with what it
// shares with the mid set (load width, padding, order of the tiles) on
// large products in three orientations and an odd shape, the mid tile set
// and its thresholds on products too small for the big tiles or just over a
// round of them, when and how far k is split on products with few tiles and
// long k, from which m on B stored transposed is packed first (and from
// which n A, where B is not), and the small kernel with its thresholds on
// skinny products, the thin kernel and its threshold on products of a few
// dozen rows, the dots kernel on products of a few rows or columns along
// k; on CPUs the CPU kernels (and whether to use them) on the
// CPU bench's shapes, then from which size they pack A and B first, and the
// packed kernel's slices.
#include "sgemm.h"

#define GEMM(rows, cols, depth, ta, tb)                                                             \
    {.operation = TAILOR_OP_SGEMM, .trans_a = ta, .trans_b = tb, .m = rows, .n = cols, .k = depth,  \
     .alpha = 1, .beta = 0}
#define N TAILOR_NO_TRANS
#define T TAILOR_TRANS

static const struct tune_task tasks[] = {
    {"big tiles", TUNE_ON_GPU, 4,
     TUNE_PARAMS(TUNE_SGEMM_BM, TUNE_SGEMM_BN, TUNE_SGEMM_BK, TUNE_SGEMM_TM, TUNE_SGEMM_TN,
                 TUNE_SGEMM_VWM, TUNE_SGEMM_VWN, TUNE_SGEMM_WARP_TX, TUNE_SGEMM_WARP_TY,
                 TUNE_SGEMM_DOUBLE_BUFFER, TUNE_SGEMM_PREFETCH, TUNE_SGEMM_LOAD_VEC,
                 TUNE_SGEMM_WARP_INTERLEAVE, TUNE_SGEMM_KTHREADS, TUNE_SGEMM_PAD_A,
                 TUNE_SGEMM_PAD_B, TUNE_SGEMM_SWIZZLE, TUNE_SGEMM_SLICED_K),
     {GEMM(4096, 4096, 4096, N, N), GEMM(4096, 4096, 4096, T, N), GEMM(4096, 4096, 4096, N, T),
      GEMM(3001, 2999, 1003, N, N)}},
    {"mid tiles", TUNE_ON_GPU, 2,
     TUNE_PARAMS(TUNE_SGEMM_MID_BM, TUNE_SGEMM_MID_BN, TUNE_SGEMM_MID_BK, TUNE_SGEMM_MID_TM,
                 TUNE_SGEMM_MID_TN, TUNE_SGEMM_MID_VWM, TUNE_SGEMM_MID_VWN, TUNE_SGEMM_MID_WARP_TX,
                 TUNE_SGEMM_MID_WARP_TY, TUNE_SGEMM_MID_DOUBLE_BUFFER, TUNE_SGEMM_MID_PREFETCH,
                 TUNE_SGEMM_MID_SLICED_K, TUNE_SGEMM_MID_PERCENT, TUNE_SGEMM_MID_EFFICIENCY,
                 TUNE_SGEMM_MID_ASYNC, TUNE_SGEMM_MID_ASYNC_ROUNDS),
     {GEMM(1024, 1024, 2048, N, N), GEMM(1024, 1024, 2048, N, T), GEMM(768, 1536, 1024, T, N),
      GEMM(1000, 1000, 1000, N, N), GEMM(2304, 2304, 2304, N, N), GEMM(2048, 1024, 2048, T, N),
      GEMM(1024, 1024, 2048, T, N)}},
    {"split k", TUNE_ON_GPU, 1,
     TUNE_PARAMS(TUNE_SGEMM_SPLIT_PERCENT, TUNE_SGEMM_SPLIT_LONG_K, TUNE_SGEMM_SPLIT_ROUNDS_K,
                 TUNE_SGEMM_SPLIT_ROUNDS, TUNE_SGEMM_GROUPS_PER_UNIT, TUNE_SGEMM_SHARED_GAIN,
                 TUNE_SGEMM_SPLIT_SLICE_COST, TUNE_SGEMM_SPLIT_MIN_K, TUNE_SGEMM_MID_SPLIT_EFFICIENCY),
     {GEMM(3000, 200, 5000, N, N), GEMM(256, 256, 65536, N, N), GEMM(384, 4096, 4096, N, T),
      GEMM(8192, 256, 4096, N, N), GEMM(384, 1024, 1024, N, N), GEMM(128, 1024, 4096, N, T),
      GEMM(64, 4096, 4096, N, N), GEMM(96, 2048, 2048, N, N), GEMM(4096, 256, 4096, N, N),
      GEMM(1024, 1024, 4096, N, N)}},
    {"packed operands", TUNE_ON_GPU, 2,
     TUNE_PARAMS(TUNE_SGEMM_PACK_B_MIN_M, TUNE_SGEMM_PACK_A_MIN_N, TUNE_SGEMM_PACK_A_ASYNC_MIN_N,
                 TUNE_SGEMM_PACK_A_ASYNC_MIN_K),
     {GEMM(4096, 4096, 4096, N, T), GEMM(1024, 1024, 2048, N, T), GEMM(2048, 2048, 2048, T, T),
      GEMM(4096, 4096, 4096, N, N), GEMM(2048, 2048, 2048, N, N), GEMM(2048, 2048, 512, N, N),
      GEMM(256, 4096, 2048, N, T), GEMM(64, 4096, 4096, N, T), GEMM(384, 1024, 1024, N, T)}},
    {"small", TUNE_ON_GPU, 1,
     TUNE_PARAMS(TUNE_SGEMM_SMALL_DIM, TUNE_SGEMM_SMALL_CUBE, TUNE_SGEMM_SMALL_MAX_K, TUNE_SGEMM_SMALL_RM,
                 TUNE_SGEMM_SMALL_RN, TUNE_SGEMM_SMALL_WG_X, TUNE_SGEMM_SMALL_WG_Y),
     {GEMM(16, 4096, 1024, N, N), GEMM(128, 8192, 128, N, N), GEMM(100, 100, 100, N, N),
      GEMM(4096, 24, 512, N, T), GEMM(64, 64, 64, N, N), GEMM(256, 256, 32, N, N), GEMM(32, 32, 4096, N, N)}},
    {"thin", TUNE_ON_GPU, 1,
     TUNE_PARAMS(TUNE_SGEMM_THIN_M, TUNE_SGEMM_THIN_N, TUNE_SGEMM_THIN_RM, TUNE_SGEMM_THIN_RN,
                 TUNE_SGEMM_THIN_WG, TUNE_SGEMM_THIN_KC, TUNE_SGEMM_THIN_FILL,
                 TUNE_SGEMM_THIN_GROUPS_PER_UNIT, TUNE_SGEMM_THIN_MIN_K, TUNE_SGEMM_THIN_MAX_SLICES),
     {GEMM(12, 4099, 4099, N, N), GEMM(29, 2330, 7678, N, N), GEMM(21, 7538, 2937, T, N),
      GEMM(48, 10001, 3001, N, N), GEMM(64, 4096, 4096, N, N), GEMM(32, 2048, 512, N, N),
      GEMM(4096, 16, 4096, T, N), GEMM(3001, 29, 2999, T, T)}},
    {"dots", TUNE_ON_GPU, 1,
     TUNE_PARAMS(TUNE_SGEMM_DOTS_MAX, TUNE_SGEMM_DOTS_LINES, TUNE_SGEMM_DOTS_WG, TUNE_SGEMM_DOTS_KC,
                 TUNE_SGEMM_DOTS_SUMS, TUNE_SGEMM_DOTS_GROUPS_PER_UNIT, TUNE_SGEMM_DOTS_MIN_K),
     {GEMM(4096, 8, 4096, N, N), GEMM(8, 4096, 4096, N, T), GEMM(5737, 2, 5596, N, N),
      GEMM(4096, 16, 4096, N, N), GEMM(16, 4096, 4096, T, T), GEMM(12, 3000, 300, N, T),
      GEMM(13, 343, 2287, T, T), GEMM(10000, 4, 1000, N, N)}},
    {"cpu kernels", TUNE_ON_CPU, 1,
     TUNE_PARAMS(TUNE_SGEMM_CPU_KERNELS, TUNE_SGEMM_CPU_RM, TUNE_SGEMM_CPU_VN, TUNE_SGEMM_CPU_NV,
                 TUNE_SGEMM_CPU_DOT_RN, TUNE_SGEMM_CPU_WG, TUNE_SGEMM_CPU_ROWS_FIRST),
     {GEMM(1024, 1024, 2048, N, N), GEMM(512, 512, 512, N, N), GEMM(512, 512, 512, N, T),
      GEMM(301, 257, 129, T, N)}},
    {"cpu packed", TUNE_ON_CPU, 1,
     TUNE_PARAMS(TUNE_SGEMM_CPU_PACK_CUBE, TUNE_SGEMM_CPU_PACK_A, TUNE_SGEMM_CPU_KC,
                 TUNE_SGEMM_CPU_MC_PANELS),
     {GEMM(1024, 1024, 2048, N, N), GEMM(1024, 1024, 2048, N, T), GEMM(768, 768, 768, N, N),
      GEMM(512, 512, 512, N, N), GEMM(2048, 96, 2048, N, N)}},
};

// Register tiles past 64 accumulators spill on every GPU, and their builds
// alone took NVIDIA's compiler minutes; the thin kernel also holds a local
// step's loads of B in registers, and the dots kernel's widest entry point
// holds its lines' sums.
static int plausible(const int *t)
{
    int dots_max = t[TUNE_SGEMM_DOTS_MAX];
    return t[TUNE_SGEMM_TM] * t[TUNE_SGEMM_TN] <= 64 &&
           t[TUNE_SGEMM_MID_TM] * t[TUNE_SGEMM_MID_TN] <= 64 &&
           t[TUNE_SGEMM_THIN_RM] * t[TUNE_SGEMM_THIN_RN] <= 64 &&
           t[TUNE_SGEMM_THIN_KC] * t[TUNE_SGEMM_THIN_RN] <= 128 &&
           (dots_max == 0 || t[TUNE_SGEMM_DOTS_LINES] * sgemm_dots_vectors((size_t)dots_max) <= 64);
}

const struct tune_tasks sgemm_tune_tasks = {tasks, sizeof tasks / sizeof tasks[0], 0.4, plausible};
