#include "context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "error.h"
#include "gemv.h"
#include "probe.h"
#include "program.h"
#include "reduce.h"
#include "scratch.h"

const char *tailor_version(void)
{
    return TAILOR_LIBRARY_VERSION;
}

void tailor_default_settings(tailor_settings *settings)
{
    if (settings)
        memset(settings, 0, sizeof *settings);
}

static const char *setting_or_env(const char *setting, const char *variable)
{
    return setting ? setting : getenv(variable);
}

static int env_says_off(const char *variable)
{
    const char *value = getenv(variable);
    return value && (strcasecmp(value, "off") == 0 || strcmp(value, "0") == 0 ||
                     strcasecmp(value, "no") == 0 || strcasecmp(value, "false") == 0);
}

// "1048576", "64M", "2G": bytes with an optional binary suffix.
static tailor_status parse_bytes(const char *text, uint64_t *bytes)
{
    char *end;
    unsigned long long value = strtoull(text, &end, 10);
    int shift = 0;
    if (*end == 'K' || *end == 'k')
        shift = 10;
    else if (*end == 'M' || *end == 'm')
        shift = 20;
    else if (*end == 'G' || *end == 'g')
        shift = 30;
    if (shift)
        ++end;
    REQUIRE(end != text && *end == '\0' && value > 0 && value <= (UINT64_MAX >> shift),
            TAILOR_ERROR_INVALID_ARGUMENT, "'%s' is not a positive byte count such as 268435456 or 256M",
            text);
    *bytes = (uint64_t)value << shift;
    return TAILOR_SUCCESS;
}

static tailor_status check_settings(const tailor_settings *settings)
{
    for (size_t i = 0; i < sizeof settings->reserved; ++i)
        REQUIRE(settings->reserved[i] == 0, TAILOR_ERROR_INVALID_ARGUMENT,
                "settings.reserved must be zero (start from tailor_default_settings)");
    REQUIRE(settings->cache_mode == TAILOR_CACHE_DEFAULT || settings->cache_mode == TAILOR_CACHE_ON ||
                settings->cache_mode == TAILOR_CACHE_OFF,
            TAILOR_ERROR_INVALID_ARGUMENT, "settings.cache_mode %d is not a tailor_cache_mode",
            (int)settings->cache_mode);
    return TAILOR_SUCCESS;
}

static tailor_status check_device_in_context(cl_context context, cl_device_id device, int *only_device)
{
    cl_uint count = 0;
    REQUIRE(clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, sizeof count, &count, NULL) == CL_SUCCESS &&
                count > 0,
            TAILOR_ERROR_INVALID_CONTEXT, "the OpenCL context is not valid");
    cl_device_id *devices = calloc(count, sizeof *devices);
    REQUIRE(devices, TAILOR_ERROR_OUT_OF_HOST_MEMORY, "no memory for the context's devices");
    int found = 0;
    if (clGetContextInfo(context, CL_CONTEXT_DEVICES, count * sizeof *devices, devices, NULL) ==
        CL_SUCCESS)
        for (cl_uint i = 0; i < count; ++i)
            found |= devices[i] == device;
    free(devices);
    REQUIRE(found, TAILOR_ERROR_INVALID_CONTEXT, "the device is not one of the context's devices");
    *only_device = count == 1;
    return TAILOR_SUCCESS;
}

static tailor_status configure(tailor_context *ctx, const tailor_settings *settings)
{
    tailor_status status = profile_select(&ctx->info, setting_or_env(settings->profile, "TAILOR_PROFILE"),
                                          setting_or_env(settings->tuning, "TAILOR_TUNE"), &ctx->profile);
    if (status != TAILOR_SUCCESS)
        return status;
    ctx->info.kind = ctx->profile.kind;
    snprintf(ctx->info.profile_name, sizeof ctx->info.profile_name, "%s", profile_name(&ctx->profile));
    ctx->info.cuda_sm = ctx->profile.cuda_sm;
    ctx->info.lockstep = ctx->profile.lockstep;

    const char *extra = setting_or_env(settings->build_options, "TAILOR_BUILD_OPTIONS");
    REQUIRE(!extra || strlen(extra) < sizeof ctx->extra_build_options, TAILOR_ERROR_INVALID_ARGUMENT,
            "the extra build options are longer than %zu bytes", sizeof ctx->extra_build_options - 1);
    snprintf(ctx->extra_build_options, sizeof ctx->extra_build_options, "%s", extra ? extra : "");

    uint64_t max_bytes = settings->cache_max_bytes;
    const char *max_text = getenv("TAILOR_CACHE_MAX_BYTES");
    if (!max_bytes && max_text && *max_text) {
        status = parse_bytes(max_text, &max_bytes);
        if (status != TAILOR_SUCCESS)
            return status;
    }
    int cache_off = settings->cache_mode == TAILOR_CACHE_OFF ||
                    (settings->cache_mode == TAILOR_CACHE_DEFAULT && env_says_off("TAILOR_CACHE"));
    cache_open(&ctx->cache, settings->cache_dir, cache_off, max_bytes);
    return TAILOR_SUCCESS;
}

tailor_status tailor_context_create(cl_context context, cl_device_id device,
                                    const tailor_settings *settings, tailor_context **out)
{
    error_clear();
    REQUIRE(out, TAILOR_ERROR_INVALID_ARGUMENT, "the out pointer is NULL");
    *out = NULL;
    REQUIRE(context, TAILOR_ERROR_INVALID_CONTEXT, "the OpenCL context is NULL");
    REQUIRE(device, TAILOR_ERROR_INVALID_CONTEXT, "the OpenCL device is NULL");
    tailor_settings defaults;
    tailor_default_settings(&defaults);
    if (!settings)
        settings = &defaults;
    int only_device = 0;
    tailor_status status = check_settings(settings);
    if (status == TAILOR_SUCCESS)
        status = check_device_in_context(context, device, &only_device);
    if (status != TAILOR_SUCCESS)
        return status;

    tailor_context *ctx = calloc(1, sizeof *ctx);
    REQUIRE(ctx, TAILOR_ERROR_OUT_OF_HOST_MEMORY, "no memory for the handle");
    ctx->context = context;
    ctx->device = device;
    ctx->context_has_one_device = only_device;
    int have_lock = 0;
    status = probe_device(device, &ctx->info);
    if (status == TAILOR_SUCCESS)
        status = configure(ctx, settings);
    if (status != TAILOR_SUCCESS)
        goto error;
    if (pthread_mutex_init(&ctx->build_lock, NULL) != 0) {
        status = error_set(TAILOR_ERROR_OUT_OF_HOST_MEMORY, "pthread_mutex_init failed");
        goto error;
    }
    have_lock = 1;
    size_t scratch_bytes = reduce_scratch_bytes(ctx);
    if (gemv_scratch_bytes(ctx) > scratch_bytes)
        scratch_bytes = gemv_scratch_bytes(ctx);
    ctx->scratch = scratch_table_create(context, scratch_bytes);
    if (!ctx->scratch) {
        status = error_set(TAILOR_ERROR_OUT_OF_HOST_MEMORY, "no memory for the scratch table");
        goto error;
    }
    cl_int error = clRetainContext(context);
    if (error != CL_SUCCESS) {
        status = error_from_cl(error, "clRetainContext");
        goto error;
    }
    error = clRetainDevice(device);
    if (error != CL_SUCCESS) {
        clReleaseContext(context);
        status = error_from_cl(error, "clRetainDevice");
        goto error;
    }
    *out = ctx;
    return TAILOR_SUCCESS;
error:
    scratch_table_release(ctx->scratch);
    if (have_lock)
        pthread_mutex_destroy(&ctx->build_lock);
    free(ctx);
    return status;
}

void tailor_context_release(tailor_context **handle)
{
    if (!handle || !*handle)
        return;
    tailor_context *ctx = *handle;
    programs_release(ctx);
    scratch_table_release(ctx->scratch);
    pthread_mutex_destroy(&ctx->build_lock);
    clReleaseDevice(ctx->device);
    clReleaseContext(ctx->context);
    free(ctx);
    *handle = NULL;
}

tailor_status tailor_context_device_info(const tailor_context *ctx, tailor_device_info *info)
{
    error_clear();
    REQUIRE(ctx, TAILOR_ERROR_NULL_HANDLE, "the tailor handle is NULL");
    REQUIRE(info, TAILOR_ERROR_INVALID_ARGUMENT, "info is NULL");
    *info = ctx->info;
    return TAILOR_SUCCESS;
}

tailor_status tailor_context_build_options(const tailor_context *ctx, const char *program,
                                           char *buffer, size_t size)
{
    error_clear();
    REQUIRE(ctx, TAILOR_ERROR_NULL_HANDLE, "the tailor handle is NULL");
    REQUIRE(program && buffer, TAILOR_ERROR_INVALID_ARGUMENT, "program or buffer is NULL");
    enum program_id id = program_find(program);
    REQUIRE(id != PROGRAM_COUNT, TAILOR_ERROR_INVALID_ARGUMENT, "no program is named '%s'", program);
    REQUIRE(program_build_options(&ctx->profile, id, ctx->extra_build_options, buffer, size) >= 0,
            TAILOR_ERROR_INVALID_ARGUMENT, "the options of %s do not fit in %zu bytes", program, size);
    return TAILOR_SUCCESS;
}

tailor_status tailor_context_cache_stats(const tailor_context *ctx, tailor_cache_stats *stats)
{
    error_clear();
    REQUIRE(ctx, TAILOR_ERROR_NULL_HANDLE, "the tailor handle is NULL");
    REQUIRE(stats, TAILOR_ERROR_INVALID_ARGUMENT, "stats is NULL");
    memset(stats, 0, sizeof *stats);
    const struct cache_counters *c = &ctx->counters;
    stats->memory_hits = atomic_load(&c->memory_hits);
    stats->disk_hits = atomic_load(&c->disk_hits);
    stats->disk_misses = atomic_load(&c->disk_misses);
    stats->source_builds = atomic_load(&c->source_builds);
    stats->bad_entries = atomic_load(&c->bad_entries);
    stats->stores = atomic_load(&c->stores);
    stats->store_failures = atomic_load(&c->store_failures);
    stats->evictions = atomic_load(&c->evictions);
    stats->cache_enabled = ctx->cache.enabled;
    snprintf(stats->cache_dir, sizeof stats->cache_dir, "%s", ctx->cache.dir);
    snprintf(stats->cache_note, sizeof stats->cache_note, "%s", ctx->cache.note);
    return TAILOR_SUCCESS;
}
