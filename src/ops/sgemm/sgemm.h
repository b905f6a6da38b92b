// SGEMM's descriptor for the runtime (src/ops/operations.c).
#ifndef TAILOR_SGEMM_H
#define TAILOR_SGEMM_H

#include "operation.h"
#include "tune_task.h"

// The vectors of the dots kernel's entry point for a short side of C (4, 8
// or 16: the fewest that hold it; cl/sgemm.cl's DOTS_WIDTH).
static inline int sgemm_dots_vectors(size_t short_side)
{
    return short_side <= 4 ? 4 : short_side <= 8 ? 8 : 16;
}

extern const struct operation sgemm_operation;
extern const struct tune_tasks sgemm_tune_tasks;

#endif
