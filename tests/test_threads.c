// One handle shared by 16 threads, each on a queue of its own, running a
// random mix of every operation (reductions, GEMV, transposes of every
// element size, scaled float and double copies, SGEMM) with every result
// checked exactly against a C reference. Each handle starts cold: the
// threads wait at a barrier and their first calls, one operation per thread
// in turn, build the programs concurrently. Three handles in turn: the
// device's profile with tunings that split GEMV dots (per-queue scratch
// buffers made concurrently), the generic profile with tunings that split
// GEMV dots and send SGEMM to the tiled kernels (a transposed B packed into
// per-queue workspaces made concurrently), and the generic profile as
// it is (small SGEMM kernel); a quarter of the threads use out-of-order
// queues (temporary scratch buffers). Each program is built once per handle.
// Built with ThreadSanitizer (see README.md) this is the data-race check of
// the library.
//
// Shapes are random, except on POCL: POCL 3.1 aborts (an assertion in
// pocl_release_dlhandle_cache) when one kernel runs from several queues at
// once with different local and global sizes, which a program of a few lines
// without tailor reproduces. There each handle gives each operation one
// shape, so each kernel runs with one geometry; layouts, transposes,
// increments, strides, element sizes, alpha and beta stay random.
//
// usage: test_threads [--calls N] [--own-profile | --other-profiles]
#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gemm_host.h"
#include "support.h"

#define THREADS 16
#define GUARD 16

enum operation { OP_REDUCE, OP_SGEMV, OP_TRANSPOSE, OP_SOMATCOPY, OP_SGEMM, OP_DOMATCOPY, OP_COUNT };
static const char *const operation_names[] = {"reduce", "sgemv", "transpose", "somatcopy", "sgemm", "domatcopy"};

// One handle's run: its profile (NULL: the detected one), tuning, and, on
// POCL, the shapes: GEMV m = n = SGEMM m = n = k = `square` (SGEMM's m = 1
// and n = 1 cases call GEMV with that shape too), transposes rows x cols.
struct config {
    const char *profile;
    const char *tuning;
    size_t square, rows, cols;
};

struct shared {
    const struct test_device *device;
    const struct config *config;
    int fixed_shapes;
    tailor_context *handle;
    int has_fp64;
    int calls;
    pthread_barrier_t start;
};

struct worker {
    struct shared *shared;
    int index;
    unsigned long long seed;
    cl_command_queue queue;
    int failures;
    int calls[OP_COUNT];
};

#define FAIL(w, ...)                                                                                \
    do {                                                                                            \
        fprintf(stderr, "thread %d: ", (w)->index);                                                 \
        fprintf(stderr, __VA_ARGS__);                                                               \
        fputc('\n', stderr);                                                                        \
        ++(w)->failures;                                                                            \
    } while (0)

// The distinct variants the calls ran, to show the mix reached them.
static struct {
    pthread_mutex_t lock;
    char names[256][96];
    size_t count;
} seen = {PTHREAD_MUTEX_INITIALIZER, {{0}}, 0};

static void record_variant(void)
{
    const char *variant = tailor_last_variant();
    pthread_mutex_lock(&seen.lock);
    size_t i = 0;
    while (i < seen.count && strcmp(seen.names[i], variant) != 0)
        ++i;
    if (i == seen.count && seen.count < sizeof seen.names / sizeof seen.names[0])
        snprintf(seen.names[seen.count++], sizeof seen.names[0], "%s", variant);
    pthread_mutex_unlock(&seen.lock);
}

static size_t pick(struct worker *w, size_t count)
{
    return (size_t)(test_random(&w->seed) % count);
}

static size_t between(struct worker *w, size_t low, size_t high)
{
    return low + pick(w, high - low + 1);
}

// Small integers: every sum and product below is exact in float.
static float small_integer(struct worker *w)
{
    return (float)((int)pick(w, 9) - 4);
}

static void fill_small_integers(struct worker *w, float *values, size_t count)
{
    for (size_t i = 0; i < count; ++i)
        values[i] = small_integer(w);
}

static cl_mem make_buffer(struct worker *w, cl_mem_flags flags, size_t bytes, const void *data)
{
    cl_int error;
    cl_mem buffer = clCreateBuffer(w->shared->device->context, flags | (data ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                                   (void *)data, &error);
    if (error != CL_SUCCESS) {
        FAIL(w, "clCreateBuffer(%zu bytes) failed: %d", bytes, (int)error);
        return NULL;
    }
    return buffer;
}

// Waits for the call's event (out-of-order queues too) and reads `bytes`.
static int read_after(struct worker *w, cl_mem buffer, size_t bytes, void *host, cl_event done)
{
    cl_int error = clEnqueueReadBuffer(w->queue, buffer, CL_TRUE, 0, bytes, host, done ? 1 : 0,
                                       done ? &done : NULL, NULL);
    if (done)
        clReleaseEvent(done);
    if (error != CL_SUCCESS)
        FAIL(w, "clEnqueueReadBuffer failed: %d", (int)error);
    return error == CL_SUCCESS ? 0 : -1;
}

static int check_status(struct worker *w, tailor_status status, const char *what)
{
    if (status == TAILOR_SUCCESS) {
        record_variant();
        return 0;
    }
    FAIL(w, "%s: %s (%s)", what, tailor_status_name(status), tailor_last_error());
    return -1;
}

// Equal values (either zero sign), element by element.
static void compare_floats(struct worker *w, const char *what, const float *got, const float *expected,
                           size_t count)
{
    for (size_t i = 0; i < count; ++i)
        if (got[i] != expected[i]) {
            FAIL(w, "%s: element %zu is %g, expected %g (%s)", what, i, got[i], expected[i],
                 tailor_last_variant());
            return;
        }
}

static void run_reduce(struct worker *w)
{
    static const size_t sizes[] = {1, 17, 1000, 70000, 300001};
    size_t n = sizes[pick(w, 5)];
    tailor_reduce_op op = (tailor_reduce_op)pick(w, 3);
    float *x = malloc(n * sizeof *x);
    if (!x) {
        FAIL(w, "no memory");
        return;
    }
    float expected = op == TAILOR_REDUCE_SUM ? 0.0f : op == TAILOR_REDUCE_MIN ? 1e9f : -1e9f;
    for (size_t i = 0; i < n; ++i) {
        x[i] = (float)((long)((i * 2654435761u + w->seed) % 17) - 8);
        expected = op == TAILOR_REDUCE_SUM ? expected + x[i]
                   : op == TAILOR_REDUCE_MIN ? (x[i] < expected ? x[i] : expected)
                                             : (x[i] > expected ? x[i] : expected);
    }
    cl_mem input = make_buffer(w, CL_MEM_READ_ONLY, n * sizeof *x, x);
    cl_mem result = make_buffer(w, CL_MEM_READ_WRITE, sizeof(float), NULL);
    cl_event done = NULL;
    float got = -12345;
    if (input && result &&
        check_status(w, tailor_reduce(w->shared->handle, w->queue, op, TAILOR_F32, n, input, 0, result, 0, 0,
                                      NULL, &done),
                     "tailor_reduce") == 0 &&
        read_after(w, result, sizeof got, &got, done) == 0 && got != expected)
        FAIL(w, "reduce op %d n=%zu: got %g, expected %g (%s)", (int)op, n, got, expected,
             tailor_last_variant());
    if (input)
        clReleaseMemObject(input);
    if (result)
        clReleaseMemObject(result);
    free(x);
}

static size_t vector_index(size_t j, size_t length, long long inc)
{
    return inc > 0 ? j * (size_t)inc : (length - 1 - j) * (size_t)(-inc);
}

static float stored_at(const float *m, tailor_layout layout, size_t ld, size_t row, size_t col)
{
    return layout == TAILOR_ROW_MAJOR ? m[row * ld + col] : m[col * ld + row];
}

static const float coefficients[] = {0, 1, 2, -1, 0.5f};

// alpha * dot + beta * c as BLAS defines it: beta == 0 does not read c,
// alpha == 0 gives beta * c.
static float combine(float alpha, double dot, float beta, float c)
{
    if (alpha == 0.0f)
        return beta * c;
    return (float)((double)alpha * dot + (beta != 0.0f ? (double)beta * c : 0.0));
}

static void run_sgemv(struct worker *w)
{
    static const long long increments[] = {1, 2, -1};
    tailor_layout layout = (tailor_layout)pick(w, 2);
    tailor_trans trans = (tailor_trans)pick(w, 2);
    size_t m = between(w, 1, 300), n = between(w, 1, 300);
    if (w->shared->fixed_shapes)
        m = n = w->shared->config->square;
    float alpha = coefficients[pick(w, 5)], beta = coefficients[pick(w, 5)];
    long long incx = increments[pick(w, 3)], incy = increments[pick(w, 3)];
    size_t lda = (layout == TAILOR_ROW_MAJOR ? n : m) + pick(w, 3);
    size_t outputs = trans == TAILOR_NO_TRANS ? m : n, dots = trans == TAILOR_NO_TRANS ? n : m;
    size_t a_count = (layout == TAILOR_ROW_MAJOR ? m : n) * lda;
    size_t x_count = (dots - 1) * (size_t)llabs(incx) + 1;
    size_t y_count = (outputs - 1) * (size_t)llabs(incy) + 1 + GUARD;
    float *a = malloc(a_count * sizeof *a), *x = malloc(x_count * sizeof *x);
    float *y = malloc(y_count * sizeof *y), *expected = malloc(y_count * sizeof *y);
    float *got = malloc(y_count * sizeof *y);
    cl_mem a_buffer = NULL, x_buffer = NULL, y_buffer = NULL;
    if (!a || !x || !y || !expected || !got) {
        FAIL(w, "no memory");
        goto done;
    }
    fill_small_integers(w, a, a_count);
    fill_small_integers(w, x, x_count);
    fill_small_integers(w, y, y_count);
    memcpy(expected, y, y_count * sizeof *y);
    for (size_t i = 0; i < outputs; ++i) {
        double dot = 0;
        for (size_t j = 0; j < dots; ++j)
            dot += (double)(trans == TAILOR_NO_TRANS ? stored_at(a, layout, lda, i, j)
                                                     : stored_at(a, layout, lda, j, i)) *
                   x[vector_index(j, dots, incx)];
        size_t at = vector_index(i, outputs, incy);
        expected[at] = combine(alpha, dot, beta, y[at]);
    }
    // A and x in f32 (tailor_sgemv), f16 or bf16 (tailor_gemv): small
    // integers are exact in each.
    static const tailor_dtype types[] = {TAILOR_F32, TAILOR_F16, TAILOR_BF16};
    tailor_dtype type = types[pick(w, 3)];
    size_t bytes = gemm_type_bytes(type);
    void *a_stored = malloc(a_count * bytes), *x_stored = malloc(x_count * bytes);
    if (!a_stored || !x_stored) {
        FAIL(w, "no memory");
        free(a_stored);
        free(x_stored);
        goto done;
    }
    for (size_t i = 0; i < a_count; ++i)
        gemm_put(a_stored, type, i, a[i]);
    for (size_t i = 0; i < x_count; ++i)
        gemm_put(x_stored, type, i, x[i]);
    a_buffer = make_buffer(w, CL_MEM_READ_ONLY, a_count * bytes, a_stored);
    x_buffer = make_buffer(w, CL_MEM_READ_ONLY, x_count * bytes, x_stored);
    y_buffer = make_buffer(w, CL_MEM_READ_WRITE, y_count * sizeof *y, y);
    free(a_stored);
    free(x_stored);
    cl_event done = NULL;
    if (!a_buffer || !x_buffer || !y_buffer)
        goto done;
    tailor_status status =
        type == TAILOR_F32
            ? tailor_sgemv(w->shared->handle, w->queue, layout, trans, m, n, alpha, a_buffer, 0, lda, x_buffer, 0,
                           incx, beta, y_buffer, 0, incy, 0, NULL, &done)
            : tailor_gemv(w->shared->handle, w->queue, layout, trans, m, n, alpha, type, a_buffer, 0, lda,
                          x_buffer, 0, incx, beta, TAILOR_F32, y_buffer, 0, incy, 0, NULL, &done);
    if (check_status(w, status, "tailor_gemv") == 0 &&
        read_after(w, y_buffer, y_count * sizeof *y, got, done) == 0) {
        char what[128];
        snprintf(what, sizeof what, "gemv %s %s %s %zu x %zu alpha %g beta %g incx %lld incy %lld",
                 gemm_type_name(type), layout == TAILOR_ROW_MAJOR ? "row" : "column",
                 trans == TAILOR_NO_TRANS ? "n" : "t", m, n, alpha, beta, incx, incy);
        compare_floats(w, what, got, expected, y_count);
    }
done:
    if (a_buffer)
        clReleaseMemObject(a_buffer);
    if (x_buffer)
        clReleaseMemObject(x_buffer);
    if (y_buffer)
        clReleaseMemObject(y_buffer);
    free(a);
    free(x);
    free(y);
    free(expected);
    free(got);
}

// Transposes: raw bytes for tailor_transpose (any element size), float or
// double values for the scaled copies (alpha = 1 moves the bits, 0 writes
// +0.0, others multiply).
static void run_transpose(struct worker *w, enum operation op)
{
    static const size_t sizes[] = {1, 2, 4, 8, 16};
    static const double alphas[] = {1, 0, -2, 0.5};
    size_t e = op == OP_TRANSPOSE ? sizes[pick(w, 5)] : op == OP_SOMATCOPY ? 4 : 8;
    double alpha = alphas[pick(w, 4)];
    size_t rows = between(w, 1, 200), cols = between(w, 1, 200);
    if (w->shared->fixed_shapes) {
        rows = w->shared->config->rows;
        cols = w->shared->config->cols;
    }
    size_t lda = cols + pick(w, 5), ldb = rows + pick(w, 5);
    size_t a_count = rows * lda, b_count = cols * ldb + GUARD;
    unsigned char *a = malloc(a_count * e), *expected = malloc(b_count * e), *got = malloc(b_count * e);
    cl_mem a_buffer = NULL, b_buffer = NULL;
    if (!a || !expected || !got) {
        FAIL(w, "no memory");
        goto done;
    }
    for (size_t i = 0; i < a_count; ++i) {
        if (op == OP_SOMATCOPY) {
            float v = small_integer(w);
            memcpy(a + i * e, &v, e);
        } else if (op == OP_DOMATCOPY) {
            double v = small_integer(w);
            memcpy(a + i * e, &v, e);
        } else {
            for (size_t byte = 0; byte < e; ++byte)
                a[i * e + byte] = (unsigned char)(test_random(&w->seed) >> 24);
        }
    }
    for (size_t i = 0; i < b_count * e; ++i)
        expected[i] = (unsigned char)(i * 31 + 7);
    a_buffer = make_buffer(w, CL_MEM_READ_ONLY, a_count * e, a);
    b_buffer = make_buffer(w, CL_MEM_READ_WRITE, b_count * e, expected);
    for (size_t r = 0; r < rows; ++r)
        for (size_t c = 0; c < cols; ++c) {
            const unsigned char *from = a + (r * lda + c) * e;
            unsigned char *to = expected + (c * ldb + r) * e;
            if (op == OP_SOMATCOPY && alpha != 1) {
                float v;
                memcpy(&v, from, e);
                v = alpha == 0 ? 0.0f : v * (float)alpha;
                memcpy(to, &v, e);
            } else if (op == OP_DOMATCOPY && alpha != 1) {
                double v;
                memcpy(&v, from, e);
                v = alpha == 0 ? 0.0 : v * alpha;
                memcpy(to, &v, e);
            } else {
                memcpy(to, from, e);
            }
        }
    cl_event done = NULL;
    tailor_context *h = w->shared->handle;
    tailor_status status =
        !a_buffer || !b_buffer ? TAILOR_ERROR_INVALID_BUFFER
        : op == OP_TRANSPOSE
            ? tailor_transpose(h, w->queue, e, rows, cols, a_buffer, 0, lda, b_buffer, 0, ldb, 0, NULL, &done)
        : op == OP_SOMATCOPY ? tailor_somatcopy(h, w->queue, rows, cols, (float)alpha, a_buffer, 0, lda,
                                                b_buffer, 0, ldb, 0, NULL, &done)
                             : tailor_domatcopy(h, w->queue, rows, cols, alpha, a_buffer, 0, lda, b_buffer, 0,
                                                ldb, 0, NULL, &done);
    if (check_status(w, status, operation_names[op]) == 0 && read_after(w, b_buffer, b_count * e, got, done) == 0 &&
        memcmp(got, expected, b_count * e) != 0)
        FAIL(w, "%s of %zu-byte elements, %zu x %zu, lda %zu, ldb %zu, alpha %g: wrong result (%s)",
             operation_names[op], e, rows, cols, lda, ldb, alpha, tailor_last_variant());
done:
    if (a_buffer)
        clReleaseMemObject(a_buffer);
    if (b_buffer)
        clReleaseMemObject(b_buffer);
    free(a);
    free(expected);
    free(got);
}

static void run_sgemm(struct worker *w)
{
    tailor_layout layout = (tailor_layout)pick(w, 2);
    tailor_trans ta = (tailor_trans)pick(w, 2), tb = (tailor_trans)pick(w, 2);
    // One shape in eight has m = 1 or n = 1 (through tailor_sgemv).
    size_t m = pick(w, 8) == 0 ? 1 : between(w, 1, 70), n = pick(w, 8) == 0 ? 1 : between(w, 1, 70);
    size_t k = between(w, 1, 70);
    if (w->shared->fixed_shapes) {
        size_t square = w->shared->config->square, one = pick(w, 8);
        m = one == 0 ? 1 : square;
        n = one == 1 ? 1 : square;
        k = square;
    }
    float alpha = coefficients[pick(w, 5)], beta = coefficients[pick(w, 5)];
    // Stored A is m x k (k x m transposed), B k x n (n x k), C m x n.
    size_t a_rows = ta == TAILOR_NO_TRANS ? m : k, a_cols = ta == TAILOR_NO_TRANS ? k : m;
    size_t b_rows = tb == TAILOR_NO_TRANS ? k : n, b_cols = tb == TAILOR_NO_TRANS ? n : k;
    int row = layout == TAILOR_ROW_MAJOR;
    size_t lda = (row ? a_cols : a_rows) + pick(w, 2) * 4, ldb = (row ? b_cols : b_rows) + pick(w, 2);
    size_t ldc = (row ? n : m) + pick(w, 3);
    size_t a_count = (row ? a_rows : a_cols) * lda, b_count = (row ? b_rows : b_cols) * ldb;
    size_t c_count = (row ? m : n) * ldc + GUARD;
    float *a = malloc(a_count * sizeof *a), *b = malloc(b_count * sizeof *b);
    float *c = malloc(c_count * sizeof *c), *expected = malloc(c_count * sizeof *c);
    float *got = malloc(c_count * sizeof *c);
    cl_mem a_buffer = NULL, b_buffer = NULL, c_buffer = NULL;
    if (!a || !b || !c || !expected || !got) {
        FAIL(w, "no memory");
        goto done;
    }
    fill_small_integers(w, a, a_count);
    fill_small_integers(w, b, b_count);
    fill_small_integers(w, c, c_count);
    memcpy(expected, c, c_count * sizeof *c);
    for (size_t i = 0; i < m; ++i)
        for (size_t j = 0; j < n; ++j) {
            double dot = 0;
            for (size_t p = 0; p < k; ++p)
                dot += (double)(ta == TAILOR_NO_TRANS ? stored_at(a, layout, lda, i, p)
                                                      : stored_at(a, layout, lda, p, i)) *
                       (tb == TAILOR_NO_TRANS ? stored_at(b, layout, ldb, p, j) : stored_at(b, layout, ldb, j, p));
            size_t at = row ? i * ldc + j : j * ldc + i;
            expected[at] = combine(alpha, dot, beta, c[at]);
        }
    a_buffer = make_buffer(w, CL_MEM_READ_ONLY, a_count * sizeof *a, a);
    b_buffer = make_buffer(w, CL_MEM_READ_ONLY, b_count * sizeof *b, b);
    c_buffer = make_buffer(w, CL_MEM_READ_WRITE, c_count * sizeof *c, c);
    cl_event done = NULL;
    if (a_buffer && b_buffer && c_buffer &&
        check_status(w, tailor_sgemm(w->shared->handle, w->queue, layout, ta, tb, m, n, k, alpha, a_buffer, 0, lda,
                                     b_buffer, 0, ldb, beta, c_buffer, 0, ldc, 0, NULL, &done),
                     "tailor_sgemm") == 0 &&
        read_after(w, c_buffer, c_count * sizeof *c, got, done) == 0) {
        char what[128];
        snprintf(what, sizeof what, "sgemm %s %c%c %zu x %zu x %zu alpha %g beta %g", row ? "row" : "column",
                 ta == TAILOR_NO_TRANS ? 'n' : 't', tb == TAILOR_NO_TRANS ? 'n' : 't', m, n, k, alpha, beta);
        compare_floats(w, what, got, expected, c_count);
    }
done:
    if (a_buffer)
        clReleaseMemObject(a_buffer);
    if (b_buffer)
        clReleaseMemObject(b_buffer);
    if (c_buffer)
        clReleaseMemObject(c_buffer);
    free(a);
    free(b);
    free(c);
    free(expected);
    free(got);
}

static void run_operation(struct worker *w, enum operation op)
{
    ++w->calls[op];
    switch (op) {
    case OP_REDUCE:
        run_reduce(w);
        break;
    case OP_SGEMV:
        run_sgemv(w);
        break;
    case OP_SGEMM:
        run_sgemm(w);
        break;
    default:
        run_transpose(w, op);
        break;
    }
}

static void *work(void *argument)
{
    struct worker *w = argument;
    struct shared *shared = w->shared;
    int operations = shared->has_fp64 ? OP_COUNT : OP_DOMATCOPY;
    // The first call of each thread is operation (index mod operations), all
    // released at once: the programs are built while the others wait for them.
    pthread_barrier_wait(&shared->start);
    for (int call = 0; call < shared->calls; ++call) {
        enum operation op = call == 0 ? (enum operation)(w->index % operations) : (enum operation)pick(w, (size_t)operations);
        run_operation(w, op);
    }
    return NULL;
}

// Entries (not temporary files) in the cache directory.
static size_t cache_entries(const char *dir)
{
    size_t count = 0;
    DIR *listing = opendir(dir);
    for (struct dirent *e; listing && (e = readdir(listing));) {
        size_t length = strlen(e->d_name);
        count += length > 4 && strcmp(e->d_name + length - 4, ".bin") == 0 && e->d_name[0] != '.';
    }
    if (listing)
        closedir(listing);
    return count;
}

static void run_handle(const struct test_device *device, const struct config *config, int calls,
                       const char *cache_dir, unsigned long long seed)
{
    const char *profile = config->profile ? config->profile : device->info.profile_name;
    const char *tuning = config->tuning;
    tailor_settings settings;
    tailor_default_settings(&settings);
    settings.profile = profile;
    settings.tuning = tuning;
    // Programs of each handle differ from those of the others (POCL keys its
    // compiled kernels by program), so each kernel keeps one geometry there.
    char options[64];
    snprintf(options, sizeof options, "-DTEST_THREADS_HANDLE=%llu", seed);
    settings.build_options = options;
    settings.cache_dir = cache_dir;
    settings.cache_mode = TAILOR_CACHE_ON;
    struct shared shared = {.device = device, .config = config, .has_fp64 = device->info.has_fp64,
                            .calls = calls};
    shared.fixed_shapes = strstr(device->choice.platform_name, "Portable Computing Language") != NULL;
    size_t entries_before = cache_entries(cache_dir);
    CHECK_STATUS(tailor_context_create(device->context, device->choice.device, &settings, &shared.handle),
                 TAILOR_SUCCESS);
    if (!shared.handle)
        return;
    fprintf(stderr, "  [%s %s] %d threads, %d calls each, %s shapes\n", profile, tuning, THREADS, calls,
            shared.fixed_shapes ? "fixed (POCL)" : "random");
    pthread_barrier_init(&shared.start, NULL, THREADS);
    pthread_t threads[THREADS];
    struct worker workers[THREADS];
    memset(workers, 0, sizeof workers);
    int started = 0;
    for (int t = 0; t < THREADS; ++t) {
        struct worker *w = &workers[t];
        w->shared = &shared;
        w->index = t;
        w->seed = 0x9e3779b97f4a7c15ull * (unsigned long long)(t + 1) + seed;
        // A quarter of the queues are out of order where the device has them.
        cl_int error;
        w->queue = clCreateCommandQueue(device->context, device->choice.device,
                                        t % 4 == 3 ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0, &error);
        if (error != CL_SUCCESS)
            w->queue = clCreateCommandQueue(device->context, device->choice.device, 0, &error);
        CHECK(error == CL_SUCCESS, "clCreateCommandQueue: %d", (int)error);
    }
    for (int t = 0; t < THREADS; ++t) {
        if (!workers[t].queue)
            break;
        CHECK(pthread_create(&threads[t], NULL, work, &workers[t]) == 0, "pthread_create");
        ++started;
    }
    if (started < THREADS) {
        // The barrier would never open: nothing more to test here.
        fprintf(stderr, "only %d threads started\n", started);
        exit(1);
    }
    int per_operation[OP_COUNT] = {0};
    for (int t = 0; t < THREADS; ++t) {
        pthread_join(threads[t], NULL);
        CHECK(workers[t].failures == 0, "thread %d had %d failures", t, workers[t].failures);
        for (int op = 0; op < OP_COUNT; ++op)
            per_operation[op] += workers[t].calls[op];
        clReleaseCommandQueue(workers[t].queue);
    }
    pthread_barrier_destroy(&shared.start);
    fprintf(stderr, "    calls:");
    for (int op = 0; op < OP_COUNT; ++op)
        fprintf(stderr, " %s %d", operation_names[op], per_operation[op]);
    fputc('\n', stderr);
    tailor_cache_stats stats;
    tailor_context_cache_stats(shared.handle, &stats);
    uint64_t built = stats.source_builds + stats.disk_hits;
    fprintf(stderr, "    programs: %llu built from source, %llu from the cache, %llu memory hits\n",
            (unsigned long long)stats.source_builds, (unsigned long long)stats.disk_hits,
            (unsigned long long)stats.memory_hits);
    // Reductions, GEMV, transposes and SGEMM need a program each at least.
    // None is built twice: each build stored an entry of its own (a second
    // build of one program would replace its entry).
    size_t entries = cache_entries(cache_dir) - entries_before;
    CHECK(built >= 4 && built <= tailor_program_count(),
          "%llu programs built for %zu in the registry", (unsigned long long)built, tailor_program_count());
    CHECK(stats.stores == stats.source_builds && entries == stats.source_builds,
          "%llu programs built from source, %llu stored, %zu new cache entries",
          (unsigned long long)stats.source_builds, (unsigned long long)stats.stores, entries);
    CHECK(stats.bad_entries == 0, "%llu bad cache entries", (unsigned long long)stats.bad_entries);
    tailor_context_release(&shared.handle);
    fprintf(stderr, "    %zu variants:", seen.count);
    for (size_t i = 0; i < seen.count; ++i)
        fprintf(stderr, " %s", seen.names[i]);
    fputc('\n', stderr);
    seen.count = 0;
}

int main(int argc, char **argv)
{
    struct test_options options = test_parse_options(argc, argv);
    int calls = 24;
    for (int i = 1; i < argc; ++i)
        if (i + 1 < argc && strcmp(argv[i], "--calls") == 0)
            calls = atoi(argv[++i]);
    char cache_dir[64];
    snprintf(cache_dir, sizeof cache_dir, "/tmp/tailor-threads-%ld", (long)getpid());
    struct test_device devices[16];
    size_t count = test_open_devices(devices, 16);
    static const struct config configs[] = {
        {NULL, "GEMV_SPLIT_MIN_ELEMENTS=64", 150, 150, 77},
        {"generic",
         "GEMV_SPLIT_MIN_ELEMENTS=64,SGEMM_SMALL_DIM=0,SGEMM_SMALL_CUBE=0,SGEMM_MID_PERCENT=0,"
         "SGEMM_BM=16,SGEMM_BN=16,SGEMM_BK=8,SGEMM_PACK_B_MIN_M=1",
         100, 61, 130},
        {"generic", "", 45, 33, 97},
    };
    for (size_t d = 0; d < count; ++d)
        for (size_t c = 0; c < sizeof configs / sizeof configs[0]; ++c)
            if (test_takes_profile(&options, &devices[d], configs[c].profile))
                run_handle(&devices[d], &configs[c], calls, cache_dir, c + 1);
    test_close_devices(devices, count);
    size_t removed = 0;
    setenv("TAILOR_CACHE_DIR", cache_dir, 1);
    tailor_cache_clear(&removed);
    rmdir(cache_dir);
    return test_exit_status("test_threads");
}
