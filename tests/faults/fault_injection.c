#include "fault_injection.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static struct {
    int armed;
    enum fault_kind kind;
    unsigned long nth, seen;
    int error;
    unsigned long calls[FAULT_OPENCL_FUNCTIONS], failures[FAULT_OPENCL_FUNCTIONS];
    int last_function;
    unsigned long last_query;
} faults = {.last_function = -1};

void fault_arm(enum fault_kind kind, unsigned long nth, int error)
{
    faults.armed = 1;
    faults.last_function = -1;
    faults.kind = kind;
    faults.nth = nth;
    faults.seen = 0;
    faults.error = error;
}

unsigned long fault_disarm(void)
{
    faults.armed = 0;
    return faults.seen;
}

// Whether this call of that kind is the one to fail.
static int fire(enum fault_kind kind)
{
    if (!faults.armed || faults.kind != kind)
        return 0;
    return ++faults.seen == faults.nth;
}

// Calls count while a walk is armed: those are the library's calls.
int fault_opencl_fire(int function, unsigned long query, cl_int *error)
{
    faults.calls[function] += faults.armed;
    if (!fire(FAULT_OPENCL))
        return 0;
    ++faults.failures[function];
    faults.last_function = function;
    faults.last_query = query;
    *error = (cl_int)faults.error;
    return 1;
}

int fault_last_function(void)
{
    return faults.last_function;
}

unsigned long fault_last_query(void)
{
    return faults.last_query;
}

void fault_opencl_count_only(int function)
{
    faults.calls[function] += faults.armed;
}

unsigned long fault_opencl_calls(int function)
{
    return faults.calls[function];
}

unsigned long fault_opencl_failures(int function)
{
    return faults.failures[function];
}

// Allocations.
void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *pointer, size_t size);

void *__wrap_malloc(size_t size)
{
    if (fire(FAULT_ALLOCATION)) {
        errno = ENOMEM;
        return NULL;
    }
    return __real_malloc(size);
}

void *__wrap_calloc(size_t count, size_t size)
{
    if (fire(FAULT_ALLOCATION)) {
        errno = ENOMEM;
        return NULL;
    }
    return __real_calloc(count, size);
}

void *__wrap_realloc(void *pointer, size_t size)
{
    if (fire(FAULT_ALLOCATION)) {
        errno = ENOMEM;
        return NULL;
    }
    return __real_realloc(pointer, size);
}

// File-system calls of the cache.
#define FAIL_FILE_CALL(failure)                                                                     \
    do {                                                                                            \
        if (fire(FAULT_FILE)) {                                                                     \
            errno = faults.error;                                                                   \
            return failure;                                                                         \
        }                                                                                           \
    } while (0)

// With _FILE_OFFSET_BITS=64 the library's open and fstat are open64 and fstat64.
int __real_open64(const char *path, int flags, ...);
int __wrap_open64(const char *path, int flags, ...)
{
    mode_t mode = 0;
    if (flags & O_CREAT) {
        va_list args;
        va_start(args, flags);
        mode = (mode_t)va_arg(args, int);
        va_end(args);
    }
    FAIL_FILE_CALL(-1);
    return __real_open64(path, flags, mode);
}

ssize_t __real_write(int fd, const void *data, size_t size);
ssize_t __wrap_write(int fd, const void *data, size_t size)
{
    FAIL_FILE_CALL(-1);
    return __real_write(fd, data, size);
}

ssize_t __real_read(int fd, void *data, size_t size);
ssize_t __wrap_read(int fd, void *data, size_t size)
{
    FAIL_FILE_CALL(-1);
    return __real_read(fd, data, size);
}

int __real_fdatasync(int fd);
int __wrap_fdatasync(int fd)
{
    FAIL_FILE_CALL(-1);
    return __real_fdatasync(fd);
}

int __real_rename(const char *from, const char *to);
int __wrap_rename(const char *from, const char *to)
{
    FAIL_FILE_CALL(-1);
    return __real_rename(from, to);
}

int __real_mkdir(const char *path, mode_t mode);
int __wrap_mkdir(const char *path, mode_t mode)
{
    FAIL_FILE_CALL(-1);
    return __real_mkdir(path, mode);
}

int __real_fstat64(int fd, struct stat *st);
int __wrap_fstat64(int fd, struct stat *st)
{
    FAIL_FILE_CALL(-1);
    return __real_fstat64(fd, st);
}

DIR *__real_opendir(const char *path);
DIR *__wrap_opendir(const char *path)
{
    FAIL_FILE_CALL(NULL);
    return __real_opendir(path);
}

int __real_unlink(const char *path);
int __wrap_unlink(const char *path)
{
    FAIL_FILE_CALL(-1);
    return __real_unlink(path);
}

int __real_close(int fd);
int __wrap_close(int fd)
{
    // A failed close has still closed the descriptor, as on Linux.
    int result = __real_close(fd);
    FAIL_FILE_CALL(-1);
    return result;
}
