// `tailor bench`: each operation's rows on one device, beside CLBlast where
// the build found it, against the device's measured limits.
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_report.h"
#include "bench_sweep.h"
#include "commands.h"
#include "device_select.h"

#define BATCH_SECONDS 0.02
#define BATCHES 7
#define MAX_BATCH 20000
// Below this a call's time is mostly the launch, and the host's speed drifts
// within a run: the floor is measured beside such calls, not only once.
#define LAUNCH_BOUND_SECONDS 100e-6

static const struct bench_op {
    const char *name;
    void (*run)(struct bench *b);
} bench_ops[] = {
    {"reduce", bench_reduce},
    {"gemv", bench_gemv},
    {"transpose", bench_transpose},
    {"sgemm", bench_sgemm},
    {"gemm", bench_gemm},
};

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int launch_empty(struct bench *b, void *state)
{
    (void)state;
    size_t one = 1;
    return clEnqueueNDRangeKernel(b->queue, b->empty_kernel, 1, NULL, &one, &one, 0, NULL, NULL) == CL_SUCCESS
               ? 0
               : -1;
}

static double time_batch(struct bench *b, bench_call call, void *state, int calls)
{
    double start = now_seconds();
    for (int i = 0; i < calls; ++i)
        if (call(b, state) != 0)
            return -1;
    if (clFinish(b->queue) != CL_SUCCESS)
        return -1;
    return (now_seconds() - start) / calls;
}

// One contender of a row: its call, the calls per batch, its batch times.
struct contender {
    bench_call call;
    void *state;
    int batch;
    double samples[BATCHES];
};

// The first call builds kernels and touches memory, the second sizes the
// batches; then one untimed batch, within which the host's clock and the
// driver's queues settle (the first short row of a run was up to 0.9 us
// slower). Returns the second call's time, < 0 if a call failed.
static double prepare(struct bench *b, struct contender *c)
{
    double once = time_batch(b, c->call, c->state, 1);
    if (once < 0 || (once = time_batch(b, c->call, c->state, 1)) < 0)
        return -1;
    c->batch = once > 0 ? (int)(BATCH_SECONDS / once) + 1 : MAX_BATCH;
    if (c->batch > MAX_BATCH)
        c->batch = MAX_BATCH;
    return time_batch(b, c->call, c->state, c->batch) < 0 ? -1 : once;
}

static double median(double *samples)
{
    qsort(samples, BATCHES, sizeof samples[0], compare_doubles);
    return samples[BATCHES / 2];
}

// Batches of prepared contenders in turn, so that a drift in the speed of
// the host or the device falls on each alike; medians into seconds[].
static int time_in_turn(struct bench *b, struct contender *contenders, size_t count, double *seconds)
{
    for (int r = 0; r < BATCHES; ++r)
        for (size_t c = 0; c < count; ++c)
            if ((contenders[c].samples[r] = time_batch(b, contenders[c].call, contenders[c].state,
                                                       contenders[c].batch)) < 0)
                return -1;
    for (size_t c = 0; c < count; ++c)
        seconds[c] = median(contenders[c].samples);
    return 0;
}

double bench_time(struct bench *b, bench_call call, void *state)
{
    struct contender only = {call, state, 0, {0}};
    double seconds;
    return prepare(b, &only) < 0 || time_in_turn(b, &only, 1, &seconds) < 0 ? -1 : seconds;
}

int bench_time_row(struct bench *b, struct bench_row *row, bench_call call, void *state,
                   bench_call comparison, void *comparison_state)
{
    return bench_time_row_cblas(b, row, call, state, comparison, comparison_state, NULL, NULL);
}

int bench_time_row_cblas(struct bench *b, struct bench_row *row, bench_call call, void *state,
                         bench_call comparison, void *comparison_state, bench_call cblas,
                         void *cblas_state)
{
    struct contender contenders[4] = {{call, state, 0, {0}}};
    size_t count = 1;
    double seconds[4];
    double once = prepare(b, &contenders[0]);
    if (once < 0)
        return -1;
    // A comparison that fails (a shape CLBlast refuses) leaves its column empty.
    int compared = comparison != NULL;
    if (compared) {
        contenders[count] = (struct contender){comparison, comparison_state, 0, {0}};
        compared = prepare(b, &contenders[count]) >= 0;
        count += compared;
    }
    size_t cblas_index = count;
    int cblas_compared = cblas != NULL;
    if (cblas_compared) {
        contenders[count] = (struct contender){cblas, cblas_state, 0, {0}};
        cblas_compared = prepare(b, &contenders[count]) >= 0;
        count += cblas_compared;
    }
    int floored = b->empty_kernel && once < LAUNCH_BOUND_SECONDS;
    if (floored) {
        contenders[count] = (struct contender){launch_empty, NULL, 0, {0}};
        if (prepare(b, &contenders[count++]) < 0)
            return -1;
    }
    if (time_in_turn(b, contenders, count, seconds) < 0)
        return -1;
    row->seconds = seconds[0];
    row->clblast_seconds = compared ? seconds[1] : -1;
    row->cblas_seconds = cblas_compared ? seconds[cblas_index] : -1;
    row->floor_seconds = floored ? seconds[count - 1] : -1;
    return 0;
}

void bench_fail(struct bench *b, const char *what)
{
    fprintf(stderr, "bench: %s\n", what);
    ++b->failures;
}

cl_mem bench_buffer(struct bench *b, size_t bytes, const void *pattern, size_t pattern_bytes)
{
    cl_int error;
    cl_mem buffer = clCreateBuffer(b->context, CL_MEM_READ_WRITE, bytes, NULL, &error);
    if (error != CL_SUCCESS) {
        fprintf(stderr, "bench: clCreateBuffer(%zu bytes) failed (%d)\n", bytes, (int)error);
        ++b->failures;
        return NULL;
    }
    error = clEnqueueFillBuffer(b->queue, buffer, pattern, pattern_bytes, 0, bytes, 0, NULL, NULL);
    if (error == CL_SUCCESS)
        error = clFinish(b->queue);
    if (error != CL_SUCCESS) {
        fprintf(stderr, "bench: filling %zu bytes failed (%d)\n", bytes, (int)error);
        ++b->failures;
        clReleaseMemObject(buffer);
        return NULL;
    }
    return buffer;
}

cl_mem bench_upload(struct bench *b, const void *host, size_t bytes)
{
    cl_int error;
    cl_mem buffer = clCreateBuffer(b->context, CL_MEM_READ_WRITE, bytes, NULL, &error);
    if (error == CL_SUCCESS)
        error = clEnqueueWriteBuffer(b->queue, buffer, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
    if (error != CL_SUCCESS) {
        fprintf(stderr, "bench: a buffer of %zu bytes from the host failed (%d)\n", bytes, (int)error);
        ++b->failures;
        if (buffer)
            clReleaseMemObject(buffer);
        return NULL;
    }
    return buffer;
}

size_t bench_fit_elements(const struct bench *b, size_t wanted, size_t element_bytes, int buffers)
{
    size_t limit = (size_t)(b->info.max_alloc_bytes / element_bytes);
    size_t total = (size_t)(b->info.global_mem_bytes / 2 / element_bytes / (size_t)buffers);
    if (total < limit)
        limit = total;
    while (wanted > limit)
        wanted /= 2;
    return wanted;
}

struct bench_row bench_row_init(const char *op, const char *dtype)
{
    struct bench_row row;
    memset(&row, 0, sizeof row);
    row.op = op;
    row.dtype = dtype;
    row.m = row.n = row.k = -1;
    row.clblast_seconds = -1;
    row.cblas_seconds = -1;
    row.floor_seconds = -1;
    row.note = "";
    row.element_bytes = -1;
    row.lda = row.ldb = row.a_offset = row.b_offset = row.x_offset = row.y_offset = -1;
    row.fraction_of_aligned = -1;
    return row;
}

void bench_add_row(struct bench *b, const struct bench_row *row)
{
    if (b->row_count == b->row_capacity) {
        size_t grown = b->row_capacity ? 2 * b->row_capacity : 16;
        struct bench_row *bigger = realloc(b->rows, grown * sizeof *bigger);
        if (!bigger) {
            bench_fail(b, "out of memory for rows");
            return;
        }
        b->rows = bigger;
        b->row_capacity = grown;
    }
    b->rows[b->row_count++] = *row;
    bench_print_row(b, row);
}

static const char bench_usage[] =
    "usage: tailor bench [--device SELECTOR] [--op NAME] [--json FILE] [--no-clblast]\n"
    "       tailor bench --sweep OP [--quick] [--device SELECTOR] [--json FILE] [--no-clblast]\n"
    "\n"
    "  --device SELECTOR  gpu, cpu, P:D (indices from tailor info) or part of a\n"
    "                     platform, device or vendor name; default: the first GPU,\n"
    "                     else the first device\n"
    "  --op NAME          one operation (reduce, gemv, transpose, sgemm, gemm); default: all\n"
    "  --json FILE        also write the rows as JSON\n"
    "  --no-clblast       skip the CLBlast comparison (faster sweeps)\n"
    "  --sweep OP         irregular cases of one operation (transpose, gemv): odd\n"
    "                     shapes, padded leading dimensions, offsets, strides,\n"
    "                     skinny and launch-bound matrices, each checked and set\n"
    "                     against the aligned case of its element size (%aligned),\n"
    "                     then a summary line per element size\n"
    "  --quick            with --sweep: every case at one small size (for tests)\n"
    "\n"
    "Each time is the median over 7 batches of back-to-back calls on one in-order\n"
    "queue, a batch timed by the wall clock from its first enqueue to clFinish\n"
    "(about 20 ms a batch), so launch overhead counts as it does for an\n"
    "application. CLBlast's batches alternate with tailor's, so that a drift in\n"
    "the machine's speed falls on both. Rows of calls under 100 us show in 'floor'\n"
    "an empty kernel timed in batches alternating with theirs (the launch floor\n"
    "beside them). CPU devices run smaller shapes (the sweep: matrices of 4 MiB\n"
    "instead of 64 MiB).\n";

static int open_device(struct bench *b, const char *selector)
{
    struct device_choice choice;
    if (select_device(selector, &choice) != 0) {
        fprintf(stderr, "bench: no OpenCL device matches '%s'\n", selector ? selector : "");
        return -1;
    }
    cl_int error;
    b->device = choice.device;
    b->context = clCreateContext(NULL, 1, &choice.device, NULL, NULL, &error);
    if (error != CL_SUCCESS) {
        fprintf(stderr, "bench: clCreateContext failed (%d)\n", (int)error);
        return -1;
    }
    b->queue = clCreateCommandQueue(b->context, choice.device, 0, &error);
    if (error != CL_SUCCESS) {
        fprintf(stderr, "bench: clCreateCommandQueue failed (%d)\n", (int)error);
        return -1;
    }
    tailor_status status = tailor_context_create(b->context, choice.device, NULL, &b->tailor);
    if (status != TAILOR_SUCCESS) {
        fprintf(stderr, "bench: tailor_context_create: %s\n", tailor_last_error());
        return -1;
    }
    tailor_context_device_info(b->tailor, &b->info);
    b->small_shapes = (b->info.type & CL_DEVICE_TYPE_GPU) == 0;
#ifdef TAILOR_HAVE_CLBLAST
    b->have_clblast = 1;
#endif
#ifdef TAILOR_HAVE_CBLAS
    b->have_cblas = b->small_shapes;
#endif
    return 0;
}

static void close_device(struct bench *b)
{
    if (b->empty_kernel)
        clReleaseKernel(b->empty_kernel);
    tailor_context_release(&b->tailor);
    if (b->queue)
        clReleaseCommandQueue(b->queue);
    if (b->context)
        clReleaseContext(b->context);
    free(b->rows);
}

int command_bench(int argc, char **argv)
{
    const char *selector = getenv("TAILOR_BENCH_DEVICE"), *op = NULL, *json_path = NULL, *sweep = NULL;
    int without_clblast = 0, quick = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(bench_usage, stdout);
            return 0;
        }
        if (i + 1 < argc && strcmp(argv[i], "--device") == 0)
            selector = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--op") == 0)
            op = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--json") == 0)
            json_path = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--sweep") == 0)
            sweep = argv[++i];
        else if (strcmp(argv[i], "--no-clblast") == 0)
            without_clblast = 1;
        else if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
        else {
            fputs(bench_usage, stderr);
            return 2;
        }
    }
    size_t op_count = sizeof bench_ops / sizeof bench_ops[0];
    int known = !op;
    for (size_t i = 0; i < op_count && !known; ++i)
        known = strcmp(bench_ops[i].name, op) == 0;
    if (!known) {
        fprintf(stderr, "bench: no operation is named '%s'\n", op);
        return 2;
    }
    if ((sweep && op) || (quick && !sweep)) {
        fputs(bench_usage, stderr);
        return 2;
    }
    if (sweep && !bench_sweep_known(sweep)) {
        fprintf(stderr, "bench: no sweep for '%s' (transpose, gemv)\n", sweep);
        return 2;
    }
    struct bench b;
    memset(&b, 0, sizeof b);
    int status = 1;
    if (open_device(&b, selector) != 0 || bench_measure_limits(&b) != 0)
        goto done;
    if (without_clblast)
        b.have_clblast = 0;
    b.sweep = sweep;
    b.quick = quick;
    bench_print_header(&b);
    if (sweep)
        bench_sweep(&b);
    for (size_t i = 0; i < op_count && !sweep; ++i)
        if (!op || strcmp(bench_ops[i].name, op) == 0)
            bench_ops[i].run(&b);
    if (json_path && bench_write_json(&b, json_path) != 0)
        ++b.failures;
    status = b.failures ? 1 : 0;
done:
    close_device(&b);
    return status;
}
