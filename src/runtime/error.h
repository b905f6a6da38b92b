// Statuses with a message: each thread keeps the message and OpenCL error
// code of its last failed call and the variant name of its last operation
// (tailor_last_error, tailor_last_cl_error, tailor_last_variant).
#ifndef TAILOR_ERROR_H
#define TAILOR_ERROR_H

#include "tailor.h"

#define TAILOR_PRINTF(f, a) __attribute__((format(printf, f, a)))

// Records the message (and no OpenCL error code) and returns status.
tailor_status error_set(tailor_status status, const char *format, ...) TAILOR_PRINTF(2, 3);

// The same, for a failure an OpenCL call reported with `cl_error`.
tailor_status error_set_cl(tailor_status status, cl_int cl_error, const char *format, ...)
    TAILOR_PRINTF(3, 4);

// Maps a failed OpenCL call to a status with a message naming the call and
// the OpenCL error.
tailor_status error_from_cl(cl_int error, const char *call);

// Starts a public call: no error yet.
void error_clear(void);

// Starts an operation: no error, no variant yet.
void operation_begin(void);

const char *cl_error_name(cl_int error);

void variant_set(const char *name);

// Prepends `prefix` to the NUL-terminated name in a buffer of `size` bytes
// (cut to fit), unless the name is empty: the variant of a call one
// operation makes on another's behalf ("gemv:..."), as run or as explained.
void name_prefix(char *name, size_t size, const char *prefix);

// name_prefix on the variant of the calling thread's last operation.
void variant_prefix(const char *prefix);

// Returns status from the enclosing function, with a message, unless the
// condition holds.
#define REQUIRE(condition, status, ...)                                                             \
    do {                                                                                            \
        if (!(condition))                                                                           \
            return error_set(status, __VA_ARGS__);                                                  \
    } while (0)

#endif
