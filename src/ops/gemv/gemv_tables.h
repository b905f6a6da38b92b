// What GEMV declares to the runtime: its programs (the GPU kernels and the
// CPU kernels of gemv.cl) and its tuning parameters, in the row formats of
// src/ops/reduce/reduce_tables.h.
//
// "Lines" are the matrix's contiguous runs; row kernels take dots along
// them, column kernels across them.
#ifndef TAILOR_GEMV_TABLES_H
#define TAILOR_GEMV_TABLES_H

#define GEMV_PROGRAMS(X)                                                                            \
    X(GEMV_F32, "gemv_f32", OP_GEMV, gemv, 0,                                                       \
      "-DGEMV_KERNELS=GEMV_KERNELS_GPU -DGEMV_IN=DTYPE_F32")                                        \
    X(GEMV_CPU_F32, "gemv_cpu_f32", OP_GEMV, gemv, 0,                                               \
      "-DGEMV_KERNELS=GEMV_KERNELS_CPU -DGEMV_IN=DTYPE_F32")                                        \
    X(GEMV_F16, "gemv_f16", OP_GEMV, gemv, 0,                                                       \
      "-DGEMV_KERNELS=GEMV_KERNELS_GPU -DGEMV_IN=DTYPE_F16")                                        \
    X(GEMV_CPU_F16, "gemv_cpu_f16", OP_GEMV, gemv, 0,                                               \
      "-DGEMV_KERNELS=GEMV_KERNELS_CPU -DGEMV_IN=DTYPE_F16")                                        \
    X(GEMV_BF16, "gemv_bf16", OP_GEMV, gemv, 0,                                                     \
      "-DGEMV_KERNELS=GEMV_KERNELS_GPU -DGEMV_IN=DTYPE_BF16")                                       \
    X(GEMV_CPU_BF16, "gemv_cpu_bf16", OP_GEMV, gemv, 0,                                             \
      "-DGEMV_KERNELS=GEMV_KERNELS_CPU -DGEMV_IN=DTYPE_BF16")

#define GEMV_GPU_SET (PROGRAM_BIT(GEMV_F32) | PROGRAM_BIT(GEMV_F16) | PROGRAM_BIT(GEMV_BF16))
#define GEMV_CPU_SET                                                                                \
    (PROGRAM_BIT(GEMV_CPU_F32) | PROGRAM_BIT(GEMV_CPU_F16) | PROGRAM_BIT(GEMV_CPU_BF16))
#define GEMV_PROGRAM_SET (GEMV_GPU_SET | GEMV_CPU_SET)

#define GEMV_PARAMETERS(X)                                                                          \
    X(GEMV_CPU_KERNELS, OP_GEMV, HOST, 0, 0, 0, 1, 0,                                               \
      "1: the CPU-shaped kernels (long contiguous runs per work-item)")                             \
    X(GEMV_ROW_WG, OP_GEMV, DEFINE, GEMV_GPU_SET, 256, 32, 1024, POW2,                              \
      "work-group size of the row kernels (and of the scale and finish kernels)")                   \
    X(GEMV_ROW_LANES, OP_GEMV, DEFINE, GEMV_GPU_SET, 0, 0, 1024, 0,                                 \
      "work-items per line of the one-lockstep-group-per-line kernels; 0: LOCKSTEP, or 32")         \
    X(GEMV_ROW_BATCH, OP_GEMV, DEFINE, GEMV_GPU_SET, 1, 1, 8, 0,                                    \
      "lines each segment of lanes computes at once")                                               \
    X(GEMV_MULTI_ROW_MAX_K, OP_GEMV, HOST, 0, 16, 0, 1 << 20, 0,                                    \
      "dots up to this long share a lockstep group between several lines")                          \
    X(GEMV_MULTI_ROW_LANES, OP_GEMV, HOST, 0, 16, 1, 32, POW2,                                      \
      "most work-items a line of the multi-row kernels gets")                                       \
    X(GEMV_MULTI_ROW_ELEMENTS, OP_GEMV, HOST, 0, 1, 1, 64, POW2,                                    \
      "elements per work-item the multi-row kernels aim at")                                        \
    X(GEMV_VECTOR, OP_GEMV, DEFINE, GEMV_GPU_SET, 4, 2, 16, POW2,                                   \
      "floats per vector load in the row kernels (16-bit elements: twice as many, at most 16)")     \
    X(GEMV_VECTOR_MIN_K, OP_GEMV, HOST, 0, 128, 1, 1 << 30, 0,                                      \
      "row kernels use vector loads of A from dots this long (lines aligned)")                     \
    X(GEMV_GROUP_MIN_K, OP_GEMV, HOST, 0, 8192, 1, 1 << 30, 0,                                      \
      "dots from this long on get a whole work-group per line")                                     \
    X(GEMV_UNROLL, OP_GEMV, DEFINE, GEMV_GPU_SET, 4, 1, 16, 0,                                      \
      "vector loads in flight per work-item in the row kernels")                                    \
    X(GEMV_LONG_LINE_ELEMENTS, OP_GEMV, HOST, 0, 28, 0, 1 << 20, 0,                                 \
      "the scalar one-lockstep-group-per-line kernel takes twice GEMV_UNROLL (at most 16) loads in " \
      "flight where a work-item has this many elements of a dot or slice (0: never)")               \
    X(GEMV_X_CHUNK, OP_GEMV, DEFINE, GEMV_GPU_SET, 1024, 0, 16384, 0,                               \
      "elements of a strided or misaligned x that a warp-per-row kernel gathers into local "       \
      "memory at once for its lines, a multiple of 16 (0: each line gathers x itself)")            \
    X(GEMV_GATHER_X_MIN_ELEMENTS, OP_GEMV, HOST, 0, 5 << 20, 0, 1 << 30, 0,                         \
      "calls of this many elements of A or more whose row kernel would gather a strided (GPU "      \
      "vector kernels: or misaligned) x on every line, or CPU block of lines, gather it once into " \
      "a workspace first (0: never)")                                                             \
    X(GEMV_COL_WG, OP_GEMV, DEFINE, GEMV_GPU_SET, 256, 1, 1024, POW2,                               \
      "work-group size of the column kernels")                                                      \
    X(GEMV_COL_THREADS, OP_GEMV, HOST, 0, 64, 1, 1024, POW2,                                        \
      "most work-items of a column group along a line (the rest split the lines)")                  \
    X(GEMV_COL_VECTOR, OP_GEMV, DEFINE, GEMV_GPU_SET, 4, 2, 16, POW2,                               \
      "floats per work-item and vector load in the column kernels (16-bit: twice, at most 16)")     \
    X(GEMV_COL_UNROLL, OP_GEMV, DEFINE, GEMV_GPU_SET, 4, 1, 16, 0,                                  \
      "lines in flight per work-item in the column kernels (16-bit inputs: half as many)")          \
    X(GEMV_GROUPS_PER_CU, OP_GEMV, HOST, 0, 4, 1, 256, 0,                                           \
      "work-groups (CPU: work-items) per compute unit; under 2/3 as many blocks (CPU: fewer) get "  \
      "their dots split")                                                                           \
    X(GEMV_SPLIT_MIN_ELEMENTS, OP_GEMV, HOST, 0, 16384, 1, 1 << 30, 0,                              \
      "a split never leaves a group fewer elements of A")                                           \
    X(GEMV_ONE_PASS, OP_GEMV, DEFINE, GEMV_PROGRAM_SET, 0, 0, 1, DEVICE_FENCE_ONLY,                 \
      "1: split launches finish in their last group (atomic ticket; NVIDIA and AMD GPUs and CPUs only); 0: a second kernel") \
    X(GEMV_CPU_VECTOR, OP_GEMV, DEFINE, GEMV_CPU_SET, 8, 4, 16, POW2,                               \
      "CPU kernels: elements per vector load, also the lines whose dots are summed together")       \
    X(GEMV_CPU_COLS, OP_GEMV, DEFINE, GEMV_CPU_SET, 64, 2, 4096, POW2,                              \
      "CPU column kernel: most outputs per work-item (its sums, in private memory)")                \
    X(GEMV_CPU_LINE_MIN_K, OP_GEMV, DEFINE, GEMV_CPU_SET, 128, 1, 1 << 30, 0,                       \
      "CPU row kernel: dots from this long on go line by line, shorter ones side by side")

#endif
