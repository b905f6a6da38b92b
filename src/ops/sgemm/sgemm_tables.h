// What SGEMM declares to the runtime: its programs (cl/sgemm.cl built as the
// tiled kernels with each tile set and load width, the small/skinny kernels,
// the CPU kernels) and its tuning parameters, in the row formats of
// src/ops/reduce/reduce_tables.h. cl/sgemm.cl says what each parameter does.
#ifndef TAILOR_SGEMM_TABLES_H
#define TAILOR_SGEMM_TABLES_H

#define SGEMM_TILED_DEFINES(tiles, loads, split)                                                    \
    "-DSGEMM_KERNELS=SGEMM_KERNELS_TILED -DSGEMM_TILES=SGEMM_TILES_" tiles " -DSGEMM_VECTOR_LOADS=" loads \
    " -DSGEMM_SPLIT_K=" split

// The tiled programs: big or mid tiles, vector loads and stores or scalar
// ones; split k (the product goes to the workspace), with vector loads on
// either tile set, with scalar ones on the mid tiles.
#define SGEMM_PROGRAMS(X)                                                                           \
    X(SGEMM_TILED, "sgemm_tiled", OP_SGEMM, sgemm, 0, SGEMM_TILED_DEFINES("BIG", "1", "0"))          \
    X(SGEMM_TILED_SCALAR, "sgemm_tiled_scalar", OP_SGEMM, sgemm, 0, SGEMM_TILED_DEFINES("BIG", "0", "0")) \
    X(SGEMM_TILED_SPLIT, "sgemm_tiled_split", OP_SGEMM, sgemm, 0, SGEMM_TILED_DEFINES("BIG", "1", "1")) \
    X(SGEMM_TILED_MID, "sgemm_tiled_mid", OP_SGEMM, sgemm, 0, SGEMM_TILED_DEFINES("MID", "1", "0"))  \
    X(SGEMM_TILED_MID_SCALAR, "sgemm_tiled_mid_scalar", OP_SGEMM, sgemm, 0,                         \
      SGEMM_TILED_DEFINES("MID", "0", "0"))                                                         \
    X(SGEMM_TILED_MID_SPLIT, "sgemm_tiled_mid_split", OP_SGEMM, sgemm, 0,                           \
      SGEMM_TILED_DEFINES("MID", "1", "1"))                                                         \
    X(SGEMM_TILED_MID_SPLIT_SCALAR, "sgemm_tiled_mid_split_scalar", OP_SGEMM, sgemm, 0,             \
      SGEMM_TILED_DEFINES("MID", "0", "1"))                                                         \
    X(SGEMM_SMALL, "sgemm_small", OP_SGEMM, sgemm, 0, "-DSGEMM_KERNELS=SGEMM_KERNELS_SMALL")        \
    X(SGEMM_CPU, "sgemm_cpu", OP_SGEMM, sgemm, 0, "-DSGEMM_KERNELS=SGEMM_KERNELS_CPU")

#define SGEMM_BIG_SET                                                                               \
    (PROGRAM_BIT(SGEMM_TILED) | PROGRAM_BIT(SGEMM_TILED_SCALAR) | PROGRAM_BIT(SGEMM_TILED_SPLIT))
#define SGEMM_MID_SET                                                                               \
    (PROGRAM_BIT(SGEMM_TILED_MID) | PROGRAM_BIT(SGEMM_TILED_MID_SCALAR) | PROGRAM_BIT(SGEMM_TILED_MID_SPLIT) | \
     PROGRAM_BIT(SGEMM_TILED_MID_SPLIT_SCALAR))
#define SGEMM_VECTOR_SET                                                                            \
    (PROGRAM_BIT(SGEMM_TILED) | PROGRAM_BIT(SGEMM_TILED_SPLIT) | PROGRAM_BIT(SGEMM_TILED_MID) |      \
     PROGRAM_BIT(SGEMM_TILED_MID_SPLIT))
#define SGEMM_MID_VECTOR_SET (PROGRAM_BIT(SGEMM_TILED_MID) | PROGRAM_BIT(SGEMM_TILED_MID_SPLIT))
#define SGEMM_TILED_SET (SGEMM_BIG_SET | SGEMM_MID_SET)
// Split k runs its few tiles in plain order (cl/sgemm.cl), the others in bands.
#define SGEMM_BANDED_SET                                                                            \
    (SGEMM_TILED_SET & ~PROGRAM_BIT(SGEMM_TILED_SPLIT) & ~PROGRAM_BIT(SGEMM_TILED_MID_SPLIT) &          \
     ~PROGRAM_BIT(SGEMM_TILED_MID_SPLIT_SCALAR))
#define SGEMM_SMALL_SET PROGRAM_BIT(SGEMM_SMALL)
#define SGEMM_CPU_SET PROGRAM_BIT(SGEMM_CPU)

// One tile set of the tiled kernel (P: SGEMM_ or SGEMM_MID_, read by the
// programs of SET) with its built-in defaults.
#define SGEMM_TILE_SET_PARAMETERS(X, P, SET, bm, bn, bk, tm, tn, vwm, vwn)                         \
    X(P##BM, OP_SGEMM, DEFINE, SET, bm, 1, 256, POW2, "rows of C a work-group computes")            \
    X(P##BN, OP_SGEMM, DEFINE, SET, bn, 1, 256, POW2, "columns of C a work-group computes")         \
    X(P##BK, OP_SGEMM, DEFINE, SET, bk, 1, 64, POW2, "steps of k staged in local memory at once")   \
    X(P##TM, OP_SGEMM, DEFINE, SET, tm, 1, 16, POW2, "rows of each work-item's register tile")      \
    X(P##TN, OP_SGEMM, DEFINE, SET, tn, 1, 16, POW2, "columns of each work-item's register tile")   \
    X(P##VWM, OP_SGEMM, DEFINE, SET, vwm, 1, 8, POW2, "floats per local-memory read of A")          \
    X(P##VWN, OP_SGEMM, DEFINE, SET, vwn, 1, 8, POW2, "floats per local-memory read of B and store of C") \
    X(P##WARP_TX, OP_SGEMM, DEFINE, SET, 0, 0, 64, 0,                                               \
      "a warp's lanes as WARP_TX x WARP_TY work-items (0: rows of the group)")                      \
    X(P##WARP_TY, OP_SGEMM, DEFINE, SET, 0, 0, 64, 0, "see WARP_TX")                                \
    X(P##DOUBLE_BUFFER, OP_SGEMM, DEFINE, SET, 0, 0, 1, 0, "two local tiles, one barrier a step")   \
    X(P##PREFETCH, OP_SGEMM, DEFINE, SET, 0, 0, 1, 0,                                               \
      "the next tile's global loads issued before this tile's FMAs")                                \
    X(P##SLICED_K, OP_SGEMM, DEFINE, SET, 1, 1, 8, POW2,                                            \
      "sets of work-items that each multiply a share of every step of k, summed in local memory at the end") \
    X(P##ASYNC, OP_SGEMM, DEFINE, SET, 0, 0, 1, 0,                                                  \
      "NVIDIA CUDA_SM >= 80, two local buffers: the vector kernels whose operands are not transposed into local memory (tn) copy them there by cp.async, without registers")

#define SGEMM_PARAMETERS(X)                                                                         \
    SGEMM_TILE_SET_PARAMETERS(X, SGEMM_, SGEMM_BIG_SET, 64, 64, 16, 4, 4, 4, 4)                     \
    SGEMM_TILE_SET_PARAMETERS(X, SGEMM_MID_, SGEMM_MID_SET, 32, 32, 16, 2, 2, 2, 2)                 \
    X(SGEMM_LOAD_VEC, OP_SGEMM, DEFINE, SGEMM_VECTOR_SET, 4, 1, 8, POW2,                            \
      "floats per global load of the vector-load programs")                                         \
    X(SGEMM_WARP_INTERLEAVE, OP_SGEMM, DEFINE, SGEMM_TILED_SET, 0, 0, 1, 0,                         \
      "lane bit 0 picks the row of a warp's patch (CUTLASS's interleaved SIMT layout)")            \
    X(SGEMM_KTHREADS, OP_SGEMM, DEFINE, SGEMM_TILED_SET, 1, 1, 16, POW2,                            \
      "work-items side by side along k when loading K-contiguous tiles")                            \
    X(SGEMM_PAD_A, OP_SGEMM, DEFINE, SGEMM_TILED_SET, 0, 0, 32, 0, "padding of the local A tile's rows") \
    X(SGEMM_PAD_B, OP_SGEMM, DEFINE, SGEMM_TILED_SET, 0, 0, 32, 0, "padding of the local B tile's rows") \
    X(SGEMM_SWIZZLE, OP_SGEMM, DEFINE, SGEMM_BANDED_SET, 1, 1, 64, POW2,                            \
      "tile rows of a band walked column by column (L2 reuse)")                                     \
    X(SGEMM_MID_PERCENT, OP_SGEMM, HOST, 0, 100, 0, 100000, 0,                                      \
      "mid tiles when the big ones give fewer groups than this percentage of the compute units")   \
    X(SGEMM_MID_EFFICIENCY, OP_SGEMM, HOST, 0, 0, 0, 100, 0,                                        \
      "mid tiles also where the big ones fill the compute units, when their groups per compute unit (rounded up) take less time at this percentage of the big tiles' speed per multiply-add (0: never)") \
    X(SGEMM_PACK_B_MIN_M, OP_SGEMM, HOST, 0, 0, 0, 1 << 30, 0,                                     \
      "tiled kernels: B stored transposed is transposed into a workspace first when m is at least this (0: never)") \
    X(SGEMM_PACK_A_MIN_N, OP_SGEMM, HOST, 0, 0, 0, 1 << 30, 0,                                     \
      "tiled kernels: where A and B are both stored K-contiguous and B is not packed, A is transposed into a workspace first when n is at least this (0: never)") \
    X(SGEMM_PACK_A_ASYNC_MIN_N, OP_SGEMM, HOST, 0, 0, 0, 1 << 30, 0,                               \
      "tiled kernels: a K-contiguous A is transposed into a workspace first when n is at least this (0: never), k at least SGEMM_PACK_A_ASYNC_MIN_K, and that lets the product copy both operands by cp.async (SGEMM_ASYNC)") \
    X(SGEMM_PACK_A_ASYNC_MIN_K, OP_SGEMM, HOST, 0, 0, 0, 1 << 30, 0,                               \
      "tiled kernels: the shortest k for which SGEMM_PACK_A_ASYNC_MIN_N transposes A first") \
    X(SGEMM_MID_ASYNC_ROUNDS, OP_SGEMM, HOST, 0, 0, 0, 1 << 20, 0,                                  \
      "tiled kernels: the mid tiles copy by cp.async (SGEMM_MID_ASYNC) only where the product gives at least this many groups per compute unit; fewer stage through registers") \
    X(SGEMM_SPLIT_PERCENT, OP_SGEMM, HOST, 0, 100, 0, 100000, 0,                                    \
      "tiled kernels: k is split into slices (of big tiles, or of mid ones by SGEMM_MID_SPLIT_EFFICIENCY), summed afterwards, when the mid tiles give fewer groups than this percentage of the compute units (0: never); how many by SGEMM_GROUPS_PER_UNIT and SGEMM_SHARED_GAIN") \
    X(SGEMM_SPLIT_LONG_K, OP_SGEMM, HOST, 0, 0, 0, 1 << 30, 0,                                      \
      "tiled kernels: from this k on (0: never), k is also split where the mid tiles would fill at most one round of SGEMM_GROUPS_PER_UNIT groups per compute unit and the big tiles cover no more of C than they do") \
    X(SGEMM_SPLIT_ROUNDS_K, OP_SGEMM, HOST, 0, 0, 0, 1 << 30, 0,                                    \
      "tiled kernels: from this k on (0: never), k is also split where the mid tiles would fill at most SGEMM_SPLIT_ROUNDS such rounds and the big tiles cover no more of C than they do") \
    X(SGEMM_SPLIT_ROUNDS, OP_SGEMM, HOST, 0, 1, 1, 64, 0,                                          \
      "tiled kernels: the rounds of mid-tile groups (SGEMM_GROUPS_PER_UNIT per compute unit) up to which SGEMM_SPLIT_ROUNDS_K splits k") \
    X(SGEMM_GROUPS_PER_UNIT, OP_SGEMM, HOST, 0, 1, 1, 64, 0,                                       \
      "tiled kernels: big-tile groups a compute unit runs at once (split k counts a unit's groups in rounds of this many)") \
    X(SGEMM_SHARED_GAIN, OP_SGEMM, HOST, 0, 100, 0, 100, 0,                                        \
      "tiled kernels: the speed each further group running at once adds to a compute unit, in percent of one group's (100: SGEMM_GROUPS_PER_UNIT groups at once take as long as one; split k times a unit's rounds by it)") \
    X(SGEMM_SPLIT_SLICE_COST, OP_SGEMM, HOST, 0, 128, 0, 1 << 20, 0,                               \
      "tiled kernels: what a slice of a split k costs beyond its own steps (filling the pipeline, its partial product), in steps of k") \
    X(SGEMM_SPLIT_MIN_K, OP_SGEMM, HOST, 0, 1024, 1, 1 << 30, 0,                                    \
      "tiled kernels: the fewest steps of k a slice of a split k holds")                            \
    X(SGEMM_MID_SPLIT_EFFICIENCY, OP_SGEMM, HOST, 0, 0, 0, 100, 0,                                 \
      "tiled kernels: k is split on the mid tiles instead of the big ones where that takes less time at this percentage of the big tiles' speed per multiply-add (0: never)") \
    X(SGEMM_STAGE_CUBE, OP_SGEMM, HOST, 0, 1024, 0, 1 << 20, 0,                                     \
      "tiled kernels: operands whose rows do not start on load vectors are copied to rows that do for products of at least this cubed multiply-adds (0: never)") \
    X(SGEMM_STAGE_REUSE, OP_SGEMM, HOST, 0, 0, 0, 1 << 30, 0,                                       \
      "tiled kernels: an operand A or B whose every element feeds at least this many outputs of C (n for A, m for B) is copied to aligned rows from products of half SGEMM_STAGE_CUBE's side (0, or SGEMM_STAGE_CUBE 0: never)") \
    X(SGEMM_SMALL_DIM, OP_SGEMM, HOST, 0, 8, 0, 1 << 30, 0,                                         \
      "m or n up to this takes the small kernel")                                                   \
    X(SGEMM_SMALL_CUBE, OP_SGEMM, HOST, 0, 64, 0, 1 << 20, 0,                                       \
      "products of at most this cubed multiply-adds take the small kernel")                         \
    X(SGEMM_SMALL_MAX_K, OP_SGEMM, HOST, 0, 64, 0, 1 << 30, 0,                                      \
      "the small kernel takes only products of at most this k (each work-item runs all of k in one chain of loads; the tiled kernels split it)") \
    X(SGEMM_SMALL_RM, OP_SGEMM, DEFINE, SGEMM_SMALL_SET, 2, 1, 8, 0,                                \
      "small kernel: rows of C per work-item")                                                      \
    X(SGEMM_SMALL_RN, OP_SGEMM, DEFINE, SGEMM_SMALL_SET, 2, 1, 8, 0,                                \
      "small kernel: columns of C per work-item")                                                   \
    X(SGEMM_SMALL_WG_X, OP_SGEMM, DEFINE, SGEMM_SMALL_SET, 16, 1, 1024, 0,                          \
      "small and scale kernels: work-items of a group along n")                                     \
    X(SGEMM_SMALL_WG_Y, OP_SGEMM, DEFINE, SGEMM_SMALL_SET, 8, 1, 1024, 0,                           \
      "small and scale kernels: work-items of a group along m")                                     \
    X(SGEMM_THIN_M, OP_SGEMM, HOST, 0, 0, 0, 1 << 30, 0,                                            \
      "m up to this takes the thin kernel where B is stored along n and the small kernel does not take the product (0: never)") \
    X(SGEMM_THIN_N, OP_SGEMM, HOST, 0, 0, 0, 1 << 30, 0,                                            \
      "n up to this takes the thin kernel on C^T = B^T A^T (C written transposed) where A is stored along m and neither the small kernel nor the thin kernel on C takes the product (0: never)") \
    X(SGEMM_THIN_RM, OP_SGEMM, DEFINE, SGEMM_SMALL_SET, 16, 1, 32, POW2,                            \
      "thin kernel: rows of C a work-group computes, all of them in each work-item")                \
    X(SGEMM_THIN_RN, OP_SGEMM, DEFINE, SGEMM_SMALL_SET, 2, 1, 8, 0,                                 \
      "thin kernel: columns of C per work-item, a group's width apart")                             \
    X(SGEMM_THIN_WG, OP_SGEMM, DEFINE, SGEMM_SMALL_SET, 128, 1, 1024, 0,                            \
      "thin kernel: work-items a group")                                                            \
    X(SGEMM_THIN_KC, OP_SGEMM, DEFINE, SGEMM_SMALL_SET, 32, 1, 256, 0,                              \
      "thin kernel: steps of k of A's rows held in local memory at once")                           \
    X(SGEMM_THIN_FILL, OP_SGEMM, HOST, 0, 100, 0, 100000, 0,                                        \
      "thin kernel: only where its groups (k split included) reach this percentage of the compute units (fewer: the tiled kernels)") \
    X(SGEMM_THIN_GROUPS_PER_UNIT, OP_SGEMM, HOST, 0, 8, 1, 256, 0,                                  \
      "thin kernel: k is split until the groups reach this many per compute unit (slices of at least SGEMM_THIN_MIN_K steps, at most SGEMM_THIN_MAX_SLICES)") \
    X(SGEMM_THIN_MIN_K, OP_SGEMM, HOST, 0, 128, 1, 1 << 30, 0,                                     \
      "thin kernel: the fewest steps of k a slice of a split k holds")                              \
    X(SGEMM_THIN_MAX_SLICES, OP_SGEMM, HOST, 0, 0, 0, 1 << 30, 0,                                   \
      "thin and dots kernels: the most slices k is split into (0: no limit but SGEMM_THIN_MIN_K's or SGEMM_DOTS_MIN_K's); past it, summing the partial products costs more than the slices gain") \
    X(SGEMM_DOTS_MAX, OP_SGEMM, DEFINE, SGEMM_SMALL_SET, 0, 0, 16, 0,                               \
      "up to this many columns of C whose A is stored along k, or rows whose B is, take the dots kernel where neither the small kernel nor the thin kernel takes the product (0: never; the program holds the local memory only of the entry points it needs)") \
    X(SGEMM_DOTS_MIN_K, OP_SGEMM, HOST, 0, 128, 1, 1 << 30, 0,                                     \
      "dots kernel: the fewest steps of k a slice of a split k holds (shorter, summing the slices costs more than they gain)") \
    X(SGEMM_DOTS_GROUPS_PER_UNIT, OP_SGEMM, HOST, 0, 8, 1, 256, 0,                                  \
      "dots kernel: k is split until the groups reach this many per compute unit (slices of at least SGEMM_DOTS_MIN_K steps, at most SGEMM_THIN_MAX_SLICES)") \
    X(SGEMM_DOTS_LINES, OP_SGEMM, DEFINE, SGEMM_SMALL_SET, 4, 1, 16, 0,                              \
      "dots kernel: lines of the long operand each work-item reads along k")                         \
    X(SGEMM_DOTS_WG, OP_SGEMM, DEFINE, SGEMM_SMALL_SET, 128, 32, 1024, 0,                            \
      "dots kernel: work-items a group, in sets of 32 along k")                                      \
    X(SGEMM_DOTS_KC, OP_SGEMM, DEFINE, SGEMM_SMALL_SET, 128, 128, 4096, 0,                           \
      "dots kernel: steps of k of the short operand held in local memory at once (a multiple of 128)") \
    X(SGEMM_DOTS_SUMS, OP_SGEMM, DEFINE, SGEMM_SMALL_SET, 1, 1, 64, 0,                              \
      "dots kernel: (line, vector) sums a set of 32 work-items adds at once at the end, whole lines of them, at least one (more: fewer barriers, more local memory)") \
    X(SGEMM_CPU_KERNELS, OP_SGEMM, HOST, 0, 0, 0, 1, 0,                                             \
      "1: the CPU kernels (register blocks along the SIMD width, no local memory)")                \
    X(SGEMM_CPU_RM, OP_SGEMM, DEFINE, SGEMM_CPU_SET, 8, 1, 16, 0, "CPU kernels: rows of C per work-item") \
    X(SGEMM_CPU_VN, OP_SGEMM, DEFINE, SGEMM_CPU_SET, 16, 2, 16, POW2,                               \
      "CPU kernels: floats per vector of C's rows")                                                 \
    X(SGEMM_CPU_NV, OP_SGEMM, DEFINE, SGEMM_CPU_SET, 2, 1, 8, 0,                                    \
      "CPU broadcast kernel: vectors of C per row of a work-item's block")                          \
    X(SGEMM_CPU_DOT_RN, OP_SGEMM, DEFINE, SGEMM_CPU_SET, 4, 1, 16, 0,                               \
      "CPU dot kernel: columns of C per work-item")                                                 \
    X(SGEMM_CPU_WG, OP_SGEMM, DEFINE, SGEMM_CPU_SET, 1, 1, 64, 0, "CPU kernels: work-items a group") \
    X(SGEMM_CPU_ROWS_FIRST, OP_SGEMM, DEFINE, SGEMM_CPU_SET, 0, 0, 1, 0,                            \
      "CPU kernels: consecutive work-items walk down the rows (else along the columns)")           \
    X(SGEMM_CPU_PACK_CUBE, OP_SGEMM, HOST, 0, 0, 0, 1 << 20, 0,                                     \
      "CPU kernels: products of at least this cubed multiply-adds pack A and B first (0: never)")  \
    X(SGEMM_CPU_DOT_PACK_K, OP_SGEMM, HOST, 0, 4, 0, 1 << 20, 0,                                    \
      "CPU kernels: nt products pack B first where k is at most this times m (0: never; see kernels.md)") \
    X(SGEMM_CPU_TT_PACK_K, OP_SGEMM, HOST, 0, 2, 0, 1 << 20, 0,                                     \
      "CPU kernels: tt products pack B (and A) first where k is at most this times m (0: never; see kernels.md)") \
    X(SGEMM_CPU_PACK_A, OP_SGEMM, HOST, 0, 1, 0, 2, 0,                                             \
      "CPU packed kernel: A packed too when stored M-contiguous (1), always (2), never (0)")       \
    X(SGEMM_CPU_KC, OP_SGEMM, DEFINE, SGEMM_CPU_SET, 256, 1, 1 << 16, 0,                            \
      "CPU packed kernel: steps of k per slice (a slice of a B panel stays in cache)")             \
    X(SGEMM_CPU_MC_PANELS, OP_SGEMM, DEFINE, SGEMM_CPU_SET, 8, 1, 1024, 0,                          \
      "CPU packed kernel: panels of A (CPU_RM rows each) per work-item")

#endif
