// Prints, for synthetic devices of every vendor path, the profile the table
// chooses and the exact options of every program, one line each:
//     device <TAB> family <TAB> arch <TAB> isa <TAB> program <TAB> source <TAB> options
// arch is the device's own (sm_90, gfx906, spir64); isa is, for NVIDIA, the
// newest PTX ISA its driver takes ("8.5"), else "-". The cross-compile tests
// compile, assemble and link every line for that target.
// Tuning switches that select other code than a profile's defaults are
// printed too, as "device+switch" lines for the programs they concern.
#include <stdio.h>
#include <string.h>

#include "embedded_sources.h"
#include "operation.h"
#include "profile.h"
#include "registry.h"

struct synthetic_device {
    const char *name;
    const char *family; // nvptx, amdgcn or spir
    const char *arch;
    char isa[8];
    tailor_device_info facts;
};

// ptx_isa: the newest PTX ISA (x10) of the driver such a device runs.
static struct synthetic_device nvidia(const char *name, const char *arch, unsigned major, unsigned minor,
                                      unsigned ptx_isa)
{
    struct synthetic_device d = {.name = name, .family = "nvptx", .arch = arch};
    snprintf(d.isa, sizeof d.isa, "%u.%u", ptx_isa / 10, ptx_isa % 10);
    snprintf(d.facts.vendor, sizeof d.facts.vendor, "NVIDIA Corporation");
    d.facts.vendor_id = 0x10de;
    d.facts.type = CL_DEVICE_TYPE_GPU;
    d.facts.nv_compute_major = major;
    d.facts.nv_compute_minor = minor;
    d.facts.nv_warp_size = 32;
    d.facts.max_work_group_size = 1024;
    d.facts.has_fp64 = 1;
    d.facts.ptx_isa = ptx_isa;
    return d;
}

static struct synthetic_device amd(const char *name, const char *arch, unsigned wavefront, unsigned gfx)
{
    struct synthetic_device d = {.name = name, .family = "amdgcn", .arch = arch, .isa = "-"};
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
                                     int subgroups, int fp64, cl_uint simd_floats)
{
    struct synthetic_device d = {.name = name, .family = "spir", .arch = subgroups ? "intel-subgroups" : "spir64",
                                 .isa = "-"};
    snprintf(d.facts.vendor, sizeof d.facts.vendor, "%s", vendor);
    d.facts.type = type;
    d.facts.has_subgroups = subgroups;
    d.facts.has_fp64 = fp64;
    d.facts.native_vector_width_float = simd_floats;
    d.facts.max_work_group_size = 1024;
    return d;
}

// 4 KiB of local memory and 64-item work-groups.
static struct synthetic_device small(struct synthetic_device d)
{
    d.facts.local_mem_bytes = 4096;
    d.facts.max_work_group_size = 64;
    return d;
}

// Tunings whose values switch between code paths, each compiled for every
// device on top of its profile (a device whose profile refuses one, such as
// NVIDIA-only hints elsewhere, skips it).
static const struct code_switch {
    const char *label;
    enum operation_id op;
    const char *tuning;
} code_switches[] = {
    {"diagonal-wide", OP_TRANSPOSE,
     "TRANSPOSE_METHOD_1=1,TRANSPOSE_METHOD_2=1,TRANSPOSE_METHOD_4=1,TRANSPOSE_METHOD_8=1,"
     "TRANSPOSE_METHOD_16=1,TRANSPOSE_BAND=0,TRANSPOSE_VECTOR_BYTES=64,TRANSPOSE_LOADS=32"},
    {"local", OP_TRANSPOSE,
     "TRANSPOSE_METHOD_1=0,TRANSPOSE_METHOD_2=0,TRANSPOSE_METHOD_4=0,TRANSPOSE_METHOD_8=0,"
     "TRANSPOSE_METHOD_16=0,TRANSPOSE_WG_X=8,TRANSPOSE_LOCAL_STEPS=4"},
    {"cpu-method", OP_TRANSPOSE,
     "TRANSPOSE_METHOD_1=2,TRANSPOSE_METHOD_2=2,TRANSPOSE_METHOD_4=2,TRANSPOSE_METHOD_8=2,"
     "TRANSPOSE_METHOD_16=2,TRANSPOSE_VECTOR_BYTES=4"},
    {"hints-and-bands", OP_TRANSPOSE, "TRANSPOSE_LOAD_HINT=2,TRANSPOSE_STORE_HINT=1,TRANSPOSE_BAND=4"},
    {"narrow", OP_TRANSPOSE,
     "TRANSPOSE_VECTOR_BYTES=4,TRANSPOSE_WG_X=8,TRANSPOSE_WG_Y=8,TRANSPOSE_LOCAL_STEPS=8"},
};

static int print_programs(const struct synthetic_device *device, const char *label,
                          const char *tuning, enum operation_id only_op)
{
    struct profile profile;
    if (profile_select(&device->facts, NULL, tuning, &profile) != TAILOR_SUCCESS)
        return tuning ? 0 : (fprintf(stderr, "%s: %s\n", device->name, tailor_last_error()), 1);
    // The values each operation settles on for this device, as a handle's
    // first call of it would (smaller shapes where the device is small).
    for (int op = 0; op < OP_COUNT; ++op)
        if (operation_settle(&profile, &device->facts, (enum operation_id)op) != TAILOR_SUCCESS)
            return tuning ? 0 : (fprintf(stderr, "%s: %s\n", device->name, tailor_last_error()), 1);
    int failures = 0;
    for (int id = 0; id < PROGRAM_COUNT; ++id) {
        const struct program_info *program = &program_table[id];
        if ((program->needs_fp64 && !device->facts.has_fp64) ||
            (only_op != OP_COUNT && program->op != only_op) ||
            !operation_launches_program(&profile, (enum program_id)id))
            continue;
        char options[4096];
        if (profile_build_options(&profile, (enum program_id)id, NULL, options, sizeof options) < 0) {
            ++failures;
            continue;
        }
        printf("%s%s\t%s\t%s\t%s\t%s\t%s\t%s\n", device->name, label, device->family, device->arch,
               device->isa, program->name, program->source->name, options);
    }
    return failures;
}

int main(void)
{
    struct synthetic_device devices[] = {
        // Each with the last driver of its architecture, or a current one.
        nvidia("nvidia-sm20", "sm_20", 2, 0, 61),
        nvidia("nvidia-sm35", "sm_35", 3, 5, 74),
        nvidia("nvidia-sm60", "sm_60", 6, 0, 90),
        nvidia("nvidia-sm70", "sm_70", 7, 0, 90),
        // A Volta under an old driver (418, PTX ISA 6.4): no PTX 7.4 load hints.
        nvidia("nvidia-sm70-driver418", "sm_70", 7, 0, 64),
        nvidia("nvidia-sm80", "sm_80", 8, 0, 90),
        nvidia("nvidia-sm90", "sm_90", 9, 0, 90),
        amd("amd-wave64-gfx906", "gfx906", 64, 9),
        amd("amd-wave32-gfx1030", "gfx1030", 32, 10),
        other("intel-gpu", "Intel(R) Corporation", CL_DEVICE_TYPE_GPU, 1, 0, 0),
        other("cpu", "GenuineIntel", CL_DEVICE_TYPE_CPU, 0, 1, 4),
        other("cpu-simd8", "AuthenticAMD", CL_DEVICE_TYPE_CPU, 0, 1, 8),
        other("cpu-simd16", "GenuineIntel", CL_DEVICE_TYPE_CPU, 0, 1, 16),
        other("generic", "Unknown Vendor", CL_DEVICE_TYPE_ACCELERATOR, 0, 0, 0),
        // Devices too small for the defaults: every operation on smaller shapes.
        small(nvidia("nvidia-sm90-small", "sm_90", 9, 0, 90)),
        small(amd("amd-wave64-gfx906-small", "gfx906", 64, 9)),
        small(other("generic-small", "Unknown Vendor", CL_DEVICE_TYPE_ACCELERATOR, 0, 0, 0)),
    };
    int failures = 0;
    for (size_t i = 0; i < sizeof devices / sizeof devices[0]; ++i) {
        failures += print_programs(&devices[i], "", NULL, OP_COUNT);
        for (size_t s = 0; s < sizeof code_switches / sizeof code_switches[0]; ++s) {
            char label[64];
            snprintf(label, sizeof label, "+%s", code_switches[s].label);
            failures += print_programs(&devices[i], label, code_switches[s].tuning,
                                       code_switches[s].op);
        }
    }
    return failures ? 1 : 0;
}
