// The one place the library reads its environment: each setting a handle
// takes from tailor_settings where the application set it, else from the
// environment variable doc/api.md lists beside it.
#ifndef TAILOR_SETTINGS_H
#define TAILOR_SETTINGS_H

#include <stddef.h>
#include <stdint.h>

#include "tailor.h"

struct resolved_settings {
    const char *profile;       // NULL or "": detect
    const char *tuning;        // NULL: no overrides
    const char *build_options; // NULL: none
    const char *cache_dir;     // NULL: the default directory
    int cache_off;
    uint64_t cache_max_bytes; // 0: the cache's default
    int tuned_off;            // the device's tuning record is not loaded
};

// The settings of a new handle; TAILOR_ERROR_INVALID_ARGUMENT for a bad field
// or environment value.
tailor_status settings_resolve(const tailor_settings *settings, struct resolved_settings *out);

// The cache directory: `configured` if not NULL or empty, else
// $TAILOR_CACHE_DIR, else $XDG_CACHE_HOME/tailor (absolute paths only), else
// $HOME/.cache/tailor, else the passwd entry's home. -1 if none resolves or
// it does not fit.
int settings_cache_directory(const char *configured, char *buffer, size_t size);

#endif
