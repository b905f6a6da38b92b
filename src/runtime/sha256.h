// SHA-256 (FIPS 180-4): cache keys, source hashes and entry checksums.
#ifndef TAILOR_SHA256_H
#define TAILOR_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_BYTES 32
#define SHA256_HEX_BYTES (2 * SHA256_BYTES + 1)

struct sha256 {
    uint32_t state[8];
    uint64_t length;
    uint8_t block[64];
    size_t block_used;
};

void sha256_init(struct sha256 *h);
void sha256_update(struct sha256 *h, const void *data, size_t size);
void sha256_final(struct sha256 *h, uint8_t digest[SHA256_BYTES]);

void sha256_digest(const void *data, size_t size, uint8_t digest[SHA256_BYTES]);
void sha256_hex(const uint8_t digest[SHA256_BYTES], char hex[SHA256_HEX_BYTES]);

#endif
