// Prints, for synthetic devices of every vendor path, the profile the table
// chooses and the exact options of every program, one line each:
//     device <TAB> family <TAB> arch <TAB> program <TAB> source <TAB> options
// The cross-compile test compiles every line with clang for that target.
#include <stdio.h>
#include <string.h>

#include "embedded_sources.h"
#include "profile.h"
#include "programs.h"

struct synthetic_device {
    const char *name;
    const char *family; // nvptx, amdgcn or spir
    const char *arch;
    tailor_device_info facts;
};

static struct synthetic_device nvidia(const char *name, const char *arch, unsigned major, unsigned minor)
{
    struct synthetic_device d = {.name = name, .family = "nvptx", .arch = arch};
    snprintf(d.facts.vendor, sizeof d.facts.vendor, "NVIDIA Corporation");
    d.facts.vendor_id = 0x10de;
    d.facts.type = CL_DEVICE_TYPE_GPU;
    d.facts.nv_compute_major = major;
    d.facts.nv_compute_minor = minor;
    d.facts.nv_warp_size = 32;
    d.facts.max_work_group_size = 1024;
    d.facts.has_fp64 = 1;
    return d;
}

static struct synthetic_device amd(const char *name, const char *arch, unsigned wavefront, unsigned gfx)
{
    struct synthetic_device d = {.name = name, .family = "amdgcn", .arch = arch};
    snprintf(d.facts.vendor, sizeof d.facts.vendor, "Advanced Micro Devices, Inc.");
    d.facts.vendor_id = 0x1002;
    d.facts.type = CL_DEVICE_TYPE_GPU;
    d.facts.amd_wavefront_width = wavefront;
    d.facts.amd_gfx_major = gfx;
    d.facts.max_work_group_size = 256;
    d.facts.has_fp64 = 1;
    return d;
}

static struct synthetic_device other(const char *name, const char *vendor, cl_device_type type,
                                     int subgroups, int fp64)
{
    struct synthetic_device d = {.name = name, .family = "spir", .arch = subgroups ? "intel-subgroups" : "spir64"};
    snprintf(d.facts.vendor, sizeof d.facts.vendor, "%s", vendor);
    d.facts.type = type;
    d.facts.has_subgroups = subgroups;
    d.facts.has_fp64 = fp64;
    d.facts.max_work_group_size = 1024;
    return d;
}

int main(void)
{
    struct synthetic_device devices[] = {
        nvidia("nvidia-sm20", "sm_20", 2, 0),
        nvidia("nvidia-sm35", "sm_35", 3, 5),
        nvidia("nvidia-sm60", "sm_60", 6, 0),
        nvidia("nvidia-sm70", "sm_70", 7, 0),
        nvidia("nvidia-sm80", "sm_80", 8, 0),
        // clang 14 knows no sm_90: its PTX for sm_86 carries the CUDA_SM=90 code path.
        nvidia("nvidia-sm90", "sm_86", 9, 0),
        amd("amd-wave64-gfx906", "gfx906", 64, 9),
        amd("amd-wave32-gfx1030", "gfx1030", 32, 10),
        other("intel-gpu", "Intel(R) Corporation", CL_DEVICE_TYPE_GPU, 1, 0),
        other("cpu", "GenuineIntel", CL_DEVICE_TYPE_CPU, 0, 1),
        other("generic", "Unknown Vendor", CL_DEVICE_TYPE_ACCELERATOR, 0, 0),
    };
    int failures = 0;
    for (size_t i = 0; i < sizeof devices / sizeof devices[0]; ++i) {
        struct profile profile;
        if (profile_select(&devices[i].facts, NULL, NULL, &profile) != TAILOR_SUCCESS) {
            fprintf(stderr, "%s: %s\n", devices[i].name, tailor_last_error());
            ++failures;
            continue;
        }
        for (int id = 0; id < PROGRAM_COUNT; ++id) {
            if (program_needs_fp64((enum program_id)id) && !devices[i].facts.has_fp64)
                continue;
            char options[4096];
            if (program_build_options(&profile, (enum program_id)id, NULL, options, sizeof options) < 0) {
                ++failures;
                continue;
            }
            printf("%s\t%s\t%s\t%s\t%s\t%s\n", devices[i].name, devices[i].family, devices[i].arch,
                   program_name((enum program_id)id), program_source((enum program_id)id)->name, options);
        }
    }
    return failures ? 1 : 0;
}
