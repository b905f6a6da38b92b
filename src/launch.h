// Setting kernel arguments and enqueueing 1-D launches.
#ifndef TAILOR_LAUNCH_H
#define TAILOR_LAUNCH_H

#include "tailor.h"

// An argument for set_kernel_args: its size and address.
#define KERNEL_ARG(value) sizeof(value), (const void *)&(value)

// Sets `count` arguments from (size_t size, const void *value) pairs.
tailor_status set_kernel_args(cl_kernel kernel, cl_uint count, ...);

tailor_status enqueue_1d(cl_command_queue queue, cl_kernel kernel, size_t global, size_t local,
                         cl_uint wait_count, const cl_event *wait_list, cl_event *event);

// global[0] x global[1] work-items in local[0] x local[1] groups; global
// must be a multiple of local in each dimension.
tailor_status enqueue_2d(cl_command_queue queue, cl_kernel kernel, const size_t global[2],
                         const size_t local[2], cl_uint wait_count, const cl_event *wait_list,
                         cl_event *event);

#endif
