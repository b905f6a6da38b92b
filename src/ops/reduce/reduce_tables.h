// What the reduction declares to the runtime: its programs (one source,
// built per data type and operator) and its tuning parameters.
//
// Programs: id, name, operation, source, needs fp64, variant defines.
// Parameters: name, operation, kind (DEFINE: a -D for the programs in
// `readers`; HOST: read by the host only), readers, built-in default,
// smallest and largest value, flags, what it is.
#ifndef TAILOR_REDUCE_TABLES_H
#define TAILOR_REDUCE_TABLES_H

#define REDUCE_PROGRAMS(X)                                                                          \
    X(REDUCE_SUM_F32, "reduce_sum_f32", OP_REDUCE, reduce, 0,                                       \
      "-DREAL=float -DREAL_BYTES=4 -DREDUCE_IN=DTYPE_F32 -DREDUCE_OP=REDUCE_SUM")                   \
    X(REDUCE_MIN_F32, "reduce_min_f32", OP_REDUCE, reduce, 0,                                       \
      "-DREAL=float -DREAL_BYTES=4 -DREDUCE_IN=DTYPE_F32 -DREDUCE_OP=REDUCE_MIN")                   \
    X(REDUCE_MAX_F32, "reduce_max_f32", OP_REDUCE, reduce, 0,                                       \
      "-DREAL=float -DREAL_BYTES=4 -DREDUCE_IN=DTYPE_F32 -DREDUCE_OP=REDUCE_MAX")                   \
    X(REDUCE_SUM_F64, "reduce_sum_f64", OP_REDUCE, reduce, 1,                                       \
      "-DREAL=double -DREAL_BYTES=8 -DREDUCE_IN=DTYPE_F64 -DREDUCE_OP=REDUCE_SUM")                  \
    X(REDUCE_MIN_F64, "reduce_min_f64", OP_REDUCE, reduce, 1,                                       \
      "-DREAL=double -DREAL_BYTES=8 -DREDUCE_IN=DTYPE_F64 -DREDUCE_OP=REDUCE_MIN")                  \
    X(REDUCE_MAX_F64, "reduce_max_f64", OP_REDUCE, reduce, 1,                                       \
      "-DREAL=double -DREAL_BYTES=8 -DREDUCE_IN=DTYPE_F64 -DREDUCE_OP=REDUCE_MAX")                  \
    X(REDUCE_SUM_F16, "reduce_sum_f16", OP_REDUCE, reduce, 0,                                       \
      "-DREAL=float -DREDUCE_IN=DTYPE_F16 -DREDUCE_OP=REDUCE_SUM")                                  \
    X(REDUCE_MIN_F16, "reduce_min_f16", OP_REDUCE, reduce, 0,                                       \
      "-DREAL=float -DREDUCE_IN=DTYPE_F16 -DREDUCE_OP=REDUCE_MIN")                                  \
    X(REDUCE_MAX_F16, "reduce_max_f16", OP_REDUCE, reduce, 0,                                       \
      "-DREAL=float -DREDUCE_IN=DTYPE_F16 -DREDUCE_OP=REDUCE_MAX")                                  \
    X(REDUCE_SUM_BF16, "reduce_sum_bf16", OP_REDUCE, reduce, 0,                                     \
      "-DREAL=float -DREDUCE_IN=DTYPE_BF16 -DREDUCE_OP=REDUCE_SUM")                                 \
    X(REDUCE_MIN_BF16, "reduce_min_bf16", OP_REDUCE, reduce, 0,                                     \
      "-DREAL=float -DREDUCE_IN=DTYPE_BF16 -DREDUCE_OP=REDUCE_MIN")                                 \
    X(REDUCE_MAX_BF16, "reduce_max_bf16", OP_REDUCE, reduce, 0,                                     \
      "-DREAL=float -DREDUCE_IN=DTYPE_BF16 -DREDUCE_OP=REDUCE_MAX")

#define REDUCE_PROGRAM_SET                                                                          \
    (PROGRAM_BIT(REDUCE_SUM_F32) | PROGRAM_BIT(REDUCE_MIN_F32) | PROGRAM_BIT(REDUCE_MAX_F32) |      \
     PROGRAM_BIT(REDUCE_SUM_F64) | PROGRAM_BIT(REDUCE_MIN_F64) | PROGRAM_BIT(REDUCE_MAX_F64) |      \
     PROGRAM_BIT(REDUCE_SUM_F16) | PROGRAM_BIT(REDUCE_MIN_F16) | PROGRAM_BIT(REDUCE_MAX_F16) |      \
     PROGRAM_BIT(REDUCE_SUM_BF16) | PROGRAM_BIT(REDUCE_MIN_BF16) | PROGRAM_BIT(REDUCE_MAX_BF16))

#define REDUCE_PARAMETERS(X)                                                                        \
    X(REDUCE_WG_SIZE, OP_REDUCE, DEFINE, REDUCE_PROGRAM_SET, 256, 1, 1024, POW2,                    \
      "work-items of a group")                                                                      \
    X(REDUCE_VECTOR_BYTES, OP_REDUCE, DEFINE, REDUCE_PROGRAM_SET, 16, 16, 64, POW2,                 \
      "bytes of each vector load (of 16-bit data: at most 32, 16 elements)")                        \
    X(REDUCE_UNROLL, OP_REDUCE, DEFINE, REDUCE_PROGRAM_SET, 4, 1, 16, 0,                            \
      "vector loads in flight per work-item")                                                       \
    X(REDUCE_ONE_PASS, OP_REDUCE, DEFINE, REDUCE_PROGRAM_SET, 0, 0, 1, DEVICE_FENCE_ONLY,           \
      "1: the last group combines the partial results (atomic ticket; NVIDIA and AMD GPUs and CPUs only); 0: a second kernel") \
    X(REDUCE_CONTIGUOUS, OP_REDUCE, DEFINE, REDUCE_PROGRAM_SET, 0, 0, 1, 0,                         \
      "1: each work-item reads one contiguous run (CPUs); 0: grid-stride, coalesced (GPUs)")        \
    X(REDUCE_GROUPS_PER_CU, OP_REDUCE, HOST, 0, 4, 1, 64, 0,                                        \
      "work-groups per compute unit of a multi-group reduction")                                    \
    X(REDUCE_SMALL_N, OP_REDUCE, HOST, 0, 16384, 0, 1 << 30, 0,                                     \
      "sizes up to this take one work-group and no scratch")

#endif
