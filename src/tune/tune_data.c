#include "tune_data.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

// Outputs compared per run besides the corners.
#define SAMPLES 48
// Elements past the end of every buffer: the edge variants' offsets.
#define SLACK 64

struct tune_data {
    tailor_call call, edge[2]; // the edge variants: aligned offsets, odd offsets
    size_t element_bytes;
    cl_mem a, b, c;
    unsigned char *host_a, *host_b, *host_c; // inputs, and C or y before the call
    size_t a_count, b_count, c_count;      // elements
    int reduced[3];                          // reductions: the reference below is known
    double reduce_exact[3], reduce_bound[3]; // of the call and of its edge variants
};

static uint64_t next_random(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

// Uniform in [-1, 1).
static double next_real(uint64_t *state)
{
    return (double)(next_random(state) >> 40) / (double)(1ull << 23) - 1.0;
}

static size_t lines_extent(size_t offset, size_t lines, size_t ld, size_t line_length)
{
    return lines == 0 || line_length == 0 ? offset : offset + (lines - 1) * ld + line_length;
}

static size_t vector_extent(size_t offset, size_t length, long long inc)
{
    unsigned long long step = inc < 0 ? (unsigned long long)-inc : (unsigned long long)inc;
    return length == 0 ? offset : offset + (length - 1) * step + 1;
}

// Element i of a strided vector (BLAS: a negative increment starts at the far end).
static size_t vector_index(size_t offset, size_t length, long long inc, size_t i)
{
    size_t step = (size_t)(inc < 0 ? -inc : inc);
    return offset + (inc < 0 ? length - 1 - i : i) * step;
}

// Index of stored element (r, c) of a matrix in `layout` with leading dimension ld.
static size_t stored_index(tailor_layout layout, size_t offset, size_t ld, size_t r, size_t c)
{
    return offset + (layout == TAILOR_ROW_MAJOR ? r * ld + c : c * ld + r);
}

// Packed leading dimension of a stored rows x cols matrix.
static size_t packed_ld(tailor_layout layout, size_t rows, size_t cols)
{
    size_t ld = layout == TAILOR_ROW_MAJOR ? cols : rows;
    return ld ? ld : 1;
}

static void normalize(tailor_call *call)
{
    switch (call->operation) {
    case TAILOR_OP_REDUCE:
        break;
    case TAILOR_OP_SGEMV:
        if (!call->lda)
            call->lda = packed_ld(call->layout, call->m, call->n);
        call->incx = call->incx ? call->incx : 1;
        call->incy = call->incy ? call->incy : 1;
        break;
    case TAILOR_OP_TRANSPOSE:
        call->element_bytes = call->element_bytes ? call->element_bytes : 4;
        if (call->scaled)
            call->element_bytes = call->dtype == TAILOR_F64 ? 8 : 4;
        call->lda = call->lda ? call->lda : (call->n ? call->n : 1);
        call->ldb = call->ldb ? call->ldb : (call->m ? call->m : 1);
        break;
    case TAILOR_OP_SGEMM: {
        int ta = call->trans_a == TAILOR_TRANS, tb = call->trans_b == TAILOR_TRANS;
        if (!call->lda)
            call->lda = packed_ld(call->layout, ta ? call->k : call->m, ta ? call->m : call->k);
        if (!call->ldb)
            call->ldb = packed_ld(call->layout, tb ? call->n : call->k, tb ? call->k : call->n);
        if (!call->ldc)
            call->ldc = packed_ld(call->layout, call->m, call->n);
        break;
    }
    case TAILOR_OP_GEMM: // not searched by the tuner (no tasks)
        break;
    }
}

static size_t shrink(size_t value, size_t by)
{
    return value > by ? value - by : value;
}

// An edge variant: dimensions a little short of the call's (so tiles end
// partly filled), the same leading dimensions, offsets that keep the
// call's vector alignment (odd = 0: the same programs run) or break it.
static tailor_call edge_of(const tailor_call *call, int odd)
{
    tailor_call edge = *call;
    edge.m = shrink(call->m, 1);
    edge.n = shrink(call->n, 3);
    edge.k = shrink(call->k, 5);
    edge.a_offset = call->a_offset + (odd ? 1 : 16);
    edge.b_offset = call->b_offset + (odd ? 2 : 32);
    edge.c_offset = call->c_offset + (odd ? 3 : 48);
    return edge;
}

static cl_mem make_buffer(cl_context context, cl_command_queue queue, const void *host, size_t bytes,
                          tailor_status *status)
{
    cl_int error;
    cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &error);
    if (error == CL_SUCCESS && host)
        error = clEnqueueWriteBuffer(queue, buffer, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
    if (error != CL_SUCCESS) {
        if (buffer)
            clReleaseMemObject(buffer);
        *status = error_from_cl(error, "a tuning buffer (clCreateBuffer, clEnqueueWriteBuffer)");
        return NULL;
    }
    return buffer;
}

static unsigned char *random_host(size_t count, size_t element_bytes, int real, uint64_t *seed)
{
    unsigned char *host = malloc(count * element_bytes + 1);
    if (!host)
        return NULL;
    for (size_t i = 0; i < count; ++i) {
        if (real && element_bytes == 4) {
            float v = (float)next_real(seed);
            memcpy(host + i * 4, &v, 4);
        } else if (real && element_bytes == 8) {
            double v = next_real(seed);
            memcpy(host + i * 8, &v, 8);
        } else {
            for (size_t byte = 0; byte < element_bytes; ++byte)
                host[i * element_bytes + byte] = (unsigned char)(next_random(seed) >> 56);
        }
    }
    return host;
}

static void extents(const tailor_call *c, size_t *a, size_t *b, size_t *out)
{
    *a = *b = *out = 0;
    switch (c->operation) {
    case TAILOR_OP_REDUCE:
        *a = c->a_offset + c->n;
        *out = c->c_offset + 1;
        break;
    case TAILOR_OP_SGEMV: {
        int t = c->trans_a == TAILOR_TRANS;
        size_t lines = c->layout == TAILOR_ROW_MAJOR ? c->m : c->n;
        size_t length = c->layout == TAILOR_ROW_MAJOR ? c->n : c->m;
        *a = lines_extent(c->a_offset, lines, c->lda, length);
        *b = vector_extent(c->b_offset, t ? c->m : c->n, c->incx);
        *out = vector_extent(c->c_offset, t ? c->n : c->m, c->incy);
        break;
    }
    case TAILOR_OP_TRANSPOSE:
        *a = lines_extent(c->a_offset, c->m, c->lda, c->n);
        *out = lines_extent(c->b_offset, c->n, c->ldb, c->m);
        break;
    case TAILOR_OP_SGEMM: {
        int ta = c->trans_a == TAILOR_TRANS, tb = c->trans_b == TAILOR_TRANS;
        int row = c->layout == TAILOR_ROW_MAJOR;
        size_t ar = ta ? c->k : c->m, ac = ta ? c->m : c->k;
        size_t br = tb ? c->n : c->k, bc = tb ? c->k : c->n;
        *a = lines_extent(c->a_offset, row ? ar : ac, c->lda, row ? ac : ar);
        *b = lines_extent(c->b_offset, row ? br : bc, c->ldb, row ? bc : br);
        *out = lines_extent(c->c_offset, row ? c->m : c->n, c->ldc, row ? c->n : c->m);
        break;
    }
    case TAILOR_OP_GEMM:
        break;
    }
}

void tune_data_release(struct tune_data *data)
{
    if (!data)
        return;
    if (data->a)
        clReleaseMemObject(data->a);
    if (data->b)
        clReleaseMemObject(data->b);
    if (data->c)
        clReleaseMemObject(data->c);
    free(data->host_a);
    free(data->host_b);
    free(data->host_c);
    free(data);
}

struct tune_data *tune_data_create(cl_context context, cl_command_queue queue,
                                   const tailor_call *call, tailor_status *status)
{
    *status = TAILOR_SUCCESS;
    struct tune_data *d = calloc(1, sizeof *d);
    if (!d) {
        *status = error_set(TAILOR_ERROR_OUT_OF_HOST_MEMORY, "no memory for tuning data");
        return NULL;
    }
    d->call = *call;
    normalize(&d->call);
    d->edge[0] = edge_of(&d->call, 0);
    d->edge[1] = edge_of(&d->call, 1);
    const tailor_call *c = &d->call;
    int real = 1;
    if (c->operation == TAILOR_OP_REDUCE)
        d->element_bytes = c->dtype == TAILOR_F64 ? 8 : 4;
    else if (c->operation == TAILOR_OP_TRANSPOSE)
        d->element_bytes = c->element_bytes, real = c->scaled;
    else
        d->element_bytes = 4;
    size_t a, b, out;
    extents(c, &a, &b, &out);
    d->a_count = a + SLACK;
    d->b_count = b ? b + SLACK : 0;
    d->c_count = out + SLACK;
    uint64_t seed = 0x9e3779b97f4a7c15ull ^ (c->m * 31 + c->n * 17 + c->k);
    d->host_a = random_host(d->a_count, d->element_bytes, real, &seed);
    d->host_b = d->b_count ? random_host(d->b_count, d->element_bytes, real, &seed) : NULL;
    d->host_c = random_host(d->c_count, d->element_bytes, real, &seed);
    if (!d->host_a || (d->b_count && !d->host_b) || !d->host_c) {
        *status = error_set(TAILOR_ERROR_OUT_OF_HOST_MEMORY, "no host memory for tuning data");
        tune_data_release(d);
        return NULL;
    }
    d->a = make_buffer(context, queue, d->host_a, d->a_count * d->element_bytes, status);
    if (d->a && d->b_count)
        d->b = make_buffer(context, queue, d->host_b, d->b_count * d->element_bytes, status);
    if (d->a && (d->b || !d->b_count))
        d->c = make_buffer(context, queue, d->host_c, d->c_count * d->element_bytes, status);
    if (!d->c) {
        tune_data_release(d);
        return NULL;
    }
    return d;
}

tailor_status tune_data_run(tailor_context *ctx, cl_command_queue queue, struct tune_data *d,
                            int edge)
{
    const tailor_call *c = edge ? &d->edge[edge - 1] : &d->call;
    switch (c->operation) {
    case TAILOR_OP_REDUCE:
        return tailor_reduce(ctx, queue, c->reduce_op, c->dtype, c->n, d->a, c->a_offset, d->c,
                             c->c_offset, 0, NULL, NULL);
    case TAILOR_OP_SGEMV:
        return tailor_sgemv(ctx, queue, c->layout, c->trans_a, c->m, c->n, c->alpha, d->a,
                             c->a_offset, c->lda, d->b, c->b_offset, c->incx, c->beta, d->c,
                             c->c_offset, c->incy, 0, NULL, NULL);
    case TAILOR_OP_TRANSPOSE:
        if (c->scaled && c->dtype == TAILOR_F64)
            return tailor_domatcopy(ctx, queue, c->m, c->n, c->alpha, d->a, c->a_offset, c->lda,
                                    d->c, c->b_offset, c->ldb, 0, NULL, NULL);
        if (c->scaled)
            return tailor_somatcopy(ctx, queue, c->m, c->n, c->alpha, d->a, c->a_offset, c->lda,
                                    d->c, c->b_offset, c->ldb, 0, NULL, NULL);
        return tailor_transpose(ctx, queue, c->element_bytes, c->m, c->n, d->a, c->a_offset, c->lda,
                                d->c, c->b_offset, c->ldb, 0, NULL, NULL);
    case TAILOR_OP_SGEMM:
        return tailor_sgemm(ctx, queue, c->layout, c->trans_a, c->trans_b, c->m, c->n, c->k,
                            c->alpha, d->a, c->a_offset, c->lda, d->b, c->b_offset, c->ldb, c->beta,
                            d->c, c->c_offset, c->ldc, 0, NULL, NULL);
    case TAILOR_OP_GEMM:
        break;
    }
    return error_set(TAILOR_ERROR_UNKNOWN_OPERATION, "no operation %d", (int)c->operation);
}

static double real_at(const struct tune_data *d, const unsigned char *host, size_t index)
{
    if (d->element_bytes == 8) {
        double v;
        memcpy(&v, host + index * 8, 8);
        return v;
    }
    float v;
    memcpy(&v, host + index * 4, 4);
    return v;
}

// The output positions compared: the first and last outputs, the ends of
// the first and last lines, and SAMPLES more spread by a fixed generator.
struct sample {
    size_t i, j; // output (row, column); vectors: i only
};

static size_t make_samples(size_t rows, size_t cols, struct sample *samples)
{
    size_t count = 0;
    if (!rows || !cols)
        return 0;
    const size_t corners[4][2] = {{0, 0}, {0, cols - 1}, {rows - 1, 0}, {rows - 1, cols - 1}};
    for (int i = 0; i < 4; ++i)
        samples[count++] = (struct sample){corners[i][0], corners[i][1]};
    uint64_t seed = 0x2545f4914f6cdd1dull ^ (rows * 7919 + cols);
    for (int i = 0; i < SAMPLES; ++i)
        samples[count++] = (struct sample){next_random(&seed) % rows, next_random(&seed) % cols};
    return count;
}

static tailor_status read_element(cl_command_queue queue, const struct tune_data *d, size_t index,
                                  void *value)
{
    cl_int error = clEnqueueReadBuffer(queue, d->c, CL_TRUE, index * d->element_bytes,
                                       d->element_bytes, value, 0, NULL, NULL);
    return error == CL_SUCCESS ? TAILOR_SUCCESS : error_from_cl(error, "clEnqueueReadBuffer");
}

// Expected value and error bound of output (i, j) of a call.
static void reference(const struct tune_data *d, const tailor_call *c, size_t i, size_t j,
                      double *exact, double *bound)
{
    double sum = 0, magnitude = 0;
    if (c->operation == TAILOR_OP_SGEMV) {
        int t = c->trans_a == TAILOR_TRANS;
        size_t k = t ? c->m : c->n, outputs = t ? c->n : c->m;
        for (size_t p = 0; p < k; ++p) {
            size_t r = t ? p : i, col = t ? i : p;
            double x = real_at(d, d->host_b, vector_index(c->b_offset, k, c->incx, p));
            double a = real_at(d, d->host_a, stored_index(c->layout, c->a_offset, c->lda, r, col));
            sum += a * x;
            magnitude += fabs(a * x);
        }
        double y = real_at(d, d->host_c, vector_index(c->c_offset, outputs, c->incy, i));
        double beta_term = c->beta == 0 ? 0 : (double)c->beta * y;
        *exact = (double)c->alpha * sum + beta_term;
        *bound = (double)(k + 4) * ldexp(1.0, -24) * (fabs(c->alpha) * magnitude + fabs(beta_term));
        return;
    }
    // SGEMM
    int ta = c->trans_a == TAILOR_TRANS, tb = c->trans_b == TAILOR_TRANS;
    for (size_t p = 0; p < c->k; ++p) {
        double a = real_at(d, d->host_a,
                           stored_index(c->layout, c->a_offset, c->lda, ta ? p : i, ta ? i : p));
        double b = real_at(d, d->host_b,
                           stored_index(c->layout, c->b_offset, c->ldb, tb ? j : p, tb ? p : j));
        sum += a * b;
        magnitude += fabs(a * b);
    }
    double old = real_at(d, d->host_c, stored_index(c->layout, c->c_offset, c->ldc, i, j));
    double beta_term = c->beta == 0 ? 0 : (double)c->beta * old;
    *exact = (double)c->alpha * sum + beta_term;
    *bound = 2.0 * (double)(c->k + 2) * ldexp(1.0, -24) *
             (fabs(c->alpha) * magnitude + fabs(beta_term));
}

static enum tune_check wrong(char *message, size_t size, const char *what, const tailor_call *c,
                             double got, double exact, double bound)
{
    char shape[96];
    tune_data_describe(c, shape, sizeof shape);
    snprintf(message, size, "%s: %s is %.9g, expected %.9g (bound %.3g)", shape, what, got, exact,
             bound);
    return TUNE_CHECK_WRONG;
}

// The whole input is summed once per variant: reductions are long.
static void reduce_reference(struct tune_data *d, int edge)
{
    const tailor_call *c = edge ? &d->edge[edge - 1] : &d->call;
    double exact = 0, magnitude = 0;
    for (size_t i = 0; i < c->n; ++i) {
        double x = real_at(d, d->host_a, c->a_offset + i);
        if (i == 0 || c->reduce_op == TAILOR_REDUCE_SUM)
            exact = c->reduce_op == TAILOR_REDUCE_SUM ? exact + x : x;
        else
            exact = c->reduce_op == TAILOR_REDUCE_MIN ? fmin(exact, x) : fmax(exact, x);
        magnitude += fabs(x);
    }
    double epsilon = ldexp(1.0, d->element_bytes == 8 ? -53 : -24);
    d->reduce_exact[edge] = exact;
    d->reduce_bound[edge] = c->reduce_op == TAILOR_REDUCE_SUM ? 128 * epsilon * magnitude : 0;
    d->reduced[edge] = 1;
}

static enum tune_check check_reduce(cl_command_queue queue, struct tune_data *d, int edge,
                                    tailor_status *status, char *message, size_t size)
{
    const tailor_call *c = edge ? &d->edge[edge - 1] : &d->call;
    if (!d->reduced[edge])
        reduce_reference(d, edge);
    unsigned char value[8];
    if ((*status = read_element(queue, d, c->c_offset, value)) != TAILOR_SUCCESS)
        return TUNE_CHECK_FAILED;
    double got = real_at(d, value, 0), exact = d->reduce_exact[edge], bound = d->reduce_bound[edge];
    if (c->n && !(fabs(got - exact) <= bound))
        return wrong(message, size, "the result", c, got, exact, bound);
    return TUNE_CHECK_OK;
}

static enum tune_check check_samples(cl_command_queue queue, const struct tune_data *d,
                                     const tailor_call *c, tailor_status *status, char *message,
                                     size_t size)
{
    struct sample samples[SAMPLES + 4];
    size_t rows = c->m, cols = c->n;
    if (c->operation == TAILOR_OP_SGEMV) {
        rows = c->trans_a == TAILOR_TRANS ? c->n : c->m;
        cols = 1;
    } else if (c->operation == TAILOR_OP_TRANSPOSE) {
        rows = c->n; // B is n x m
        cols = c->m;
    }
    size_t count = make_samples(rows, cols, samples);
    for (size_t s = 0; s < count; ++s) {
        size_t i = samples[s].i, j = samples[s].j;
        unsigned char got[16];
        char what[96];
        if (c->operation == TAILOR_OP_TRANSPOSE) {
            // B[i][j] = A[j][i] (alpha times it when scaled)
            size_t out = c->b_offset + i * c->ldb + j, in = c->a_offset + j * c->lda + i;
            if ((*status = read_element(queue, d, out, got)) != TAILOR_SUCCESS)
                return TUNE_CHECK_FAILED;
            snprintf(what, sizeof what, "B[%zu][%zu]", i, j);
            if (!c->scaled || c->alpha == 1) {
                if (memcmp(got, d->host_a + in * d->element_bytes, d->element_bytes) != 0)
                    return wrong(message, size, what, c, 0, 0, 0);
                continue;
            }
            double exact = c->alpha == 0 ? 0 : (double)c->alpha * real_at(d, d->host_a, in);
            double value = real_at(d, got, 0);
            double bound = fabs(exact) * ldexp(1.0, d->element_bytes == 8 ? -52 : -23);
            if (!(fabs(value - exact) <= bound))
                return wrong(message, size, what, c, value, exact, bound);
            continue;
        }
        size_t index = c->operation == TAILOR_OP_SGEMV
                           ? vector_index(c->c_offset, rows, c->incy, i)
                           : stored_index(c->layout, c->c_offset, c->ldc, i, j);
        if ((*status = read_element(queue, d, index, got)) != TAILOR_SUCCESS)
            return TUNE_CHECK_FAILED;
        double exact, bound;
        reference(d, c, i, j, &exact, &bound);
        double value = real_at(d, got, 0);
        snprintf(what, sizeof what, "%s[%zu][%zu]", c->operation == TAILOR_OP_SGEMV ? "y" : "C", i,
                 j);
        if (!(fabs(value - exact) <= bound))
            return wrong(message, size, what, c, value, exact, bound);
    }
    return TUNE_CHECK_OK;
}

// Outputs back to their starting values: the host copy where the call reads
// them (beta != 0), else NaN, which a result that is never written keeps.
static tailor_status reset_outputs(cl_command_queue queue, struct tune_data *d, const tailor_call *c)
{
    int reads_output = (c->operation == TAILOR_OP_SGEMV || c->operation == TAILOR_OP_SGEMM) &&
                       c->beta != 0;
    cl_int error;
    if (reads_output) {
        error = clEnqueueWriteBuffer(queue, d->c, CL_TRUE, 0, d->c_count * d->element_bytes,
                                     d->host_c, 0, NULL, NULL);
    } else {
        const float nan_f = NAN;
        const double nan_d = NAN;
        const unsigned char bytes = 0xa5;
        const void *pattern = &bytes;
        size_t pattern_bytes = 1;
        if (c->operation != TAILOR_OP_TRANSPOSE || c->scaled) {
            pattern = d->element_bytes == 8 ? (const void *)&nan_d : (const void *)&nan_f;
            pattern_bytes = d->element_bytes;
        }
        error = clEnqueueFillBuffer(queue, d->c, pattern, pattern_bytes, 0,
                                    d->c_count * d->element_bytes, 0, NULL, NULL);
    }
    return error == CL_SUCCESS ? TAILOR_SUCCESS
                               : error_from_cl(error, "resetting a tuning output buffer");
}

enum tune_check tune_data_check(tailor_context *ctx, cl_command_queue queue, struct tune_data *d,
                                int thorough, tailor_status *status, char *message,
                                size_t message_size)
{
    *message = '\0';
    for (int edge = 0; edge < 2 + thorough; ++edge) {
        const tailor_call *c = edge ? &d->edge[edge - 1] : &d->call;
        if ((*status = reset_outputs(queue, d, c)) != TAILOR_SUCCESS ||
            (*status = tune_data_run(ctx, queue, d, edge)) != TAILOR_SUCCESS) {
            snprintf(message, message_size, "%s", tailor_last_error());
            return TUNE_CHECK_FAILED;
        }
        cl_int error = clFinish(queue);
        if (error != CL_SUCCESS) {
            *status = error_from_cl(error, "clFinish after a candidate's call");
            snprintf(message, message_size, "%s", tailor_last_error());
            return TUNE_CHECK_FAILED;
        }
        enum tune_check check = c->operation == TAILOR_OP_REDUCE
                                    ? check_reduce(queue, d, edge, status, message, message_size)
                                    : check_samples(queue, d, c, status, message, message_size);
        if (check == TUNE_CHECK_FAILED)
            snprintf(message, message_size, "%s", tailor_last_error());
        if (check != TUNE_CHECK_OK)
            return check;
    }
    return TUNE_CHECK_OK;
}

void tune_data_describe(const tailor_call *c, char *text, size_t size)
{
    static const char *const reduce_ops[] = {"sum", "min", "max"};
    const char *t = c->trans_a == TAILOR_TRANS ? "t" : "n";
    const char *layout = c->layout == TAILOR_COLUMN_MAJOR ? " col" : "";
    switch (c->operation) {
    case TAILOR_OP_REDUCE:
        snprintf(text, size, "reduce %s %s n=%zu", reduce_ops[c->reduce_op % 3],
                 c->dtype == TAILOR_F64 ? "f64" : "f32", c->n);
        break;
    case TAILOR_OP_SGEMV:
        snprintf(text, size, "gemv %zux%zu %s%s", c->m, c->n, t, layout);
        break;
    case TAILOR_OP_TRANSPOSE:
        snprintf(text, size, "transpose %zux%zu %zu-byte%s", c->m, c->n,
                 c->element_bytes ? c->element_bytes : 4, c->scaled ? " scaled" : "");
        break;
    case TAILOR_OP_SGEMM:
        snprintf(text, size, "sgemm %zux%zux%zu %s%s%s", c->m, c->n, c->k, t,
                 c->trans_b == TAILOR_TRANS ? "t" : "n", layout);
        break;
    default:
        snprintf(text, size, "operation %d", (int)c->operation);
    }
}
