// Profiles: one table maps the probed facts to a device kind, a lockstep
// width and tuning parameters, and from those to clBuildProgram options.
#ifndef TAILOR_PROFILE_H
#define TAILOR_PROFILE_H

#include "tailor.h"

enum kernel_source {
    SOURCE_REDUCE,
    SOURCE_GEMV,
    SOURCE_TRANSPOSE,
    SOURCE_SGEMM,
    SOURCE_COUNT
};

// Every tuning parameter: name (also its -D define), the source it tunes, the
// generic default, the smallest and largest value TAILOR_TUNE may set, and
// whether it must be a power of two.
#define TUNING_PARAMETERS(X)                                                                        \
    X(REDUCE_WG_SIZE, SOURCE_REDUCE, 256, 1, 1024, 1)                                               \
    X(REDUCE_GROUPS_PER_CU, SOURCE_REDUCE, 4, 1, 64, 0)                                             \
    X(REDUCE_VECTOR_BYTES, SOURCE_REDUCE, 16, 16, 64, 1)                                            \
    X(REDUCE_UNROLL, SOURCE_REDUCE, 4, 1, 16, 0)                                                    \
    X(REDUCE_ONE_PASS, SOURCE_REDUCE, 0, 0, 1, 0)                                                   \
    X(REDUCE_SMALL_N, SOURCE_REDUCE, 16384, 0, 1 << 30, 0)                                         \
    GEMV_TUNING_PARAMETERS(X)                                                                       \
    TRANSPOSE_TUNING_PARAMETERS(X)                                                                  \
    SGEMM_TUNING_PARAMETERS(X)

// GEMV (src/gemv.c, cl/gemv.cl). "Lines" are the matrix's contiguous runs;
// row kernels take dots along them, column kernels across them.
// - GEMV_ROW_WG: work-group size of the row kernels (and of gemv_scale).
// - GEMV_ROW_LANES: work-items per line of the one-lockstep-group-per-line
//   kernels; 0: LOCKSTEP, or 32 where there is no lockstep.
// - GEMV_ROW_BATCH: lines each segment of lanes computes at once (loads of
//   several lines in flight).
// - GEMV_MULTI_ROW_MAX_K: dots up to this long share a lockstep group between
//   several lines, each taking the narrowest power-of-two segment whose
//   work-items, GEMV_MULTI_ROW_ELEMENTS elements each, cover the dot, at most
//   GEMV_MULTI_ROW_LANES work-items; GEMV_VECTOR-wide loads when the elements
//   per work-item are at least that many and the data is aligned.
// - GEMV_VECTOR: floats per vector load in the row kernels, used from dots of
//   GEMV_VECTOR_MIN_K on when lines and x are aligned and x is unit-stride.
// - GEMV_GROUP_MIN_K: dots from this long on get a whole work-group per line.
// - GEMV_UNROLL: vector loads in flight per work-item in the row kernels.
// - GEMV_COL_WG, GEMV_COL_THREADS, GEMV_COL_VECTOR, GEMV_COL_UNROLL: column
//   kernels: work-group size, most work-items along a line (the rest of the
//   group splits the lines), floats per work-item and vector load, lines in
//   flight per work-item.
// - GEMV_GROUPS_PER_CU: work-groups (CPU: work-items) per compute unit that
//   keep the device busy; fewer blocks than that get their dots split.
// - GEMV_SPLIT_MIN_ELEMENTS: a split never leaves a group fewer elements of A.
// - GEMV_ONE_PASS: split launches finish in their last group (atomic ticket),
//   else in a second kernel.
// - GEMV_CPU_VECTOR, GEMV_CPU_COLS: CPU kernels: floats per vector load (also
//   the lines whose dots are summed together), most outputs per work-item of
//   the column kernel (its sums, in private memory).
// - GEMV_CPU_LINE_MIN_K: CPU row kernel: dots from this long on are taken
//   line after line, shorter ones side by side sharing each load of x.
#define GEMV_TUNING_PARAMETERS(X)                                                                   \
    X(GEMV_ROW_WG, SOURCE_GEMV, 256, 32, 1024, 1)                                                   \
    X(GEMV_ROW_LANES, SOURCE_GEMV, 0, 0, 1024, 0)                                                   \
    X(GEMV_ROW_BATCH, SOURCE_GEMV, 1, 1, 8, 0)                                                      \
    X(GEMV_MULTI_ROW_MAX_K, SOURCE_GEMV, 16, 0, 1 << 20, 0)                                         \
    X(GEMV_MULTI_ROW_LANES, SOURCE_GEMV, 16, 1, 32, 1)                                              \
    X(GEMV_MULTI_ROW_ELEMENTS, SOURCE_GEMV, 1, 1, 64, 1)                                            \
    X(GEMV_VECTOR, SOURCE_GEMV, 4, 2, 16, 1)                                                        \
    X(GEMV_VECTOR_MIN_K, SOURCE_GEMV, 128, 1, 1 << 30, 0)                                           \
    X(GEMV_GROUP_MIN_K, SOURCE_GEMV, 8192, 1, 1 << 30, 0)                                           \
    X(GEMV_UNROLL, SOURCE_GEMV, 4, 1, 16, 0)                                                        \
    X(GEMV_COL_WG, SOURCE_GEMV, 256, 1, 1024, 1)                                                    \
    X(GEMV_COL_THREADS, SOURCE_GEMV, 64, 1, 1024, 1)                                                \
    X(GEMV_COL_VECTOR, SOURCE_GEMV, 4, 2, 16, 1)                                                    \
    X(GEMV_COL_UNROLL, SOURCE_GEMV, 4, 1, 16, 0)                                                    \
    X(GEMV_GROUPS_PER_CU, SOURCE_GEMV, 4, 1, 256, 0)                                                \
    X(GEMV_SPLIT_MIN_ELEMENTS, SOURCE_GEMV, 16384, 1, 1 << 30, 0)                                   \
    X(GEMV_ONE_PASS, SOURCE_GEMV, 0, 0, 1, 0)                                                       \
    X(GEMV_CPU_VECTOR, SOURCE_GEMV, 8, 4, 16, 1)                                                    \
    X(GEMV_CPU_COLS, SOURCE_GEMV, 64, 2, 4096, 1)                                                   \
    X(GEMV_CPU_LINE_MIN_K, SOURCE_GEMV, 128, 1, 1 << 30, 0)

// Transpose (src/transpose.c, cl/transpose.cl): the method per element size
// (0 local tile, 1 register tiles, 2 CPU blocks), the work-group shape, the
// bytes per access, the 16-byte loads in flight per work-item, the local
// tile's padding, diagonal order of the groups or bands of tile rows walked
// column by column (1: row by row), the CPU block's edge, the size of B from
// which CPU kernels write it with non-temporal stores (0: never), and the
// cache hints of 16-byte global accesses on NVIDIA (loads: 0 none, 1 evict
// first, 2 read-only without L1 allocation; stores: 0 none, 1 evict first),
// and the vectors each work-item moves through a local tile (its group then
// has TILE / TRANSPOSE_LOCAL_STEPS rows, whatever the element size; 0: the
// group has TRANSPOSE_WG_Y rows).
#define TRANSPOSE_TUNING_PARAMETERS(X)                                                              \
    X(TRANSPOSE_METHOD_1, SOURCE_TRANSPOSE, 1, 0, 2, 0)                                             \
    X(TRANSPOSE_METHOD_2, SOURCE_TRANSPOSE, 1, 0, 2, 0)                                             \
    X(TRANSPOSE_METHOD_4, SOURCE_TRANSPOSE, 1, 0, 2, 0)                                             \
    X(TRANSPOSE_METHOD_8, SOURCE_TRANSPOSE, 1, 0, 2, 0)                                             \
    X(TRANSPOSE_METHOD_16, SOURCE_TRANSPOSE, 1, 0, 2, 0)                                            \
    X(TRANSPOSE_WG_X, SOURCE_TRANSPOSE, 8, 1, 256, 1)                                               \
    X(TRANSPOSE_WG_Y, SOURCE_TRANSPOSE, 8, 1, 256, 1)                                               \
    X(TRANSPOSE_VECTOR_BYTES, SOURCE_TRANSPOSE, 16, 4, 64, 1)                                       \
    X(TRANSPOSE_LOADS, SOURCE_TRANSPOSE, 8, 1, 64, 1)                                               \
    X(TRANSPOSE_LOCAL_PAD, SOURCE_TRANSPOSE, 1, 0, 8, 0)                                            \
    X(TRANSPOSE_DIAGONAL, SOURCE_TRANSPOSE, 0, 0, 1, 0)                                             \
    X(TRANSPOSE_BAND, SOURCE_TRANSPOSE, 1, 1, 4096, 0)                                              \
    X(TRANSPOSE_CPU_BLOCK, SOURCE_TRANSPOSE, 64, 16, 1024, 1)                                      \
    X(TRANSPOSE_CPU_STREAM_BYTES, SOURCE_TRANSPOSE, 0, 0, 1 << 30, 0)                               \
    X(TRANSPOSE_LOAD_HINT, SOURCE_TRANSPOSE, 0, 0, 2, 0)                                            \
    X(TRANSPOSE_STORE_HINT, SOURCE_TRANSPOSE, 0, 0, 1, 0)                                           \
    X(TRANSPOSE_LOCAL_STEPS, SOURCE_TRANSPOSE, 0, 0, 256, 0)

// SGEMM (cl/sgemm.cl says what each does). The tiled kernel has two tile
// sets: the big one (SGEMM_*) and a smaller one (SGEMM_MID_*) for shapes
// whose big tiles would leave compute units idle; the rest is shared. The
// small/skinny kernel (SGEMM_SMALL_*) and the CPU kernel (SGEMM_CPU_*) have
// their own.
#define SGEMM_TUNING_PARAMETERS(X)                                                                  \
    SGEMM_TILE_SET_PARAMETERS(X, SGEMM_, 64, 64, 16, 4, 4, 4, 4)                                    \
    SGEMM_TILE_SET_PARAMETERS(X, SGEMM_MID_, 32, 32, 16, 2, 2, 2, 2)                                \
    X(SGEMM_LOAD_VEC, SOURCE_SGEMM, 4, 1, 8, 1)                                                     \
    X(SGEMM_WARP_INTERLEAVE, SOURCE_SGEMM, 0, 0, 1, 0)                                              \
    X(SGEMM_KTHREADS, SOURCE_SGEMM, 1, 1, 16, 1)                                                    \
    X(SGEMM_PAD_A, SOURCE_SGEMM, 0, 0, 32, 0)                                                       \
    X(SGEMM_PAD_B, SOURCE_SGEMM, 0, 0, 32, 0)                                                       \
    X(SGEMM_SWIZZLE, SOURCE_SGEMM, 1, 1, 64, 1)                                                     \
    X(SGEMM_MID_PERCENT, SOURCE_SGEMM, 100, 0, 100000, 0)                                           \
    X(SGEMM_SMALL_DIM, SOURCE_SGEMM, 8, 0, 1 << 30, 0)                                              \
    X(SGEMM_SMALL_CUBE, SOURCE_SGEMM, 64, 0, 1 << 20, 0)                                            \
    X(SGEMM_SMALL_RM, SOURCE_SGEMM, 2, 1, 8, 0)                                                     \
    X(SGEMM_SMALL_RN, SOURCE_SGEMM, 2, 1, 8, 0)                                                     \
    X(SGEMM_SMALL_WG_X, SOURCE_SGEMM, 16, 1, 1024, 0)                                               \
    X(SGEMM_SMALL_WG_Y, SOURCE_SGEMM, 8, 1, 1024, 0)                                                \
    X(SGEMM_CPU_KERNEL, SOURCE_SGEMM, 0, 0, 1, 0)                                                   \
    X(SGEMM_CPU_RM, SOURCE_SGEMM, 8, 1, 16, 0)                                                      \
    X(SGEMM_CPU_VN, SOURCE_SGEMM, 16, 2, 16, 1)                                                     \
    X(SGEMM_CPU_NV, SOURCE_SGEMM, 2, 1, 8, 0)                                                       \
    X(SGEMM_CPU_DOT_RN, SOURCE_SGEMM, 4, 1, 16, 0)                                                  \
    X(SGEMM_CPU_WG, SOURCE_SGEMM, 1, 1, 64, 0)                                                      \
    X(SGEMM_CPU_ROWS_FIRST, SOURCE_SGEMM, 0, 0, 1, 0)

// One tile set of the tiled SGEMM kernel, with its generic defaults: the
// work-group tile BM x BN over BK, each work-item's register tile TM x TN read
// from local memory in vectors of VWM and VWN, the lanes of a warp laid
// out as a WARP_TX x WARP_TY patch of work-items (0: rows of the group),
// double-buffered local tiles, and the next tile's loads issued before the
// FMAs (register prefetch). Measured on the H100, the big tiles run fastest
// without prefetch and the mid tiles with it, so each set has its own.
#define SGEMM_TILE_SET_PARAMETERS(X, P, bm, bn, bk, tm, tn, vwm, vwn)                              \
    X(P##BM, SOURCE_SGEMM, bm, 1, 256, 1)                                                           \
    X(P##BN, SOURCE_SGEMM, bn, 1, 256, 1)                                                           \
    X(P##BK, SOURCE_SGEMM, bk, 1, 64, 1)                                                            \
    X(P##TM, SOURCE_SGEMM, tm, 1, 16, 1)                                                            \
    X(P##TN, SOURCE_SGEMM, tn, 1, 16, 1)                                                            \
    X(P##VWM, SOURCE_SGEMM, vwm, 1, 8, 1)                                                           \
    X(P##VWN, SOURCE_SGEMM, vwn, 1, 8, 1)                                                           \
    X(P##WARP_TX, SOURCE_SGEMM, 0, 0, 64, 0)                                                        \
    X(P##WARP_TY, SOURCE_SGEMM, 0, 0, 64, 0)                                                        \
    X(P##DOUBLE_BUFFER, SOURCE_SGEMM, 0, 0, 1, 0)                                                   \
    X(P##PREFETCH, SOURCE_SGEMM, 0, 0, 1, 0)

enum tuning_param {
#define TUNING_ENUM_(name, source, fallback, minimum, maximum, power_of_two) TUNE_##name,
    TUNING_PARAMETERS(TUNING_ENUM_)
#undef TUNING_ENUM_
    TUNE_COUNT
};

struct tuning_value {
    enum tuning_param param;
    int value;
};

struct profile_row;

struct profile {
    const struct profile_row *row;
    tailor_device_kind kind;
    int cuda_sm;
    int lockstep;
    int has_fp64;
    int use_subgroups;
    int tune[TUNE_COUNT];
};

// Chooses the profile for the facts (or the row named `forced`, if not NULL
// or empty) and applies the "NAME=VALUE,..." tuning overrides (may be NULL).
tailor_status profile_select(const tailor_device_info *facts, const char *forced,
                             const char *tuning_overrides, struct profile *profile);

const char *profile_name(const struct profile *profile);

// Number of rows and the name of the i-th (NULL past the end).
size_t profile_row_count(void);
const char *profile_row_name(size_t index);

// The options every program gets on this profile followed by the tuning
// defines of `source`. Returns the length, or -1 if it does not fit.
int profile_build_options(const struct profile *profile, enum kernel_source source, char *buffer,
                          size_t size);

const char *tuning_param_name(enum tuning_param param);

// Work-items per line of GEMV's one-lockstep-group-per-line kernels:
// GEMV_ROW_LANES, or where that is 0, LOCKSTEP (32 without lockstep).
int profile_gemv_row_lanes(const struct profile *profile);

// One tile set of the tiled SGEMM kernel as the profile has it (mid = 0: the
// SGEMM_* set, 1: the SGEMM_MID_* set).
struct sgemm_tiles {
    int bm, bn, bk, tm, tn, vwm, vwn, warp_tx, warp_ty, double_buffer, prefetch;
};
void sgemm_tiles_of(const struct profile *profile, int mid, struct sgemm_tiles *tiles);

#endif
