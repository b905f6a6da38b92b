#include "cache_entry.h"

#include <string.h>

#include "sha256.h"

static void put_u32(uint8_t *at, uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        at[i] = (uint8_t)(v >> (8 * i));
}

static void put_u64(uint8_t *at, uint64_t v)
{
    for (int i = 0; i < 8; ++i)
        at[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_u32(const uint8_t *at)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
        v |= (uint32_t)at[i] << (8 * i);
    return v;
}

static uint64_t get_u64(const uint8_t *at)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
        v |= (uint64_t)at[i] << (8 * i);
    return v;
}

static void checksum(const void *key, size_t key_length, const void *payload, size_t payload_size,
                     uint8_t digest[SHA256_BYTES])
{
    struct sha256 h;
    sha256_init(&h);
    sha256_update(&h, key, key_length);
    sha256_update(&h, payload, payload_size);
    sha256_final(&h, digest);
}

void cache_entry_header(const char *key, size_t key_length, const void *payload,
                        size_t payload_size, uint8_t header[CACHE_ENTRY_HEADER_BYTES])
{
    memcpy(header, CACHE_ENTRY_MAGIC, 8);
    put_u32(header + 8, CACHE_ENTRY_FORMAT);
    put_u32(header + 12, (uint32_t)key_length);
    put_u64(header + 16, payload_size);
    checksum(key, key_length, payload, payload_size, header + 24);
}

enum cache_entry_check cache_entry_parse(const uint8_t *entry, size_t size, const char *expected_key,
                                         const uint8_t **payload, size_t *payload_size,
                                         const char **key, size_t *key_length)
{
    if (size < 12)
        return size >= 8 && memcmp(entry, CACHE_ENTRY_MAGIC, 8) != 0 ? CACHE_ENTRY_FOREIGN
                                                                     : CACHE_ENTRY_TRUNCATED;
    if (memcmp(entry, CACHE_ENTRY_MAGIC, 8) != 0 || get_u32(entry + 8) != CACHE_ENTRY_FORMAT)
        return CACHE_ENTRY_FOREIGN;
    if (size < CACHE_ENTRY_HEADER_BYTES)
        return CACHE_ENTRY_TRUNCATED;
    uint64_t stored_key_length = get_u32(entry + 12);
    uint64_t stored_payload_size = get_u64(entry + 16);
    uint64_t body = size - CACHE_ENTRY_HEADER_BYTES;
    if (stored_key_length > body || stored_payload_size != body - stored_key_length)
        return CACHE_ENTRY_TRUNCATED;
    const uint8_t *stored_key = entry + CACHE_ENTRY_HEADER_BYTES;
    const uint8_t *stored_payload = stored_key + stored_key_length;
    uint8_t digest[SHA256_BYTES];
    checksum(stored_key, (size_t)stored_key_length, stored_payload, (size_t)stored_payload_size,
             digest);
    if (memcmp(digest, entry + 24, SHA256_BYTES) != 0)
        return CACHE_ENTRY_CORRUPT;
    if (expected_key && (strlen(expected_key) != stored_key_length ||
                         memcmp(expected_key, stored_key, (size_t)stored_key_length) != 0))
        return CACHE_ENTRY_OTHER_KEY;
    if (payload)
        *payload = stored_payload;
    if (payload_size)
        *payload_size = (size_t)stored_payload_size;
    if (key)
        *key = (const char *)stored_key;
    if (key_length)
        *key_length = (size_t)stored_key_length;
    return CACHE_ENTRY_OK;
}

const char *cache_entry_check_name(enum cache_entry_check check)
{
    switch (check) {
    case CACHE_ENTRY_OK:
        return "ok";
    case CACHE_ENTRY_TRUNCATED:
        return "truncated";
    case CACHE_ENTRY_FOREIGN:
        return "foreign";
    case CACHE_ENTRY_CORRUPT:
        return "corrupt";
    case CACHE_ENTRY_OTHER_KEY:
        return "other key";
    }
    return "unknown";
}
