#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

// Large enough for a typical build log; longer messages are truncated.
static _Thread_local char last_error[16384];
static _Thread_local cl_int last_cl_error;
static _Thread_local char last_variant[128];

tailor_status error_set(tailor_status status, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(last_error, sizeof last_error, format, args);
    va_end(args);
    last_cl_error = CL_SUCCESS;
    return status;
}

tailor_status error_set_cl(tailor_status status, cl_int cl_error, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(last_error, sizeof last_error, format, args);
    va_end(args);
    last_cl_error = cl_error;
    return status;
}

void error_clear(void)
{
    last_error[0] = '\0';
    last_cl_error = CL_SUCCESS;
}

void operation_begin(void)
{
    error_clear();
    last_variant[0] = '\0';
}

void variant_set(const char *name)
{
    // Not snprintf: this runs on every launch.
    size_t length = strnlen(name, sizeof last_variant - 1);
    memcpy(last_variant, name, length);
    last_variant[length] = '\0';
}

void name_prefix(char *name, size_t size, const char *prefix)
{
    size_t p = strlen(prefix), n = strnlen(name, size - 1);
    if (n == 0 || p >= size)
        return;
    if (p + n > size - 1)
        n = size - 1 - p;
    memmove(name + p, name, n);
    memcpy(name, prefix, p);
    name[p + n] = '\0';
}

void variant_prefix(const char *prefix)
{
    name_prefix(last_variant, sizeof last_variant, prefix);
}

const char *tailor_last_error(void)
{
    return last_error;
}

cl_int tailor_last_cl_error(void)
{
    return last_cl_error;
}

const char *tailor_last_variant(void)
{
    return last_variant;
}

const char *tailor_status_string(tailor_status status)
{
    switch (status) {
#define TAILOR_STATUS_MESSAGE_(name, value, message)                                                \
    case name:                                                                                      \
        return message;
        TAILOR_STATUS_TABLE(TAILOR_STATUS_MESSAGE_)
#undef TAILOR_STATUS_MESSAGE_
    }
    return "unknown status";
}

const char *tailor_status_name(tailor_status status)
{
    switch (status) {
#define TAILOR_STATUS_NAME_(name, value, message)                                                   \
    case name:                                                                                      \
        return #name;
        TAILOR_STATUS_TABLE(TAILOR_STATUS_NAME_)
#undef TAILOR_STATUS_NAME_
    }
    return "TAILOR_STATUS_UNKNOWN";
}

#define CL_ERRORS(X)                                                                                \
    X(CL_DEVICE_NOT_FOUND) X(CL_DEVICE_NOT_AVAILABLE) X(CL_COMPILER_NOT_AVAILABLE)                  \
    X(CL_MEM_OBJECT_ALLOCATION_FAILURE) X(CL_OUT_OF_RESOURCES) X(CL_OUT_OF_HOST_MEMORY)             \
    X(CL_PROFILING_INFO_NOT_AVAILABLE) X(CL_MEM_COPY_OVERLAP) X(CL_IMAGE_FORMAT_MISMATCH)           \
    X(CL_IMAGE_FORMAT_NOT_SUPPORTED) X(CL_BUILD_PROGRAM_FAILURE) X(CL_MAP_FAILURE)                  \
    X(CL_MISALIGNED_SUB_BUFFER_OFFSET) X(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)              \
    X(CL_COMPILE_PROGRAM_FAILURE) X(CL_LINKER_NOT_AVAILABLE) X(CL_LINK_PROGRAM_FAILURE)             \
    X(CL_DEVICE_PARTITION_FAILED) X(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) X(CL_INVALID_VALUE)           \
    X(CL_INVALID_DEVICE_TYPE) X(CL_INVALID_PLATFORM) X(CL_INVALID_DEVICE) X(CL_INVALID_CONTEXT)     \
    X(CL_INVALID_QUEUE_PROPERTIES) X(CL_INVALID_COMMAND_QUEUE) X(CL_INVALID_HOST_PTR)               \
    X(CL_INVALID_MEM_OBJECT) X(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) X(CL_INVALID_IMAGE_SIZE)         \
    X(CL_INVALID_SAMPLER) X(CL_INVALID_BINARY) X(CL_INVALID_BUILD_OPTIONS) X(CL_INVALID_PROGRAM)    \
    X(CL_INVALID_PROGRAM_EXECUTABLE) X(CL_INVALID_KERNEL_NAME) X(CL_INVALID_KERNEL_DEFINITION)      \
    X(CL_INVALID_KERNEL) X(CL_INVALID_ARG_INDEX) X(CL_INVALID_ARG_VALUE) X(CL_INVALID_ARG_SIZE)     \
    X(CL_INVALID_KERNEL_ARGS) X(CL_INVALID_WORK_DIMENSION) X(CL_INVALID_WORK_GROUP_SIZE)            \
    X(CL_INVALID_WORK_ITEM_SIZE) X(CL_INVALID_GLOBAL_OFFSET) X(CL_INVALID_EVENT_WAIT_LIST)          \
    X(CL_INVALID_EVENT) X(CL_INVALID_OPERATION) X(CL_INVALID_GL_OBJECT) X(CL_INVALID_BUFFER_SIZE)   \
    X(CL_INVALID_MIP_LEVEL) X(CL_INVALID_GLOBAL_WORK_SIZE) X(CL_INVALID_PROPERTY)                   \
    X(CL_INVALID_IMAGE_DESCRIPTOR) X(CL_INVALID_COMPILER_OPTIONS) X(CL_INVALID_LINKER_OPTIONS)      \
    X(CL_INVALID_DEVICE_PARTITION_COUNT)

const char *cl_error_name(cl_int error)
{
    switch (error) {
#define CL_ERROR_CASE_(name)                                                                        \
    case name:                                                                                      \
        return #name;
        CL_ERRORS(CL_ERROR_CASE_)
#undef CL_ERROR_CASE_
    }
    return "unknown OpenCL error";
}

tailor_status error_from_cl(cl_int error, const char *call)
{
    tailor_status status = TAILOR_ERROR_OPENCL;
    if (error == CL_OUT_OF_HOST_MEMORY)
        status = TAILOR_ERROR_OUT_OF_HOST_MEMORY;
    else if (error == CL_OUT_OF_RESOURCES || error == CL_MEM_OBJECT_ALLOCATION_FAILURE)
        status = TAILOR_ERROR_OUT_OF_DEVICE_MEMORY;
    return error_set_cl(status, error, "%s failed: %s (%d)", call, cl_error_name(error), (int)error);
}
