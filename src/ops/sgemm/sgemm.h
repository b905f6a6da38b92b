// SGEMM's descriptor for the runtime (src/ops/operations.c).
#ifndef TAILOR_SGEMM_H
#define TAILOR_SGEMM_H

#include "operation.h"
#include "tune_task.h"

extern const struct operation sgemm_operation;
extern const struct tune_tasks sgemm_tune_tasks;

#endif
