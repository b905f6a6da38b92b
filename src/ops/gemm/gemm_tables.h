// What the mixed-precision GEMM declares to the runtime: its programs
// (cl/gemm.cl built per input type as tensor-core kernels in two tile sets,
// or as SIMT kernels) and its tuning parameters, in the row formats of
// src/ops/reduce/reduce_tables.h. cl/gemm.cl says what each parameter does.
#ifndef TAILOR_GEMM_TABLES_H
#define TAILOR_GEMM_TABLES_H

#define GEMM_MMA_DEFINES(type, tiles)                                                               \
    "-DGEMM_KERNELS=GEMM_KERNELS_MMA -DGEMM_IN=DTYPE_" type " -DGEMM_TILES=GEMM_TILES_" tiles
#define GEMM_SIMT_DEFINES(type) "-DGEMM_KERNELS=GEMM_KERNELS_SIMT -DGEMM_IN=DTYPE_" type

#define GEMM_PROGRAMS(X)                                                                            \
    X(GEMM_MMA_F16, "gemm_mma_f16", OP_GEMM, gemm, 0, GEMM_MMA_DEFINES("F16", "BIG"))               \
    X(GEMM_MMA_BF16, "gemm_mma_bf16", OP_GEMM, gemm, 0, GEMM_MMA_DEFINES("BF16", "BIG"))            \
    X(GEMM_MMA_SMALL_F16, "gemm_mma_small_f16", OP_GEMM, gemm, 0, GEMM_MMA_DEFINES("F16", "SMALL")) \
    X(GEMM_MMA_SMALL_BF16, "gemm_mma_small_bf16", OP_GEMM, gemm, 0,                                 \
      GEMM_MMA_DEFINES("BF16", "SMALL"))                                                            \
    X(GEMM_MMA_TF32X3, "gemm_mma_tf32x3", OP_GEMM, gemm, 0,                                         \
      "-DGEMM_KERNELS=GEMM_KERNELS_MMA -DGEMM_IN=DTYPE_F32")                                    \
    X(GEMM_SIMT_F16, "gemm_simt_f16", OP_GEMM, gemm, 0, GEMM_SIMT_DEFINES("F16"))                   \
    X(GEMM_SIMT_BF16, "gemm_simt_bf16", OP_GEMM, gemm, 0, GEMM_SIMT_DEFINES("BF16"))                \
    X(GEMM_SIMT_F32, "gemm_simt_f32", OP_GEMM, gemm, 0, GEMM_SIMT_DEFINES("F32"))

#define GEMM_MMA_BIG_SET (PROGRAM_BIT(GEMM_MMA_F16) | PROGRAM_BIT(GEMM_MMA_BF16))
#define GEMM_MMA_SMALL_SET (PROGRAM_BIT(GEMM_MMA_SMALL_F16) | PROGRAM_BIT(GEMM_MMA_SMALL_BF16))
#define GEMM_MMA_SET (GEMM_MMA_BIG_SET | GEMM_MMA_SMALL_SET)
#define GEMM_TF32X3_SET PROGRAM_BIT(GEMM_MMA_TF32X3)
#define GEMM_SIMT_SET                                                                               \
    (PROGRAM_BIT(GEMM_SIMT_F16) | PROGRAM_BIT(GEMM_SIMT_BF16) | PROGRAM_BIT(GEMM_SIMT_F32))

// One tile set of the tensor-core kernels (P: GEMM_MMA_, GEMM_MMA_SMALL_ or
// GEMM_TF32X3_, read by the programs of SET) with its built-in defaults.
#define GEMM_MMA_TILE_PARAMETERS(X, P, SET, bm, bn, bk, warps_m, warps_n, stages, pair_stores)      \
    X(P##BM, OP_GEMM, DEFINE, SET, bm, 16, 256, POW2 | NVIDIA_ONLY, "rows of C a work-group computes") \
    X(P##BN, OP_GEMM, DEFINE, SET, bn, 8, 256, POW2 | NVIDIA_ONLY, "columns of C a work-group computes") \
    X(P##BK, OP_GEMM, DEFINE, SET, bk, 16, 64, POW2 | NVIDIA_ONLY,                                  \
      "steps of k staged in local memory at once")                                                  \
    X(P##WARPS_M, OP_GEMM, DEFINE, SET, warps_m, 1, 8, POW2 | NVIDIA_ONLY,                          \
      "warps of a group along m (each computes BM / WARPS_M rows)")                                 \
    X(P##WARPS_N, OP_GEMM, DEFINE, SET, warps_n, 1, 8, POW2 | NVIDIA_ONLY,                          \
      "warps of a group along n")                                                                   \
    X(P##STAGES, OP_GEMM, DEFINE, SET, stages, 2, 8, NVIDIA_ONLY,                                    \
      "asynchronous kernels: local tiles in flight (cp.async stages)")                              \
    X(P##PAIR_STORES, OP_GEMM, DEFINE, SET, pair_stores, 0, 1, NVIDIA_ONLY,                         \
      "1: a tile inside C, with C's offset and ldc even, is stored two columns per access (more registers)")

#define GEMM_PARAMETERS(X)                                                                          \
    GEMM_MMA_TILE_PARAMETERS(X, GEMM_MMA_, GEMM_MMA_BIG_SET, 128, 128, 32, 4, 2, 2, 0)              \
    GEMM_MMA_TILE_PARAMETERS(X, GEMM_MMA_SMALL_, GEMM_MMA_SMALL_SET, 64, 64, 64, 2, 2, 2, 1)        \
    GEMM_MMA_TILE_PARAMETERS(X, GEMM_TF32X3_, GEMM_TF32X3_SET, 128, 128, 16, 2, 2, 2, 0)            \
    X(GEMM_MMA_DOUBLE_BUFFER, OP_GEMM, DEFINE, GEMM_MMA_SET, 1, 0, 1, NVIDIA_ONLY,                  \
      "register-prefetch kernels: two local tiles, one barrier a step")                             \
    X(GEMM_MMA_ASYNC, OP_GEMM, HOST, 0, 1, 0, 1, 0,                                                 \
      "1: the asynchronous tensor-core kernels (cp.async, ldmatrix) where A and B allow 16-byte loads; 0: the register-prefetch kernels") \
    X(GEMM_SWIZZLE, OP_GEMM, DEFINE, GEMM_MMA_SET | GEMM_TF32X3_SET, 8, 1, 64, POW2 | NVIDIA_ONLY,  \
      "tensor-core kernels: tile rows of a band walked column by column (L2 reuse)")               \
    X(GEMM_MMA, OP_GEMM, HOST, 0, 1, 0, 1, 0,                                                       \
      "1: f16, bf16 and 3xTF32 run on tensor cores where the device has them (NVIDIA CUDA_SM >= 80)") \
    X(GEMM_SMALL_PERCENT, OP_GEMM, HOST, 0, 100, 0, 100000, 0,                                      \
      "tensor-core kernels: the small tiles when the big ones give fewer groups (tiles x batch) than this percentage of the compute units (or pad the matrices with a quarter more work; 0: never)") \
    X(GEMM_SIMT_BM, OP_GEMM, DEFINE, GEMM_SIMT_SET, 64, 1, 256, POW2, "SIMT kernels: rows of C a work-group computes") \
    X(GEMM_SIMT_BN, OP_GEMM, DEFINE, GEMM_SIMT_SET, 64, 1, 256, POW2,                               \
      "SIMT kernels: columns of C a work-group computes")                                           \
    X(GEMM_SIMT_BK, OP_GEMM, DEFINE, GEMM_SIMT_SET, 16, 1, 64, POW2,                                \
      "SIMT kernels: steps of k staged in local memory at once")                                    \
    X(GEMM_SIMT_TM, OP_GEMM, DEFINE, GEMM_SIMT_SET, 4, 1, 16, POW2,                                 \
      "SIMT kernels: rows of each work-item's register tile")                                       \
    X(GEMM_SIMT_TN, OP_GEMM, DEFINE, GEMM_SIMT_SET, 4, 1, 16, POW2,                                 \
      "SIMT kernels: columns of each work-item's register tile")

#endif
