// Setting kernel arguments and enqueueing 1-D launches.
#ifndef TAILOR_LAUNCH_H
#define TAILOR_LAUNCH_H

#include "tailor.h"

struct kernel_lease;

enum kernel_arg_kind {
    ARG_VALUE,  // a scalar: skipped when the kernel object already holds it
    ARG_MEMORY, // a cl_mem: always set (a released buffer's handle may come back as another)
};

// The arguments of set_kernel_args: kind, size and address.
#define KERNEL_ARG(value) ARG_VALUE, sizeof(value), (const void *)&(value)
#define KERNEL_MEM(buffer) ARG_MEMORY, sizeof(cl_mem), (const void *)&(buffer)

// Sets `count` arguments from (kind, size, address) triples. Scalars equal
// to what the leased kernel object holds from its last launch are not set
// again: a small operation's host cost is mostly driver calls.
tailor_status set_kernel_args(struct kernel_lease *lease, cl_uint count, ...);

tailor_status enqueue_1d(cl_command_queue queue, cl_kernel kernel, size_t global, size_t local,
                         cl_uint wait_count, const cl_event *wait_list, cl_event *event);

// global[0] x global[1] work-items in local[0] x local[1] groups; global
// must be a multiple of local in each dimension.
tailor_status enqueue_2d(cl_command_queue queue, cl_kernel kernel, const size_t global[2],
                         const size_t local[2], cl_uint wait_count, const cl_event *wait_list,
                         cl_event *event);

#endif
