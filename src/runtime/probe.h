// The device probe: standard OpenCL queries plus the vendor extensions
// (cl_nv_device_attribute_query, cl_amd_device_attribute_query, Intel
// sub-group sizes). Fills the facts of tailor_device_info, not the profile.
#ifndef TAILOR_PROBE_H
#define TAILOR_PROBE_H

#include "tailor.h"

tailor_status probe_device(cl_device_id device, tailor_device_info *info);

// Sets info->local_mem_static_bytes (kind and cuda_sm must be known): on
// NVIDIA, builds a kernel with a static local array of the per-block shared
// memory CUDA documents for its compute capability, less 1 KiB, and keeps
// that size if the build succeeds. Any failure leaves 0.
void probe_static_local_memory(cl_context context, cl_device_id device, tailor_device_info *info);

#endif
