// The sweep's framework: which operations have one, the scale of its cases,
// each row's fraction of the aligned path, and the summary's statistics.
#include "bench_sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct sweep_op {
    const char *name;
    void (*run)(struct bench *b);
} sweep_ops[] = {
    {"transpose", bench_sweep_transpose},
    {"gemv", bench_sweep_gemv},
};

#define SWEEP_OP_COUNT (sizeof sweep_ops / sizeof sweep_ops[0])

int bench_sweep_known(const char *op)
{
    for (size_t i = 0; i < SWEEP_OP_COUNT; ++i)
        if (strcmp(sweep_ops[i].name, op) == 0)
            return 1;
    return 0;
}

void bench_sweep(struct bench *b)
{
    for (size_t i = 0; i < SWEEP_OP_COUNT; ++i)
        if (strcmp(sweep_ops[i].name, b->sweep) == 0)
            sweep_ops[i].run(b);
    bench_sweep_print_summary(b);
}

// 64 MiB on GPUs, past their caches; 4 MiB keeps a CPU's sweep of one
// operation well under a minute on two cores.
double bench_sweep_matrix_bytes(const struct bench *b)
{
    if (b->quick)
        return 256.0 * 1024;
    return b->small_shapes ? 4.0 * 1024 * 1024 : 64.0 * 1024 * 1024;
}

size_t bench_sweep_side(const struct bench *b, size_t element_bytes)
{
    double tiles = round(sqrt(bench_sweep_matrix_bytes(b) / (double)element_bytes) / 256);
    return tiles < 1 ? 256 : 256 * (size_t)tiles;
}

void bench_sweep_case(struct bench *b, struct bench_row *row, bench_call call,
                      bench_call comparison, sweep_check check, void *state)
{
    if (bench_time_row(b, row, call, state, comparison, state) != 0) {
        fprintf(stderr, "bench: %s %s (%d-byte): %s\n", row->op, row->sweep_case, row->element_bytes,
                tailor_last_error());
        bench_fail(b, "sweep: the call failed");
        return;
    }
    snprintf(row->variant, sizeof row->variant, "%s", tailor_last_variant());
    int checked = check(b, state);
    if (checked != 0) {
        fprintf(stderr, "bench: %s %s (%d-byte)\n", row->op, row->sweep_case, row->element_bytes);
        row->note = "WRONG RESULT";
        bench_fail(b, checked < 0 ? "sweep: the checked call failed" : "sweep: wrong result");
    }
    bench_sweep_add_row(b, row);
}

void bench_sweep_add_row(struct bench *b, struct bench_row *row)
{
    double gbps = row->seconds > 0 ? row->bytes / row->seconds / 1e9 : 0;
    if (row->sweep_reference)
        b->sweep_reference_gbps[row->element_bytes] = gbps;
    double reference = b->sweep_reference_gbps[row->element_bytes];
    row->fraction_of_aligned = reference > 0 ? gbps / reference : -1;
    bench_add_row(b, row);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_sweep_stats(const struct bench *b, int element_bytes, int large_only, struct sweep_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    double *fractions = malloc((b->row_count ? b->row_count : 1) * sizeof *fractions);
    if (!fractions)
        return;
    for (size_t i = 0; i < b->row_count; ++i) {
        const struct bench_row *row = &b->rows[i];
        if (!row->sweep_case || row->sweep_reference || row->fraction_of_aligned < 0 ||
            (element_bytes && row->element_bytes != element_bytes) ||
            (large_only && row->bytes < bench_sweep_matrix_bytes(b)))
            continue;
        if (!stats->worst || row->fraction_of_aligned < stats->min) {
            stats->min = row->fraction_of_aligned;
            stats->worst = row;
        }
        fractions[stats->cases++] = row->fraction_of_aligned;
    }
    if (stats->cases) {
        qsort(fractions, stats->cases, sizeof *fractions, compare_doubles);
        size_t middle = stats->cases / 2;
        stats->median = stats->cases % 2 ? fractions[middle] : (fractions[middle - 1] + fractions[middle]) / 2;
    }
    free(fractions);
}
