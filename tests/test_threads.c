// One handle shared by several threads, each on its own queue, running a mix
// of reductions whose sizes cross every dispatch path: results stay right,
// every program is built once.
#include <pthread.h>
#include <stdlib.h>

#include "support.h"

#define THREADS 8
#define CALLS_PER_THREAD 40

struct worker {
    const struct test_device *device;
    tailor_context *handle;
    unsigned long long seed;
    int failures;
};

static void *work(void *argument)
{
    struct worker *w = argument;
    cl_int error;
    cl_command_queue queue = clCreateCommandQueue(w->device->context, w->device->choice.device, 0, &error);
    if (error != CL_SUCCESS) {
        ++w->failures;
        return NULL;
    }
    static const size_t sizes[] = {1, 17, 1000, 70000, 300001};
    for (int call = 0; call < CALLS_PER_THREAD; ++call) {
        size_t n = sizes[test_random(&w->seed) % 5];
        tailor_reduce_op op = (tailor_reduce_op)(test_random(&w->seed) % 3);
        float *x = malloc(n * sizeof *x);
        float expected = op == TAILOR_REDUCE_SUM ? 0.0f : (float)(n % 97);
        for (size_t i = 0; i < n; ++i) {
            x[i] = (float)(i % 97);
            expected = op == TAILOR_REDUCE_SUM ? expected + x[i] : op == TAILOR_REDUCE_MIN ? 0.0f : 96.0f;
        }
        if (op == TAILOR_REDUCE_MAX && n < 97)
            expected = (float)(n - 1);
        cl_mem input = clCreateBuffer(w->device->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof *x,
                                      x, &error);
        cl_mem result = clCreateBuffer(w->device->context, CL_MEM_READ_WRITE, sizeof(float), NULL, &error);
        float got = -1;
        tailor_status status =
            tailor_reduce(w->handle, queue, op, TAILOR_F32, n, input, 0, result, 0, 0, NULL, NULL);
        if (status == TAILOR_SUCCESS)
            clEnqueueReadBuffer(queue, result, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL);
        if (status != TAILOR_SUCCESS || got != expected) {
            fprintf(stderr, "thread: op %d n=%zu: %s, got %g expected %g\n", (int)op, n,
                    tailor_status_name(status), got, expected);
            ++w->failures;
        }
        clReleaseMemObject(input);
        clReleaseMemObject(result);
        free(x);
    }
    clReleaseCommandQueue(queue);
    return NULL;
}

int main(void)
{
    struct test_device devices[16];
    size_t count = test_open_devices(devices, 16);
    for (size_t d = 0; d < count; ++d) {
        tailor_context *handle = test_handle(&devices[d], NULL, NULL);
        if (!handle)
            continue;
        pthread_t threads[THREADS];
        struct worker workers[THREADS];
        for (int t = 0; t < THREADS; ++t) {
            workers[t] = (struct worker){&devices[d], handle, 0x1234567ull * (t + 1), 0};
            CHECK(pthread_create(&threads[t], NULL, work, &workers[t]) == 0, "pthread_create");
        }
        for (int t = 0; t < THREADS; ++t) {
            pthread_join(threads[t], NULL);
            CHECK(workers[t].failures == 0, "thread %d had %d failures", t, workers[t].failures);
        }
        tailor_cache_stats stats;
        tailor_context_cache_stats(handle, &stats);
        CHECK(stats.source_builds <= 3, "%llu builds for 3 programs",
              (unsigned long long)stats.source_builds);
        tailor_context_release(&handle);
    }
    test_close_devices(devices, count);
    return test_exit_status("test_threads");
}
