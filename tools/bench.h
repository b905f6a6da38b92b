// The benchmark's framework: one queue on one device, timing by back-to-back
// launches, the device's limits, and rows printed as a table and kept for JSON.
#ifndef TAILOR_BENCH_H
#define TAILOR_BENCH_H

#include <stddef.h>

#include "tailor.h"

struct bench_limits {
    double gbps;           // global memory read bandwidth, GB/s
    double gflops;         // FP32 multiply-add throughput, GFLOP/s
    double launch_seconds; // one empty kernel, launched back to back
    // CPU devices: compute units x clock x native float width x 2 FMA pipes x
    // 2 flops, the check on the measured FMA limit; 0 on other devices.
    double nominal_gflops;
    double cache_bytes; // CL_DEVICE_GLOBAL_MEM_CACHE_SIZE
};

struct bench_row {
    const char *op;
    long long m, n, k; // -1 where the operation has no such dimension
    const char *dtype;
    char variant[96];
    double seconds;
    double bytes; // moved by one call (read + written)
    double flops; // of one call
    double clblast_seconds; // < 0: not measured
    double cblas_seconds;   // the host's CBLAS on host copies; < 0: not measured
    double floor_seconds;   // an empty kernel timed in batches alternating with this row's; < 0: not
    const char *note;       // "" or why the row is suspect
    // Rows of `tailor bench --sweep` (bench_sweep.h); sweep_case is NULL on
    // other rows. -1 (incx, incy: 0; layout, trans: '\0') where the case has
    // no such argument.
    const char *sweep_case;
    int sweep_reference; // the aligned case the others are measured against
    int element_bytes;
    long long lda, ldb, a_offset, b_offset, x_offset, y_offset;
    long long incx, incy;
    char layout, trans;         // 'R' or 'C'; 'N' or 'T'
    double fraction_of_aligned; // GB/s over the reference case's of the same element size
};

struct bench {
    cl_context context;
    cl_device_id device;
    cl_command_queue queue;
    tailor_context *tailor;
    tailor_device_info info;
    struct bench_limits limits;
    cl_kernel empty_kernel;      // one work-item, no arguments: the launch floor
    int small_shapes; // CPU devices: shapes scaled down to keep the run short
    const char *sweep; // the operation of `bench --sweep`; NULL in the ordinary bench
    int quick;         // --quick: the sweep's cases at one small size (tests)
    double sweep_reference_gbps[17]; // by element size; 0 until the reference case has run
    int have_clblast;
    int have_cblas; // CPU devices, where the build has a CBLAS
    struct bench_row *rows;
    size_t row_count, row_capacity;
    int failures;
};

// Enqueues one call of the operation on b->queue; returns 0 on success.
typedef int (*bench_call)(struct bench *b, void *state);

// Median time of one call over batches of back-to-back calls (each batch
// timed from the first enqueue to clFinish); < 0 if a call failed.
double bench_time(struct bench *b, bench_call call, void *state);

// The row's times: the call's and, in batches taken in turn with its own,
// the comparison's (when not NULL; -1 if it fails) and,
// for calls short enough to be bound by the launch, the empty kernel's.
// Returns 0, or -1 if a call failed.
int bench_time_row(struct bench *b, struct bench_row *row, bench_call call, void *state,
                   bench_call comparison, void *comparison_state);

// The same with the host's CBLAS as a second comparison (NULL: none), its
// batches in turn with the others' (row->cblas_seconds, -1 if it fails).
int bench_time_row_cblas(struct bench *b, struct bench_row *row, bench_call call, void *state,
                         bench_call comparison, void *comparison_state, bench_call cblas,
                         void *cblas_state);

// The op's call_clblast as the comparison when `condition` holds and the
// build has CLBlast; NULL otherwise (the condition still evaluated, so that
// what it names counts as used in either build).
#ifdef TAILOR_HAVE_CLBLAST
#define CLBLAST_WHEN(condition) ((condition) ? call_clblast : NULL)
#else
#define CLBLAST_WHEN(condition) ((void)(condition), (bench_call)NULL)
#endif

// A buffer of `bytes` filled with copies of the pattern; NULL on failure (reported).
cl_mem bench_buffer(struct bench *b, size_t bytes, const void *pattern, size_t pattern_bytes);

// A buffer holding a copy of `bytes` of host memory; NULL on failure (reported).
cl_mem bench_upload(struct bench *b, const void *host, size_t bytes);

// Prints the row and keeps it for the JSON report.
void bench_add_row(struct bench *b, const struct bench_row *row);

// A row with no dimensions, no CLBlast time, no note yet and no sweep fields.
struct bench_row bench_row_init(const char *op, const char *dtype);

void bench_fail(struct bench *b, const char *what);

int bench_measure_limits(struct bench *b);

// Largest element count of `element_bytes` that fits in one allocation,
// at most `wanted`.
size_t bench_fit_elements(const struct bench *b, size_t wanted, size_t element_bytes, int buffers);

void bench_reduce(struct bench *b);
void bench_gemv(struct bench *b);
void bench_transpose(struct bench *b);
void bench_sgemm(struct bench *b);
void bench_gemm(struct bench *b);

// The bytes of element `index` of a transpose's A: a hash of the index, so
// that an element in the wrong place shows.
void bench_transpose_pattern(size_t index, size_t element_bytes, unsigned char *out);

#endif
