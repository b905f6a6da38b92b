// What the transpose declares to the runtime: its programs (one per method
// and element type: the host picks the method per element size, so each
// program reads only its method's defines) and its tuning parameters, in the
// row formats of src/ops/reduce/reduce_tables.h.
#ifndef TAILOR_TRANSPOSE_TABLES_H
#define TAILOR_TRANSPOSE_TABLES_H

#define TRANSPOSE_PROGRAMS(X)                                                                       \
    X(TRANSPOSE_LOCAL_1, "transpose_local_1", OP_TRANSPOSE, transpose, 0,                           \
      "-DTRANSPOSE_METHOD=TRANSPOSE_LOCAL -DELEMENT_BYTES=1 -DSCALED=0")                            \
    X(TRANSPOSE_LOCAL_2, "transpose_local_2", OP_TRANSPOSE, transpose, 0,                           \
      "-DTRANSPOSE_METHOD=TRANSPOSE_LOCAL -DELEMENT_BYTES=2 -DSCALED=0")                            \
    X(TRANSPOSE_LOCAL_4, "transpose_local_4", OP_TRANSPOSE, transpose, 0,                           \
      "-DTRANSPOSE_METHOD=TRANSPOSE_LOCAL -DELEMENT_BYTES=4 -DSCALED=0")                            \
    X(TRANSPOSE_LOCAL_8, "transpose_local_8", OP_TRANSPOSE, transpose, 0,                           \
      "-DTRANSPOSE_METHOD=TRANSPOSE_LOCAL -DELEMENT_BYTES=8 -DSCALED=0")                            \
    X(TRANSPOSE_LOCAL_16, "transpose_local_16", OP_TRANSPOSE, transpose, 0,                         \
      "-DTRANSPOSE_METHOD=TRANSPOSE_LOCAL -DELEMENT_BYTES=16 -DSCALED=0")                           \
    X(TRANSPOSE_LOCAL_SCALED_F32, "transpose_local_scaled_f32", OP_TRANSPOSE, transpose, 0,         \
      "-DTRANSPOSE_METHOD=TRANSPOSE_LOCAL -DELEMENT_BYTES=4 -DSCALED=1 -DREAL=float")               \
    X(TRANSPOSE_LOCAL_SCALED_F64, "transpose_local_scaled_f64", OP_TRANSPOSE, transpose, 1,         \
      "-DTRANSPOSE_METHOD=TRANSPOSE_LOCAL -DELEMENT_BYTES=8 -DSCALED=1 -DREAL=double")              \
    X(TRANSPOSE_REGISTERS_1, "transpose_registers_1", OP_TRANSPOSE, transpose, 0,                   \
      "-DTRANSPOSE_METHOD=TRANSPOSE_REGISTERS -DELEMENT_BYTES=1 -DSCALED=0")                        \
    X(TRANSPOSE_REGISTERS_2, "transpose_registers_2", OP_TRANSPOSE, transpose, 0,                   \
      "-DTRANSPOSE_METHOD=TRANSPOSE_REGISTERS -DELEMENT_BYTES=2 -DSCALED=0")                        \
    X(TRANSPOSE_REGISTERS_4, "transpose_registers_4", OP_TRANSPOSE, transpose, 0,                   \
      "-DTRANSPOSE_METHOD=TRANSPOSE_REGISTERS -DELEMENT_BYTES=4 -DSCALED=0")                        \
    X(TRANSPOSE_REGISTERS_8, "transpose_registers_8", OP_TRANSPOSE, transpose, 0,                   \
      "-DTRANSPOSE_METHOD=TRANSPOSE_REGISTERS -DELEMENT_BYTES=8 -DSCALED=0")                        \
    X(TRANSPOSE_REGISTERS_16, "transpose_registers_16", OP_TRANSPOSE, transpose, 0,                 \
      "-DTRANSPOSE_METHOD=TRANSPOSE_REGISTERS -DELEMENT_BYTES=16 -DSCALED=0")                       \
    X(TRANSPOSE_REGISTERS_SCALED_F32, "transpose_registers_scaled_f32", OP_TRANSPOSE, transpose, 0, \
      "-DTRANSPOSE_METHOD=TRANSPOSE_REGISTERS -DELEMENT_BYTES=4 -DSCALED=1 -DREAL=float")           \
    X(TRANSPOSE_REGISTERS_SCALED_F64, "transpose_registers_scaled_f64", OP_TRANSPOSE, transpose, 1, \
      "-DTRANSPOSE_METHOD=TRANSPOSE_REGISTERS -DELEMENT_BYTES=8 -DSCALED=1 -DREAL=double")          \
    X(TRANSPOSE_CPU_1, "transpose_cpu_1", OP_TRANSPOSE, transpose, 0,                               \
      "-DTRANSPOSE_METHOD=TRANSPOSE_CPU -DELEMENT_BYTES=1 -DSCALED=0")                              \
    X(TRANSPOSE_CPU_2, "transpose_cpu_2", OP_TRANSPOSE, transpose, 0,                               \
      "-DTRANSPOSE_METHOD=TRANSPOSE_CPU -DELEMENT_BYTES=2 -DSCALED=0")                              \
    X(TRANSPOSE_CPU_4, "transpose_cpu_4", OP_TRANSPOSE, transpose, 0,                               \
      "-DTRANSPOSE_METHOD=TRANSPOSE_CPU -DELEMENT_BYTES=4 -DSCALED=0")                              \
    X(TRANSPOSE_CPU_8, "transpose_cpu_8", OP_TRANSPOSE, transpose, 0,                               \
      "-DTRANSPOSE_METHOD=TRANSPOSE_CPU -DELEMENT_BYTES=8 -DSCALED=0")                              \
    X(TRANSPOSE_CPU_16, "transpose_cpu_16", OP_TRANSPOSE, transpose, 0,                             \
      "-DTRANSPOSE_METHOD=TRANSPOSE_CPU -DELEMENT_BYTES=16 -DSCALED=0")                             \
    X(TRANSPOSE_CPU_SCALED_F32, "transpose_cpu_scaled_f32", OP_TRANSPOSE, transpose, 0,             \
      "-DTRANSPOSE_METHOD=TRANSPOSE_CPU -DELEMENT_BYTES=4 -DSCALED=1 -DREAL=float")                 \
    X(TRANSPOSE_CPU_SCALED_F64, "transpose_cpu_scaled_f64", OP_TRANSPOSE, transpose, 1,             \
      "-DTRANSPOSE_METHOD=TRANSPOSE_CPU -DELEMENT_BYTES=8 -DSCALED=1 -DREAL=double")

#define TRANSPOSE_LOCAL_SET                                                                         \
    (PROGRAM_BIT(TRANSPOSE_LOCAL_1) | PROGRAM_BIT(TRANSPOSE_LOCAL_2) |                              \
     PROGRAM_BIT(TRANSPOSE_LOCAL_4) | PROGRAM_BIT(TRANSPOSE_LOCAL_8) |                              \
     PROGRAM_BIT(TRANSPOSE_LOCAL_16) |                                                              \
     PROGRAM_BIT(TRANSPOSE_LOCAL_SCALED_F32) | PROGRAM_BIT(TRANSPOSE_LOCAL_SCALED_F64))
#define TRANSPOSE_REGISTERS_SET                                                                     \
    (PROGRAM_BIT(TRANSPOSE_REGISTERS_1) | PROGRAM_BIT(TRANSPOSE_REGISTERS_2) |                      \
     PROGRAM_BIT(TRANSPOSE_REGISTERS_4) | PROGRAM_BIT(TRANSPOSE_REGISTERS_8) |                      \
     PROGRAM_BIT(TRANSPOSE_REGISTERS_16) |                                                          \
     PROGRAM_BIT(TRANSPOSE_REGISTERS_SCALED_F32) | PROGRAM_BIT(TRANSPOSE_REGISTERS_SCALED_F64))
#define TRANSPOSE_CPU_SET                                                                           \
    (PROGRAM_BIT(TRANSPOSE_CPU_1) | PROGRAM_BIT(TRANSPOSE_CPU_2) | PROGRAM_BIT(TRANSPOSE_CPU_4) |   \
     PROGRAM_BIT(TRANSPOSE_CPU_8) | PROGRAM_BIT(TRANSPOSE_CPU_16) |                                 \
     PROGRAM_BIT(TRANSPOSE_CPU_SCALED_F32) | PROGRAM_BIT(TRANSPOSE_CPU_SCALED_F64))
// The GPU methods' programs of elements smaller than 16 bytes: the realigned kernel's.
#define TRANSPOSE_REALIGNED_SET                                                                     \
    (PROGRAM_BIT(TRANSPOSE_LOCAL_1) | PROGRAM_BIT(TRANSPOSE_LOCAL_2) |                              \
     PROGRAM_BIT(TRANSPOSE_LOCAL_4) | PROGRAM_BIT(TRANSPOSE_LOCAL_8) |                              \
     PROGRAM_BIT(TRANSPOSE_LOCAL_SCALED_F32) | PROGRAM_BIT(TRANSPOSE_LOCAL_SCALED_F64) |            \
     PROGRAM_BIT(TRANSPOSE_REGISTERS_1) | PROGRAM_BIT(TRANSPOSE_REGISTERS_2) |                      \
     PROGRAM_BIT(TRANSPOSE_REGISTERS_4) | PROGRAM_BIT(TRANSPOSE_REGISTERS_8) |                      \
     PROGRAM_BIT(TRANSPOSE_REGISTERS_SCALED_F32) | PROGRAM_BIT(TRANSPOSE_REGISTERS_SCALED_F64))
// The GPU methods' unscaled programs of 1-, 2- and 4-byte elements: the span kernel's.
#define TRANSPOSE_SPANS_SET                                                                         \
    (PROGRAM_BIT(TRANSPOSE_LOCAL_1) | PROGRAM_BIT(TRANSPOSE_LOCAL_2) |                              \
     PROGRAM_BIT(TRANSPOSE_LOCAL_4) | PROGRAM_BIT(TRANSPOSE_REGISTERS_1) |                          \
     PROGRAM_BIT(TRANSPOSE_REGISTERS_2) | PROGRAM_BIT(TRANSPOSE_REGISTERS_4))
// The GPU methods' programs of 1-byte elements: the word kernel's.
#define TRANSPOSE_WORDS_SET (PROGRAM_BIT(TRANSPOSE_LOCAL_1) | PROGRAM_BIT(TRANSPOSE_REGISTERS_1))
#define TRANSPOSE_PROGRAM_SET (TRANSPOSE_LOCAL_SET | TRANSPOSE_REGISTERS_SET | TRANSPOSE_CPU_SET)
// 16-byte elements are vectors of their own: their programs read no vector width.
#define TRANSPOSE_VECTOR_SET                                                                        \
    (TRANSPOSE_PROGRAM_SET & ~(PROGRAM_BIT(TRANSPOSE_LOCAL_16) | PROGRAM_BIT(TRANSPOSE_REGISTERS_16) | \
                               PROGRAM_BIT(TRANSPOSE_CPU_16)))

// Element sizes 1 to 16 bytes, by log2: the method each takes.
#define TRANSPOSE_PARAMETERS(X)                                                                     \
    X(TRANSPOSE_METHOD_1, OP_TRANSPOSE, HOST, 0, 1, 0, 2, 0,                                        \
      "method for 1-byte elements: 0 local-memory tile, 1 register tiles, 2 CPU blocks")            \
    X(TRANSPOSE_METHOD_2, OP_TRANSPOSE, HOST, 0, 1, 0, 2, 0, "method for 2-byte elements")          \
    X(TRANSPOSE_METHOD_4, OP_TRANSPOSE, HOST, 0, 1, 0, 2, 0, "method for 4-byte elements")          \
    X(TRANSPOSE_METHOD_8, OP_TRANSPOSE, HOST, 0, 1, 0, 2, 0, "method for 8-byte elements")          \
    X(TRANSPOSE_METHOD_16, OP_TRANSPOSE, HOST, 0, 1, 0, 2, 0, "method for 16-byte elements")        \
    X(TRANSPOSE_REALIGN, OP_TRANSPOSE, HOST, 0, 15, 0, 15, 0,                                        \
      "GPU methods: element sizes (bit log2 of the bytes: 1 for 1-byte ... 8 for 8-byte) whose "    \
      "misaligned rows take the realigned and narrow kernels' aligned 16-byte vectors")             \
    X(TRANSPOSE_WG_X, OP_TRANSPOSE, DEFINE, TRANSPOSE_PROGRAM_SET, 8, 1, 256, POW2,                 \
      "work-items of a group along A's rows (a local tile's edge is WG_X vectors)")                \
    X(TRANSPOSE_WG_Y, OP_TRANSPOSE, DEFINE, TRANSPOSE_REGISTERS_SET | TRANSPOSE_CPU_SET, 8, 1, 256, \
      POW2, "work-items of a register-tile or CPU group along A's columns")                         \
    X(TRANSPOSE_VECTOR_BYTES, OP_TRANSPOSE, DEFINE, TRANSPOSE_VECTOR_SET, 16, 4, 64, POW2,          \
      "bytes per vector access (at most 16 elements; 16-byte elements are one)")                                              \
    X(TRANSPOSE_LOADS, OP_TRANSPOSE, DEFINE, TRANSPOSE_REGISTERS_SET, 8, 1, 64, POW2,               \
      "register tiles: vector loads in flight per work-item")                                       \
    X(TRANSPOSE_LOCAL_PAD, OP_TRANSPOSE, DEFINE, TRANSPOSE_LOCAL_SET, 1, 0, 8, 0,                   \
      "local tiles: padding of each row, in elements")                                              \
    X(TRANSPOSE_LOCAL_STEPS, OP_TRANSPOSE, DEFINE, TRANSPOSE_LOCAL_SET, 4, 1, 256, POW2,            \
      "local tiles: vectors each work-item moves (the group has tile edge / steps rows)")           \
    X(TRANSPOSE_BAND, OP_TRANSPOSE, DEFINE, TRANSPOSE_PROGRAM_SET, 1, 0, 4096, 0,                   \
      "order of the tiles: 1 row by row, N > 1 bands of N tile rows column by column, 0 diagonal")  \
    X(TRANSPOSE_CPU_BLOCK, OP_TRANSPOSE, DEFINE, TRANSPOSE_CPU_SET, 64, 16, 1024, POW2,             \
      "CPU blocks: the edge of each work-item's block")                                             \
    X(TRANSPOSE_CPU_STREAM_BYTES, OP_TRANSPOSE, HOST, 0, 0, 0, 1 << 30, 0,                          \
      "CPU blocks: B from this size on is written with non-temporal stores (0: never)")             \
    X(TRANSPOSE_LOAD_HINT, OP_TRANSPOSE, DEFINE, TRANSPOSE_PROGRAM_SET, 0, 0, 2, NVIDIA_ONLY,       \
      "NVIDIA: cache hint of 16-byte loads: 0 none, 1 evict first, 2 read-only, no L1 allocation")  \
    X(TRANSPOSE_STORE_HINT, OP_TRANSPOSE, DEFINE, TRANSPOSE_PROGRAM_SET, 0, 0, 1, NVIDIA_ONLY,      \
      "NVIDIA: cache hint of 16-byte stores: 0 none, 1 evict first")

// The PTX each hint value emits needs: parameter, smallest value, SM, PTX ISA (x10).
#define TRANSPOSE_PTX_REQUIREMENTS(X)                                                               \
    X(TRANSPOSE_LOAD_HINT, 1, 20, 20, "ld.global.cs")                                               \
    X(TRANSPOSE_LOAD_HINT, 2, 70, 74, "ld.global.nc.L1::no_allocate")                               \
    X(TRANSPOSE_STORE_HINT, 1, 20, 20, "st.global.cs")

#endif
