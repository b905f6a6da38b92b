// The device's limits, measured once per run in the way clpeak does: global
// memory read bandwidth (float4 and float16 loads, strided and contiguous
// access, the best counts), FP32 fused multiply-add throughput, and the time
// of an empty kernel launched back to back.
#include <stdio.h>
#include <string.h>

#include "bench.h"

#define READS_PER_ITEM 16
#define FMA_ROUNDS 64
#define NATIVE_ROUNDS 16

// Every lane of every accumulator reaches the output: a compiler may drop
// the work of lanes nobody reads (NVIDIA's did, quadrupling the FP32 figure).
static const char probe_source[] =
    "__kernel void empty(void) {}\n"
    "__kernel void read_float4_strided(__global const float4 *x, __global float *out) {\n"
    "    size_t id = get_global_id(0), stride = get_global_size(0);\n"
    "    float4 s = 0;\n"
    "    for (uint j = 0; j < 16; ++j) s += x[id + j * stride];\n"
    "    out[id] = s.x + s.y + s.z + s.w;\n"
    "}\n"
    "__kernel void read_float16_strided(__global const float16 *x, __global float *out) {\n"
    "    size_t id = get_global_id(0), stride = get_global_size(0);\n"
    "    float16 s = 0;\n"
    "    for (uint j = 0; j < 16; ++j) s += x[id + j * stride];\n"
    "    float8 h = s.lo + s.hi;\n"
    "    float4 q = h.lo + h.hi;\n"
    "    out[id] = q.x + q.y + q.z + q.w;\n"
    "}\n"
    "__kernel void read_float16_contiguous(__global const float16 *x, __global float *out) {\n"
    "    size_t id = get_global_id(0);\n"
    "    float16 s = 0;\n"
    "    for (uint j = 0; j < 16; ++j) s += x[id * 16 + j];\n"
    "    float8 h = s.lo + s.hi;\n"
    "    float4 q = h.lo + h.hi;\n"
    "    out[id] = q.x + q.y + q.z + q.w;\n"
    "}\n"
    "__kernel void fma_fp32(__global float *out, float a, float b) {\n"
    "    float4 x0 = (float4)(get_global_id(0)), x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3;\n"
    "    for (int i = 0; i < 64; ++i) {\n"
    "        x0 = fma(x0, a, b); x1 = fma(x1, a, b); x2 = fma(x2, a, b); x3 = fma(x3, a, b);\n"
    "        x0 = fma(x0, a, b); x1 = fma(x1, a, b); x2 = fma(x2, a, b); x3 = fma(x3, a, b);\n"
    "        x0 = fma(x0, a, b); x1 = fma(x1, a, b); x2 = fma(x2, a, b); x3 = fma(x3, a, b);\n"
    "        x0 = fma(x0, a, b); x1 = fma(x1, a, b); x2 = fma(x2, a, b); x3 = fma(x3, a, b);\n"
    "    }\n"
    "    float4 s = x0 + x1 + x2 + x3;\n"
    "    out[get_global_id(0)] = s.x + s.y + s.z + s.w;\n"
    "}\n"
    "__kernel void fma_fp32_wide(__global float *out, float a, float b) {\n"
    "    float16 x0 = (float16)(get_global_id(0)), x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3;\n"
    "    float16 x4 = x0 + 4, x5 = x0 + 5, x6 = x0 + 6, x7 = x0 + 7;\n"
    "    for (int i = 0; i < 16; ++i) {\n"
    "        x0 = fma(x0, a, b); x1 = fma(x1, a, b); x2 = fma(x2, a, b); x3 = fma(x3, a, b);\n"
    "        x4 = fma(x4, a, b); x5 = fma(x5, a, b); x6 = fma(x6, a, b); x7 = fma(x7, a, b);\n"
    "        x0 = fma(x0, a, b); x1 = fma(x1, a, b); x2 = fma(x2, a, b); x3 = fma(x3, a, b);\n"
    "        x4 = fma(x4, a, b); x5 = fma(x5, a, b); x6 = fma(x6, a, b); x7 = fma(x7, a, b);\n"
    "    }\n"
    "    float16 s = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;\n"
    "    float8 h = s.lo + s.hi;\n"
    "    float4 q = h.lo + h.hi;\n"
    "    out[get_global_id(0)] = q.x + q.y + q.z + q.w;\n"
    "}\n"
    "#define FMA12(x) x##0 = fma(x##0, a, b); x##1 = fma(x##1, a, b); x##2 = fma(x##2, a, b); \\\n"
    "    x##3 = fma(x##3, a, b); x##4 = fma(x##4, a, b); x##5 = fma(x##5, a, b); \\\n"
    "    x##6 = fma(x##6, a, b); x##7 = fma(x##7, a, b); x##8 = fma(x##8, a, b); \\\n"
    "    x##9 = fma(x##9, a, b); x##10 = fma(x##10, a, b); x##11 = fma(x##11, a, b);\n"
    "__kernel void fma_fp32_native(__global float *out, float a, float b) {\n"
    "    NATIVE x0 = (NATIVE)(get_global_id(0)), x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3;\n"
    "    NATIVE x4 = x0 + 4, x5 = x0 + 5, x6 = x0 + 6, x7 = x0 + 7;\n"
    "    NATIVE x8 = x0 + 8, x9 = x0 + 9, x10 = x0 + 10, x11 = x0 + 11;\n"
    "    for (int i = 0; i < NATIVE_ROUNDS; ++i) {\n"
    "        FMA12(x) FMA12(x)\n"
    "    }\n"
    "    NATIVE s = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7)) + ((x8 + x9) + (x10 + x11));\n"
    "    float t = 0;\n"
    "    for (int l = 0; l < NATIVE_WIDTH; ++l) t += ((float *)&s)[l];\n"
    "    out[get_global_id(0)] = t;\n"
    "}\n";

// The first two FMA kernels do 8192 flops a work-item: 64 rounds of 4 x 4
// float4 FMAs, or 16 rounds of 2 x 8 float16 FMAs. The native one runs
// twelve chains of the device's preferred vector width: a CPU's two FMA
// pipes need as many chains as their latency times two (ten on AMD's Zen),
// and chains of float16 on a CPU of 8-float registers take two registers
// each, spilling past 16.
#define FLOPS_PER_ITEM (FMA_ROUNDS * 4 * 4 * 4 * 2)

// The device's preferred vector width for floats (1, 2, 4, 8 or 16): the
// native probe's chains are vectors of it, so that a CPU's registers hold
// twelve chains of full-width vectors.
static unsigned native_width(struct bench *b)
{
    cl_uint width = 0;
    clGetDeviceInfo(b->device, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof width, &width, NULL);
    return width == 2 || width == 4 || width == 8 || width == 16 ? width : 1;
}

struct probe_launch {
    cl_kernel kernel;
    size_t global, local;
};

static int launch_probe(struct bench *b, void *state)
{
    struct probe_launch *p = state;
    return clEnqueueNDRangeKernel(b->queue, p->kernel, 1, NULL, &p->global, p->local ? &p->local : NULL,
                                  0, NULL, NULL) == CL_SUCCESS
               ? 0
               : -1;
}

static double read_bandwidth(struct bench *b, cl_program program, const char *name, size_t vector_bytes,
                             cl_mem x, size_t bytes, cl_mem out)
{
    cl_int error;
    struct probe_launch p = {clCreateKernel(program, name, &error), 0, 0};
    if (error != CL_SUCCESS)
        return 0;
    p.global = bytes / vector_bytes / READS_PER_ITEM;
    p.local = b->small_shapes ? 0 : 256;
    clSetKernelArg(p.kernel, 0, sizeof x, &x);
    clSetKernelArg(p.kernel, 1, sizeof out, &out);
    double seconds = bench_time(b, launch_probe, &p);
    clReleaseKernel(p.kernel);
    return seconds > 0 ? (double)(p.global * READS_PER_ITEM * vector_bytes) / seconds / 1e9 : 0;
}

static double fma_throughput(struct bench *b, cl_program program, const char *name,
                             double flops_per_item, cl_mem out, size_t items)
{
    cl_int error;
    struct probe_launch p = {clCreateKernel(program, name, &error), 0, 0};
    if (error != CL_SUCCESS)
        return 0;
    p.global = (size_t)b->info.compute_units * 16384;
    p.local = b->small_shapes ? 0 : 256;
    float a = 0.999f, c = 0.001f;
    clSetKernelArg(p.kernel, 0, sizeof out, &out);
    clSetKernelArg(p.kernel, 1, sizeof a, &a);
    clSetKernelArg(p.kernel, 2, sizeof c, &c);
    double seconds = p.global <= items ? bench_time(b, launch_probe, &p) : -1;
    clReleaseKernel(p.kernel);
    return seconds > 0 ? (double)p.global * flops_per_item / seconds / 1e9 : 0;
}

// What the device says of itself: its cache, and on CPU devices the nominal
// FP32 peak (two FMA pipes, as every x86 core with AVX2 or AVX-512 that
// OpenCL CPU runtimes target in servers has).
static void describe_device(struct bench *b)
{
    cl_ulong cache = 0;
    cl_uint units = 0, mhz = 0, width = 0;
    clGetDeviceInfo(b->device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache, NULL);
    clGetDeviceInfo(b->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    clGetDeviceInfo(b->device, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof mhz, &mhz, NULL);
    clGetDeviceInfo(b->device, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof width, &width, NULL);
    b->limits.cache_bytes = (double)cache;
    if (b->info.type & CL_DEVICE_TYPE_CPU)
        b->limits.nominal_gflops = (double)units * mhz * 1e-3 * width * 2 * 2;
}

static int measure(struct bench *b, cl_program program, unsigned native)
{
    describe_device(b);
    // The read probe's working set is kept four times the last-level cache
    // (POCL reports it) so that the limit is memory's, not the cache's.
    size_t bytes = b->small_shapes ? (size_t)256 << 20 : (size_t)1 << 30;
    while ((double)bytes < 4 * b->limits.cache_bytes && bytes < ((size_t)1 << 32))
        bytes *= 2;
    while (bytes > b->info.max_alloc_bytes || bytes > b->info.global_mem_bytes / 4)
        bytes /= 2;
    size_t items = bytes / 16 / READS_PER_ITEM;
    float zero = 0;
    cl_mem x = bench_buffer(b, bytes, &zero, sizeof zero);
    cl_mem out = bench_buffer(b, items * sizeof(float), &zero, sizeof zero);
    int status = -1;
    if (!x || !out)
        goto done;
    static const struct {
        const char *kernel;
        size_t vector_bytes;
    } readers[] = {{"read_float4_strided", 16}, {"read_float16_strided", 64},
                   {"read_float16_contiguous", 64}};
    for (size_t i = 0; i < sizeof readers / sizeof readers[0]; ++i) {
        double gbps = read_bandwidth(b, program, readers[i].kernel, readers[i].vector_bytes, x, bytes, out);
        if (gbps > b->limits.gbps)
            b->limits.gbps = gbps;
    }

    const struct {
        const char *kernel;
        double flops_per_item;
    } fma_kernels[] = {{"fma_fp32", FLOPS_PER_ITEM},
                       {"fma_fp32_wide", FLOPS_PER_ITEM},
                       {"fma_fp32_native", NATIVE_ROUNDS * 2 * 12 * 2 * (double)native}};
    for (size_t i = 0; i < sizeof fma_kernels / sizeof fma_kernels[0]; ++i) {
        double gflops = fma_throughput(b, program, fma_kernels[i].kernel,
                                       fma_kernels[i].flops_per_item, out, items);
        if (gflops > b->limits.gflops)
            b->limits.gflops = gflops;
    }

    cl_int error;
    struct probe_launch empty = {clCreateKernel(program, "empty", &error), 1, 1};
    if (error != CL_SUCCESS)
        goto done;
    b->limits.launch_seconds = bench_time(b, launch_probe, &empty);
    b->empty_kernel = empty.kernel;
    status = b->limits.gbps > 0 && b->limits.gflops > 0 && b->limits.launch_seconds > 0 ? 0 : -1;
done:
    if (x)
        clReleaseMemObject(x);
    if (out)
        clReleaseMemObject(out);
    return status;
}

int bench_measure_limits(struct bench *b)
{
    const char *source = probe_source;
    cl_int error;
    cl_program program = clCreateProgramWithSource(b->context, 1, &source, NULL, &error);
    char type[16], options[96];
    unsigned width = native_width(b);
    if (width > 1)
        snprintf(type, sizeof type, "float%u", width);
    else
        snprintf(type, sizeof type, "float");
    snprintf(options, sizeof options, "-cl-std=CL1.2 -DNATIVE=%s -DNATIVE_WIDTH=%u -DNATIVE_ROUNDS=%d",
             type, width, NATIVE_ROUNDS);
    if (error == CL_SUCCESS)
        error = clBuildProgram(program, 1, &b->device, options, NULL, NULL);
    int status = error == CL_SUCCESS ? measure(b, program, width) : -1;
    if (program)
        clReleaseProgram(program);
    if (status != 0)
        bench_fail(b, "measuring the device's limits failed");
    return status;
}
