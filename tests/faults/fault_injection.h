// Fault injection for tests, at link time (ld --wrap): the library's calls
// of OpenCL functions, of malloc/calloc/realloc, and of the file-system calls
// of the cache go through wrappers that can make the N-th call fail.
#ifndef TAILOR_FAULT_INJECTION_H
#define TAILOR_FAULT_INJECTION_H

#include <stddef.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include "cl_wrappers.h"

enum fault_kind {
    FAULT_OPENCL,
    FAULT_ALLOCATION,
    FAULT_FILE, // open, write, fdatasync, rename, mkdir, ... of the cache
};

// From now on, count calls of that kind; the nth (1-based) fails with `error`
// (an OpenCL error code, or an errno for FAULT_FILE). nth = 0 fails nothing.
void fault_arm(enum fault_kind kind, unsigned long nth, int error);
// Stops failing; returns how many calls of the armed kind were made.
unsigned long fault_disarm(void);

// Per OpenCL function: calls made and calls failed since the start.
unsigned long fault_opencl_calls(int function);
unsigned long fault_opencl_failures(int function);

// The OpenCL function the last fault failed, and the query it asked
// (param_name of the clGet*Info functions; 0 for others).
int fault_last_function(void);
unsigned long fault_last_query(void);

// Used by the generated wrappers.
int fault_opencl_fire(int function, unsigned long query, cl_int *error);
void fault_opencl_count_only(int function);

#endif
