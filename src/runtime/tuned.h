// A handle's tuning record: the identity its device and profile give a
// record, and the record's values applied between the profile row and the
// overrides (origin TAILOR_ORIGIN_TUNED).
#ifndef TAILOR_TUNED_H
#define TAILOR_TUNED_H

#include <stddef.h>

#include "profile.h"
#include "tuning_record.h"

struct tuned_state {
    int loaded;    // a record's values are in use
    size_t values; // how many were applied
    char path[4096];
    char note[512]; // why no record is in use, or what of it was ignored
    struct tuning_identity identity;
};

// The identity of records measured on this device with this profile's code,
// this library version and these kernel sources.
void tuned_identity(const tailor_device_info *facts, const struct profile *profile,
                    struct tuning_identity *identity);

// Applies the record's values to the parameters no override set, each
// checked as an override is; values that fail are skipped and named in
// `note`. Returns how many were applied.
size_t tuned_apply(struct profile *profile, const struct tuning_record *record, char *note,
                   size_t note_size);

// Fills *state and, when `enabled` and the cache directory is usable, loads
// the identity's record from it and applies it to *profile.
void tuned_load(struct tuned_state *state, struct profile *profile, const tailor_device_info *facts,
                const char *cache_dir, int cache_enabled, const char *cache_note, int enabled);

#endif
