// GEMV's descriptor for the runtime (src/ops/operations.c).
#ifndef TAILOR_GEMV_H
#define TAILOR_GEMV_H

#include "operation.h"

extern const struct operation gemv_operation;

#endif
