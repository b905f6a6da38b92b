// The registry of kernel programs: each is one embedded source built with
// its own variant defines (data type, operation) on top of the profile's.
#ifndef TAILOR_PROGRAMS_H
#define TAILOR_PROGRAMS_H

#include "profile.h"

// id, name, source, needs fp64, variant defines
#define PROGRAMS(X)                                                                                 \
    X(REDUCE_SUM_F32, "reduce_sum_f32", SOURCE_REDUCE, 0, "-DREAL=float -DREAL_BYTES=4 -DREDUCE_OP=REDUCE_SUM") \
    X(REDUCE_MIN_F32, "reduce_min_f32", SOURCE_REDUCE, 0, "-DREAL=float -DREAL_BYTES=4 -DREDUCE_OP=REDUCE_MIN") \
    X(REDUCE_MAX_F32, "reduce_max_f32", SOURCE_REDUCE, 0, "-DREAL=float -DREAL_BYTES=4 -DREDUCE_OP=REDUCE_MAX") \
    X(REDUCE_SUM_F64, "reduce_sum_f64", SOURCE_REDUCE, 1, "-DREAL=double -DREAL_BYTES=8 -DREDUCE_OP=REDUCE_SUM") \
    X(REDUCE_MIN_F64, "reduce_min_f64", SOURCE_REDUCE, 1, "-DREAL=double -DREAL_BYTES=8 -DREDUCE_OP=REDUCE_MIN") \
    X(REDUCE_MAX_F64, "reduce_max_f64", SOURCE_REDUCE, 1, "-DREAL=double -DREAL_BYTES=8 -DREDUCE_OP=REDUCE_MAX") \
    X(GEMV_F32, "gemv_f32", SOURCE_GEMV, 0, "")                                                       \
    X(TRANSPOSE_1, "transpose_1", SOURCE_TRANSPOSE, 0, "-DELEMENT_BYTES=1 -DSCALED=0")                 \
    X(TRANSPOSE_2, "transpose_2", SOURCE_TRANSPOSE, 0, "-DELEMENT_BYTES=2 -DSCALED=0")                 \
    X(TRANSPOSE_4, "transpose_4", SOURCE_TRANSPOSE, 0, "-DELEMENT_BYTES=4 -DSCALED=0")                 \
    X(TRANSPOSE_8, "transpose_8", SOURCE_TRANSPOSE, 0, "-DELEMENT_BYTES=8 -DSCALED=0")                 \
    X(TRANSPOSE_16, "transpose_16", SOURCE_TRANSPOSE, 0, "-DELEMENT_BYTES=16 -DSCALED=0")              \
    X(TRANSPOSE_SCALED_F32, "transpose_scaled_f32", SOURCE_TRANSPOSE, 0, "-DELEMENT_BYTES=4 -DSCALED=1 -DREAL=float") \
    X(TRANSPOSE_SCALED_F64, "transpose_scaled_f64", SOURCE_TRANSPOSE, 1, "-DELEMENT_BYTES=8 -DSCALED=1 -DREAL=double") \
    X(SGEMM_TILED, "sgemm_tiled", SOURCE_SGEMM, 0, "-DSGEMM_KERNELS=SGEMM_KERNELS_TILED -DSGEMM_TILES=SGEMM_TILES_BIG -DSGEMM_VECTOR_LOADS=1") \
    X(SGEMM_TILED_SCALAR, "sgemm_tiled_scalar", SOURCE_SGEMM, 0, "-DSGEMM_KERNELS=SGEMM_KERNELS_TILED -DSGEMM_TILES=SGEMM_TILES_BIG -DSGEMM_VECTOR_LOADS=0") \
    X(SGEMM_TILED_MID, "sgemm_tiled_mid", SOURCE_SGEMM, 0, "-DSGEMM_KERNELS=SGEMM_KERNELS_TILED -DSGEMM_TILES=SGEMM_TILES_MID -DSGEMM_VECTOR_LOADS=1") \
    X(SGEMM_TILED_MID_SCALAR, "sgemm_tiled_mid_scalar", SOURCE_SGEMM, 0, "-DSGEMM_KERNELS=SGEMM_KERNELS_TILED -DSGEMM_TILES=SGEMM_TILES_MID -DSGEMM_VECTOR_LOADS=0") \
    X(SGEMM_SMALL, "sgemm_small", SOURCE_SGEMM, 0, "-DSGEMM_KERNELS=SGEMM_KERNELS_SMALL") \
    X(SGEMM_CPU, "sgemm_cpu", SOURCE_SGEMM, 0, "-DSGEMM_KERNELS=SGEMM_KERNELS_CPU")

enum program_id {
#define PROGRAM_ENUM_(id, name, source, fp64, defines) PROGRAM_##id,
    PROGRAMS(PROGRAM_ENUM_)
#undef PROGRAM_ENUM_
    PROGRAM_COUNT
};

struct embedded_source;

const char *program_name(enum program_id id);
int program_needs_fp64(enum program_id id);
const struct embedded_source *program_source(enum program_id id);

// Looks a program up by name; PROGRAM_COUNT if none has it.
enum program_id program_find(const char *name);

// Profile options, tuning defines of the program's source, variant defines,
// then `extra` (may be NULL). Returns the length, or -1 if it does not fit.
int program_build_options(const struct profile *profile, enum program_id id, const char *extra,
                          char *buffer, size_t size);

#endif
