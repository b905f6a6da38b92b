// The reduction's descriptor for the runtime (src/ops/operations.c).
#ifndef TAILOR_REDUCE_H
#define TAILOR_REDUCE_H

#include "operation.h"
#include "tune_task.h"

extern const struct operation reduce_operation;
extern const struct tune_tasks reduce_tune_tasks;

#endif
