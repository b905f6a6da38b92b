// Tuning records: values of tuning parameters measured on one device, with
// the identity they hold for. A record is a JSON object, the same text on
// disk (one file per identity in the cache directory) and in export/import:
//
// {
//   "format": "tailor-tuning-record-1",
//   "identity": {"platform": "...", "device": "...", "vendor_id": 4318,
//                "driver": "...", "profile": "nvidia-sm70", "tailor": "0.1.0",
//                "sources": "<sha256 hex of the kernel sources>"},
//   "tuned": {"unix_time": 1764000000, "seconds": 181, "budget": 180},
//   "values": {"SGEMM_BM": 128, "SGEMM_BN": 64},
//   "checksum": "<sha256 hex of the canonical text of everything above>"
// }
//
// The checksum covers the canonical form (tuning_record_format without the
// checksum member), so re-indenting a shipped record keeps it valid while
// changing any value or identity field does not.
#ifndef TAILOR_TUNING_RECORD_H
#define TAILOR_TUNING_RECORD_H

#include <stddef.h>
#include <stdint.h>

#define TUNING_RECORD_FORMAT "tailor-tuning-record-1"
#define TUNING_RECORD_MAX_VALUES 256
#define TUNING_RECORD_MAX_BYTES (1u << 20)
#define TUNING_RECORD_PREFIX "tuning-"
#define TUNING_RECORD_SUFFIX ".json"

struct tuning_identity {
    char platform[128];
    char device[128];
    uint32_t vendor_id;
    char driver[128];
    char profile[64];  // the profile row: the code family the values were measured with
    char tailor[32];   // the library's version
    char sources[65];  // SHA-256 hex of the kernel sources
};

struct tuning_value_entry {
    char name[48];
    int value;
};

struct tuning_record {
    struct tuning_identity identity;
    int64_t tuned_unix_time;
    int64_t tuned_seconds; // wall time of the tuning run
    int64_t budget_seconds;
    size_t count;
    struct tuning_value_entry values[TUNING_RECORD_MAX_VALUES];
};

enum tuning_record_check {
    TUNING_RECORD_OK,
    TUNING_RECORD_MALFORMED, // not JSON of the record's shape (truncated, wrong types, too many values)
    TUNING_RECORD_FOREIGN,   // another format, or another identity than the one expected
    TUNING_RECORD_CORRUPT,   // checksum mismatch
    TUNING_RECORD_UNTRUSTED, // not a regular file of this user, or writable by others
    TUNING_RECORD_MISSING,   // no file
    TUNING_RECORD_IO_ERROR,
};

const char *tuning_record_check_name(enum tuning_record_check check);

// The record as JSON (indented, one value per line, ending in a newline),
// checksum included. Returns the length written without the NUL, or the
// length needed (like snprintf) when size is too small; -1 on a bad record.
int tuning_record_format(const struct tuning_record *record, char *buffer, size_t size);

// Parses text (not necessarily NUL-terminated) into *record; on failure
// writes a one-line reason into why (may be NULL). Strings too long for their
// fields, duplicate value names, values outside int, unknown members at the
// top level or in identity, and a missing member are MALFORMED.
enum tuning_record_check tuning_record_parse(const char *text, size_t length,
                                             struct tuning_record *record, char *why,
                                             size_t why_size);

int tuning_identity_equal(const struct tuning_identity *a, const struct tuning_identity *b);

// Same identity, times and values, in the same order.
int tuning_record_equal(const struct tuning_record *a, const struct tuning_record *b);

// The record's file for the identity in `dir`:
// dir/tuning-<first 32 hex digits of the SHA-256 of the identity>.json.
int tuning_record_path(const char *dir, const struct tuning_identity *identity, char *path,
                       size_t size);

// Whether a directory entry name is a record file's (tuning-<32 hex>.json).
int tuning_record_is_file_name(const char *name);

// Reads the identity's record from `dir` with the cache's rules: a regular
// file (no symbolic link) owned by this user, not writable by group or
// others, at most TUNING_RECORD_MAX_BYTES, well-formed, its checksum right,
// its identity the one expected (else FOREIGN). A bad file is left in place
// (the next tuning run replaces it). why gets a one-line note on failure.
enum tuning_record_check tuning_record_load(const char *dir, const struct tuning_identity *identity,
                                            struct tuning_record *record, char *why,
                                            size_t why_size);

// Writes the record to its file in `dir` (mode 0600) through a temporary
// file, fdatasync and rename, so readers see the old or the new record whole
// and concurrent writers leave one of theirs. Returns 0 or -1 (errno kept).
int tuning_record_store(const char *dir, const struct tuning_record *record);

// Removes the identity's record file; 0 if it is gone (or was never there).
int tuning_record_remove(const char *dir, const struct tuning_identity *identity);

#endif
