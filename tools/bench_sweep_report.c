// How the sweep shows: a table of its own (the arguments of each case in
// place of the roofline columns), a summary line per element size and for
// all, and the sweep's fields and summary in the JSON report.
#include <stdio.h>
#include <string.h>

#include "bench_report.h"
#include "bench_sweep.h"
#include "json.h"

static const size_t element_sizes[] = {1, 2, 4, 8, 16};

#define ELEMENT_SIZE_COUNT (sizeof element_sizes / sizeof element_sizes[0])

static int is_transpose(const struct bench *b)
{
    return strcmp(b->sweep, "transpose") == 0;
}

static void format_percent(double fraction, char *buffer, size_t size)
{
    if (fraction < 0)
        snprintf(buffer, size, "-");
    else
        snprintf(buffer, size, "%.1f%%", 100 * fraction);
}

static void format_bytes(double bytes, char *buffer, size_t size)
{
    if (bytes >= 1024.0 * 1024)
        snprintf(buffer, size, "%g MiB", bytes / (1024.0 * 1024));
    else
        snprintf(buffer, size, "%g KiB", bytes / 1024.0);
}

// The columns between the shape and the variant: the case's arguments.
static void format_arguments(const struct bench_row *row, char *buffer, size_t size)
{
    char lds[48], incs[48], offsets[64];
    if (row->ldb >= 0) {
        snprintf(lds, sizeof lds, "%lld/%lld", row->lda, row->ldb);
        snprintf(offsets, sizeof offsets, "%lld/%lld", row->a_offset, row->b_offset);
        snprintf(buffer, size, "%-5s %-19s %-9s", row->dtype, lds, offsets);
    } else {
        snprintf(lds, sizeof lds, "%lld", row->lda);
        snprintf(incs, sizeof incs, "%lld/%lld", row->incx, row->incy);
        snprintf(offsets, sizeof offsets, "%lld/%lld/%lld", row->a_offset, row->x_offset, row->y_offset);
        snprintf(buffer, size, "%-5s %c %c %-9s %-9s %-11s", row->dtype, row->layout, row->trans, lds, incs,
                 offsets);
    }
}

void bench_sweep_print_header(const struct bench *b)
{
    char large[32];
    format_bytes(bench_sweep_matrix_bytes(b), large, sizeof large);
    printf("sweep    %s: irregular cases against the aligned case of their element size (first);\n"
           "         %%aligned = GB/s over the aligned case's, %%limit = over the read bandwidth; "
           "large cases move >= %s\n\n",
           b->sweep, large);
    char arguments[192];
    if (is_transpose(b))
        snprintf(arguments, sizeof arguments, "%-5s %-19s %-9s", "dtype", "lda/ldb", "offs a/b");
    else
        snprintf(arguments, sizeof arguments, "%-5s %-3s %-9s %-9s %-11s", "dtype", "A", "lda", "incx/incy",
                 "offs a/x/y");
    printf("%-14s %-16s %s %11s %9s %9s %9s %7s %11s %8s  %s\n", "case", "shape", arguments, "time", "floor",
           "GB/s", "%aligned", "%limit", "CLBlast", "speedup", "variant");
    fflush(stdout);
}

void bench_sweep_print_row(const struct bench *b, const struct bench_row *row)
{
    char shape[48], arguments[192], time[32], launch_floor[32], clblast[32], speedup[16] = "-", aligned[16];
    double gbps = row->seconds > 0 ? row->bytes / row->seconds / 1e9 : 0;
    snprintf(shape, sizeof shape, "%lldx%lld", row->m, row->n);
    format_arguments(row, arguments, sizeof arguments);
    bench_format_time(row->seconds, time, sizeof time);
    bench_format_time(row->floor_seconds, launch_floor, sizeof launch_floor);
    bench_format_time(row->clblast_seconds, clblast, sizeof clblast);
    format_percent(row->fraction_of_aligned, aligned, sizeof aligned);
    if (row->clblast_seconds > 0 && row->seconds > 0)
        snprintf(speedup, sizeof speedup, "%.2fx", row->clblast_seconds / row->seconds);
    // The variant last: its names run from 3 to over 40 characters.
    printf("%-14s %-16s %s %11s %9s %9.1f %9s %6.1f%% %11s %8s  %s%s%s\n", row->sweep_case, shape, arguments, time,
           launch_floor, gbps, aligned, 100 * gbps / b->limits.gbps, clblast, speedup, row->variant,
           *row->note ? "  " : "", row->note);
    fflush(stdout);
}

static void format_stats(const struct sweep_stats *s, int name_size, char *buffer, size_t size)
{
    if (!s->cases) {
        snprintf(buffer, size, "no cases");
        return;
    }
    char worst[64];
    if (name_size)
        snprintf(worst, sizeof worst, "%s, %d-byte", s->worst->sweep_case, s->worst->element_bytes);
    else
        snprintf(worst, sizeof worst, "%s", s->worst->sweep_case);
    snprintf(buffer, size, "%2zu cases: min %5.1f%% (%s), median %5.1f%%", s->cases, 100 * s->min, worst,
             100 * s->median);
}

static void print_summary_line(const struct bench *b, int element_bytes, const char *large)
{
    struct sweep_stats all, big;
    bench_sweep_stats(b, element_bytes, 0, &all);
    if (!all.cases && element_bytes)
        return;
    bench_sweep_stats(b, element_bytes, 1, &big);
    char label[16], text_all[128], text_big[128];
    if (element_bytes)
        snprintf(label, sizeof label, "%d-byte", element_bytes);
    else
        snprintf(label, sizeof label, "all");
    format_stats(&all, !element_bytes, text_all, sizeof text_all);
    format_stats(&big, !element_bytes, text_big, sizeof text_big);
    printf("summary  %-7s %%aligned over %-58s | moving >= %s: %s\n", label, text_all, large, text_big);
}

void bench_sweep_print_summary(const struct bench *b)
{
    char large[32];
    format_bytes(bench_sweep_matrix_bytes(b), large, sizeof large);
    printf("\n");
    for (size_t i = 0; i < ELEMENT_SIZE_COUNT; ++i)
        print_summary_line(b, (int)element_sizes[i], large);
    print_summary_line(b, 0, large);
    fflush(stdout);
}

void bench_sweep_json_fields(FILE *f, const struct bench_row *row)
{
    if (row->fraction_of_aligned >= 0)
        fprintf(f, ", \"fraction_of_aligned\": %.4f", row->fraction_of_aligned);
    fprintf(f, ", \"case\": ");
    json_string(f, row->sweep_case);
    fprintf(f, ", \"reference\": %s, \"element_bytes\": %d, \"bytes\": %.17g", row->sweep_reference ? "true" : "false",
            row->element_bytes, row->bytes);
    if (row->layout)
        fprintf(f, ", \"layout\": \"%c\", \"trans\": \"%c\"", row->layout, row->trans);
    const struct {
        const char *name;
        long long value;
    } fields[] = {{"lda", row->lda},           {"ldb", row->ldb},           {"a_offset", row->a_offset},
                  {"b_offset", row->b_offset}, {"x_offset", row->x_offset}, {"y_offset", row->y_offset}};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i)
        if (fields[i].value >= 0)
            fprintf(f, ", \"%s\": %lld", fields[i].name, fields[i].value);
    if (row->incx)
        fprintf(f, ", \"incx\": %lld, \"incy\": %lld", row->incx, row->incy);
}

// The stats as an object, with those of the large cases inside it when given.
static void json_stats(FILE *f, const struct sweep_stats *s, const struct sweep_stats *large)
{
    fprintf(f, "{\"cases\": %zu", s->cases);
    if (s->cases) {
        fprintf(f, ", \"min_fraction_of_aligned\": %.4f, \"median_fraction_of_aligned\": %.4f, \"worst_case\": ",
                s->min, s->median);
        json_string(f, s->worst->sweep_case);
        fprintf(f, ", \"worst_element_bytes\": %d", s->worst->element_bytes);
    }
    if (large) {
        fprintf(f, ",\n      \"large\": ");
        json_stats(f, large, NULL);
    }
    fprintf(f, "}");
}

static void json_group(FILE *f, const struct bench *b, int element_bytes, const char *name, const char **separator)
{
    struct sweep_stats all, big;
    bench_sweep_stats(b, element_bytes, 0, &all);
    if (!all.cases && element_bytes)
        return;
    bench_sweep_stats(b, element_bytes, 1, &big);
    fprintf(f, "%s\n    \"%s\": ", *separator, name);
    json_stats(f, &all, &big);
    *separator = ",";
}

void bench_sweep_json_summary(FILE *f, const struct bench *b)
{
    fprintf(f, ",\n  \"sweep\": {\"op\": ");
    json_string(f, b->sweep);
    fprintf(f, ", \"large_bytes\": %.17g, \"quick\": %s", bench_sweep_matrix_bytes(b), b->quick ? "true" : "false");
    if (!is_transpose(b))
        fprintf(f, ", \"alpha\": %g, \"beta\": %g", SWEEP_GEMV_ALPHA, SWEEP_GEMV_BETA);
    fprintf(f, "},\n  \"summary\": {");
    const char *separator = "";
    for (size_t i = 0; i < ELEMENT_SIZE_COUNT; ++i) {
        char name[8];
        snprintf(name, sizeof name, "%zu", element_sizes[i]);
        json_group(f, b, (int)element_sizes[i], name, &separator);
    }
    json_group(f, b, 0, "all", &separator);
    fprintf(f, "\n  }");
}
