// One process of the cache test: creates a handle with the default settings
// (so the environment decides the cache), runs the named reductions, checks
// their results, and prints the cache counters as one JSON line.
//
// usage: cache_client [OP...]    OP: sum, min, max (default: sum)
// exit: 0 right results, 1 a wrong result or an error, 77 no device
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_select.h"
#include "tailor.h"

#define N 100000

static void json_string(const char *text)
{
    putchar('"');
    for (; *text; ++text)
        if (*text == '"' || *text == '\\')
            printf("\\%c", *text);
        else if ((unsigned char)*text >= 0x20)
            putchar(*text);
    putchar('"');
}

static int run(tailor_context *handle, cl_context context, cl_command_queue queue, tailor_reduce_op op)
{
    float *x = malloc(N * sizeof *x);
    for (int i = 0; i < N; ++i)
        x[i] = (float)(i % 10);
    float expected = op == TAILOR_REDUCE_SUM ? 450000.0f : op == TAILOR_REDUCE_MIN ? 0.0f : 9.0f, got = -1;
    cl_int error;
    cl_mem input = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *x, x, &error);
    cl_mem result = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof got, NULL, &error);
    tailor_status status = tailor_reduce(handle, queue, op, TAILOR_F32, N, input, 0, result, 0, 0, NULL, NULL);
    if (status == TAILOR_SUCCESS)
        clEnqueueReadBuffer(queue, result, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL);
    else
        fprintf(stderr, "cache_client: %s: %s\n", tailor_status_name(status), tailor_last_error());
    clReleaseMemObject(input);
    clReleaseMemObject(result);
    free(x);
    return status == TAILOR_SUCCESS && got == expected ? 0 : 1;
}

int main(int argc, char **argv)
{
    struct device_choice device;
    if (select_device(getenv("TAILOR_TEST_DEVICE"), &device) != 0) {
        fprintf(stderr, "cache_client: no OpenCL device\n");
        return 77;
    }
    cl_int error;
    cl_context context = clCreateContext(NULL, 1, &device.device, NULL, NULL, &error);
    cl_command_queue queue = clCreateCommandQueue(context, device.device, 0, &error);
    tailor_context *handle = NULL;
    tailor_status status = tailor_context_create(context, device.device, NULL, &handle);
    if (status != TAILOR_SUCCESS) {
        fprintf(stderr, "cache_client: %s\n", tailor_last_error());
        return 1;
    }
    int failures = 0;
    for (int i = 1; i < argc || (i == 1 && argc == 1); ++i) {
        const char *name = argc > 1 ? argv[i] : "sum";
        tailor_reduce_op op = strcmp(name, "min") == 0   ? TAILOR_REDUCE_MIN
                              : strcmp(name, "max") == 0 ? TAILOR_REDUCE_MAX
                                                         : TAILOR_REDUCE_SUM;
        failures += run(handle, context, queue, op);
    }
    tailor_cache_stats s;
    tailor_device_info info;
    tailor_context_cache_stats(handle, &s);
    tailor_context_device_info(handle, &info);
    printf("{\"ok\": %s, \"enabled\": %d, \"dir\": ", failures ? "false" : "true", s.cache_enabled);
    json_string(s.cache_dir);
    printf(", \"note\": ");
    json_string(s.cache_note);
    printf(", \"driver\": ");
    json_string(info.driver_version);
    printf(", \"memory_hits\": %llu, \"disk_hits\": %llu, \"disk_misses\": %llu, \"source_builds\": %llu, "
           "\"bad_entries\": %llu, \"stores\": %llu, \"store_failures\": %llu, \"evictions\": %llu}\n",
           (unsigned long long)s.memory_hits, (unsigned long long)s.disk_hits,
           (unsigned long long)s.disk_misses, (unsigned long long)s.source_builds,
           (unsigned long long)s.bad_entries, (unsigned long long)s.stores,
           (unsigned long long)s.store_failures, (unsigned long long)s.evictions);
    tailor_context_release(&handle);
    clFinish(queue);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return failures ? 1 : 0;
}
