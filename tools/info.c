// `tailor info`: every platform and device, the probe, the profile and the
// cache; with --verbose, the exact build options of every kernel program.
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "device_select.h"
#include "tailor.h"

static const char *type_name(cl_device_type type)
{
    if (type & CL_DEVICE_TYPE_GPU)
        return "GPU";
    if (type & CL_DEVICE_TYPE_CPU)
        return "CPU";
    if (type & CL_DEVICE_TYPE_ACCELERATOR)
        return "accelerator";
    return "other";
}

static void print_info(const tailor_device_info *d)
{
    printf("  vendor            %s (0x%04x)\n", d->vendor, d->vendor_id);
    printf("  type              %s\n", type_name(d->type));
    printf("  driver            %s\n", d->driver_version);
    printf("  OpenCL            %s; %s\n", d->device_version, d->opencl_c_version);
    printf("  platform version  %s\n", d->platform_version);
    printf("  compute units     %u at %u MHz\n", d->compute_units, d->clock_mhz);
    printf("  global memory     %.2f GiB (largest allocation %.2f GiB)\n",
           d->global_mem_bytes / 1073741824.0, d->max_alloc_bytes / 1073741824.0);
    printf("  local memory      %llu KiB, %s\n", (unsigned long long)(d->local_mem_bytes >> 10),
           d->local_mem_dedicated ? "dedicated" : "emulated in global memory");
    if (d->local_mem_static_bytes)
        printf("  static local      %u KiB in one kernel (a probe kernel built with it)\n",
               d->local_mem_static_bytes >> 10);
    printf("  work-group size   at most %zu\n", d->max_work_group_size);
    printf("  fp64              %s\n", d->has_fp64 ? "yes" : "no");
    printf("  sub-groups        %s\n", d->has_subgroups ? "yes" : "no");
    if (d->nv_compute_major)
        printf("  NVIDIA            compute capability %u.%u, warp size %u\n", d->nv_compute_major,
               d->nv_compute_minor, d->nv_warp_size);
    if (d->amd_wavefront_width)
        printf("  AMD               wavefront %u, GFX %u.%u, board %s\n", d->amd_wavefront_width,
               d->amd_gfx_major, d->amd_gfx_minor, d->amd_board_name);
    if (d->ptx_isa)
        printf("  PTX ISA           %u.%u (the driver's newest)\n", d->ptx_isa / 10, d->ptx_isa % 10);
    if (d->native_vector_width_float)
        printf("  native vector     %u floats\n", d->native_vector_width_float);
    if (d->intel_subgroup_size_count) {
        printf("  Intel sub-groups ");
        for (cl_uint i = 0; i < d->intel_subgroup_size_count; ++i)
            printf(" %zu", d->intel_subgroup_sizes[i]);
        printf("\n");
    }
    printf("  profile           %s (CUDA_SM=%d, LOCKSTEP=%d)\n", d->profile_name, d->cuda_sm,
           d->lockstep);
}

static void print_device(const struct device_choice *choice, int verbose)
{
    printf("[%u:%u] %s / %s\n", choice->platform_index, choice->device_index,
           choice->platform_name, choice->device_name);
    cl_int error;
    cl_context context = clCreateContext(NULL, 1, &choice->device, NULL, NULL, &error);
    if (error != CL_SUCCESS) {
        printf("  clCreateContext failed (%d)\n\n", (int)error);
        return;
    }
    tailor_context *tailor = NULL;
    tailor_status status = tailor_context_create(context, choice->device, NULL, &tailor);
    if (status != TAILOR_SUCCESS) {
        printf("  tailor_context_create: %s: %s\n\n", tailor_status_name(status), tailor_last_error());
        clReleaseContext(context);
        return;
    }
    tailor_device_info info;
    tailor_context_device_info(tailor, &info);
    print_info(&info);
    tailor_cache_stats stats;
    tailor_context_cache_stats(tailor, &stats);
    printf("  cache             %s%s%s\n", stats.cache_enabled ? stats.cache_dir : "off",
           stats.cache_enabled ? "" : ": ", stats.cache_enabled ? "" : stats.cache_note);
    tailor_tuning_info tuning;
    tailor_context_tuning_info(tailor, &tuning);
    if (tuning.loaded)
        printf("  tuning record     %s (%zu values in use%s%s)\n", tuning.path, tuning.values,
               tuning.note[0] ? "; " : "", tuning.note);
    else
        printf("  tuning record     none: %s\n", tuning.note);
    if (verbose)
        printf("  build options:\n");
    for (size_t i = 0; verbose && i < tailor_program_count(); ++i) {
        char options[4096];
        const char *name = tailor_program_name(i);
        if (tailor_context_build_options(tailor, name, options, sizeof options) == TAILOR_SUCCESS)
            printf("    %-18s %s\n", name, options);
    }
    printf("\n");
    tailor_context_release(&tailor);
    clReleaseContext(context);
}

int command_info(int argc, char **argv)
{
    int verbose = argc == 2 && strcmp(argv[1], "--verbose") == 0;
    if (argc > 2 || (argc == 2 && !verbose)) {
        fprintf(stderr, "usage: tailor info [--verbose]\n");
        return 2;
    }
    printf("tailor %s\n\n", tailor_version());
    struct device_choice devices[64];
    size_t count = list_devices(devices, sizeof devices / sizeof devices[0]);
    if (count == 0) {
        printf("no OpenCL device found (is an ICD such as pocl-opencl-icd installed?)\n");
        return 1;
    }
    for (size_t i = 0; i < count; ++i)
        print_device(&devices[i], verbose);
    return 0;
}
