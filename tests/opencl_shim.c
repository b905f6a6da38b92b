// A test-only interposer (LD_PRELOAD) in front of the OpenCL loader that
// changes what clGetDeviceInfo reports:
//   TAILOR_TEST_DRIVER_VERSION=TEXT   CL_DRIVER_VERSION reads TEXT (a driver upgrade)
//   TAILOR_TEST_HIDE_EXTENSION=NAME   CL_DEVICE_EXTENSIONS lacks NAME (e.g. cl_khr_fp64)
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include <CL/cl.h>

typedef cl_int (*get_device_info_fn)(cl_device_id, cl_device_info, size_t, void *, size_t *);

static cl_int answer(const char *text, size_t size, void *value, size_t *size_ret)
{
    size_t needed = strlen(text) + 1;
    if (size_ret)
        *size_ret = needed;
    if (value) {
        if (size < needed)
            return CL_INVALID_VALUE;
        memcpy(value, text, needed);
    }
    return CL_SUCCESS;
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
    return real(device, param, size, value, size_ret);
}
