// The operations, and what each declares to the runtime: its programs, its
// kernels (cl/*_kernels.h) and its tuning parameters (*_tables.h). This is
// the one place that lists them; adding an operation adds a line to each
// list here and to operations.c, and touches no other operation.
#ifndef TAILOR_OPERATIONS_H
#define TAILOR_OPERATIONS_H

#include <stdint.h>

#include "gemm_kernels.h"
#include "gemm_tables.h"
#include "gemv_kernels.h"
#include "gemv_tables.h"
#include "reduce_kernels.h"
#include "reduce_tables.h"
#include "sgemm_kernels.h"
#include "sgemm_tables.h"
#include "transpose_kernels.h"
#include "transpose_tables.h"

// In the order of the public tailor_operation enum.
#define TAILOR_OPERATIONS(X)                                                                        \
    X(OP_REDUCE, "reduce")                                                                          \
    X(OP_GEMV, "gemv")                                                                              \
    X(OP_TRANSPOSE, "transpose")                                                                    \
    X(OP_SGEMM, "sgemm")                                                                            \
    X(OP_GEMM, "gemm")

#define TAILOR_PROGRAMS(X)                                                                          \
    REDUCE_PROGRAMS(X) GEMV_PROGRAMS(X) TRANSPOSE_PROGRAMS(X) SGEMM_PROGRAMS(X) GEMM_PROGRAMS(X)
#define TAILOR_KERNELS(X)                                                                           \
    REDUCE_KERNELS(X) GEMV_KERNELS(X) TRANSPOSE_KERNELS(X) SGEMM_KERNELS(X) GEMM_KERNELS(X)
#define TAILOR_PARAMETERS(X)                                                                        \
    REDUCE_PARAMETERS(X) GEMV_PARAMETERS(X) TRANSPOSE_PARAMETERS(X) SGEMM_PARAMETERS(X)             \
        GEMM_PARAMETERS(X)
#define TAILOR_PTX_REQUIREMENTS(X) TRANSPOSE_PTX_REQUIREMENTS(X)

enum operation_id {
#define OPERATION_ENUM_(id, name) id,
    TAILOR_OPERATIONS(OPERATION_ENUM_)
#undef OPERATION_ENUM_
    OP_COUNT
};

enum program_id {
#define PROGRAM_ENUM_(id, name, op, source, fp64, defines) PROGRAM_##id,
    TAILOR_PROGRAMS(PROGRAM_ENUM_)
#undef PROGRAM_ENUM_
    PROGRAM_COUNT
};

// Sets of programs (kernel and parameter readers) are bit masks.
#define PROGRAM_BIT(id) ((uint64_t)1 << PROGRAM_##id)
_Static_assert(PROGRAM_COUNT <= 64, "program sets are 64-bit masks");

enum kernel_id {
#define KERNEL_ENUM_(id, entry, programs, variant) KERNEL_##id,
    TAILOR_KERNELS(KERNEL_ENUM_)
#undef KERNEL_ENUM_
    KERNEL_COUNT
};

enum param_id {
#define PARAM_ENUM_(name, op, kind, readers, fallback, minimum, maximum, flags, doc) TUNE_##name,
    TAILOR_PARAMETERS(PARAM_ENUM_)
#undef PARAM_ENUM_
    TUNE_COUNT
};

#endif
