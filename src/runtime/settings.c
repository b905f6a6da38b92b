#include "settings.h"

#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "error.h"

// The environment variables, each beside the setting it stands in for.
#define ENV_PROFILE "TAILOR_PROFILE"
#define ENV_TUNING "TAILOR_TUNE"
#define ENV_BUILD_OPTIONS "TAILOR_BUILD_OPTIONS"
#define ENV_CACHE "TAILOR_CACHE"
#define ENV_CACHE_DIR "TAILOR_CACHE_DIR"
#define ENV_CACHE_MAX_BYTES "TAILOR_CACHE_MAX_BYTES"
#define ENV_TUNED "TAILOR_TUNED"

static const char *nonempty_env(const char *name)
{
    const char *value = getenv(name);
    return value && *value ? value : NULL;
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
            TAILOR_ERROR_INVALID_ARGUMENT,
            "'%s' is not a positive byte count such as 268435456 or 256M", text);
    *bytes = (uint64_t)value << shift;
    return TAILOR_SUCCESS;
}

tailor_status settings_resolve(const tailor_settings *settings, struct resolved_settings *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < sizeof settings->reserved; ++i)
        REQUIRE(settings->reserved[i] == 0, TAILOR_ERROR_INVALID_ARGUMENT,
                "settings.reserved must be zero (start from tailor_default_settings)");
    REQUIRE(settings->cache_mode == TAILOR_CACHE_DEFAULT || settings->cache_mode == TAILOR_CACHE_ON ||
                settings->cache_mode == TAILOR_CACHE_OFF,
            TAILOR_ERROR_INVALID_ARGUMENT, "settings.cache_mode %d is not a tailor_cache_mode",
            (int)settings->cache_mode);
    REQUIRE(settings->tuned_mode == TAILOR_TUNED_DEFAULT || settings->tuned_mode == TAILOR_TUNED_ON ||
                settings->tuned_mode == TAILOR_TUNED_OFF,
            TAILOR_ERROR_INVALID_ARGUMENT, "settings.tuned_mode %d is not a tailor_tuned_mode",
            (int)settings->tuned_mode);
    out->tuned_off = settings->tuned_mode == TAILOR_TUNED_OFF ||
                     (settings->tuned_mode == TAILOR_TUNED_DEFAULT && env_says_off(ENV_TUNED));
    out->profile = setting_or_env(settings->profile, ENV_PROFILE);
    out->tuning = setting_or_env(settings->tuning, ENV_TUNING);
    out->build_options = setting_or_env(settings->build_options, ENV_BUILD_OPTIONS);
    out->cache_dir = settings->cache_dir;
    out->cache_off = settings->cache_mode == TAILOR_CACHE_OFF ||
                     (settings->cache_mode == TAILOR_CACHE_DEFAULT && env_says_off(ENV_CACHE));
    out->cache_max_bytes = settings->cache_max_bytes;
    const char *max_text = nonempty_env(ENV_CACHE_MAX_BYTES);
    if (!out->cache_max_bytes && max_text)
        return parse_bytes(max_text, &out->cache_max_bytes);
    return TAILOR_SUCCESS;
}

static int home_directory(char *buffer, size_t size)
{
    const char *home = nonempty_env("HOME");
    if (home)
        return snprintf(buffer, size, "%s", home) < (int)size ? 0 : -1;
    struct passwd entry, *found = NULL;
    char strings[4096];
    if (getpwuid_r(geteuid(), &entry, strings, sizeof strings, &found) != 0 || !found ||
        !found->pw_dir || !*found->pw_dir)
        return -1;
    return snprintf(buffer, size, "%s", found->pw_dir) < (int)size ? 0 : -1;
}

int settings_cache_directory(const char *configured, char *buffer, size_t size)
{
    const char *dir = configured && *configured ? configured : nonempty_env(ENV_CACHE_DIR);
    int length;
    if (dir) {
        length = snprintf(buffer, size, "%s", dir);
    } else {
        const char *xdg = nonempty_env("XDG_CACHE_HOME");
        char home[4096];
        if (xdg && xdg[0] == '/')
            length = snprintf(buffer, size, "%s/tailor", xdg);
        else if (home_directory(home, sizeof home) == 0)
            length = snprintf(buffer, size, "%s/.cache/tailor", home);
        else
            return -1;
    }
    return length < 0 || (size_t)length >= size ? -1 : 0;
}
