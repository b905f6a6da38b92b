// The format of one cache entry, apart from any file: a header (magic,
// format version, key length, payload length, SHA-256 of key and payload),
// the key text, then the payload (the program binary).
#ifndef TAILOR_CACHE_ENTRY_H
#define TAILOR_CACHE_ENTRY_H

#include <stddef.h>
#include <stdint.h>

#define CACHE_ENTRY_MAGIC "TAILORBC"
#define CACHE_ENTRY_FORMAT 1
#define CACHE_ENTRY_HEADER_BYTES 56

enum cache_entry_check {
    CACHE_ENTRY_OK,
    CACHE_ENTRY_TRUNCATED, // shorter or longer than its header says
    CACHE_ENTRY_FOREIGN,   // not a tailor entry (magic) or another format version
    CACHE_ENTRY_CORRUPT,   // checksum mismatch
    CACHE_ENTRY_OTHER_KEY, // a valid entry of another key
};

void cache_entry_header(const char *key, size_t key_length, const void *payload,
                        size_t payload_size, uint8_t header[CACHE_ENTRY_HEADER_BYTES]);

// Checks a whole entry against the expected key (NULL: any key). On
// CACHE_ENTRY_OK, *payload and *payload_size point into `entry`; key and
// key_length (may be NULL) receive the entry's key.
enum cache_entry_check cache_entry_parse(const uint8_t *entry, size_t size, const char *expected_key,
                                         const uint8_t **payload, size_t *payload_size,
                                         const char **key, size_t *key_length);

const char *cache_entry_check_name(enum cache_entry_check check);

#endif
