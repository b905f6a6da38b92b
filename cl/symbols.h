// Symbols shared by the C runtime and the kernels: the runtime passes them in
// build options (-DDEVICE=DEVICE_NVIDIA, -DREDUCE_OP=REDUCE_SUM) and the
// kernels compare against them in #if. Plain macros, valid C and OpenCL C.
#ifndef TAILOR_SYMBOLS_H
#define TAILOR_SYMBOLS_H

#define DEVICE_GENERIC 0
#define DEVICE_NVIDIA 1
#define DEVICE_AMD 2
#define DEVICE_INTEL 3
#define DEVICE_CPU 4

#define REDUCE_SUM 0
#define REDUCE_MIN 1
#define REDUCE_MAX 2

// Transpose methods (the program's TRANSPOSE_METHOD, which the host picks per
// element size): a local-memory tile, register tiles of VEC x VEC elements,
// or a cache-blocked loop per work-item.
#define TRANSPOSE_LOCAL 0
#define TRANSPOSE_REGISTERS 1
#define TRANSPOSE_CPU 2
// Which kernels an SGEMM program holds (SGEMM_KERNELS) and, for the tiled
// ones, which tile set of the profile they use (SGEMM_TILES).
#define SGEMM_KERNELS_TILED 0
#define SGEMM_KERNELS_SMALL 1
#define SGEMM_KERNELS_CPU 2
#define SGEMM_TILES_BIG 0
#define SGEMM_TILES_MID 1
// Element types in the values of the public tailor_dtype: the inputs a
// program is built for (GEMM_IN, GEMV_IN, REDUCE_IN) and the run-time types of
// outputs (load_real, store_real in prelude.cl).
#define DTYPE_F32 0
#define DTYPE_F64 1
#define DTYPE_F16 2
#define DTYPE_BF16 3
// The mixed-precision GEMM's kernel sets (GEMM_KERNELS) and the tile set of a
// tensor-core program (GEMM_TILES).
#define GEMM_KERNELS_MMA 0
#define GEMM_KERNELS_SIMT 1
#define GEMM_TILES_BIG 0
#define GEMM_TILES_SMALL 1
// Which kernels a GEMV program holds (GEMV_KERNELS).
#define GEMV_KERNELS_GPU 0
#define GEMV_KERNELS_CPU 1

// Layout of the reduction's scratch buffer: a uint completion counter at byte
// 0, the work-groups' partial results from this byte offset on.
#define REDUCE_SCRATCH_PARTIALS_OFFSET 128

// Lanes of the ulong16 that carries a GEMV call's scalars to its kernel
// (src/gemv.c packs, cl/gemv.cl unpacks); alpha and beta are the low and
// high 32 bits of one lane. The shifted row kernels' calls start each line
// HEAD elements on, at its first whole vector (A's offset, x's base and K
// counted from there); the HEAD elements before are summed apart.
#define GEMV_CALL_A_OFFSET 0
#define GEMV_CALL_LDA 1
#define GEMV_CALL_X_BASE 2
#define GEMV_CALL_INCX 3
#define GEMV_CALL_Y_BASE 4
#define GEMV_CALL_INCY 5
#define GEMV_CALL_OUTPUTS 6
#define GEMV_CALL_K 7
#define GEMV_CALL_PER_ITEM 8
#define GEMV_CALL_SLICE 9
#define GEMV_CALL_ALPHA_BETA 10
#define GEMV_CALL_TICKETS_AT 11
#define GEMV_CALL_PARTIALS_AT 12
#define GEMV_CALL_Y_TYPE 13
#define GEMV_CALL_HEAD 14

// How a GEMV row kernel loads its lines (gemv_rows' `loads`; src/ops/gemv
// indexes its row kernels by it): element by element; in vectors, lines
// starting on one; in vectors, lines sharing an alignment off it (from each
// line's head on); element by element, more loads in flight (long lines).
#define GEMV_LOADS_SCALAR 0
#define GEMV_LOADS_VECTOR 1
#define GEMV_LOADS_SHIFTED 2
#define GEMV_LOADS_SCALAR_LONG 3

#endif
