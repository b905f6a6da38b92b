#include "context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "probe.h"
#include "program.h"
#include "scratch.h"
#include "workspace.h"
#include "settings.h"

const char *tailor_version(void)
{
    return TAILOR_LIBRARY_VERSION;
}

void tailor_default_settings(tailor_settings *settings)
{
    if (settings)
        memset(settings, 0, sizeof *settings);
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

tailor_status operations_check_overrides(const struct profile *profile,
                                         const tailor_device_info *facts)
{
    for (int op = 0; op < OP_COUNT; ++op) {
        const struct operation *operation = operation_table[op];
        if (!operation->check || !profile_overrides_operation(profile, (enum operation_id)op))
            continue;
        tailor_status status = operation->check(profile, facts);
        if (status != TAILOR_SUCCESS)
            return status;
    }
    return TAILOR_SUCCESS;
}

size_t operations_static_local_bytes(const struct profile *profile)
{
    size_t most = 0;
    for (int op = 0; op < OP_COUNT; ++op) {
        const struct operation *operation = operation_table[op];
        size_t bytes = operation->static_local_bytes ? operation->static_local_bytes(profile) : 0;
        most = bytes > most ? bytes : most;
    }
    return most;
}

int operation_launches_program(const struct profile *profile, enum program_id program)
{
    const struct operation *operation = operation_table[program_table[program].op];
    return !operation->launches_program || operation->launches_program(profile, program);
}

static tailor_status configure(tailor_context *ctx, const tailor_settings *settings)
{
    struct resolved_settings resolved;
    tailor_status status = settings_resolve(settings, &resolved);
    if (status == TAILOR_SUCCESS)
        status = profile_select(&ctx->info, resolved.profile, resolved.tuning, &ctx->profile);
    if (status == TAILOR_SUCCESS)
        status = operations_check_overrides(&ctx->profile, &ctx->info);
    if (status != TAILOR_SUCCESS)
        return status;
    cache_open(&ctx->cache, resolved.cache_dir, resolved.cache_off, resolved.cache_max_bytes);
    tuned_load(&ctx->tuned, &ctx->profile, &ctx->info, ctx->cache.dir, ctx->cache.enabled,
               ctx->cache.note, !resolved.tuned_off);
    ctx->info.kind = ctx->profile.kind;
    snprintf(ctx->info.profile_name, sizeof ctx->info.profile_name, "%s", profile_name(&ctx->profile));
    ctx->info.cuda_sm = ctx->profile.cuda_sm;
    ctx->info.lockstep = ctx->profile.lockstep;

    const char *extra = resolved.build_options;
    REQUIRE(!extra || strlen(extra) < sizeof ctx->extra_build_options, TAILOR_ERROR_INVALID_ARGUMENT,
            "the extra build options are longer than %zu bytes", sizeof ctx->extra_build_options - 1);
    snprintf(ctx->extra_build_options, sizeof ctx->extra_build_options, "%s", extra ? extra : "");
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
    tailor_status status = check_device_in_context(context, device, &only_device);
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
    // A kernel build at every handle creation only where a profile's tiles
    // need what the device does not report.
    if (operations_static_local_bytes(&ctx->profile) > ctx->info.local_mem_bytes)
        probe_static_local_memory(context, device, &ctx->info);
    if (pthread_mutex_init(&ctx->build_lock, NULL) != 0) {
        status = error_set(TAILOR_ERROR_OUT_OF_HOST_MEMORY, "pthread_mutex_init failed");
        goto error;
    }
    have_lock = 1;
    ctx->workspaces = workspace_table_create(context);
    if (!ctx->workspaces) {
        status = error_set(TAILOR_ERROR_OUT_OF_HOST_MEMORY, "no memory for the workspace table");
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
    workspace_table_release(ctx->workspaces);
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
    for (int op = 0; op < OP_COUNT; ++op)
        scratch_table_release(ctx->ops[op].scratch);
    workspace_table_release(ctx->workspaces);
    pthread_mutex_destroy(&ctx->build_lock);
    clReleaseDevice(ctx->device);
    clReleaseContext(ctx->context);
    free(ctx);
    *handle = NULL;
}

// Halves the step's parameters that stay at or above their floors; 0 if
// none could.
static int shrink_once(struct profile *profile, const struct shrink_step *step)
{
    int halved = 0;
    for (int i = 0; i < step->count; ++i) {
        int *value = &profile->tune[step->params[i]];
        int floor = step->floor > param_table[step->params[i]].minimum ? step->floor
                                                                       : param_table[step->params[i]].minimum;
        if (*value > floor && *value / 2 >= floor) {
            *value /= 2;
            halved = 1;
        }
    }
    return halved;
}

struct shrink_search {
    const struct operation *operation;
    const tailor_device_info *facts;
    struct profile start; // the defaults
    int counts[8];        // halvings of each step
};

// Splits `left` halvings over steps `step` onwards (earlier steps take more
// first) and tries each split from the defaults; 1 when one passes the check,
// with `profile` holding it.
static int try_splits(struct shrink_search *search, struct profile *profile, size_t step, int left)
{
    size_t steps = search->operation->shrink_count;
    if (step + 1 == steps || left == 0) {
        for (size_t s = step; s < steps; ++s)
            search->counts[s] = s == step ? left : 0;
        *profile = search->start;
        for (size_t s = 0; s < steps; ++s)
            for (int h = 0; h < search->counts[s]; ++h)
                if (!shrink_once(profile, &search->operation->shrink[s]))
                    return 0;
        return search->operation->check(profile, search->facts) == TAILOR_SUCCESS;
    }
    for (int here = left; here >= 0; --here) {
        search->counts[step] = here;
        if (try_splits(search, profile, step + 1, left - here))
            return 1;
    }
    return 0;
}

// The fewest halvings in total that make the operation fit, so that one
// constraint's step does not shrink further than it needs while another
// constraint still fails.
static int shrink_to_fit(struct profile *profile, const struct operation *operation,
                         const tailor_device_info *facts)
{
    struct shrink_search search = {.operation = operation, .facts = facts, .start = *profile};
    if (operation->shrink_count > sizeof search.counts / sizeof search.counts[0])
        return 0;
    int most = 0;
    for (size_t s = 0; s < operation->shrink_count; ++s) {
        struct profile smallest = *profile;
        while (shrink_once(&smallest, &operation->shrink[s]))
            ++most;
    }
    for (int total = 1; total <= most; ++total)
        if (try_splits(&search, profile, 0, total))
            return 1;
    *profile = search.start;
    return 0;
}

tailor_status operation_settle(struct profile *profile, const tailor_device_info *facts,
                               enum operation_id op)
{
    const struct operation *operation = operation_table[op];
    if (!operation->check)
        return TAILOR_SUCCESS;
    tailor_status status = operation->check(profile, facts);
    if (status == TAILOR_SUCCESS || profile_overrides_operation(profile, op))
        return status;
    int tuned = 0;
    for (int param = 0; param < TUNE_COUNT; ++param)
        tuned |= param_table[param].op == op && profile->origin[param] == TAILOR_ORIGIN_TUNED;
    if (tuned) {
        profile_reset_operation(profile, op, 0);
        if (operation->check(profile, facts) == TAILOR_SUCCESS)
            return TAILOR_SUCCESS;
    }
    profile_reset_operation(profile, op, 1);
    for (int param = 0; param < TUNE_COUNT; ++param)
        if (param_table[param].op == op)
            profile->origin[param] = TAILOR_ORIGIN_FALLBACK;
    if (operation->check(profile, facts) == TAILOR_SUCCESS)
        return TAILOR_SUCCESS;
    char why[512];
    snprintf(why, sizeof why, "%s", tailor_last_error());
    // Smaller shapes than the defaults: slower, but the operation runs.
    if (shrink_to_fit(profile, operation, facts))
        return TAILOR_SUCCESS;
    return error_set(TAILOR_ERROR_UNSUPPORTED, "%s cannot run on %s: %s%s", operation_name(op),
                     facts->device_name, why,
                     operation->shrink_count ? ", and no smaller shape fits" : "");
}

// Under the build lock: the operation's values settled and its scratch
// table made.
static tailor_status make_ready(tailor_context *ctx, enum operation_id op)
{
    tailor_status status = operation_settle(&ctx->profile, &ctx->info, op);
    if (status != TAILOR_SUCCESS)
        return status;
    const struct operation *operation = operation_table[op];
    size_t scratch = operation->scratch_bytes ? operation->scratch_bytes(&ctx->profile, &ctx->info) : 0;
    if (scratch) {
        ctx->ops[op].scratch = scratch_table_create(ctx->context, scratch);
        REQUIRE(ctx->ops[op].scratch, TAILOR_ERROR_OUT_OF_HOST_MEMORY, "no memory for the scratch table");
    }
    return TAILOR_SUCCESS;
}

tailor_status operation_ready(tailor_context *ctx, enum operation_id op)
{
    struct op_state *state = &ctx->ops[op];
    if (atomic_load_explicit(&state->readiness, memory_order_acquire) == OP_READY)
        return TAILOR_SUCCESS;
    tailor_status status = TAILOR_SUCCESS;
    pthread_mutex_lock(&ctx->build_lock);
    int readiness = atomic_load_explicit(&state->readiness, memory_order_relaxed);
    if (readiness == OP_UNCHECKED) {
        status = make_ready(ctx, op);
        // Host memory may come back: a call after that one tries again.
        if (status == TAILOR_SUCCESS) {
            readiness = OP_READY;
        } else if (status != TAILOR_ERROR_OUT_OF_HOST_MEMORY) {
            readiness = OP_FAILED;
            state->status = status;
            snprintf(state->message, sizeof state->message, "%s", tailor_last_error());
        }
        atomic_store_explicit(&state->readiness, readiness, memory_order_release);
    }
    if (readiness == OP_FAILED)
        status = error_set(state->status, "%s", state->message);
    pthread_mutex_unlock(&ctx->build_lock);
    return status;
}

struct scratch_table *operation_scratch(const tailor_context *ctx, enum operation_id op)
{
    return ctx->ops[op].scratch;
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
    tailor_status status = operation_ready((tailor_context *)ctx, program_table[id].op);
    if (status != TAILOR_SUCCESS)
        return status;
    REQUIRE(profile_build_options(&ctx->profile, id, ctx->extra_build_options, buffer, size) >= 0,
            TAILOR_ERROR_INVALID_ARGUMENT, "the options of %s do not fit in %zu bytes", program, size);
    return TAILOR_SUCCESS;
}

size_t tailor_program_count(void)
{
    return PROGRAM_COUNT;
}

const char *tailor_program_name(size_t index)
{
    return index < PROGRAM_COUNT ? program_table[index].name : NULL;
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
