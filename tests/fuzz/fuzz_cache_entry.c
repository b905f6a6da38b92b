// libFuzzer target for the cache-entry reader: the format parser on the raw
// bytes (with and without an expected key), and the whole file reader
// (cache_load) on the bytes written where an entry belongs.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "cache_entry.h"
#include "sha256.h"

static const char key[] = "tailor fuzz key";
static struct cache cache;
static char entry_path[4200];

static void set_up(void)
{
    char dir[] = "/tmp/tailor-fuzz-XXXXXX";
    if (!mkdtemp(dir))
        abort();
    cache_open(&cache, dir, 0, 0);
    if (!cache.enabled)
        abort();
    uint8_t digest[SHA256_BYTES];
    char hex[SHA256_HEX_BYTES];
    sha256_digest(key, strlen(key), digest);
    sha256_hex(digest, hex);
    snprintf(entry_path, sizeof entry_path, "%s/%s%s", cache.dir, hex, CACHE_ENTRY_SUFFIX);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!cache.enabled)
        set_up();
    const uint8_t *payload;
    size_t payload_size, key_length;
    const char *stored_key;
    if (cache_entry_parse(data, size, NULL, &payload, &payload_size, &stored_key, &key_length) ==
        CACHE_ENTRY_OK) {
        // Read every byte the parser vouched for: out of bounds shows under ASan.
        volatile uint8_t sum = 0;
        for (size_t i = 0; i < payload_size; ++i)
            sum += payload[i];
        for (size_t i = 0; i < key_length; ++i)
            sum += (uint8_t)stored_key[i];
    }
    cache_entry_parse(data, size, key, NULL, NULL, NULL, NULL);

    FILE *f = fopen(entry_path, "wb");
    if (!f)
        abort();
    fwrite(data, 1, size, f);
    fclose(f);
    uint8_t *entry = NULL;
    if (cache_load(&cache, key, &entry, &payload, &payload_size) == CACHE_HIT &&
        (payload < entry || payload + payload_size > entry + size))
        abort();
    free(entry);
    return 0;
}
