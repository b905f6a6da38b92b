#include "bench_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_sweep.h"
#include "json.h"

// The roofline of one row: arithmetic intensity against the ridge point of
// the device's measured limits decides the bound and the limit it is held to.
struct roofline {
    double gbps, gflops, intensity, fraction;
    const char *bound;
};

static struct roofline roofline_of(const struct bench *b, const struct bench_row *row)
{
    struct roofline r;
    r.gbps = row->seconds > 0 ? row->bytes / row->seconds / 1e9 : 0;
    r.gflops = row->seconds > 0 ? row->flops / row->seconds / 1e9 : 0;
    r.intensity = row->bytes > 0 ? row->flops / row->bytes : 0;
    double ridge = b->limits.gflops / b->limits.gbps;
    int memory_bound = r.intensity < ridge;
    r.bound = memory_bound ? "memory" : "compute";
    r.fraction = memory_bound ? r.gbps / b->limits.gbps : r.gflops / b->limits.gflops;
    return r;
}

// The row's own note, or why it shows more than its limit: data that fit in
// the last-level cache move faster than memory, and a FLOP rate above the
// measured FMA limit says the limit is wrong.
static const char *row_note(const struct bench *b, const struct bench_row *row, const struct roofline *r)
{
    if (*row->note || r->fraction <= 1.0)
        return row->note;
    if (strcmp(r->bound, "memory") == 0)
        return row->bytes <= b->limits.cache_bytes ? "above the limit: data cache-resident"
                                                   : "above the memory limit";
    return "above the measured FMA limit";
}

static void format_shape(const struct bench_row *row, char *buffer, size_t size)
{
    if (row->m >= 0 && row->k >= 0)
        snprintf(buffer, size, "%lldx%lldx%lld%s", row->m, row->n, row->k, row->layout == 'C' ? " col" : "");
    else if (row->m >= 0)
        snprintf(buffer, size, "%lldx%lld", row->m, row->n);
    else
        snprintf(buffer, size, "n=%lld", row->n);
}

void bench_format_time(double seconds, char *buffer, size_t size)
{
    if (seconds < 0)
        snprintf(buffer, size, "-");
    else if (seconds < 1e-3)
        snprintf(buffer, size, "%.2f us", seconds * 1e6);
    else
        snprintf(buffer, size, "%.3f ms", seconds * 1e3);
}

void bench_print_header(const struct bench *b)
{
    const tailor_device_info *d = &b->info;
    printf("device   %s (%s, driver %s)\n", d->device_name, d->platform_name, d->driver_version);
    printf("profile  %s  CUDA_SM=%d LOCKSTEP=%d%s\n", d->profile_name, d->cuda_sm, d->lockstep,
           b->small_shapes ? "  (CPU device: smaller shapes)" : "");
    printf("limits   %.1f GB/s read bandwidth, %.1f GFLOP/s FP32, empty kernel launch %.2f us\n",
           b->limits.gbps, b->limits.gflops, b->limits.launch_seconds * 1e6);
    if (b->limits.nominal_gflops > 0)
        printf("nominal  %.1f GFLOP/s FP32 (compute units x clock x native width x 2 FMA pipes x 2); "
               "measured FMA limit %.2f of it\n",
               b->limits.nominal_gflops, b->limits.gflops / b->limits.nominal_gflops);
    printf("timing   median of 7 batches of back-to-back calls, wall clock to clFinish\n");
    printf("CLBlast  %s\n", b->have_clblast ? "side by side in this run, batches alternating with tailor's" : "not built in");
    if (b->have_cblas)
        printf("CBLAS    OpenBLAS on the host's copies of the operands (SGEMM rows), batches alternating with "
               "tailor's; OPENBLAS_THREAD_TIMEOUT=%s\n",
               getenv("OPENBLAS_THREAD_TIMEOUT") ? getenv("OPENBLAS_THREAD_TIMEOUT") : "unset");
    printf("\n");
    if (b->sweep) {
        bench_sweep_print_header(b);
        return;
    }
    printf("%-10s %-20s %-5s %-24s %11s %9s %9s %10s %7s %-8s %7s %11s %8s", "op", "shape", "dtype",
           "variant", "time", "floor", "GB/s", "GFLOP/s", "F/B", "bound", "%limit", "CLBlast", "speedup");
    if (b->have_cblas)
        printf(" %11s %8s", "CBLAS", "speedup");
    printf("\n");
    fflush(stdout);
}

void bench_print_row(const struct bench *b, const struct bench_row *row)
{
    if (row->sweep_case) {
        bench_sweep_print_row(b, row);
        return;
    }
    struct roofline r = roofline_of(b, row);
    char shape[64], time[32], launch_floor[32], clblast[32], speedup[16] = "-";
    format_shape(row, shape, sizeof shape);
    bench_format_time(row->seconds, time, sizeof time);
    bench_format_time(row->floor_seconds, launch_floor, sizeof launch_floor);
    bench_format_time(row->clblast_seconds, clblast, sizeof clblast);
    if (row->clblast_seconds > 0 && row->seconds > 0)
        snprintf(speedup, sizeof speedup, "%.2fx", row->clblast_seconds / row->seconds);
    printf("%-10s %-20s %-5s %-24s %11s %9s %9.1f %10.1f %7.3f %-8s %6.1f%% %11s %8s", row->op, shape,
           row->dtype, row->variant, time, launch_floor, r.gbps, r.gflops, r.intensity, r.bound,
           100 * r.fraction, clblast, speedup);
    if (b->have_cblas) {
        char cblas[32], cblas_speedup[16] = "-";
        bench_format_time(row->cblas_seconds, cblas, sizeof cblas);
        if (row->cblas_seconds > 0 && row->seconds > 0)
            snprintf(cblas_speedup, sizeof cblas_speedup, "%.2fx", row->cblas_seconds / row->seconds);
        printf(" %11s %8s", cblas, cblas_speedup);
    }
    printf(" %s\n", row_note(b, row, &r));
    fflush(stdout);
}

static void json_device(FILE *f, const struct bench *b)
{
    const tailor_device_info *d = &b->info;
    fprintf(f, "  \"device\": {\n    \"name\": ");
    json_string(f, d->device_name);
    fprintf(f, ",\n    \"platform\": ");
    json_string(f, d->platform_name);
    fprintf(f, ",\n    \"vendor\": ");
    json_string(f, d->vendor);
    fprintf(f, ",\n    \"driver_version\": ");
    json_string(f, d->driver_version);
    fprintf(f, ",\n    \"opencl_c_version\": ");
    json_string(f, d->opencl_c_version);
    fprintf(f, ",\n    \"compute_units\": %u,\n    \"clock_mhz\": %u,\n", d->compute_units, d->clock_mhz);
    fprintf(f, "    \"global_mem_bytes\": %llu,\n    \"local_mem_bytes\": %llu,\n",
            (unsigned long long)d->global_mem_bytes, (unsigned long long)d->local_mem_bytes);
    fprintf(f, "    \"local_mem_static_bytes\": %u,\n", d->local_mem_static_bytes);
    fprintf(f, "    \"fp64\": %s,\n", d->has_fp64 ? "true" : "false");
    fprintf(f, "    \"nvidia_compute_capability\": \"%u.%u\",\n    \"warp_size\": %u,\n",
            d->nv_compute_major, d->nv_compute_minor, d->nv_warp_size);
    fprintf(f, "    \"amd_wavefront_width\": %u,\n    \"amd_gfx\": \"%u.%u\",\n",
            d->amd_wavefront_width, d->amd_gfx_major, d->amd_gfx_minor);
    fprintf(f, "    \"profile\": ");
    json_string(f, d->profile_name);
    fprintf(f, ",\n    \"cuda_sm\": %d,\n    \"lockstep\": %d,\n    \"build_options\": {", d->cuda_sm,
            d->lockstep);
    for (size_t i = 0; i < tailor_program_count(); ++i) {
        char options[4096];
        const char *name = tailor_program_name(i);
        if (tailor_context_build_options(b->tailor, name, options, sizeof options) != TAILOR_SUCCESS)
            continue;
        fprintf(f, "%s\n      ", i ? "," : "");
        json_string(f, name);
        fprintf(f, ": ");
        json_string(f, options);
    }
    fprintf(f, "\n    }\n  },\n");
}

static void json_row(FILE *f, const struct bench *b, const struct bench_row *row)
{
    struct roofline r = roofline_of(b, row);
    fprintf(f, "    {\"op\": ");
    json_string(f, row->op);
    fprintf(f, ", \"shape\": {");
    const char *separator = "";
    if (row->m >= 0) {
        fprintf(f, "\"m\": %lld", row->m);
        separator = ", ";
    }
    fprintf(f, "%s\"n\": %lld", separator, row->n);
    if (row->k >= 0)
        fprintf(f, ", \"k\": %lld", row->k);
    fprintf(f, "}, \"dtype\": ");
    json_string(f, row->dtype);
    fprintf(f, ", \"variant\": ");
    json_string(f, row->variant);
    fprintf(f, ", \"seconds\": %.9g, \"gbps\": %.6g, \"gflops\": %.6g, \"intensity\": %.6g, ",
            row->seconds, r.gbps, r.gflops, r.intensity);
    fprintf(f, "\"bound\": \"%s\", \"fraction_of_limit\": %.4f", r.bound, r.fraction);
    if (row->sweep_case)
        bench_sweep_json_fields(f, row);
    if (!row->sweep_case && row->layout == 'C')
        fprintf(f, ", \"layout\": \"C\"");
    if (row->clblast_seconds > 0)
        fprintf(f, ", \"clblast_seconds\": %.9g", row->clblast_seconds);
    if (row->cblas_seconds > 0)
        fprintf(f, ", \"cblas_seconds\": %.9g", row->cblas_seconds);
    if (row->floor_seconds > 0)
        fprintf(f, ", \"launch_floor_seconds\": %.9g", row->floor_seconds);
    const char *note = row_note(b, row, &r);
    if (*note) {
        fprintf(f, ", \"note\": ");
        json_string(f, note);
    }
    fprintf(f, "}");
}

int bench_write_json(const struct bench *b, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "bench: cannot write %s\n", path);
        return -1;
    }
    fprintf(f, "{\n  \"tailor_version\": \"%s\",\n", tailor_version());
    json_device(f, b);
    fprintf(f, "  \"limits\": {\"gbps\": %.6g, \"gflops\": %.6g, \"launch_us\": %.6g, "
               "\"nominal_gflops\": %.6g, \"cache_bytes\": %.6g},\n",
            b->limits.gbps, b->limits.gflops, b->limits.launch_seconds * 1e6, b->limits.nominal_gflops,
            b->limits.cache_bytes);
    fprintf(f, "  \"timing\": \"median of 7 batches of back-to-back calls, wall clock to clFinish\",\n");
    fprintf(f, "  \"clblast\": %s,\n  \"cblas\": %s,\n  \"rows\": [\n", b->have_clblast ? "true" : "false",
            b->have_cblas ? "true" : "false");
    for (size_t i = 0; i < b->row_count; ++i) {
        json_row(f, b, &b->rows[i]);
        fprintf(f, "%s\n", i + 1 < b->row_count ? "," : "");
    }
    fprintf(f, "  ]");
    if (b->sweep)
        bench_sweep_json_summary(f, b);
    fprintf(f, "\n}\n");
    return fclose(f) == 0 ? 0 : -1;
}
