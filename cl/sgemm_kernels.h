// SGEMM's kernels, named once for the host (src/ops/sgemm) and the source
// (sgemm.cl): id, entry point, the programs that hold it, variant (the
// host adds tiles, loads and orientation).
#ifndef TAILOR_SGEMM_KERNELS_H
#define TAILOR_SGEMM_KERNELS_H

#define SGEMM_KERNELS(X)                                                                            \
    X(SGEMM_TILED_NN, sgemm_tiled_nn_aligned, SGEMM_TILED_SET, "tiled")                             \
    X(SGEMM_TILED_NT, sgemm_tiled_nt_aligned, SGEMM_TILED_SET, "tiled")                             \
    X(SGEMM_TILED_TN, sgemm_tiled_tn_aligned, SGEMM_TILED_SET, "tiled")                             \
    X(SGEMM_TILED_TT, sgemm_tiled_tt_aligned, SGEMM_TILED_SET, "tiled")                             \
    X(SGEMM_TILED_NN_EDGE, sgemm_tiled_nn_edge, SGEMM_TILED_SET, "tiled")                           \
    X(SGEMM_TILED_NT_EDGE, sgemm_tiled_nt_edge, SGEMM_TILED_SET, "tiled")                           \
    X(SGEMM_TILED_TN_EDGE, sgemm_tiled_tn_edge, SGEMM_TILED_SET, "tiled")                           \
    X(SGEMM_TILED_TT_EDGE, sgemm_tiled_tt_edge, SGEMM_TILED_SET, "tiled")                           \
    X(SGEMM_TILED_NN_SHIFTED, sgemm_tiled_nn_shifted, SGEMM_TILED_SET, "tiled")                     \
    X(SGEMM_TILED_NT_SHIFTED, sgemm_tiled_nt_shifted, SGEMM_TILED_SET, "tiled")                     \
    X(SGEMM_TILED_TN_SHIFTED, sgemm_tiled_tn_shifted, SGEMM_TILED_SET, "tiled")                     \
    X(SGEMM_TILED_TT_SHIFTED, sgemm_tiled_tt_shifted, SGEMM_TILED_SET, "tiled")                     \
    X(SGEMM_TILED_TN_SYNC, sgemm_tiled_tn_sync_aligned, SGEMM_MID_VECTOR_SET, "tiled")              \
    X(SGEMM_TILED_TN_SYNC_EDGE, sgemm_tiled_tn_sync_edge, SGEMM_MID_VECTOR_SET, "tiled")            \
    X(SGEMM_TILED_TN_SYNC_SHIFTED, sgemm_tiled_tn_sync_shifted, SGEMM_MID_VECTOR_SET, "tiled")      \
    X(SGEMM_SMALL, sgemm_small, SGEMM_SMALL_SET, "small")                                           \
    X(SGEMM_THIN, sgemm_thin, SGEMM_SMALL_SET, "thin")                                              \
    X(SGEMM_DOTS4, sgemm_dots4, SGEMM_SMALL_SET, "dots")                                            \
    X(SGEMM_DOTS8, sgemm_dots8, SGEMM_SMALL_SET, "dots")                                            \
    X(SGEMM_DOTS16, sgemm_dots16, SGEMM_SMALL_SET, "dots")                                          \
    X(SGEMM_DOTS4_ALONG_K, sgemm_dots4_along_k, SGEMM_SMALL_SET, "dots")                            \
    X(SGEMM_DOTS8_ALONG_K, sgemm_dots8_along_k, SGEMM_SMALL_SET, "dots")                            \
    X(SGEMM_DOTS16_ALONG_K, sgemm_dots16_along_k, SGEMM_SMALL_SET, "dots")                          \
    X(SGEMM_SCALE, sgemm_scale, SGEMM_SMALL_SET, "scale")                                           \
    X(SGEMM_SPLIT_SUM, sgemm_split_sum, SGEMM_SMALL_SET, "split-sum")                               \
    X(SGEMM_STAGE, sgemm_stage, SGEMM_SMALL_SET, "stage")                                           \
    X(SGEMM_CPU_BROADCAST, sgemm_cpu_broadcast, SGEMM_CPU_SET, "cpu-blocked")                       \
    X(SGEMM_CPU_DOT, sgemm_cpu_dot, SGEMM_CPU_SET, "cpu-dot")                                       \
    X(SGEMM_CPU_PACK_A, sgemm_cpu_pack_a, SGEMM_CPU_SET, "cpu-pack-a")                              \
    X(SGEMM_CPU_PACK_B, sgemm_cpu_pack_b, SGEMM_CPU_SET, "cpu-pack-b")                              \
    X(SGEMM_CPU_PACKED, sgemm_cpu_packed, SGEMM_CPU_SET, "cpu-packed")

#endif
