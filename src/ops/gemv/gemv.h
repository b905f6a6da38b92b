// GEMV's descriptor for the runtime (src/ops/operations.c).
#ifndef TAILOR_GEMV_H
#define TAILOR_GEMV_H

#include "operation.h"
#include "tune_task.h"

extern const struct operation gemv_operation;
extern const struct tune_tasks gemv_tune_tasks;

#endif
