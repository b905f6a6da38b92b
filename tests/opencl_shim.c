// A test-only interposer (LD_PRELOAD) in front of the OpenCL loader that
// changes what clGetDeviceInfo reports:
//   TAILOR_TEST_DRIVER_VERSION=TEXT   CL_DRIVER_VERSION reads TEXT (a driver upgrade)
//   TAILOR_TEST_HIDE_EXTENSION=NAME   CL_DEVICE_EXTENSIONS lacks NAME (e.g. cl_khr_fp64)
//   TAILOR_TEST_COMPUTE_UNITS=N       CL_DEVICE_MAX_COMPUTE_UNITS reads N (a GPU's count
//                                     on a CPU device, for the plans that depend on it)
// and, keyed by a text the build options of a program contain (so that one
// tuning value misbehaves the way a faulty driver or compiler would):
//   TAILOR_TEST_FAIL_BUILD=TEXT       clBuildProgram fails (CL_BUILD_PROGRAM_FAILURE)
//   TAILOR_TEST_FAIL_LAUNCH=TEXT      launches of its kernels fail (CL_OUT_OF_RESOURCES)
//   TAILOR_TEST_SKIP_LAUNCH=TEXT      launches of its kernels do nothing but succeed
//                                     (a marker stands in), so results are wrong
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <CL/cl.h>

typedef cl_int (*get_device_info_fn)(cl_device_id, cl_device_info, size_t, void *, size_t *);

// clGetDeviceInfo's answer of `needed` bytes at `data`.
static cl_int answer_bytes(const void *data, size_t needed, size_t size, void *value, size_t *size_ret)
{
    if (size_ret)
        *size_ret = needed;
    if (value) {
        if (size < needed)
            return CL_INVALID_VALUE;
        memcpy(value, data, needed);
    }
    return CL_SUCCESS;
}

static cl_int answer(const char *text, size_t size, void *value, size_t *size_ret)
{
    return answer_bytes(text, strlen(text) + 1, size, value, size_ret);
}

static cl_int extensions_without(get_device_info_fn real, cl_device_id device, const char *hidden,
                                 size_t size, void *value, size_t *size_ret)
{
    size_t length = 0;
    cl_int error = real(device, CL_DEVICE_EXTENSIONS, 0, NULL, &length);
    char *all = error == CL_SUCCESS ? calloc(length + 1, 1) : NULL;
    char *kept = all ? calloc(length + 1, 1) : NULL;
    if (!kept) {
        free(all);
        return error == CL_SUCCESS ? CL_OUT_OF_HOST_MEMORY : error;
    }
    real(device, CL_DEVICE_EXTENSIONS, length, all, NULL);
    for (char *word = strtok(all, " "); word; word = strtok(NULL, " ")) {
        if (strcmp(word, hidden) == 0)
            continue;
        strcat(kept, *kept ? " " : "");
        strcat(kept, word);
    }
    error = answer(kept, size, value, size_ret);
    free(all);
    free(kept);
    return error;
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param, size_t size,
                                                void *value, size_t *size_ret)
{
    get_device_info_fn real = (get_device_info_fn)dlsym(RTLD_NEXT, "clGetDeviceInfo");
    const char *driver = getenv("TAILOR_TEST_DRIVER_VERSION");
    const char *hidden = getenv("TAILOR_TEST_HIDE_EXTENSION");
    if (param == CL_DRIVER_VERSION && driver)
        return answer(driver, size, value, size_ret);
    if (param == CL_DEVICE_EXTENSIONS && hidden)
        return extensions_without(real, device, hidden, size, value, size_ret);
    const char *units = getenv("TAILOR_TEST_COMPUTE_UNITS");
    if (param == CL_DEVICE_MAX_COMPUTE_UNITS && units) {
        cl_uint count = (cl_uint)strtoul(units, NULL, 10);
        return answer_bytes(&count, sizeof count, size, value, size_ret);
    }
    return real(device, param, size, value, size_ret);
}

// Programs whose build options matched one of the texts, and which.
#define MARKED_PROGRAMS 4096
enum mark { MARK_NONE, MARK_FAIL_LAUNCH, MARK_SKIP_LAUNCH };
struct marked_program {
    cl_program program;
    enum mark mark;
};
static struct marked_program marked[MARKED_PROGRAMS];
static size_t marked_count;
static pthread_mutex_t marked_lock = PTHREAD_MUTEX_INITIALIZER;

static int options_contain(const char *options, const char *variable)
{
    const char *text = getenv(variable);
    return text && *text && options && strstr(options, text);
}

typedef cl_int (*build_program_fn)(cl_program, cl_uint, const cl_device_id *, const char *,
                                   void(CL_CALLBACK *)(cl_program, void *), void *);

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices,
                                               const cl_device_id *devices, const char *options,
                                               void(CL_CALLBACK *notify)(cl_program, void *),
                                               void *user)
{
    build_program_fn real = (build_program_fn)dlsym(RTLD_NEXT, "clBuildProgram");
    if (options_contain(options, "TAILOR_TEST_FAIL_BUILD"))
        return CL_BUILD_PROGRAM_FAILURE;
    enum mark mark = options_contain(options, "TAILOR_TEST_FAIL_LAUNCH")   ? MARK_FAIL_LAUNCH
                     : options_contain(options, "TAILOR_TEST_SKIP_LAUNCH") ? MARK_SKIP_LAUNCH
                                                                           : MARK_NONE;
    pthread_mutex_lock(&marked_lock);
    // A released program's address may come back: the newest entry wins.
    for (size_t i = 0; i < marked_count; ++i)
        if (marked[i].program == program)
            marked[i].program = NULL;
    if (mark != MARK_NONE && marked_count < MARKED_PROGRAMS)
        marked[marked_count++] = (struct marked_program){program, mark};
    pthread_mutex_unlock(&marked_lock);
    return real(program, num_devices, devices, options, notify, user);
}

static enum mark kernel_mark(cl_kernel kernel)
{
    cl_program program = NULL;
    if (clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof program, &program, NULL) != CL_SUCCESS)
        return MARK_NONE;
    enum mark mark = MARK_NONE;
    pthread_mutex_lock(&marked_lock);
    for (size_t i = 0; i < marked_count; ++i)
        if (marked[i].program == program)
            mark = marked[i].mark;
    pthread_mutex_unlock(&marked_lock);
    return mark;
}

typedef cl_int (*enqueue_kernel_fn)(cl_command_queue, cl_kernel, cl_uint, const size_t *,
                                    const size_t *, const size_t *, cl_uint, const cl_event *,
                                    cl_event *);

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue queue, cl_kernel kernel,
                                                       cl_uint dimensions, const size_t *offset,
                                                       const size_t *global, const size_t *local,
                                                       cl_uint wait_count, const cl_event *wait_list,
                                                       cl_event *event)
{
    enqueue_kernel_fn real = (enqueue_kernel_fn)dlsym(RTLD_NEXT, "clEnqueueNDRangeKernel");
    enum mark mark = kernel_mark(kernel);
    if (mark == MARK_FAIL_LAUNCH)
        return CL_OUT_OF_RESOURCES;
    if (mark == MARK_SKIP_LAUNCH)
        return clEnqueueMarkerWithWaitList(queue, wait_count, wait_list, event);
    return real(queue, kernel, dimensions, offset, global, local, wait_count, wait_list, event);
}
