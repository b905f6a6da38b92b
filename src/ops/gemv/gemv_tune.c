// What the tuner searches for GEMV: on GPUs the kernels of short lines
// (several lines a lockstep group), of long lines (vector loads, a group a
// line, split dots; then with x strided, staged or gathered first) and of
// columns (transposed row-major), each on its own shapes; on CPUs when to
// gather a strided x first, and the CPU kernels (and whether to use them) on
// the CPU bench's shapes.
#include "gemv.h"

#define ROWS(rows, cols) {.operation = TAILOR_OP_SGEMV, .m = rows, .n = cols, .alpha = 1, .beta = 0.5f}
#define STRIDED_ROWS(rows, cols, step)                                                              \
    {.operation = TAILOR_OP_SGEMV, .m = rows, .n = cols, .incx = step, .alpha = 1, .beta = 0.5f}
#define COLS(rows, cols)                                                                            \
    {.operation = TAILOR_OP_SGEMV, .trans_a = TAILOR_TRANS, .m = rows, .n = cols, .alpha = 1, .beta = 0.5f}

static const struct tune_task tasks[] = {
    {"short lines", TUNE_ON_GPU, 2,
     TUNE_PARAMS(TUNE_GEMV_ROW_WG, TUNE_GEMV_ROW_LANES, TUNE_GEMV_ROW_BATCH,
                 TUNE_GEMV_MULTI_ROW_MAX_K, TUNE_GEMV_MULTI_ROW_LANES, TUNE_GEMV_MULTI_ROW_ELEMENTS),
     {ROWS(16384, 16), ROWS(16384, 32), ROWS(16384, 128), ROWS(50000, 24), ROWS(4000, 300)}},
    {"long lines", TUNE_ON_GPU, 3,
     TUNE_PARAMS(TUNE_GEMV_VECTOR, TUNE_GEMV_VECTOR_MIN_K, TUNE_GEMV_GROUP_MIN_K, TUNE_GEMV_UNROLL,
                 TUNE_GEMV_GROUPS_PER_CU, TUNE_GEMV_SPLIT_MIN_ELEMENTS, TUNE_GEMV_ONE_PASS),
     {ROWS(8192, 8192), ROWS(1024, 65536), ROWS(65536, 1024), ROWS(3001, 5003), ROWS(64, 200000)}},
    {"lines off the vector", TUNE_ON_GPU, 1, TUNE_PARAMS(TUNE_GEMV_LONG_LINE_ELEMENTS),
     {ROWS(4097, 4095), ROWS(20001, 777), ROWS(20000, 1001), ROWS(2000, 8191), ROWS(100000, 333)}},
    {"strided x", TUNE_ON_GPU, 1, TUNE_PARAMS(TUNE_GEMV_X_CHUNK),
     {STRIDED_ROWS(8192, 8192, 2), STRIDED_ROWS(16384, 2048, -1), STRIDED_ROWS(4096, 4096, 3)}},
    {"gathered x", TUNE_ON_GPU, 1, TUNE_PARAMS(TUNE_GEMV_GATHER_X_MIN_ELEMENTS),
     {STRIDED_ROWS(1024, 65536, 2), STRIDED_ROWS(128, 65536, 2), STRIDED_ROWS(64, 65536, 2),
      STRIDED_ROWS(65536, 64, -1), STRIDED_ROWS(262144, 100, 2)}},
    {"columns", TUNE_ON_GPU, 2,
     TUNE_PARAMS(TUNE_GEMV_COL_WG, TUNE_GEMV_COL_THREADS, TUNE_GEMV_COL_VECTOR,
                 TUNE_GEMV_COL_UNROLL),
     {COLS(8192, 8192), COLS(65536, 1024), COLS(1024, 65536), COLS(3001, 5003)}},
    {"gathered x on CPUs", TUNE_ON_CPU, 1, TUNE_PARAMS(TUNE_GEMV_GATHER_X_MIN_ELEMENTS),
     {STRIDED_ROWS(512, 512, 2), STRIDED_ROWS(1024, 512, -1), STRIDED_ROWS(256, 2048, 3),
      STRIDED_ROWS(2048, 2048, 2), STRIDED_ROWS(64, 1024, 2)}},
    {"cpu kernels", TUNE_ON_CPU, 3,
     TUNE_PARAMS(TUNE_GEMV_CPU_KERNELS, TUNE_GEMV_CPU_VECTOR, TUNE_GEMV_CPU_COLS,
                 TUNE_GEMV_CPU_LINE_MIN_K, TUNE_GEMV_GROUPS_PER_CU, TUNE_GEMV_SPLIT_MIN_ELEMENTS,
                 TUNE_GEMV_ONE_PASS),
     {ROWS(4096, 16), ROWS(4096, 128), ROWS(2048, 2048), ROWS(256, 16384), ROWS(16384, 256),
      COLS(2048, 2048), ROWS(1001, 777)}},
};

const struct tune_tasks gemv_tune_tasks = {tasks, sizeof tasks / sizeof tasks[0], 0.25, NULL};
