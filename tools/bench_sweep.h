// `tailor bench --sweep OP`: a grid of irregular cases of one operation
// (odd shapes, padded leading dimensions, offsets, strides, degenerate and
// skinny matrices, launch-bound sizes) through the public API, each checked,
// timed as the ordinary rows are, and set against the aligned case of its
// element size, which runs first.
#ifndef TAILOR_BENCH_SWEEP_H
#define TAILOR_BENCH_SWEEP_H

#include <stdio.h>

#include "bench.h"

#define SWEEP_GEMV_ALPHA 1.5f
#define SWEEP_GEMV_BETA 0.5f // not 0, so that y is read

// The minimum, median and worst case of fraction_of_aligned over some of
// the sweep's rows (the references left out); cases == 0 if none.
struct sweep_stats {
    size_t cases;
    double min, median;
    const struct bench_row *worst;
};

// 1 if `op` has a sweep.
int bench_sweep_known(const char *op);

// Runs the sweep of b->sweep: its rows, then the summary.
void bench_sweep(struct bench *b);

// Bytes of one matrix of the reference cases (the sweep's scale), and the
// bytes a case must move to count as large in the summary.
double bench_sweep_matrix_bytes(const struct bench *b);

// The side of the square reference matrix for `element_bytes`: about
// bench_sweep_matrix_bytes, a multiple of 256.
size_t bench_sweep_side(const struct bench *b, size_t element_bytes);

// Sets the row's fraction_of_aligned (a reference row sets its element
// size's scale first), then prints and keeps it.
void bench_sweep_add_row(struct bench *b, struct bench_row *row);

// One checked call after the timing: 0 right, 1 wrong, < 0 a call failed.
typedef int (*sweep_check)(struct bench *b, void *state);

// Times one case (bench_time_row, beside `comparison` when not NULL), names
// its variant, checks it and adds the row; a failed call or a wrong result
// counts as a failure (the row then noted WRONG RESULT).
void bench_sweep_case(struct bench *b, struct bench_row *row, bench_call call,
                      bench_call comparison, sweep_check check, void *state);

// The stats of the sweep's rows of `element_bytes` (0: all), of those
// moving at least bench_sweep_matrix_bytes when `large_only`.
void bench_sweep_stats(const struct bench *b, int element_bytes, int large_only, struct sweep_stats *stats);

void bench_sweep_transpose(struct bench *b);
void bench_sweep_gemv(struct bench *b);

// How the sweep shows (bench_sweep_report.c): its table, its summary, and
// its part of the JSON report.
void bench_sweep_print_header(const struct bench *b);
void bench_sweep_print_row(const struct bench *b, const struct bench_row *row);
void bench_sweep_print_summary(const struct bench *b);
void bench_sweep_json_fields(FILE *f, const struct bench_row *row);
void bench_sweep_json_summary(FILE *f, const struct bench *b);

#endif
