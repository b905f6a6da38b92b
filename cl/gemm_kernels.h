// The mixed-precision GEMM's kernels, named once for the host (src/ops/gemm)
// and the source (gemm.cl): id, entry point, the programs that hold it,
// variant (the host adds the tile set and types). nn/nt/tn/tt: whether op(A)
// and op(B) of the row-major call are stored transposed. The 3xTF32 program
// holds only the asynchronous kernels.
#ifndef TAILOR_GEMM_KERNELS_H
#define TAILOR_GEMM_KERNELS_H

#define GEMM_KERNELS(X)                                                                             \
    X(GEMM_MMA_NN, gemm_mma_nn, GEMM_MMA_SET, "mma")                                                \
    X(GEMM_MMA_NT, gemm_mma_nt, GEMM_MMA_SET, "mma")                                                \
    X(GEMM_MMA_TN, gemm_mma_tn, GEMM_MMA_SET, "mma")                                                \
    X(GEMM_MMA_TT, gemm_mma_tt, GEMM_MMA_SET, "mma")                                                \
    X(GEMM_MMA_ASYNC_NN, gemm_mma_async_nn, GEMM_MMA_SET | GEMM_TF32X3_SET, "mma-async")            \
    X(GEMM_MMA_ASYNC_NT, gemm_mma_async_nt, GEMM_MMA_SET | GEMM_TF32X3_SET, "mma-async")            \
    X(GEMM_MMA_ASYNC_TN, gemm_mma_async_tn, GEMM_MMA_SET | GEMM_TF32X3_SET, "mma-async")            \
    X(GEMM_MMA_ASYNC_TT, gemm_mma_async_tt, GEMM_MMA_SET | GEMM_TF32X3_SET, "mma-async")            \
    X(GEMM_SIMT_NN, gemm_simt_nn, GEMM_SIMT_SET, "simt")                                            \
    X(GEMM_SIMT_NT, gemm_simt_nt, GEMM_SIMT_SET, "simt")                                            \
    X(GEMM_SIMT_TN, gemm_simt_tn, GEMM_SIMT_SET, "simt")                                            \
    X(GEMM_SIMT_TT, gemm_simt_tt, GEMM_SIMT_SET, "simt")

#endif
