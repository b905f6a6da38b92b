// The on-disk binary cache: one file per key in a private directory, written
// through a temporary file and a rename, capped in size with least-recently-
// used eviction. Every failure degrades to "no cache", never to an error.
#ifndef TAILOR_CACHE_H
#define TAILOR_CACHE_H

#include <stddef.h>
#include <stdint.h>

#define CACHE_DEFAULT_MAX_BYTES (256ull << 20)
#define CACHE_ENTRY_SUFFIX ".bin"
#define CACHE_TEMP_PREFIX ".tmp-"

struct cache {
    int enabled;
    char dir[4096];
    char note[256]; // why the cache is off, if it is
    uint64_t max_bytes;
};

// Resolves the directory (settings_cache_directory), creates it 0700, checks that it can be trusted, and removes temporary
// files that killed writers left.
void cache_open(struct cache *cache, const char *configured_dir, int disabled, uint64_t max_bytes);

enum cache_lookup {
    CACHE_HIT,
    CACHE_MISS,
    CACHE_BAD_ENTRY, // found but unusable; already removed
};

// On CACHE_HIT, *entry is the whole file (free() it) and *payload points into it.
enum cache_lookup cache_load(const struct cache *cache, const char *key, uint8_t **entry,
                             const uint8_t **payload, size_t *payload_size);

// Removes the entry of a key (its binary was rejected by the driver).
void cache_discard(const struct cache *cache, const char *key);

// Stores an entry; returns 0 on success. *evicted counts entries removed to
// respect the size cap.
int cache_store(const struct cache *cache, const char *key, const void *payload, size_t size,
                unsigned *evicted);

// Whether a directory entry name is one of the cache's files.
int cache_is_entry_name(const char *name);
int cache_is_temp_name(const char *name);

#endif
