#include "scenarios.h"

#include <stdlib.h>
#include <string.h>

#define RESULT_SENTINEL -1.0f

// The matrix operations' buffers; every scenario's shapes fit.
#define BUFFER_BYTES (128 * 1024)

// Tiny tiles and thresholds that send small shapes down the tiled SGEMM path.
#define SGEMM_TILED_TUNING                                                                          \
    "SGEMM_SMALL_DIM=0,SGEMM_SMALL_CUBE=0,SGEMM_MID_PERCENT=0,SGEMM_BM=16,SGEMM_BN=16,SGEMM_BK=8"
// Few elements per slice, so that dots of a few hundred elements are split.
#define GEMV_SPLIT_TUNING "GEMV_SPLIT_MIN_ELEMENTS=64"
// Every strided x gathered into a workspace before the row kernel.
#define GEMV_GATHER_TUNING "GEMV_GATHER_X_MIN_ELEMENTS=1"
// Split k into slices of 16 (two steps of BK) wherever k allows, operands
// off the load vector staged.
#define SGEMM_SPLIT_TUNING                                                                          \
    "SGEMM_SMALL_DIM=0,SGEMM_SMALL_CUBE=0,SGEMM_MID_PERCENT=100000,SGEMM_BM=16,SGEMM_BN=16,"         \
    "SGEMM_BK=8,SGEMM_SPLIT_PERCENT=100000,SGEMM_GROUPS_PER_UNIT=64,SGEMM_SPLIT_SLICE_COST=0,"       \
    "SGEMM_SPLIT_MIN_K=8,SGEMM_STAGE_CUBE=1"

// Shapes are tiny, data small integers (so every result is exact, whatever
// the order of the sums), and the tunings force each variant at those sizes;
// `variant` checks the call took the path its name says.
const struct scenario scenarios[] = {
    {"reduce, cold handle, empty cache", OPERATION_REDUCE, .cold = 1, .cold_cache = 1, .uses_cache = 1,
     .profile = "cpu", .n = 300001},
    {"reduce, cold handle, cached", OPERATION_REDUCE, .cold = 1, .uses_cache = 1, .profile = "generic",
     .n = 300001},
    {"create, reduce, release", OPERATION_REDUCE, .cold = 1, .uses_cache = 1, .profile = "cpu", .n = 300001,
     .release_inside = 1, .after_event = 1},
    {"a build that fails", OPERATION_REDUCE, .cold = 1, .profile = "generic", .n = 1000,
     .build_options = "-DLOCKSTEP=(", .expected = TAILOR_ERROR_BUILD_FAILED},
    {"reduce single group", OPERATION_REDUCE, .profile = "cpu", .n = 1000},
    {"reduce one pass", OPERATION_REDUCE, .profile = "cpu", .n = 300001},
    {"reduce two passes", OPERATION_REDUCE, .profile = "generic", .n = 300001},
    {"reduce, out-of-order queue", OPERATION_REDUCE, .profile = "generic", .n = 300001, .out_of_order = 1},
    {"reduce n = 0 with an event", OPERATION_REDUCE_EVENT_ONLY, .profile = "generic", .n = 0},

    // GEMV: row and column kernels, split-k finished in one pass (atomic
    // ticket, per-queue scratch) and in two (gemv_finish), a temporary
    // scratch buffer on an out-of-order queue, x gathered into a workspace
    // first (in and out of order), and the scale quick path.
    {"gemv, cold handle, no cache", OPERATION_SGEMV, .cold = 1, .profile = "cpu",
     .tuning = GEMV_SPLIT_TUNING, .variant = "cpu/rows/split-k", .m = 5, .n = 600,
     .layout = TAILOR_ROW_MAJOR, .trans = TAILOR_NO_TRANS, .alpha = 2, .beta = 0.5f},
    {"gemv row", OPERATION_SGEMV, .profile = "generic", .variant = "row/warp-per-row", .m = 37, .n = 40,
     .layout = TAILOR_ROW_MAJOR, .trans = TAILOR_NO_TRANS, .alpha = 2, .beta = 0.5f, .after_event = 1},
    {"gemv column, negative increment", OPERATION_SGEMV, .profile = "generic", .variant = "column",
     .m = 40, .n = 37, .layout = TAILOR_ROW_MAJOR, .trans = TAILOR_TRANS, .alpha = -1, .beta = 0,
     .incx = -2},
    {"gemv cpu columns", OPERATION_SGEMV, .profile = "cpu", .variant = "cpu/columns", .m = 30, .n = 21,
     .layout = TAILOR_COLUMN_MAJOR, .trans = TAILOR_NO_TRANS, .alpha = 1, .beta = 2, .incy = 3},
    {"gemv split-k one pass", OPERATION_SGEMV, .profile = "cpu", .tuning = GEMV_SPLIT_TUNING,
     .variant = "cpu/rows/split-k", .m = 5, .n = 600, .layout = TAILOR_ROW_MAJOR,
     .trans = TAILOR_NO_TRANS, .alpha = 2, .beta = 0.5f},
    {"gemv split-k two passes", OPERATION_SGEMV, .profile = "generic", .tuning = GEMV_SPLIT_TUNING,
     .variant = "/two-pass", .m = 3, .n = 1000, .layout = TAILOR_ROW_MAJOR, .trans = TAILOR_NO_TRANS,
     .alpha = 1, .beta = -1},
    {"gemv split-k, out-of-order queue", OPERATION_SGEMV, .profile = "cpu", .tuning = GEMV_SPLIT_TUNING,
     .variant = "split-k", .m = 5, .n = 600, .layout = TAILOR_ROW_MAJOR, .trans = TAILOR_NO_TRANS,
     .alpha = 1, .beta = 1, .out_of_order = 1},
    {"gemv x gathered first", OPERATION_SGEMV, .profile = "generic", .tuning = GEMV_GATHER_TUNING,
     .variant = "/gathered-x", .m = 37, .n = 40, .layout = TAILOR_ROW_MAJOR, .trans = TAILOR_NO_TRANS,
     .alpha = 2, .beta = 0.5f, .incx = 2},
    {"gemv x gathered first, out-of-order queue", OPERATION_SGEMV, .profile = "generic",
     .tuning = GEMV_GATHER_TUNING, .variant = "/gathered-x", .m = 37, .n = 40, .layout = TAILOR_ROW_MAJOR,
     .trans = TAILOR_NO_TRANS, .alpha = 1, .beta = 1, .incx = -3, .out_of_order = 1},
    {"gemv scale (alpha = 0)", OPERATION_SGEMV, .profile = "generic", .variant = "scale", .m = 50, .n = 7,
     .layout = TAILOR_ROW_MAJOR, .trans = TAILOR_NO_TRANS, .alpha = 0, .beta = 2},

    // Transposes: the aligned, edge and unaligned paths, the copies of one
    // row or column, scaled float and double copies.
    {"transpose, cold handle, cached", OPERATION_TRANSPOSE, .cold = 1, .uses_cache = 1,
     .profile = "generic", .variant = "/edge", .m = 37, .n = 29, .lda = 32, .ldb = 40},
    {"transpose aligned", OPERATION_TRANSPOSE, .profile = "generic", .variant = "registers-4x4/aligned",
     .m = 64, .n = 32},
    {"transpose edge, 2-byte elements", OPERATION_TRANSPOSE, .profile = "cpu",
     .tuning = "TRANSPOSE_CPU_BLOCK=16", .variant = "cpu-blocked-16/edge", .m = 37, .n = 29, .lda = 32,
     .ldb = 48, .element_bytes = 2},
    {"transpose unaligned, 1-byte elements", OPERATION_TRANSPOSE, .profile = "generic",
     .variant = "/unaligned", .m = 19, .n = 45, .lda = 47, .element_bytes = 1, .after_event = 1},
    {"transpose by words, misaligned bytes", OPERATION_TRANSPOSE, .profile = "generic",
     .tuning = "TRANSPOSE_REALIGN=0", .variant = "words-128x64/unaligned", .m = 200, .n = 300,
     .lda = 301, .element_bytes = 1},
    {"transpose realigned, misaligned bytes", OPERATION_TRANSPOSE, .profile = "generic",
     .variant = "realigned-128x128/unaligned", .m = 200, .n = 300, .lda = 301, .element_bytes = 1},
    {"transpose by spans, 8 x N bytes", OPERATION_TRANSPOSE, .profile = "generic",
     .variant = "spans-8x1024/rows-span", .m = 8, .n = 640, .element_bytes = 1},
    {"transpose of one row, a strided copy", OPERATION_TRANSPOSE, .profile = "generic",
     .variant = "copy/strided", .m = 1, .n = 300, .ldb = 3},
    {"transpose of one row, a strided copy in runs", OPERATION_TRANSPOSE, .profile = "cpu",
     .variant = "copy/strided-runs", .m = 1, .n = 300, .ldb = 3},
    {"transpose of one column, a contiguous copy", OPERATION_TRANSPOSE, .profile = "cpu",
     .variant = "copy/contiguous", .m = 300, .n = 1, .element_bytes = 2},
    {"somatcopy scaled", OPERATION_SOMATCOPY, .profile = "generic", .variant = "/edge/scaled", .m = 33,
     .n = 20, .ldb = 36, .alpha = -2},
    {"domatcopy scaled", OPERATION_DOMATCOPY, .profile = "cpu", .tuning = "TRANSPOSE_CPU_BLOCK=16",
     .variant = "/scaled", .m = 17, .n = 40, .alpha = 0.5f},

    // SGEMM: tiled, dots, small, CPU kernels (packed too), scale, and m = 1 through tailor_sgemv.
    {"sgemm, cold handle, cached", OPERATION_SGEMM, .cold = 1, .uses_cache = 1, .profile = "generic",
     .tuning = SGEMM_TILED_TUNING, .variant = "tiled-16x16x8/scalar/edge/nn",
     .m = 13, .n = 20, .k = 13, .layout = TAILOR_ROW_MAJOR, .alpha = 1, .beta = 0.5f},
    {"sgemm tiled", OPERATION_SGEMM, .profile = "generic", .tuning = SGEMM_TILED_TUNING,
     .variant = "tiled-16x16x8/vec4/nt", .m = 32, .n = 32, .k = 16, .layout = TAILOR_ROW_MAJOR,
     .trans_b = TAILOR_TRANS, .alpha = 2, .beta = -1},
    {"sgemm tiled, B packed first", OPERATION_SGEMM, .profile = "generic",
     .tuning = SGEMM_TILED_TUNING ",SGEMM_PACK_B_MIN_M=1", .variant = "packed-b:tiled-16x16x8/vec4/shifted/nn",
     .m = 32, .n = 20, .k = 16, .layout = TAILOR_ROW_MAJOR, .trans_b = TAILOR_TRANS, .alpha = 2,
     .beta = -1, .after_event = 1},
    {"sgemm tiled, B packed first, out-of-order queue", OPERATION_SGEMM, .profile = "generic",
     .tuning = SGEMM_TILED_TUNING ",SGEMM_PACK_B_MIN_M=1", .variant = "packed-b:tiled-16x16x8/vec4/shifted/nn",
     .m = 32, .n = 20, .k = 16, .layout = TAILOR_COLUMN_MAJOR, .trans = TAILOR_TRANS, .alpha = 1,
     .beta = 0, .out_of_order = 1},
    {"sgemm tiled, A staged, k split", OPERATION_SGEMM, .profile = "generic",
     .tuning = SGEMM_SPLIT_TUNING, .variant = "staged-a:split-k3:tiled-16x16x8/vec4/shifted/nn",
     .m = 33, .n = 36, .k = 41, .layout = TAILOR_ROW_MAJOR, .alpha = 2, .beta = -1, .after_event = 1},
    {"sgemm tiled, A staged, k split, out-of-order queue", OPERATION_SGEMM, .profile = "generic",
     .tuning = SGEMM_SPLIT_TUNING, .variant = "staged-a:split-k3:tiled-16x16x8/vec4/shifted/nn",
     .m = 33, .n = 36, .k = 41, .layout = TAILOR_ROW_MAJOR, .alpha = 1, .beta = 0, .out_of_order = 1},
    {"sgemm tiled, B staged, n rounded up, C off the vectors", OPERATION_SGEMM, .profile = "generic",
     .tuning = SGEMM_TILED_TUNING ",SGEMM_STAGE_CUBE=1",
     .variant = "staged-b,padded-n:tiled-16x16x8/vec4/shifted/nn", .m = 33, .n = 21, .k = 12,
     .layout = TAILOR_ROW_MAJOR, .alpha = 2, .beta = 0.5f},
    {"sgemm dots, k split", OPERATION_SGEMM, .profile = "generic",
     .tuning = "SGEMM_SMALL_DIM=0,SGEMM_SMALL_CUBE=0,SGEMM_DOTS_MAX=8,SGEMM_DOTS_MIN_K=8,"
               "SGEMM_THIN_GROUPS_PER_UNIT=64",
     .variant = "split-k3:dots-8x4/transposed-c/nt", .m = 6, .n = 40, .k = 300, .layout = TAILOR_ROW_MAJOR,
     .trans_b = TAILOR_TRANS, .alpha = 2, .beta = -1, .after_event = 1},
    {"sgemm small", OPERATION_SGEMM, .profile = "generic", .variant = "small/", .m = 5, .n = 30, .k = 7,
     .layout = TAILOR_COLUMN_MAJOR, .trans = TAILOR_TRANS, .alpha = -1, .beta = 0},
    {"sgemm cpu kernel", OPERATION_SGEMM, .profile = "cpu", .variant = "cpu-blocked", .m = 14, .n = 40,
     .k = 9, .layout = TAILOR_ROW_MAJOR, .alpha = 1, .beta = 2, .after_event = 1},
    {"sgemm cpu kernel, A and B packed first", OPERATION_SGEMM, .profile = "cpu",
     .tuning = "SGEMM_CPU_PACK_CUBE=1,SGEMM_CPU_KC=4", .variant = "cpu-packed", .m = 14, .n = 10, .k = 9,
     .layout = TAILOR_COLUMN_MAJOR, .trans = TAILOR_TRANS, .alpha = 1, .beta = 2, .after_event = 1},
    {"sgemm cpu kernel, packed, out-of-order queue", OPERATION_SGEMM, .profile = "cpu",
     .tuning = "SGEMM_CPU_PACK_CUBE=1", .variant = "cpu-packed", .m = 7, .n = 12, .k = 5,
     .layout = TAILOR_ROW_MAJOR, .alpha = -1, .beta = 0, .out_of_order = 1},
    {"sgemm scale (alpha = 0)", OPERATION_SGEMM, .profile = "cpu", .variant = "scale", .m = 12, .n = 9,
     .k = 5, .layout = TAILOR_ROW_MAJOR, .alpha = 0, .beta = -0.5f},
    {"gemm, f32 batch (SIMT kernels)", OPERATION_GEMM, .profile = "generic", .variant = "simt-", .m = 9,
     .n = 7, .k = 5, .layout = TAILOR_ROW_MAJOR, .trans_b = TAILOR_TRANS, .alpha = 2, .beta = -1,
     .after_event = 1},
    {"gemm, f32 batch, out-of-order queue", OPERATION_GEMM, .profile = "generic", .variant = "simt-",
     .m = 6, .n = 11, .k = 4, .layout = TAILOR_COLUMN_MAJOR, .trans = TAILOR_TRANS, .alpha = 1,
     .beta = 0, .out_of_order = 1},
    {"sgemm m = 1 through sgemv", OPERATION_SGEMM, .profile = "generic", .variant = "gemv:", .m = 1,
     .n = 45, .k = 30, .layout = TAILOR_ROW_MAJOR, .alpha = 2, .beta = 1},
};
const size_t scenario_count = sizeof scenarios / sizeof scenarios[0];

int scenario_open(struct scenario_state *s)
{
    memset(s, 0, sizeof *s);
    const char *selector = getenv("TAILOR_TEST_DEVICE");
    if (select_device(selector && *selector ? selector : "cpu", &s->device) != 0)
        return -1;
    cl_int error;
    s->context = clCreateContext(NULL, 1, &s->device.device, NULL, NULL, &error);
    s->queue = clCreateCommandQueue(s->context, s->device.device, 0, &error);
    s->out_of_order_queue = clCreateCommandQueue(s->context, s->device.device,
                                                 CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &error);
    if (error != CL_SUCCESS)
        s->out_of_order_queue = NULL;
    s->x_count = 300001;
    float *ones = malloc(s->x_count * sizeof *ones);
    for (size_t i = 0; i < s->x_count; ++i)
        ones[i] = 1.0f;
    s->x = clCreateBuffer(s->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->x_count * sizeof *ones,
                          ones, &error);
    free(ones);
    s->result = clCreateBuffer(s->context, CL_MEM_READ_WRITE, sizeof(float), NULL, &error);
    s->a = clCreateBuffer(s->context, CL_MEM_READ_ONLY, BUFFER_BYTES, NULL, &error);
    s->b = clCreateBuffer(s->context, CL_MEM_READ_ONLY, BUFFER_BYTES, NULL, &error);
    s->c = clCreateBuffer(s->context, CL_MEM_READ_WRITE, BUFFER_BYTES, NULL, &error);
    s->a_host = malloc(BUFFER_BYTES);
    s->b_host = malloc(BUFFER_BYTES);
    s->c_host = malloc(BUFFER_BYTES);
    s->expected = malloc(BUFFER_BYTES);
    s->got = malloc(BUFFER_BYTES);
    s->completed = clCreateUserEvent(s->context, &error);
    if (s->completed)
        clSetUserEventStatus(s->completed, CL_COMPLETE);
    return s->queue && s->x && s->result && s->a && s->b && s->c && s->a_host && s->b_host && s->c_host &&
                   s->expected && s->got && s->completed
               ? 0
               : -1;
}

void scenario_close(struct scenario_state *s)
{
    scenario_finish(s, NULL);
    clReleaseMemObject(s->x);
    clReleaseMemObject(s->result);
    clReleaseMemObject(s->a);
    clReleaseMemObject(s->b);
    clReleaseMemObject(s->c);
    free(s->a_host);
    free(s->b_host);
    free(s->c_host);
    free(s->expected);
    free(s->got);
    clReleaseEvent(s->completed);
    if (s->out_of_order_queue)
        clReleaseCommandQueue(s->out_of_order_queue);
    clFinish(s->queue);
    clReleaseCommandQueue(s->queue);
    clReleaseContext(s->context);
}

static tailor_status create_handle(struct scenario_state *s, const struct scenario *scenario)
{
    tailor_settings settings;
    tailor_default_settings(&settings);
    settings.profile = scenario->profile;
    settings.tuning = scenario->tuning ? scenario->tuning : "";
    settings.cache_mode = scenario->uses_cache ? TAILOR_CACHE_ON : TAILOR_CACHE_OFF;
    settings.build_options = scenario->build_options;
    return tailor_context_create(s->context, s->device.device, &settings, &s->handle);
}

static cl_command_queue queue_of(struct scenario_state *s, const struct scenario *scenario)
{
    return scenario->out_of_order && s->out_of_order_queue ? s->out_of_order_queue : s->queue;
}

// The geometry of the matrix operations: leading dimensions as the call
// passes them, and the bytes of the output buffer the check compares (the
// output's extent and a guard after it).
struct geometry {
    size_t element, lda, ldb, ldc;
    size_t stride_a, stride_b, stride_c; // GEMM's batch
    long long incx, incy;
    size_t compared; // bytes of the output buffer compared
};

static size_t line_length(tailor_layout layout, size_t rows, size_t cols)
{
    return layout == TAILOR_ROW_MAJOR ? cols : rows;
}

static size_t extent(size_t lines, size_t length, size_t ld)
{
    return lines && length ? (lines - 1) * ld + length : 0;
}

static size_t magnitude(long long increment)
{
    return (size_t)(increment < 0 ? -increment : increment);
}

static void geometry_of(const struct scenario *sc, struct geometry *g)
{
    memset(g, 0, sizeof *g);
    g->element = 4;
    size_t output = 0;
    switch (sc->operation) {
    case OPERATION_SGEMV: {
        g->lda = line_length(sc->layout, sc->m, sc->n);
        g->lda = g->lda ? g->lda : 1;
        g->incx = sc->incx ? sc->incx : 1;
        g->incy = sc->incy ? sc->incy : 1;
        size_t outputs = sc->trans == TAILOR_NO_TRANS ? sc->m : sc->n;
        output = outputs ? (outputs - 1) * magnitude(g->incy) + 1 : 0;
        break;
    }
    case OPERATION_TRANSPOSE:
    case OPERATION_SOMATCOPY:
    case OPERATION_DOMATCOPY:
        g->element = sc->operation == OPERATION_DOMATCOPY  ? 8
                     : sc->operation == OPERATION_SOMATCOPY ? 4
                     : sc->element_bytes                    ? sc->element_bytes
                                                            : 4;
        g->lda = sc->lda ? sc->lda : sc->n;
        g->ldb = sc->ldb ? sc->ldb : sc->m;
        output = extent(sc->n, sc->m, g->ldb);
        break;
    case OPERATION_SGEMM:
    case OPERATION_GEMM: {
        // Stored A is m x k (k x m transposed), B k x n (n x k), C m x n.
        size_t a_rows = sc->trans == TAILOR_NO_TRANS ? sc->m : sc->k;
        size_t a_cols = sc->trans == TAILOR_NO_TRANS ? sc->k : sc->m;
        size_t b_rows = sc->trans_b == TAILOR_NO_TRANS ? sc->k : sc->n;
        size_t b_cols = sc->trans_b == TAILOR_NO_TRANS ? sc->n : sc->k;
        g->lda = line_length(sc->layout, a_rows, a_cols);
        g->ldb = line_length(sc->layout, b_rows, b_cols);
        g->ldc = line_length(sc->layout, sc->m, sc->n);
        output = sc->m * sc->n;
        if (sc->operation == OPERATION_GEMM) {
            // Packed matrices one after another.
            g->stride_a = sc->m * sc->k;
            g->stride_b = sc->k * sc->n;
            g->stride_c = output;
            output *= GEMM_BATCH;
        }
        break;
    }
    default:
        break;
    }
    g->compared = (output + 16) * g->element;
    if (g->compared > BUFFER_BYTES)
        g->compared = BUFFER_BYTES;
}

// Small integers: every product and sum of the scenarios is exact in float.
static float small_integer(size_t i, unsigned multiplier, unsigned range)
{
    return (float)((int)((i * multiplier + 3) % range) - (int)(range / 2));
}

void scenario_reset(struct scenario_state *s, const struct scenario *scenario)
{
    float sentinel = RESULT_SENTINEL;
    clEnqueueWriteBuffer(s->queue, s->result, CL_TRUE, 0, sizeof sentinel, &sentinel, 0, NULL, NULL);
    if (scenario->operation == OPERATION_REDUCE || scenario->operation == OPERATION_REDUCE_EVENT_ONLY)
        return;
    struct geometry g;
    geometry_of(scenario, &g);
    if (scenario->operation == OPERATION_TRANSPOSE) {
        // Raw bytes: the transpose moves bit patterns, NaN payloads included.
        for (size_t i = 0; i < BUFFER_BYTES; ++i) {
            s->a_host[i] = (unsigned char)(i * 37 + 11);
            s->c_host[i] = (unsigned char)(i * 53 + 7);
        }
    } else if (scenario->operation == OPERATION_DOMATCOPY) {
        double *a = (double *)s->a_host, *c = (double *)s->c_host;
        for (size_t i = 0; i < BUFFER_BYTES / sizeof(double); ++i) {
            a[i] = small_integer(i, 13, 7);
            c[i] = small_integer(i, 11, 9);
        }
    } else {
        float *a = (float *)s->a_host, *b = (float *)s->b_host, *c = (float *)s->c_host;
        for (size_t i = 0; i < BUFFER_BYTES / sizeof(float); ++i) {
            a[i] = small_integer(i, 13, 7);
            b[i] = small_integer(i, 5, 9);
            c[i] = small_integer(i, 11, 9);
        }
    }
    clEnqueueWriteBuffer(s->queue, s->a, CL_FALSE, 0, BUFFER_BYTES, s->a_host, 0, NULL, NULL);
    clEnqueueWriteBuffer(s->queue, s->b, CL_FALSE, 0, BUFFER_BYTES, s->b_host, 0, NULL, NULL);
    clEnqueueWriteBuffer(s->queue, s->c, CL_TRUE, 0, BUFFER_BYTES, s->c_host, 0, NULL, NULL);
}

static tailor_status run_operation(struct scenario_state *s, const struct scenario *sc)
{
    cl_command_queue queue = queue_of(s, sc);
    s->done = NULL;
    cl_uint wait_count = sc->after_event ? 1 : 0;
    const cl_event *wait_list = sc->after_event ? &s->completed : NULL;
    struct geometry g;
    geometry_of(sc, &g);
    tailor_status status;
    switch (sc->operation) {
    case OPERATION_SGEMV:
        status = tailor_sgemv(s->handle, queue, sc->layout, sc->trans, sc->m, sc->n, sc->alpha, s->a, 0, g.lda,
                              s->b, 0, g.incx, sc->beta, s->c, 0, g.incy, wait_count, wait_list, &s->done);
        break;
    case OPERATION_TRANSPOSE:
        status = tailor_transpose(s->handle, queue, g.element, sc->m, sc->n, s->a, 0, g.lda, s->c, 0, g.ldb,
                                  wait_count, wait_list, &s->done);
        break;
    case OPERATION_SOMATCOPY:
        status = tailor_somatcopy(s->handle, queue, sc->m, sc->n, sc->alpha, s->a, 0, g.lda, s->c, 0, g.ldb,
                                  wait_count, wait_list, &s->done);
        break;
    case OPERATION_DOMATCOPY:
        status = tailor_domatcopy(s->handle, queue, sc->m, sc->n, sc->alpha, s->a, 0, g.lda, s->c, 0, g.ldb,
                                  wait_count, wait_list, &s->done);
        break;
    case OPERATION_SGEMM:
        status = tailor_sgemm(s->handle, queue, sc->layout, sc->trans, sc->trans_b, sc->m, sc->n, sc->k,
                              sc->alpha, s->a, 0, g.lda, s->b, 0, g.ldb, sc->beta, s->c, 0, g.ldc, wait_count,
                              wait_list, &s->done);
        break;
    case OPERATION_GEMM:
        status = tailor_gemm_strided_batched(s->handle, queue, sc->layout, sc->trans, sc->trans_b, sc->m,
                                             sc->n, sc->k, sc->alpha, TAILOR_F32, s->a, 0, g.lda, g.stride_a,
                                             s->b, 0, g.ldb, g.stride_b, sc->beta, TAILOR_F32, s->c, 0,
                                             g.ldc, g.stride_c, GEMM_BATCH, wait_count, wait_list, &s->done);
        break;
    default:
        status = tailor_reduce(s->handle, queue, TAILOR_REDUCE_SUM, TAILOR_F32, sc->n, s->x, 0, s->result, 0,
                               wait_count, wait_list, &s->done);
        break;
    }
    s->got_event = s->done != NULL;
    return status;
}

void scenario_complete(struct scenario_state *s)
{
    if (s->done) {
        clWaitForEvents(1, &s->done);
        clReleaseEvent(s->done);
        s->done = NULL;
    }
}

void scenario_prepare(struct scenario_state *s, const struct scenario *scenario)
{
    scenario_reset(s, scenario);
    if (scenario->cold || s->handle)
        return;
    if (create_handle(s, scenario) == TAILOR_SUCCESS) {
        run_operation(s, scenario);
        scenario_complete(s);
    }
    scenario_reset(s, scenario);
}

tailor_status scenario_run(struct scenario_state *s, const struct scenario *scenario)
{
    if (!s->handle) {
        tailor_status status = create_handle(s, scenario);
        if (status != TAILOR_SUCCESS)
            return status;
    }
    tailor_status status = run_operation(s, scenario);
    if (scenario->release_inside)
        tailor_context_release(&s->handle);
    return status;
}

static float stored_at(const float *m, tailor_layout layout, size_t ld, size_t row, size_t col)
{
    return layout == TAILOR_ROW_MAJOR ? m[row * ld + col] : m[col * ld + row];
}

// Element j of a vector of `length` with increment inc (BLAS order).
static size_t vector_index(size_t j, size_t length, long long inc)
{
    return inc > 0 ? j * (size_t)inc : (length - 1 - j) * magnitude(inc);
}

// alpha * dot + beta * c, as BLAS defines it (beta == 0 does not read c).
static float combine(const struct scenario *sc, double dot, float c)
{
    if (sc->alpha == 0.0f)
        return sc->beta * c;
    return (float)((double)sc->alpha * dot + (sc->beta != 0.0f ? (double)sc->beta * c : 0.0));
}

static void reference_sgemv(struct scenario_state *s, const struct scenario *sc, const struct geometry *g)
{
    const float *a = (const float *)s->a_host, *x = (const float *)s->b_host;
    float *y = (float *)s->expected;
    int no_trans = sc->trans == TAILOR_NO_TRANS;
    size_t outputs = no_trans ? sc->m : sc->n, dots = no_trans ? sc->n : sc->m;
    for (size_t i = 0; i < outputs; ++i) {
        double dot = 0;
        for (size_t j = 0; j < dots; ++j)
            dot += (double)(no_trans ? stored_at(a, sc->layout, g->lda, i, j)
                                     : stored_at(a, sc->layout, g->lda, j, i)) *
                   x[vector_index(j, dots, g->incx)];
        size_t at = vector_index(i, outputs, g->incy);
        y[at] = combine(sc, dot, y[at]);
    }
}

// Product z of a batch (SGEMM: the one product, z = 0).
static void reference_sgemm(struct scenario_state *s, const struct scenario *sc, const struct geometry *g,
                            size_t z)
{
    const float *a = (const float *)s->a_host + z * g->stride_a, *b = (const float *)s->b_host + z * g->stride_b;
    float *c = (float *)s->expected + z * g->stride_c;
    for (size_t i = 0; i < sc->m; ++i)
        for (size_t j = 0; j < sc->n; ++j) {
            double dot = 0;
            for (size_t p = 0; p < sc->k; ++p)
                dot += (double)(sc->trans == TAILOR_NO_TRANS ? stored_at(a, sc->layout, g->lda, i, p)
                                                             : stored_at(a, sc->layout, g->lda, p, i)) *
                       (sc->trans_b == TAILOR_NO_TRANS ? stored_at(b, sc->layout, g->ldb, p, j)
                                                       : stored_at(b, sc->layout, g->ldb, j, p));
            size_t at = sc->layout == TAILOR_ROW_MAJOR ? i * g->ldc + j : j * g->ldc + i;
            c[at] = combine(sc, dot, c[at]);
        }
}

static void reference_transpose(struct scenario_state *s, const struct scenario *sc, const struct geometry *g)
{
    for (size_t r = 0; r < sc->m; ++r)
        for (size_t col = 0; col < sc->n; ++col) {
            const unsigned char *from = s->a_host + (r * g->lda + col) * g->element;
            unsigned char *to = s->expected + (col * g->ldb + r) * g->element;
            if (sc->operation == OPERATION_SOMATCOPY && sc->alpha != 1.0f) {
                // alpha = 0 writes +0.0 whatever A holds.
                float value;
                memcpy(&value, from, sizeof value);
                value = sc->alpha == 0.0f ? 0.0f : value * sc->alpha;
                memcpy(to, &value, sizeof value);
            } else if (sc->operation == OPERATION_DOMATCOPY && sc->alpha != 1.0f) {
                double value;
                memcpy(&value, from, sizeof value);
                value = sc->alpha == 0.0f ? 0.0 : value * (double)sc->alpha;
                memcpy(to, &value, sizeof value);
            } else {
                memcpy(to, from, g->element);
            }
        }
}

int scenario_outcome_right(struct scenario_state *s, const struct scenario *scenario, tailor_status status)
{
    scenario_complete(s);
    // Every scenario asks for an event: success without one is wrong.
    if (status != scenario->expected || (status == TAILOR_SUCCESS && !s->got_event))
        return 0;
    if (scenario->operation == OPERATION_REDUCE || scenario->operation == OPERATION_REDUCE_EVENT_ONLY) {
        float got = 0;
        if (clEnqueueReadBuffer(s->queue, s->result, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL) != CL_SUCCESS)
            return 0;
        float expected = scenario->n && scenario->expected == TAILOR_SUCCESS ? (float)scenario->n : RESULT_SENTINEL;
        return got == expected;
    }
    struct geometry g;
    geometry_of(scenario, &g);
    memcpy(s->expected, s->c_host, g.compared);
    if (scenario->expected == TAILOR_SUCCESS) {
        if (scenario->operation == OPERATION_SGEMV)
            reference_sgemv(s, scenario, &g);
        else if (scenario->operation == OPERATION_SGEMM)
            reference_sgemm(s, scenario, &g, 0);
        else if (scenario->operation == OPERATION_GEMM)
            for (size_t z = 0; z < GEMM_BATCH; ++z)
                reference_sgemm(s, scenario, &g, z);
        else
            reference_transpose(s, scenario, &g);
    }
    if (clEnqueueReadBuffer(s->queue, s->c, CL_TRUE, 0, g.compared, s->got, 0, NULL, NULL) != CL_SUCCESS)
        return 0;
    if (scenario->operation != OPERATION_SGEMV && scenario->operation != OPERATION_SGEMM &&
        scenario->operation != OPERATION_GEMM)
        return memcmp(s->got, s->expected, g.compared) == 0;
    // Exact values; the sign of a zero sum is the kernel's to choose.
    const float *got = (const float *)s->got, *expected = (const float *)s->expected;
    for (size_t i = 0; i < g.compared / sizeof(float); ++i)
        if (got[i] != expected[i])
            return 0;
    return 1;
}

void scenario_finish(struct scenario_state *s, const struct scenario *scenario)
{
    scenario_complete(s);
    clFinish(s->queue);
    if (s->out_of_order_queue)
        clFinish(s->out_of_order_queue);
    // A warm handle serves every attempt of its walk: a fault must not spoil it.
    if (!scenario || scenario->cold)
        tailor_context_release(&s->handle);
}
