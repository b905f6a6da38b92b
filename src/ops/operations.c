// The operations' descriptors, in the order of enum operation_id.
#include "gemm.h"
#include "gemv.h"
#include "reduce.h"
#include "sgemm.h"
#include "tailor.h"
#include "transpose.h"

const struct operation *const operation_table[OP_COUNT] = {
    [OP_REDUCE] = &reduce_operation,
    [OP_GEMV] = &gemv_operation,
    [OP_TRANSPOSE] = &transpose_operation,
    [OP_SGEMM] = &sgemm_operation,
    [OP_GEMM] = &gemm_operation,
};

_Static_assert((int)TAILOR_OP_REDUCE == (int)OP_REDUCE && (int)TAILOR_OP_SGEMV == (int)OP_GEMV &&
                   (int)TAILOR_OP_TRANSPOSE == (int)OP_TRANSPOSE &&
                   (int)TAILOR_OP_SGEMM == (int)OP_SGEMM && (int)TAILOR_OP_GEMM == (int)OP_GEMM,
               "tailor_operation and enum operation_id disagree");
