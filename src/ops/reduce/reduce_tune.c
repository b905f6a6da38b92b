// What the tuner searches for reductions: the multi-group kernels' geometry
// on long sums, maxima and double sums, and the single-group threshold on
// short ones (tuning on CPUs runs the shapes a sixteenth as long).
#include "reduce.h"

#define SUM(type, length) {.operation = TAILOR_OP_REDUCE, .reduce_op = TAILOR_REDUCE_SUM, .dtype = type, .n = length}
#define MAX(type, length) {.operation = TAILOR_OP_REDUCE, .reduce_op = TAILOR_REDUCE_MAX, .dtype = type, .n = length}

static const struct tune_task tasks[] = {
    {"groups", TUNE_ON_GPU, 3,
     TUNE_PARAMS(TUNE_REDUCE_WG_SIZE, TUNE_REDUCE_VECTOR_BYTES, TUNE_REDUCE_UNROLL,
                 TUNE_REDUCE_ONE_PASS, TUNE_REDUCE_CONTIGUOUS, TUNE_REDUCE_GROUPS_PER_CU),
     {SUM(TAILOR_F32, 1 << 26), SUM(TAILOR_F32, 1 << 28), MAX(TAILOR_F32, 1 << 28),
      SUM(TAILOR_F64, 1 << 27), SUM(TAILOR_F32, 3000017)}},
    {"groups", TUNE_ON_CPU, 3,
     TUNE_PARAMS(TUNE_REDUCE_WG_SIZE, TUNE_REDUCE_VECTOR_BYTES, TUNE_REDUCE_UNROLL,
                 TUNE_REDUCE_ONE_PASS, TUNE_REDUCE_CONTIGUOUS, TUNE_REDUCE_GROUPS_PER_CU),
     {SUM(TAILOR_F32, 1 << 22), SUM(TAILOR_F32, 1 << 24), MAX(TAILOR_F32, 1 << 24),
      SUM(TAILOR_F64, 1 << 23), SUM(TAILOR_F32, 300007)}},
    {"short", TUNE_ON_GPU | TUNE_ON_CPU, 1, TUNE_PARAMS(TUNE_REDUCE_SMALL_N),
     {SUM(TAILOR_F32, 20000), SUM(TAILOR_F32, 70000), SUM(TAILOR_F32, 250000)}},
};

const struct tune_tasks reduce_tune_tasks = {tasks, sizeof tasks / sizeof tasks[0], 0.15, NULL};
