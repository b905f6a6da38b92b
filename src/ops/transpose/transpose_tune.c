// What the tuner searches for transposes: the tiles every element size
// shares (on 4-, 1- and 8-byte matrices, square, wide and odd), then the
// method of each element size; on CPUs the CPU blocks.
#include "transpose.h"

#define MOVE(bytes, rows, cols) {.operation = TAILOR_OP_TRANSPOSE, .element_bytes = bytes, .m = rows, .n = cols}

static const struct tune_task tasks[] = {
    {"tiles", TUNE_ON_GPU, 3,
     TUNE_PARAMS(TUNE_TRANSPOSE_METHOD_4, TUNE_TRANSPOSE_WG_X, TUNE_TRANSPOSE_WG_Y,
                 TUNE_TRANSPOSE_VECTOR_BYTES, TUNE_TRANSPOSE_LOADS, TUNE_TRANSPOSE_LOCAL_PAD,
                 TUNE_TRANSPOSE_LOCAL_STEPS, TUNE_TRANSPOSE_BAND, TUNE_TRANSPOSE_LOAD_HINT,
                 TUNE_TRANSPOSE_STORE_HINT),
     {MOVE(4, 8192, 8192), MOVE(4, 4096, 16384), MOVE(4, 2048, 512), MOVE(1, 8192, 8192),
      MOVE(8, 8192, 8192), MOVE(4, 3001, 5003)}},
    {"methods", TUNE_ON_GPU, 1,
     TUNE_PARAMS(TUNE_TRANSPOSE_METHOD_1, TUNE_TRANSPOSE_METHOD_2, TUNE_TRANSPOSE_METHOD_8,
                 TUNE_TRANSPOSE_METHOD_16),
     {MOVE(1, 8192, 8192), MOVE(2, 4096, 4096), MOVE(8, 8192, 8192), MOVE(16, 4096, 4096)}},
    {"cpu blocks", TUNE_ON_CPU, 1,
     TUNE_PARAMS(TUNE_TRANSPOSE_METHOD_1, TUNE_TRANSPOSE_METHOD_4, TUNE_TRANSPOSE_METHOD_8,
                 TUNE_TRANSPOSE_WG_X, TUNE_TRANSPOSE_WG_Y, TUNE_TRANSPOSE_VECTOR_BYTES,
                 TUNE_TRANSPOSE_CPU_BLOCK, TUNE_TRANSPOSE_CPU_STREAM_BYTES),
     {MOVE(4, 2048, 2048), MOVE(4, 1024, 4096), MOVE(4, 2048, 512), MOVE(1, 2048, 2048),
      MOVE(8, 2048, 2048), MOVE(4, 1001, 777)}},
};

const struct tune_tasks transpose_tune_tasks = {tasks, sizeof tasks / sizeof tasks[0], 0.2, NULL};
