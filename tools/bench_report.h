// How the benchmark shows its rows: a text table and a JSON file.
#ifndef TAILOR_BENCH_REPORT_H
#define TAILOR_BENCH_REPORT_H

#include "bench.h"

// "-" for a negative time, else microseconds below a millisecond, milliseconds above.
void bench_format_time(double seconds, char *buffer, size_t size);

void bench_print_header(const struct bench *b);
void bench_print_row(const struct bench *b, const struct bench_row *row);
int bench_write_json(const struct bench *b, const char *path);

#endif
