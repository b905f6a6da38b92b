#include "program.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "embedded_sources.h"
#include "error.h"
#include "registry.h"
#include "sha256.h"

// Kernel objects of one kernel kept for reuse; launches beyond this many at
// once get a kernel object of their own.
#define KERNEL_SLOTS 8

struct kernel_slot {
    atomic_flag busy;
    cl_kernel kernel;
    struct kernel_arg_cache args;
};

struct kernel_pool {
    enum kernel_id id;
    cl_uint arg_count;
    struct kernel_slot slots[KERNEL_SLOTS];
};

struct built_program {
    cl_program program;
    size_t kernel_count;
    signed char pool_of[KERNEL_COUNT]; // index into pools, -1 for kernels of other programs
    struct kernel_pool pools[];
};

// Everything that decides what the compiled binary is: a change to any line
// is a different entry.
static char *make_key(const tailor_context *ctx, enum program_id id, const char *options)
{
    const struct embedded_source *source = program_table[id].source;
    uint8_t digest[SHA256_BYTES];
    char source_hex[SHA256_HEX_BYTES];
    sha256_digest(source->text, source->length, digest);
    sha256_hex(digest, source_hex);
    const tailor_device_info *d = &ctx->info;
    const char *format = "tailor %s\n"
                         "program %s\n"
                         "source-sha256 %s\n"
                         "options %s\n"
                         "platform %s\n"
                         "platform-version %s\n"
                         "device %s\n"
                         "vendor-id 0x%x\n"
                         "driver %s\n"
                         "device-version %s\n"
                         "opencl-c %s\n"
                         "nvidia-compute-capability %u.%u warp %u\n"
                         "amd-gfx %u.%u wavefront %u board %s\n";
#define KEY_ARGUMENTS                                                                               \
    TAILOR_LIBRARY_VERSION, program_table[id].name, source_hex, options, d->platform_name,                \
        d->platform_version, d->device_name, d->vendor_id, d->driver_version, d->device_version,    \
        d->opencl_c_version, d->nv_compute_major, d->nv_compute_minor, d->nv_warp_size,             \
        d->amd_gfx_major, d->amd_gfx_minor, d->amd_wavefront_width, d->amd_board_name
    int length = snprintf(NULL, 0, format, KEY_ARGUMENTS);
    char *key = length < 0 ? NULL : malloc((size_t)length + 1);
    if (key)
        snprintf(key, (size_t)length + 1, format, KEY_ARGUMENTS);
#undef KEY_ARGUMENTS
    return key;
}

static tailor_status build_failure(const tailor_context *ctx, cl_program program, enum program_id id,
                                   const char *options)
{
    size_t size = 0;
    char *log = NULL;
    if (clGetProgramBuildInfo(program, ctx->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) ==
            CL_SUCCESS &&
        (log = calloc(size + 1, 1)) != NULL)
        clGetProgramBuildInfo(program, ctx->device, CL_PROGRAM_BUILD_LOG, size, log, NULL);
    tailor_status status = error_set_cl(TAILOR_ERROR_BUILD_FAILED, CL_BUILD_PROGRAM_FAILURE,
                                        "building %s for %s failed; options: %s\nbuild log:\n%s",
                                        program_table[id].name, ctx->info.device_name, options,
                                        log ? log : "(unavailable)");
    free(log);
    return status;
}

static tailor_status build_from_source(tailor_context *ctx, enum program_id id, const char *options,
                                       cl_program *out)
{
    const struct embedded_source *source = program_table[id].source;
    const char *text = source->text;
    cl_int error;
    cl_program program = clCreateProgramWithSource(ctx->context, 1, &text, &source->length, &error);
    if (error != CL_SUCCESS)
        return error_from_cl(error, "clCreateProgramWithSource");
    error = clBuildProgram(program, 1, &ctx->device, options, NULL, NULL);
    if (error != CL_SUCCESS) {
        tailor_status status = error == CL_BUILD_PROGRAM_FAILURE
                                   ? build_failure(ctx, program, id, options)
                                   : error_from_cl(error, "clBuildProgram");
        clReleaseProgram(program);
        return status;
    }
    atomic_fetch_add(&ctx->counters.source_builds, 1);
    *out = program;
    return TAILOR_SUCCESS;
}

static cl_int build_from_binary(tailor_context *ctx, const uint8_t *binary, size_t size,
                                const char *options, cl_program *out)
{
    cl_int binary_status = CL_SUCCESS, error;
    cl_program program = clCreateProgramWithBinary(ctx->context, 1, &ctx->device, &size, &binary,
                                                   &binary_status, &error);
    if (error == CL_SUCCESS && binary_status != CL_SUCCESS)
        error = binary_status;
    if (error == CL_SUCCESS)
        error = clBuildProgram(program, 1, &ctx->device, options, NULL, NULL);
    if (error != CL_SUCCESS) {
        if (program)
            clReleaseProgram(program);
        return error;
    }
    *out = program;
    return CL_SUCCESS;
}

// The binary of our device; a program of a multi-device context holds one per device.
static cl_int program_binary(cl_program program, cl_device_id device, unsigned char **binary,
                             size_t *size)
{
    *binary = NULL;
    cl_uint count = 0;
    cl_int error = clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof count, &count, NULL);
    if (error != CL_SUCCESS)
        return error;
    cl_device_id *devices = calloc(count, sizeof *devices);
    size_t *sizes = calloc(count, sizeof *sizes);
    unsigned char **binaries = calloc(count, sizeof *binaries);
    error = devices && sizes && binaries ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (error == CL_SUCCESS)
        error = clGetProgramInfo(program, CL_PROGRAM_DEVICES, count * sizeof *devices, devices, NULL);
    if (error == CL_SUCCESS)
        error = clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, count * sizeof *sizes, sizes, NULL);
    cl_uint index = 0;
    while (error == CL_SUCCESS && index < count && devices[index] != device)
        ++index;
    if (error == CL_SUCCESS && (index == count || sizes[index] == 0))
        error = CL_INVALID_BINARY;
    if (error == CL_SUCCESS && !(binaries[index] = malloc(sizes[index])))
        error = CL_OUT_OF_HOST_MEMORY;
    if (error == CL_SUCCESS)
        error = clGetProgramInfo(program, CL_PROGRAM_BINARIES, count * sizeof *binaries, binaries,
                                 NULL);
    if (error == CL_SUCCESS) {
        *binary = binaries[index];
        *size = sizes[index];
    } else if (binaries && index < count) {
        free(binaries[index]);
    }
    free(devices);
    free(sizes);
    free(binaries);
    return error;
}

static void store_binary(tailor_context *ctx, cl_program program, const char *key)
{
    unsigned char *binary;
    size_t size;
    unsigned evicted = 0;
    if (program_binary(program, ctx->device, &binary, &size) == CL_SUCCESS &&
        cache_store(&ctx->cache, key, binary, size, &evicted) == 0)
        atomic_fetch_add(&ctx->counters.stores, 1);
    else
        atomic_fetch_add(&ctx->counters.store_failures, 1);
    atomic_fetch_add(&ctx->counters.evictions, evicted);
    free(binary);
}

// Disk cache first; a bad or rejected entry is removed and the program is
// built from source, which then replaces it.
static tailor_status build_program(tailor_context *ctx, enum program_id id, cl_program *out)
{
    char options[4096];
    REQUIRE(profile_build_options(&ctx->profile, id, ctx->extra_build_options, options,
                                  sizeof options) >= 0,
            TAILOR_ERROR_INVALID_ARGUMENT, "the build options of %s are too long", program_table[id].name);
    if (!ctx->cache.enabled)
        return build_from_source(ctx, id, options, out);
    char *key = make_key(ctx, id, options);
    REQUIRE(key, TAILOR_ERROR_OUT_OF_HOST_MEMORY, "no memory for the cache key");
    uint8_t *entry;
    const uint8_t *payload;
    size_t payload_size;
    enum cache_lookup lookup = cache_load(&ctx->cache, key, &entry, &payload, &payload_size);
    if (lookup == CACHE_HIT) {
        cl_int error = build_from_binary(ctx, payload, payload_size, options, out);
        free(entry);
        if (error == CL_SUCCESS) {
            atomic_fetch_add(&ctx->counters.disk_hits, 1);
            free(key);
            return TAILOR_SUCCESS;
        }
        cache_discard(&ctx->cache, key);
        lookup = CACHE_BAD_ENTRY;
    }
    if (lookup == CACHE_BAD_ENTRY)
        atomic_fetch_add(&ctx->counters.bad_entries, 1);
    atomic_fetch_add(&ctx->counters.disk_misses, 1);
    tailor_status status = build_from_source(ctx, id, options, out);
    if (status == TAILOR_SUCCESS)
        store_binary(ctx, *out, key);
    free(key);
    return status;
}

static void free_built_program(struct built_program *built)
{
    if (!built)
        return;
    for (size_t k = 0; k < built->kernel_count; ++k)
        for (int s = 0; s < KERNEL_SLOTS; ++s)
            if (built->pools[k].slots[s].kernel)
                clReleaseKernel(built->pools[k].slots[s].kernel);
    if (built->program)
        clReleaseProgram(built->program);
    free(built);
}

// The kernels the registry gives the program, each made once now: a kernel
// the source lacks, or one the registry does not know, fails the build of
// this program rather than a launch later.
static tailor_status make_pools(enum program_id id, cl_program program, struct built_program **out)
{
    size_t count = 0;
    for (int k = 0; k < KERNEL_COUNT; ++k)
        count += program_has_kernel(id, (enum kernel_id)k);
    size_t in_source = 0;
    cl_int error = clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof in_source, &in_source, NULL);
    if (error != CL_SUCCESS)
        return error_from_cl(error, "clGetProgramInfo(CL_PROGRAM_NUM_KERNELS)");
    REQUIRE(in_source == count, TAILOR_ERROR_BUILD_FAILED,
            "program %s has %zu kernels; the kernel table gives it %zu", program_table[id].name,
            in_source, count);
    struct built_program *built = calloc(1, sizeof *built + count * sizeof built->pools[0]);
    REQUIRE(built, TAILOR_ERROR_OUT_OF_HOST_MEMORY, "no memory for the kernel pools");
    built->program = program;
    memset(built->pool_of, -1, sizeof built->pool_of);
    tailor_status status = TAILOR_SUCCESS;
    for (int k = 0; k < KERNEL_COUNT && status == TAILOR_SUCCESS; ++k) {
        if (!program_has_kernel(id, (enum kernel_id)k))
            continue;
        struct kernel_pool *pool = &built->pools[built->kernel_count];
        built->pool_of[k] = (signed char)built->kernel_count++;
        pool->id = (enum kernel_id)k;
        for (int slot = 0; slot < KERNEL_SLOTS; ++slot)
            atomic_flag_clear(&pool->slots[slot].busy);
        pool->slots[0].kernel = clCreateKernel(program, kernel_table[k].name, &error);
        if (error == CL_INVALID_KERNEL_NAME)
            status = error_set_cl(TAILOR_ERROR_BUILD_FAILED, error, "program %s has no kernel %s",
                                  program_table[id].name, kernel_table[k].name);
        else if (error != CL_SUCCESS)
            status = error_from_cl(error, "clCreateKernel");
        else if ((error = clGetKernelInfo(pool->slots[0].kernel, CL_KERNEL_NUM_ARGS,
                                          sizeof pool->arg_count, &pool->arg_count, NULL)) != CL_SUCCESS)
            status = error_from_cl(error, "clGetKernelInfo(CL_KERNEL_NUM_ARGS)");
    }
    if (status != TAILOR_SUCCESS) {
        built->program = NULL; // the caller releases it
        free_built_program(built);
        return status;
    }
    *out = built;
    return TAILOR_SUCCESS;
}

static tailor_status program_get(tailor_context *ctx, enum program_id id,
                                 struct built_program **out)
{
    struct built_program *built = atomic_load_explicit(&ctx->programs[id], memory_order_acquire);
    if (built) {
        atomic_fetch_add_explicit(&ctx->counters.memory_hits, 1, memory_order_relaxed);
        *out = built;
        return TAILOR_SUCCESS;
    }
    tailor_status status = TAILOR_SUCCESS;
    pthread_mutex_lock(&ctx->build_lock);
    built = atomic_load_explicit(&ctx->programs[id], memory_order_relaxed);
    if (built) {
        atomic_fetch_add_explicit(&ctx->counters.memory_hits, 1, memory_order_relaxed);
    } else {
        cl_program program;
        status = build_program(ctx, id, &program);
        if (status == TAILOR_SUCCESS) {
            status = make_pools(id, program, &built);
            if (status == TAILOR_SUCCESS)
                atomic_store_explicit(&ctx->programs[id], built, memory_order_release);
            else
                clReleaseProgram(program);
        }
    }
    pthread_mutex_unlock(&ctx->build_lock);
    *out = built;
    return status;
}

tailor_status program_ensure(tailor_context *ctx, enum program_id program)
{
    struct built_program *built;
    return program_get(ctx, program, &built);
}

tailor_status kernel_acquire(tailor_context *ctx, enum program_id program, enum kernel_id kernel,
                             struct kernel_lease *lease)
{
    memset(lease, 0, sizeof *lease);
    lease->id = kernel;
    REQUIRE(program_has_kernel(program, kernel), TAILOR_ERROR_INVALID_ARGUMENT,
            "internal error: program %s holds no kernel %s", program_table[program].name,
            kernel_table[kernel].name);
    struct built_program *built;
    tailor_status status = program_get(ctx, program, &built);
    if (status != TAILOR_SUCCESS)
        return status;
    struct kernel_pool *pool = &built->pools[built->pool_of[kernel]];
    lease->arg_count = pool->arg_count;
    cl_int error;
    for (int s = 0; s < KERNEL_SLOTS; ++s) {
        struct kernel_slot *slot = &pool->slots[s];
        if (atomic_flag_test_and_set_explicit(&slot->busy, memory_order_acquire))
            continue;
        if (!slot->kernel) {
            slot->kernel = clCreateKernel(built->program, kernel_table[kernel].name, &error);
            if (error != CL_SUCCESS) {
                slot->kernel = NULL;
                atomic_flag_clear_explicit(&slot->busy, memory_order_release);
                return error_from_cl(error, "clCreateKernel");
            }
            memset(&slot->args, 0, sizeof slot->args);
        }
        lease->kernel = slot->kernel;
        lease->slot = slot;
        lease->args = &slot->args;
        return TAILOR_SUCCESS;
    }
    lease->kernel = clCreateKernel(built->program, kernel_table[kernel].name, &error);
    if (error != CL_SUCCESS) {
        lease->kernel = NULL;
        return error_from_cl(error, "clCreateKernel");
    }
    return TAILOR_SUCCESS;
}

void kernel_release(struct kernel_lease *lease)
{
    if (!lease->kernel)
        return;
    if (lease->slot)
        atomic_flag_clear_explicit(&lease->slot->busy, memory_order_release);
    else
        clReleaseKernel(lease->kernel);
    lease->kernel = NULL;
    lease->slot = NULL;
    lease->args = NULL;
}

void programs_release(tailor_context *ctx)
{
    for (int id = 0; id < PROGRAM_COUNT; ++id)
        free_built_program(atomic_exchange(&ctx->programs[id], NULL));
}
