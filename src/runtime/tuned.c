#include "tuned.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "embedded_sources.h"
#include "error.h"
#include "operation.h"
#include "registry.h"
#include "sha256.h"

// One hash over every distinct kernel source, in program order, made once:
// every handle's creation needs it.
static char sources_hex[SHA256_HEX_BYTES];
static pthread_once_t sources_hashed = PTHREAD_ONCE_INIT;

static void hash_sources(void)
{
    struct sha256 h;
    sha256_init(&h);
    for (int id = 0; id < PROGRAM_COUNT; ++id) {
        const struct embedded_source *source = program_table[id].source;
        int seen = 0;
        for (int earlier = 0; earlier < id && !seen; ++earlier)
            seen = program_table[earlier].source == source;
        if (!seen)
            sha256_update(&h, source->text, source->length);
    }
    uint8_t digest[SHA256_BYTES];
    sha256_final(&h, digest);
    sha256_hex(digest, sources_hex);
}

void tuned_identity(const tailor_device_info *facts, const struct profile *profile,
                    struct tuning_identity *identity)
{
    memset(identity, 0, sizeof *identity);
    snprintf(identity->platform, sizeof identity->platform, "%s", facts->platform_name);
    snprintf(identity->device, sizeof identity->device, "%s", facts->device_name);
    identity->vendor_id = facts->vendor_id;
    snprintf(identity->driver, sizeof identity->driver, "%s", facts->driver_version);
    snprintf(identity->profile, sizeof identity->profile, "%s", profile_name(profile));
    snprintf(identity->tailor, sizeof identity->tailor, "%s", TAILOR_LIBRARY_VERSION);
    pthread_once(&sources_hashed, hash_sources);
    snprintf(identity->sources, sizeof identity->sources, "%s", sources_hex);
}

static void append_note(char *note, size_t size, const char *text)
{
    size_t used = strlen(note);
    if (used + 1 < size)
        snprintf(note + used, size - used, "%s%s", used ? "; " : "", text);
}

size_t tuned_apply(struct profile *profile, const struct tuning_record *record, char *note,
                   size_t note_size)
{
    size_t applied = 0;
    for (size_t i = 0; i < record->count; ++i) {
        const struct tuning_value_entry *entry = &record->values[i];
        enum param_id param = param_find(entry->name);
        char why[600];
        if (param == TUNE_COUNT) {
            snprintf(why, sizeof why, "no parameter is named %s", entry->name);
            append_note(note, note_size, why);
            continue;
        }
        if (profile->origin[param] == TAILOR_ORIGIN_OVERRIDE)
            continue;
        struct profile trial = *profile;
        if (profile_set_value(&trial, param, entry->value, TAILOR_ORIGIN_TUNED) != TAILOR_SUCCESS) {
            snprintf(why, sizeof why, "%s ignored: %s", entry->name, tailor_last_error());
            append_note(note, note_size, why);
            error_clear();
            continue;
        }
        *profile = trial;
        ++applied;
    }
    return applied;
}

void tuned_load(struct tuned_state *state, struct profile *profile, const tailor_device_info *facts,
                const char *cache_dir, int cache_enabled, const char *cache_note, int enabled)
{
    memset(state, 0, sizeof *state);
    tuned_identity(facts, profile, &state->identity);
    if (!enabled) {
        snprintf(state->note, sizeof state->note, "off (settings.tuned_mode or TAILOR_TUNED=off)");
        return;
    }
    if (!cache_enabled) {
        snprintf(state->note, sizeof state->note, "no record: the cache is off (%s)", cache_note);
        return;
    }
    if (tuning_record_path(cache_dir, &state->identity, state->path, sizeof state->path) != 0) {
        snprintf(state->note, sizeof state->note, "no record: the cache path is too long");
        return;
    }
    struct tuning_record *record = malloc(sizeof *record); // 14 KB: not on a thread's stack
    if (!record) {
        snprintf(state->note, sizeof state->note, "no record: out of host memory");
        return;
    }
    char why[256] = "";
    enum tuning_record_check check =
        tuning_record_load(cache_dir, &state->identity, record, why, sizeof why);
    if (check == TUNING_RECORD_OK) {
        state->values = tuned_apply(profile, record, state->note, sizeof state->note);
        state->loaded = 1;
    } else if (check == TUNING_RECORD_MISSING) {
        snprintf(state->note, sizeof state->note, "no record for this device (tailor tune makes one)");
    } else {
        snprintf(state->note, sizeof state->note, "record ignored (%s): %s",
                 tuning_record_check_name(check), why);
    }
    free(record);
}

tailor_status tailor_context_tuning_info(const tailor_context *ctx, tailor_tuning_info *info)
{
    error_clear();
    REQUIRE(ctx, TAILOR_ERROR_NULL_HANDLE, "the tailor handle is NULL");
    REQUIRE(info, TAILOR_ERROR_INVALID_ARGUMENT, "info is NULL");
    memset(info, 0, sizeof *info);
    info->loaded = ctx->tuned.loaded;
    info->values = ctx->tuned.values;
    snprintf(info->path, sizeof info->path, "%s", ctx->tuned.path);
    snprintf(info->note, sizeof info->note, "%s", ctx->tuned.note);
    return TAILOR_SUCCESS;
}

static tailor_status require_cache(const tailor_context *ctx)
{
    REQUIRE(ctx, TAILOR_ERROR_NULL_HANDLE, "the tailor handle is NULL");
    REQUIRE(ctx->cache.enabled, TAILOR_ERROR_UNSUPPORTED,
            "the cache is off (%s): tuning records live in the cache directory", ctx->cache.note);
    return TAILOR_SUCCESS;
}

tailor_status tailor_context_tuning_export(const tailor_context *ctx, char *buffer, size_t size,
                                           size_t *length)
{
    error_clear();
    tailor_status status = require_cache(ctx);
    if (status != TAILOR_SUCCESS)
        return status;
    REQUIRE(buffer || size == 0, TAILOR_ERROR_INVALID_ARGUMENT, "buffer is NULL");
    struct tuning_record *record = malloc(sizeof *record);
    REQUIRE(record, TAILOR_ERROR_OUT_OF_HOST_MEMORY, "no memory for a tuning record");
    char why[256] = "";
    enum tuning_record_check check =
        tuning_record_load(ctx->cache.dir, &ctx->tuned.identity, record, why, sizeof why);
    int needed = check == TUNING_RECORD_OK ? tuning_record_format(record, buffer, size) : -1;
    free(record);
    REQUIRE(check == TUNING_RECORD_OK, TAILOR_ERROR_INVALID_ARGUMENT,
            "no valid tuning record for this device (%s%s%s)", tuning_record_check_name(check),
            *why ? ": " : "", why);
    REQUIRE(needed >= 0, TAILOR_ERROR_INVALID_ARGUMENT, "the tuning record cannot be written");
    if (length)
        *length = (size_t)needed;
    REQUIRE((size_t)needed < size, TAILOR_ERROR_INVALID_ARGUMENT,
            "the tuning record needs %d bytes and a NUL; the buffer has %zu", needed, size);
    return TAILOR_SUCCESS;
}

// Every value of the record must be one an override could set on this
// device, and the operations' constraints must hold with them.
static tailor_status check_values(const tailor_context *ctx, const struct tuning_record *record)
{
    struct profile trial = ctx->profile;
    for (size_t i = 0; i < record->count; ++i) {
        enum param_id param = param_find(record->values[i].name);
        REQUIRE(param != TUNE_COUNT, TAILOR_ERROR_INVALID_PROFILE,
                "the record names %s, which is no tuning parameter", record->values[i].name);
        tailor_status status =
            profile_set_value(&trial, param, record->values[i].value, TAILOR_ORIGIN_TUNED);
        if (status != TAILOR_SUCCESS)
            return status;
    }
    for (int op = 0; op < OP_COUNT; ++op) {
        const struct operation *operation = operation_table[op];
        tailor_status status = operation->check ? operation->check(&trial, &ctx->info) : TAILOR_SUCCESS;
        if (status != TAILOR_SUCCESS)
            return status;
    }
    return TAILOR_SUCCESS;
}

tailor_status tailor_context_tuning_import(const tailor_context *ctx, const char *json, size_t length)
{
    error_clear();
    tailor_status status = require_cache(ctx);
    if (status != TAILOR_SUCCESS)
        return status;
    REQUIRE(json, TAILOR_ERROR_INVALID_ARGUMENT, "json is NULL");
    struct tuning_record *record = malloc(sizeof *record);
    REQUIRE(record, TAILOR_ERROR_OUT_OF_HOST_MEMORY, "no memory for a tuning record");
    char why[256] = "";
    enum tuning_record_check check = tuning_record_parse(json, length, record, why, sizeof why);
    if (check != TUNING_RECORD_OK) {
        status = error_set(TAILOR_ERROR_INVALID_ARGUMENT, "the record is %s: %s",
                           tuning_record_check_name(check), why);
    } else if (!tuning_identity_equal(&record->identity, &ctx->tuned.identity)) {
        status = error_set(TAILOR_ERROR_INVALID_ARGUMENT,
                           "the record is for %s / %s, driver %s, profile %s, tailor %s, sources "
                           "%.12s; this device is %s / %s, driver %s, profile %s, tailor %s, "
                           "sources %.12s",
                           record->identity.platform, record->identity.device,
                           record->identity.driver, record->identity.profile,
                           record->identity.tailor, record->identity.sources,
                           ctx->tuned.identity.platform, ctx->tuned.identity.device,
                           ctx->tuned.identity.driver, ctx->tuned.identity.profile,
                           ctx->tuned.identity.tailor, ctx->tuned.identity.sources);
    } else if ((status = check_values(ctx, record)) == TAILOR_SUCCESS &&
               tuning_record_store(ctx->cache.dir, record) != 0) {
        status = error_set(TAILOR_ERROR_INVALID_ARGUMENT, "writing the tuning record failed: %s",
                           strerror(errno));
    }
    free(record);
    return status;
}

tailor_status tailor_context_tuning_reset(const tailor_context *ctx)
{
    error_clear();
    tailor_status status = require_cache(ctx);
    if (status != TAILOR_SUCCESS)
        return status;
    REQUIRE(tuning_record_remove(ctx->cache.dir, &ctx->tuned.identity) == 0,
            TAILOR_ERROR_INVALID_ARGUMENT, "removing the tuning record failed: %s", strerror(errno));
    return TAILOR_SUCCESS;
}
