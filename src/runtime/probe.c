#include "probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#define CL_DEVICE_WARP_SIZE_NV 0x4003
#define CL_DEVICE_BOARD_NAME_AMD 0x4038
#define CL_DEVICE_WAVEFRONT_WIDTH_AMD 0x4043
#define CL_DEVICE_GFXIP_MAJOR_AMD 0x404A
#define CL_DEVICE_GFXIP_MINOR_AMD 0x404B
#define CL_DEVICE_SUB_GROUP_SIZES_INTEL 0x4108

// Reads a string query into buffer, truncating a longer value.
static cl_int query_string(cl_device_id device, cl_device_info param, char *buffer, size_t size)
{
    size_t needed = 0;
    cl_int error = clGetDeviceInfo(device, param, 0, NULL, &needed);
    if (error != CL_SUCCESS)
        return error;
    if (needed <= size)
        return clGetDeviceInfo(device, param, size, buffer, NULL);
    char *whole = malloc(needed);
    if (!whole)
        return CL_OUT_OF_HOST_MEMORY;
    error = clGetDeviceInfo(device, param, needed, whole, NULL);
    if (error == CL_SUCCESS) {
        memcpy(buffer, whole, size - 1);
        buffer[size - 1] = '\0';
    }
    free(whole);
    return error;
}

// The extension list; *extensions stays NULL where the query fails (the
// vendor facts then stay unknown).
static tailor_status query_extensions(cl_device_id device, char **extensions)
{
    *extensions = NULL;
    size_t size = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, NULL, &size) != CL_SUCCESS)
        return TAILOR_SUCCESS;
    char *list = calloc(size + 1, 1);
    REQUIRE(list, TAILOR_ERROR_OUT_OF_HOST_MEMORY, "no memory for the device's extension list");
    if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, list, NULL) != CL_SUCCESS) {
        free(list);
        return TAILOR_SUCCESS;
    }
    *extensions = list;
    return TAILOR_SUCCESS;
}

static int has_extension(const char *extensions, const char *name)
{
    size_t length = strlen(name);
    for (const char *at = strstr(extensions, name); at; at = strstr(at + 1, name)) {
        int starts = at == extensions || at[-1] == ' ';
        int ends = at[length] == '\0' || at[length] == ' ';
        if (starts && ends)
            return 1;
    }
    return 0;
}

// Vendor extension queries fail on devices without them; those facts stay 0.
static cl_uint query_uint_or_zero(cl_device_id device, cl_device_info param)
{
    cl_uint value = 0;
    if (clGetDeviceInfo(device, param, sizeof value, &value, NULL) != CL_SUCCESS)
        return 0;
    return value;
}

// The newest PTX ISA (major*10+minor) NVIDIA's driver of this version
// takes: each CUDA release's minimum driver and PTX ISA, from NVIDIA's release
// notes and the PTX ISA document. 0 for an unknown version string.
static cl_uint driver_ptx_isa(const char *driver_version)
{
    static const struct {
        int driver, ptx_isa;
    } releases[] = {
        {580, 90}, {575, 88}, {570, 87}, {560, 85}, {555, 85}, {550, 84}, {545, 83},
        {535, 82}, {530, 81}, {525, 80}, {520, 78}, {515, 77}, {510, 76}, {495, 75},
        {470, 74}, {465, 73}, {460, 72}, {455, 71}, {450, 70}, {440, 65}, {418, 64},
        {410, 63}, {396, 62}, {387, 61}, {384, 60},
    };
    char *end;
    long major = strtol(driver_version, &end, 10);
    if (end == driver_version || *end != '.')
        return 0;
    for (size_t i = 0; i < sizeof releases / sizeof releases[0]; ++i)
        if (major >= releases[i].driver)
            return (cl_uint)releases[i].ptx_isa;
    return 0;
}

static void probe_vendor_extensions(cl_device_id device, const char *extensions,
                                    tailor_device_info *info)
{
    if (has_extension(extensions, "cl_nv_device_attribute_query")) {
        info->nv_compute_major = query_uint_or_zero(device, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV);
        info->nv_compute_minor = query_uint_or_zero(device, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV);
        info->nv_warp_size = query_uint_or_zero(device, CL_DEVICE_WARP_SIZE_NV);
    }
    if (has_extension(extensions, "cl_amd_device_attribute_query")) {
        info->amd_wavefront_width = query_uint_or_zero(device, CL_DEVICE_WAVEFRONT_WIDTH_AMD);
        info->amd_gfx_major = query_uint_or_zero(device, CL_DEVICE_GFXIP_MAJOR_AMD);
        info->amd_gfx_minor = query_uint_or_zero(device, CL_DEVICE_GFXIP_MINOR_AMD);
        if (query_string(device, CL_DEVICE_BOARD_NAME_AMD, info->amd_board_name,
                         sizeof info->amd_board_name) != CL_SUCCESS)
            info->amd_board_name[0] = '\0';
    }
    if (has_extension(extensions, "cl_intel_subgroups") ||
        has_extension(extensions, "cl_intel_required_subgroup_size")) {
        size_t bytes = 0;
        if (clGetDeviceInfo(device, CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof info->intel_subgroup_sizes,
                            info->intel_subgroup_sizes, &bytes) == CL_SUCCESS)
            info->intel_subgroup_size_count = (cl_uint)(bytes / sizeof(size_t));
    }
    info->has_subgroups = has_extension(extensions, "cl_intel_subgroups") ||
                          has_extension(extensions, "cl_khr_subgroups");
    info->has_fp64 = has_extension(extensions, "cl_khr_fp64");
    info->has_fp16 = has_extension(extensions, "cl_khr_fp16");
    if (info->nv_compute_major)
        info->ptx_isa = driver_ptx_isa(info->driver_version);
}

#define QUERY(param, field)                                                                         \
    do {                                                                                            \
        cl_int error_ = clGetDeviceInfo(device, param, sizeof(field), &(field), NULL);              \
        if (error_ != CL_SUCCESS)                                                                   \
            return error_from_cl(error_, "clGetDeviceInfo(" #param ")");                            \
    } while (0)

#define QUERY_STRING(param, field)                                                                  \
    do {                                                                                            \
        cl_int error_ = query_string(device, param, field, sizeof(field));                          \
        if (error_ != CL_SUCCESS)                                                                   \
            return error_from_cl(error_, "clGetDeviceInfo(" #param ")");                            \
    } while (0)

tailor_status probe_device(cl_device_id device, tailor_device_info *info)
{
    memset(info, 0, sizeof *info);
    cl_platform_id platform;
    QUERY(CL_DEVICE_PLATFORM, platform);
    cl_int error = clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof info->platform_name,
                                     info->platform_name, NULL);
    if (error == CL_SUCCESS)
        error = clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof info->platform_version,
                                  info->platform_version, NULL);
    if (error != CL_SUCCESS && error != CL_INVALID_VALUE)
        return error_from_cl(error, "clGetPlatformInfo");

    QUERY_STRING(CL_DEVICE_NAME, info->device_name);
    QUERY_STRING(CL_DEVICE_VENDOR, info->vendor);
    QUERY_STRING(CL_DRIVER_VERSION, info->driver_version);
    QUERY_STRING(CL_DEVICE_VERSION, info->device_version);
    QUERY_STRING(CL_DEVICE_OPENCL_C_VERSION, info->opencl_c_version);
    QUERY(CL_DEVICE_VENDOR_ID, info->vendor_id);
    QUERY(CL_DEVICE_TYPE, info->type);
    QUERY(CL_DEVICE_MAX_COMPUTE_UNITS, info->compute_units);
    QUERY(CL_DEVICE_MAX_CLOCK_FREQUENCY, info->clock_mhz);
    QUERY(CL_DEVICE_GLOBAL_MEM_SIZE, info->global_mem_bytes);
    QUERY(CL_DEVICE_MAX_MEM_ALLOC_SIZE, info->max_alloc_bytes);
    QUERY(CL_DEVICE_LOCAL_MEM_SIZE, info->local_mem_bytes);
    cl_device_local_mem_type local_type;
    QUERY(CL_DEVICE_LOCAL_MEM_TYPE, local_type);
    info->local_mem_dedicated = local_type == CL_LOCAL;
    QUERY(CL_DEVICE_MAX_WORK_GROUP_SIZE, info->max_work_group_size);
    QUERY(CL_DEVICE_MEM_BASE_ADDR_ALIGN, info->mem_base_addr_align_bits);

    // A speed fact only: unknown (0) where the query fails.
    if (clGetDeviceInfo(device, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT,
                        sizeof info->native_vector_width_float, &info->native_vector_width_float,
                        NULL) != CL_SUCCESS)
        info->native_vector_width_float = 0;

    char *extensions;
    tailor_status status = query_extensions(device, &extensions);
    if (status != TAILOR_SUCCESS || !extensions)
        return status;
    probe_vendor_extensions(device, extensions, info);
    free(extensions);
    return TAILOR_SUCCESS;
}

// Maximum shared memory per thread block by compute capability (CUDA C++
// Programming Guide, "Technical Specifications per Compute Capability").
static cl_uint block_shared_bytes(int cuda_sm)
{
    static const struct {
        int cuda_sm;
        cl_uint kib;
    } limits[] = {{70, 96}, {75, 64}, {80, 163}, {86, 99}, {87, 163}, {89, 99}, {90, 227}};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; ++i)
        if (limits[i].cuda_sm == cuda_sm)
            return limits[i].kib << 10;
    return 0;
}

// The read's index comes from global memory, so the array cannot be folded
// away: a successful build is a kernel with all of it.
static const char local_probe_source[] =
    "__kernel void tailor_local_probe(__global uint *io)\n"
    "{\n"
    "    __local uint words[WORDS];\n"
    "    uint id = (uint)get_local_id(0);\n"
    "    for (uint i = id; i < WORDS; i += (uint)get_local_size(0))\n"
    "        words[i] = i;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    io[id] = words[io[id] % WORDS];\n"
    "}\n";

void probe_static_local_memory(cl_context context, cl_device_id device, tailor_device_info *info)
{
    info->local_mem_static_bytes = 0;
    // Less 1 KiB for the bytes the compiler adds to a kernel's own arrays
    // (4 on the H100, whose compiler refuses the full 227 KiB).
    cl_uint limit = info->kind == TAILOR_DEVICE_KIND_NVIDIA ? block_shared_bytes(info->cuda_sm) : 0;
    cl_uint bytes = limit > 1024 ? limit - 1024 : 0;
    if (bytes <= info->local_mem_bytes)
        return;
    const char *source = local_probe_source;
    cl_int error;
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &error);
    if (error != CL_SUCCESS)
        return;
    char options[64];
    snprintf(options, sizeof options, "-DWORDS=%uu", bytes / 4);
    if (clBuildProgram(program, 1, &device, options, NULL, NULL) == CL_SUCCESS) {
        cl_kernel kernel = clCreateKernel(program, "tailor_local_probe", &error);
        if (error == CL_SUCCESS) {
            info->local_mem_static_bytes = bytes;
            clReleaseKernel(kernel);
        }
    }
    clReleaseProgram(program);
}
