// The device probe: standard OpenCL queries plus the vendor extensions
// (cl_nv_device_attribute_query, cl_amd_device_attribute_query, Intel
// sub-group sizes). Fills the facts of tailor_device_info, not the profile.
#ifndef TAILOR_PROBE_H
#define TAILOR_PROBE_H

#include "tailor.h"

tailor_status probe_device(cl_device_id device, tailor_device_info *info);

#endif
