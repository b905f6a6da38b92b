// Rows of the reduction: sums, a max, a double sum and an f16 sum over arrays
// far larger than the last-level cache, each result checked.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "half_float.h"

#ifdef TAILOR_HAVE_CLBLAST
#include <clblast_c.h>
#endif

struct reduce_state {
    tailor_reduce_op op;
    tailor_dtype dtype;
    size_t n;
    cl_mem x, result;
};

static int call_tailor(struct bench *b, void *state)
{
    struct reduce_state *s = state;
    return tailor_reduce(b->tailor, b->queue, s->op, s->dtype, s->n, s->x, 0, s->result, 0, 0, NULL,
                         NULL) == TAILOR_SUCCESS
               ? 0
               : -1;
}

#ifdef TAILOR_HAVE_CLBLAST
static int call_clblast(struct bench *b, void *state)
{
    struct reduce_state *s = state;
    CLBlastStatusCode code = s->dtype == TAILOR_F32
                                 ? CLBlastSsum(s->n, s->result, 0, s->x, 0, 1, &b->queue, NULL)
                                 : CLBlastDsum(s->n, s->result, 0, s->x, 0, 1, &b->queue, NULL);
    return code == CLBlastSuccess ? 0 : -1;
}
#endif

static size_t element_size(tailor_dtype dtype)
{
    return dtype == TAILOR_F64 ? 8 : dtype == TAILOR_F32 ? 4 : 2;
}

// v in the row's type (f32, f64 or f16), as the device stores it.
static void encode(tailor_dtype dtype, double v, unsigned char *bytes)
{
    float single = (float)v;
    uint16_t half = half_from_float(single);
    memcpy(bytes, dtype == TAILOR_F64 ? (void *)&v : dtype == TAILOR_F32 ? (void *)&single : (void *)&half,
           element_size(dtype));
}

static double decode(tailor_dtype dtype, const unsigned char *bytes)
{
    double v = 0;
    float single = 0;
    uint16_t half = 0;
    memcpy(dtype == TAILOR_F64 ? (void *)&v : dtype == TAILOR_F32 ? (void *)&single : (void *)&half, bytes,
           element_size(dtype));
    return dtype == TAILOR_F64 ? v : dtype == TAILOR_F32 ? (double)single : (double)half_to_float(half);
}

static double read_result(struct bench *b, const struct reduce_state *s)
{
    unsigned char bytes[8];
    if (clEnqueueReadBuffer(b->queue, s->result, CL_TRUE, 0, element_size(s->dtype), bytes, 0, NULL, NULL) !=
        CL_SUCCESS)
        return NAN;
    return decode(s->dtype, bytes);
}

// The value of every element but the middle one: 1, or 2^-11 for f16, whose
// sums of up to 2^26 elements then stay below its largest, 65504.
static double filler(tailor_dtype dtype)
{
    return dtype == TAILOR_F16 ? 0x1p-11 : 1;
}

// Fillers, with a 2 in the middle so max has one right answer.
static int fill_input(struct bench *b, struct reduce_state *s, size_t element_bytes)
{
    unsigned char one[8], two[8];
    encode(s->dtype, filler(s->dtype), one);
    encode(s->dtype, 2, two);
    s->x = bench_buffer(b, s->n * element_bytes, one, element_bytes);
    s->result = bench_buffer(b, element_bytes, one, element_bytes);
    if (!s->x || !s->result)
        return -1;
    return clEnqueueWriteBuffer(b->queue, s->x, CL_TRUE, s->n / 2 * element_bytes, element_bytes, two, 0, NULL,
                                NULL) == CL_SUCCESS
               ? 0
               : -1;
}

static void reduce_row(struct bench *b, tailor_reduce_op op, tailor_dtype dtype, int log2_n)
{
    size_t element_bytes = element_size(dtype);
    struct reduce_state s = {op, dtype, bench_fit_elements(b, (size_t)1 << log2_n, element_bytes, 1), NULL,
                             NULL};
    static const char *const op_names[] = {"sum", "min", "max"};
    char name[32];
    snprintf(name, sizeof name, "reduce-%s", op_names[op]);
    static const char *const dtype_names[] = {"f32", "f64", "f16"};
    struct bench_row row = bench_row_init("", dtype_names[dtype]);
    if (dtype == TAILOR_F64 && !b->info.has_fp64)
        return;
    if (fill_input(b, &s, element_bytes) != 0) {
        bench_fail(b, "reduce: buffers");
        goto done;
    }
    row.op = op == TAILOR_REDUCE_SUM ? "reduce-sum" : op == TAILOR_REDUCE_MAX ? "reduce-max" : "reduce-min";
    row.n = (long long)s.n;
    row.bytes = (double)s.n * (double)element_bytes;
    row.flops = (double)s.n;
    bench_call comparison = CLBLAST_WHEN(b->have_clblast && op == TAILOR_REDUCE_SUM && dtype != TAILOR_F16);
    if (bench_time_row(b, &row, call_tailor, &s, comparison, &s) != 0) {
        fprintf(stderr, "bench: %s: %s\n", name, tailor_last_error());
        bench_fail(b, "reduce: tailor_reduce failed");
        goto done;
    }
    snprintf(row.variant, sizeof row.variant, "%s", tailor_last_variant());
    double one = filler(dtype);
    double expected = op == TAILOR_REDUCE_SUM ? (double)(s.n - 1) * one + 2 : op == TAILOR_REDUCE_MAX ? 2 : one;
    // An f16 result is rounded to f16: half an ulp is 2^-11 of it.
    double tolerance = dtype == TAILOR_F16 ? 1e-3 : 1e-6;
    // The comparison's calls, in turn with tailor's, may have written last.
    double got = call_tailor(b, &s) == 0 ? read_result(b, &s) : NAN;
    if (!(fabs(got - expected) <= tolerance * expected)) {
        row.note = "WRONG RESULT";
        bench_fail(b, "reduce: wrong result");
    }
    bench_add_row(b, &row);
done:
    if (s.x)
        clReleaseMemObject(s.x);
    if (s.result)
        clReleaseMemObject(s.result);
}

void bench_reduce(struct bench *b)
{
    int shrink = b->small_shapes ? 4 : 0;
    reduce_row(b, TAILOR_REDUCE_SUM, TAILOR_F32, 26 - shrink);
    reduce_row(b, TAILOR_REDUCE_SUM, TAILOR_F16, 26 - shrink);
    reduce_row(b, TAILOR_REDUCE_SUM, TAILOR_F32, 28 - shrink);
    reduce_row(b, TAILOR_REDUCE_MAX, TAILOR_F32, 28 - shrink);
    reduce_row(b, TAILOR_REDUCE_SUM, TAILOR_F64, 27 - shrink);
}
