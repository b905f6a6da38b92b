// GEMV's kernels, named once for the host (src/ops/gemv) and the source
// (gemv.cl): id, entry point, the programs that hold it, variant. Each
// row kernel has a whole and a split-k entry point (the split ones take the
// scratch buffer).
#ifndef TAILOR_GEMV_KERNELS_H
#define TAILOR_GEMV_KERNELS_H

#define GEMV_KERNELS(X)                                                                             \
    X(GEMV_FINISH, gemv_finish, GEMV_PROGRAM_SET, "finish")                                         \
    X(GEMV_SCALE, gemv_scale, GEMV_PROGRAM_SET, "scale")                                            \
    X(GEMV_GATHER_X, gemv_gather_x, GEMV_PROGRAM_SET, "gather-x")                                   \
    X(GEMV_ROW_LANES1, gemv_row_lanes1, GEMV_GPU_SET, "row/multi-row-1")                            \
    X(GEMV_ROW_LANES1_SPLIT, gemv_row_lanes1_split, GEMV_GPU_SET, "row/multi-row-1")                \
    X(GEMV_ROW_LANES1_VEC, gemv_row_lanes1_vec, GEMV_GPU_SET, "row/multi-row-1")                    \
    X(GEMV_ROW_LANES1_VEC_SPLIT, gemv_row_lanes1_vec_split, GEMV_GPU_SET, "row/multi-row-1")        \
    X(GEMV_ROW_LANES2, gemv_row_lanes2, GEMV_GPU_SET, "row/multi-row-2")                            \
    X(GEMV_ROW_LANES2_SPLIT, gemv_row_lanes2_split, GEMV_GPU_SET, "row/multi-row-2")                \
    X(GEMV_ROW_LANES2_VEC, gemv_row_lanes2_vec, GEMV_GPU_SET, "row/multi-row-2")                    \
    X(GEMV_ROW_LANES2_VEC_SPLIT, gemv_row_lanes2_vec_split, GEMV_GPU_SET, "row/multi-row-2")        \
    X(GEMV_ROW_LANES4, gemv_row_lanes4, GEMV_GPU_SET, "row/multi-row-4")                            \
    X(GEMV_ROW_LANES4_SPLIT, gemv_row_lanes4_split, GEMV_GPU_SET, "row/multi-row-4")                \
    X(GEMV_ROW_LANES4_VEC, gemv_row_lanes4_vec, GEMV_GPU_SET, "row/multi-row-4")                    \
    X(GEMV_ROW_LANES4_VEC_SPLIT, gemv_row_lanes4_vec_split, GEMV_GPU_SET, "row/multi-row-4")        \
    X(GEMV_ROW_LANES8, gemv_row_lanes8, GEMV_GPU_SET, "row/multi-row-8")                            \
    X(GEMV_ROW_LANES8_SPLIT, gemv_row_lanes8_split, GEMV_GPU_SET, "row/multi-row-8")                \
    X(GEMV_ROW_LANES8_VEC, gemv_row_lanes8_vec, GEMV_GPU_SET, "row/multi-row-8")                    \
    X(GEMV_ROW_LANES8_VEC_SPLIT, gemv_row_lanes8_vec_split, GEMV_GPU_SET, "row/multi-row-8")        \
    X(GEMV_ROW_LANES16, gemv_row_lanes16, GEMV_GPU_SET, "row/multi-row-16")                         \
    X(GEMV_ROW_LANES16_SPLIT, gemv_row_lanes16_split, GEMV_GPU_SET, "row/multi-row-16")             \
    X(GEMV_ROW_LANES16_VEC, gemv_row_lanes16_vec, GEMV_GPU_SET, "row/multi-row-16")                 \
    X(GEMV_ROW_LANES16_VEC_SPLIT, gemv_row_lanes16_vec_split, GEMV_GPU_SET, "row/multi-row-16")     \
    X(GEMV_ROW_LANES32, gemv_row_lanes32, GEMV_GPU_SET, "row/multi-row-32")                         \
    X(GEMV_ROW_LANES32_SPLIT, gemv_row_lanes32_split, GEMV_GPU_SET, "row/multi-row-32")             \
    X(GEMV_ROW_LANES32_VEC, gemv_row_lanes32_vec, GEMV_GPU_SET, "row/multi-row-32")                 \
    X(GEMV_ROW_LANES32_VEC_SPLIT, gemv_row_lanes32_vec_split, GEMV_GPU_SET, "row/multi-row-32")     \
    X(GEMV_ROW_WIDE, gemv_row_wide, GEMV_GPU_SET, "row/warp-per-row")                               \
    X(GEMV_ROW_WIDE_SPLIT, gemv_row_wide_split, GEMV_GPU_SET, "row/warp-per-row")                   \
    X(GEMV_ROW_WIDE_VEC, gemv_row_wide_vec, GEMV_GPU_SET, "row/warp-per-row")                       \
    X(GEMV_ROW_WIDE_VEC_SPLIT, gemv_row_wide_vec_split, GEMV_GPU_SET, "row/warp-per-row")           \
    X(GEMV_ROW_WIDE_SHIFTED, gemv_row_wide_shifted, GEMV_GPU_SET, "row/warp-per-row")               \
    X(GEMV_ROW_WIDE_SHIFTED_SPLIT, gemv_row_wide_shifted_split, GEMV_GPU_SET, "row/warp-per-row")   \
    X(GEMV_ROW_WIDE_LONG, gemv_row_wide_long, GEMV_GPU_SET, "row/warp-per-row")                     \
    X(GEMV_ROW_WIDE_LONG_SPLIT, gemv_row_wide_long_split, GEMV_GPU_SET, "row/warp-per-row")         \
    X(GEMV_ROW_GROUP, gemv_row_group, GEMV_GPU_SET, "row/group-per-row")                            \
    X(GEMV_ROW_GROUP_SPLIT, gemv_row_group_split, GEMV_GPU_SET, "row/group-per-row")                \
    X(GEMV_ROW_GROUP_VEC, gemv_row_group_vec, GEMV_GPU_SET, "row/group-per-row")                    \
    X(GEMV_ROW_GROUP_VEC_SPLIT, gemv_row_group_vec_split, GEMV_GPU_SET, "row/group-per-row")        \
    X(GEMV_ROW_GROUP_SHIFTED, gemv_row_group_shifted, GEMV_GPU_SET, "row/group-per-row")            \
    X(GEMV_ROW_GROUP_SHIFTED_SPLIT, gemv_row_group_shifted_split, GEMV_GPU_SET, "row/group-per-row") \
    X(GEMV_ROW_WIDE_STAGED, gemv_row_wide_staged, GEMV_GPU_SET, "row/warp-per-row")                 \
    X(GEMV_ROW_WIDE_STAGED_SPLIT, gemv_row_wide_staged_split, GEMV_GPU_SET, "row/warp-per-row")     \
    X(GEMV_ROW_WIDE_STAGED_SHIFTED, gemv_row_wide_staged_shifted, GEMV_GPU_SET, "row/warp-per-row") \
    X(GEMV_ROW_WIDE_STAGED_SHIFTED_SPLIT, gemv_row_wide_staged_shifted_split, GEMV_GPU_SET, "row/warp-per-row") \
    X(GEMV_COL, gemv_col, GEMV_GPU_SET, "column")                                                   \
    X(GEMV_COL_SPLIT, gemv_col_split, GEMV_GPU_SET, "column")                                       \
    X(GEMV_COL_VEC, gemv_col_vec, GEMV_GPU_SET, "column")                                           \
    X(GEMV_COL_VEC_SPLIT, gemv_col_vec_split, GEMV_GPU_SET, "column")                               \
    X(GEMV_CPU_ROWS, gemv_cpu_rows, GEMV_CPU_SET, "cpu/rows")                                       \
    X(GEMV_CPU_COLS, gemv_cpu_cols, GEMV_CPU_SET, "cpu/columns")

#endif
