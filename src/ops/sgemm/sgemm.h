// SGEMM's descriptor for the runtime (src/ops/operations.c).
#ifndef TAILOR_SGEMM_H
#define TAILOR_SGEMM_H

#include "operation.h"

extern const struct operation sgemm_operation;

#endif
