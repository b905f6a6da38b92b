// The mixed-precision GEMM's descriptor for the runtime (src/ops/operations.c).
#ifndef TAILOR_GEMM_H
#define TAILOR_GEMM_H

#include "operation.h"

extern const struct operation gemm_operation;

#endif
