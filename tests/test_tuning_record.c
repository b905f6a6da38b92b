// Tuning records without a device: the JSON text and its checksum, the
// reader's limits, and the file rules (ownership, mode, links, atomic store).
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support.h"
#include "tuning_record.h"

// 14 KB each: static, not on the stack.
static struct tuning_record sample, parsed, other;

static void make_sample(struct tuning_record *r)
{
    memset(r, 0, sizeof *r);
    snprintf(r->identity.platform, sizeof r->identity.platform, "NVIDIA CUDA");
    snprintf(r->identity.device, sizeof r->identity.device, "NVIDIA H100 80GB HBM3");
    r->identity.vendor_id = 4318;
    snprintf(r->identity.driver, sizeof r->identity.driver, "550.54.15");
    snprintf(r->identity.profile, sizeof r->identity.profile, "nvidia-sm90");
    snprintf(r->identity.tailor, sizeof r->identity.tailor, "0.1.0");
    memset(r->identity.sources, 'a', 64);
    r->tuned_unix_time = 1764000000;
    r->tuned_seconds = 181;
    r->budget_seconds = 180;
    static const struct tuning_value_entry values[] = {
        {"SGEMM_BM", 128}, {"SGEMM_BN", 64}, {"GEMV_WGS", -3}, {"REDUCE_GROUP", 256}};
    r->count = sizeof values / sizeof values[0];
    memcpy(r->values, values, sizeof values);
}

// The record's text in a buffer of its own (free() it); NULL if format fails.
static char *format_text(const struct tuning_record *r, size_t *length)
{
    int needed = tuning_record_format(r, NULL, 0);
    if (needed < 0)
        return NULL;
    char *text = malloc((size_t)needed + 1);
    int written = tuning_record_format(r, text, (size_t)needed + 1);
    CHECK(written == needed, "format wrote %d bytes, measured %d", written, needed);
    *length = (size_t)needed;
    return text;
}

// Parses `length` bytes from a heap copy of exactly that size, so that a read
// past the end shows under ASan.
static enum tuning_record_check parse_exact(const char *text, size_t length,
                                            struct tuning_record *r, char *why, size_t why_size)
{
    char *copy = malloc(length ? length : 1);
    memcpy(copy, text, length);
    enum tuning_record_check check = tuning_record_parse(copy, length, r, why, why_size);
    free(copy);
    return check;
}

static enum tuning_record_check parse_text(const char *text, char *why, size_t why_size)
{
    return parse_exact(text, strlen(text), &parsed, why, why_size);
}

// `text` with the first `old` replaced by `new` (free() it); NULL if absent.
static char *replace(const char *text, const char *old, const char *new)
{
    const char *at = strstr(text, old);
    if (!at)
        return NULL;
    size_t before = (size_t)(at - text), old_length = strlen(old), new_length = strlen(new);
    char *out = malloc(strlen(text) - old_length + new_length + 1);
    memcpy(out, text, before);
    memcpy(out + before, new, new_length);
    strcpy(out + before + new_length, at + old_length);
    return out;
}

static void expect_check(const char *text, enum tuning_record_check expected, const char *what)
{
    char why[256] = "";
    if (!text) {
        CHECK(text, "%s: no text to parse", what);
        return;
    }
    enum tuning_record_check got = parse_text(text, why, sizeof why);
    CHECK(got == expected, "%s: %s (%s), expected %s", what, tuning_record_check_name(got), why,
          tuning_record_check_name(expected));
    CHECK(got == TUNING_RECORD_OK || why[0], "%s: no reason given", what);
}

// Replaces `old` by `new` in the sample's text and expects `expected`.
static void expect_edit(const char *old, const char *new, enum tuning_record_check expected)
{
    size_t length;
    char *text = format_text(&sample, &length);
    char *edited = replace(text, old, new);
    char what[256];
    snprintf(what, sizeof what, "'%s' -> '%s'", old, new);
    expect_check(edited, expected, what);
    free(edited);
    free(text);
}

static void test_round_trip(void)
{
    make_sample(&sample);
    size_t length;
    char *text = format_text(&sample, &length);
    char why[256] = "";
    CHECK(parse_exact(text, length, &parsed, why, sizeof why) == TUNING_RECORD_OK, "%s", why);
    CHECK(tuning_record_equal(&sample, &parsed), "the parsed record differs");
    CHECK(strstr(text, "{\n  \"format\": \"" TUNING_RECORD_FORMAT "\",\n  \"identity\": {\n") ==
              text,
          "the text begins %.60s", text);
    CHECK(strstr(text, "\n    \"SGEMM_BM\": 128,\n    \"SGEMM_BN\": 64,\n"),
          "values not one a line");
    CHECK(length > 4 && strcmp(text + length - 4, "\"\n}\n") == 0,
          "the text ends with checksum, }");
    CHECK(strstr(strstr(text, "\"values\""), "\"checksum\": \""), "checksum is not last");

    // snprintf's contract: a short buffer gets a NUL-terminated prefix and the length needed.
    char small[40];
    memset(small, 'x', sizeof small);
    CHECK(tuning_record_format(&sample, small, sizeof small) == (int)length, "short buffer");
    CHECK(small[sizeof small - 1] == '\0' && strncmp(small, text, sizeof small - 1) == 0,
          "short buffer: %.40s", small);

    // Re-indented text keeps its checksum: whitespace collapsed outside strings, or doubled.
    char *squeezed = malloc(length + 1), *spread = malloc(4 * length + 1);
    size_t s = 0, w = 0;
    int in_string = 0;
    for (size_t i = 0; i < length; ++i) {
        char c = text[i];
        if (in_string && c == '\\') {
            squeezed[s++] = spread[w++] = c;
            squeezed[s++] = spread[w++] = text[++i];
            continue;
        }
        in_string ^= c == '"';
        if (!in_string && (c == ' ' || c == '\n'))
            continue;
        squeezed[s++] = spread[w++] = c;
        if (!in_string && (c == ',' || c == ':' || c == '{')) {
            memcpy(spread + w, "\r\n\t ", 4);
            w += 4;
        }
    }
    squeezed[s] = spread[w] = '\0';
    CHECK(!strchr(squeezed, '\n'), "not squeezed");
    expect_check(squeezed, TUNING_RECORD_OK, "whitespace removed");
    CHECK(tuning_record_equal(&sample, &parsed), "the squeezed record differs");
    expect_check(spread, TUNING_RECORD_OK, "whitespace added");
    CHECK(tuning_record_equal(&sample, &parsed), "the spread record differs");
    free(squeezed);
    free(spread);

    // The extremes of each integer's range survive, and empty values too.
    other = sample;
    other.identity.vendor_id = UINT32_MAX;
    other.tuned_unix_time = INT64_MIN;
    other.tuned_seconds = INT64_MAX;
    other.budget_seconds = 0;
    other.values[0].value = INT_MIN;
    other.values[1].value = INT_MAX;
    char *extreme = format_text(&other, &length);
    CHECK(parse_exact(extreme, length, &parsed, why, sizeof why) == TUNING_RECORD_OK, "%s", why);
    CHECK(tuning_record_equal(&other, &parsed), "extremes differ");
    free(extreme);
    other.count = 0;
    char *empty = format_text(&other, &length);
    CHECK(strstr(empty, "\"values\": {},\n"), "empty values: %s", empty);
    CHECK(parse_exact(empty, length, &parsed, why, sizeof why) == TUNING_RECORD_OK, "%s", why);
    CHECK(tuning_record_equal(&other, &parsed), "empty values differ");
    free(empty);
    free(text);
}

static void test_strings(void)
{
    // Quotes, backslashes, control characters and UTF-8 go through.
    other = sample;
    snprintf(other.identity.device, sizeof other.identity.device,
             "a \"quoted\" \\ name\t\x01\x1f\x7f \xc3\xa9");
    snprintf(other.values[0].name, sizeof other.values[0].name, "odd \"name\"\n");
    size_t length;
    char *text = format_text(&other, &length);
    CHECK(strstr(text, "\"a \\\"quoted\\\" \\\\ name\\u0009\\u0001\\u001f\x7f \xc3\xa9\""), "%s",
          text);
    CHECK(strstr(text, "\"odd \\\"name\\\"\\u000a\": 128"), "%s", text);
    char why[256] = "";
    CHECK(parse_exact(text, length, &parsed, why, sizeof why) == TUNING_RECORD_OK, "%s", why);
    CHECK(tuning_record_equal(&other, &parsed), "escaped strings differ");

    // Other spellings of the same characters keep the checksum.
    char *edited = replace(text, "\\u0009\\u0001", "\\t\\u0001");
    char *edited2 = replace(edited, "\xc3\xa9", "\\u00E9");
    char *edited3 = replace(edited2, "odd", "\\u006fd\\/d");
    expect_check(edited2, TUNING_RECORD_OK, "\\t and \\u00E9");
    CHECK(tuning_record_equal(&other, &parsed), "\\t and \\u00E9 differ");
    expect_check(edited3, TUNING_RECORD_CORRUPT, "odd -> o/d: another name");
    free(edited);
    free(edited2);
    free(edited3);

    // A surrogate pair becomes 4 bytes of UTF-8.
    snprintf(other.identity.device, sizeof other.identity.device, "smile \xf0\x9f\x98\x80");
    free(text);
    text = format_text(&other, &length);
    edited = replace(text, "\xf0\x9f\x98\x80", "\\ud83d\\ude00");
    expect_check(edited, TUNING_RECORD_OK, "surrogate pair");
    CHECK(tuning_record_equal(&other, &parsed), "a surrogate pair differs");
    free(edited);
    free(text);

    expect_edit("NVIDIA CUDA", "NVIDIA\\u0000CUDA", TUNING_RECORD_MALFORMED);
    expect_edit("NVIDIA CUDA", "NVIDIA\\ud83dCUDA", TUNING_RECORD_MALFORMED);
    expect_edit("NVIDIA CUDA", "NVIDIA\\ude00CUDA", TUNING_RECORD_MALFORMED);
    expect_edit("NVIDIA CUDA", "NVIDIA\\u12", TUNING_RECORD_MALFORMED);
    expect_edit("NVIDIA CUDA", "NVIDIA\\xCUDA", TUNING_RECORD_MALFORMED);
    expect_edit("NVIDIA CUDA", "NVIDIA\nCUDA", TUNING_RECORD_MALFORMED);
    char long_name[200];
    memset(long_name, 'p', 128);
    long_name[128] = '\0';
    expect_edit("NVIDIA CUDA", long_name, TUNING_RECORD_MALFORMED);
    long_name[127] = '\0';
    // 127 bytes fit: only the checksum is wrong.
    expect_edit("NVIDIA CUDA", long_name, TUNING_RECORD_CORRUPT);
    memset(long_name, 'N', 48);
    long_name[48] = '\0';
    expect_edit("SGEMM_BN", long_name, TUNING_RECORD_MALFORMED);
}

static void test_malformed(void)
{
    expect_edit("128", "256", TUNING_RECORD_CORRUPT);
    expect_edit("4318", "4319", TUNING_RECORD_CORRUPT);
    expect_edit("550.54.15", "550.54.16", TUNING_RECORD_CORRUPT);
    expect_edit("\"checksum\": \"", "\"checksum\": \"0", TUNING_RECORD_MALFORMED); // 65 digits
    expect_edit("\"checksum\": \"", "\"checksum\": \"\", \"x\": \"", TUNING_RECORD_MALFORMED);

    // Integers: no fraction, exponent, leading zero or plus; int for values, int64 otherwise.
    expect_edit("128", "128.0", TUNING_RECORD_MALFORMED);
    expect_edit("128", "1e2", TUNING_RECORD_MALFORMED);
    expect_edit("128", "0128", TUNING_RECORD_MALFORMED);
    expect_edit("128", "+128", TUNING_RECORD_MALFORMED);
    expect_edit("128", "-", TUNING_RECORD_MALFORMED);
    expect_edit("128", "\"128\"", TUNING_RECORD_MALFORMED);
    expect_edit("128", "2147483648", TUNING_RECORD_MALFORMED);
    expect_edit("-3", "-2147483649", TUNING_RECORD_MALFORMED);
    expect_edit("128", "99999999999999999999999", TUNING_RECORD_MALFORMED);
    expect_edit("4318", "4294967296", TUNING_RECORD_MALFORMED);
    expect_edit("4318", "-1", TUNING_RECORD_MALFORMED);
    expect_edit("1764000000", "9223372036854775808", TUNING_RECORD_MALFORMED);
    expect_edit("1764000000", "-9223372036854775809", TUNING_RECORD_MALFORMED);
    // 2^64 + 4: wraps to 4 if the reader multiplies before it checks.
    expect_edit("1764000000", "18446744073709551620", TUNING_RECORD_MALFORMED);
    expect_edit("1764000000", "-0", TUNING_RECORD_CORRUPT); // an integer, but not the one hashed

    // Shape: unknown, missing and repeated members, wrong types, trailing text.
    expect_edit("\"format\"", "\"extra\": 1, \"format\"", TUNING_RECORD_MALFORMED);
    expect_edit("\"platform\"", "\"extra\": \"\", \"platform\"", TUNING_RECORD_MALFORMED);
    expect_edit("\"seconds\"", "\"minutes\": 3, \"seconds\"", TUNING_RECORD_MALFORMED);
    expect_edit("\"platform\": \"NVIDIA CUDA\",", "", TUNING_RECORD_MALFORMED);
    expect_edit("\"budget\": 180", "\"budget\": 180, \"budget\": 180", TUNING_RECORD_MALFORMED);
    expect_edit("\"identity\": {", "\"identity\": 3, \"x\": {", TUNING_RECORD_MALFORMED);
    expect_edit("\"values\": {", "\"values\": [", TUNING_RECORD_MALFORMED);
    expect_edit("\"values\": {", "\"values\": {\"SGEMM_BN\": 1, ", TUNING_RECORD_MALFORMED);
    expect_edit("\"values\": {", "\"values\": {\"A\": {}, ", TUNING_RECORD_MALFORMED);
    expect_edit("\"values\": {", "\"values\": {,", TUNING_RECORD_MALFORMED);
    expect_edit("64,", "64,,", TUNING_RECORD_MALFORMED);
    expect_edit("\n}\n", "\n},\n", TUNING_RECORD_MALFORMED);
    expect_edit("\n}\n", "\n}\n{}", TUNING_RECORD_MALFORMED);
    expect_edit("{", "\xef\xbb\xbf{", TUNING_RECORD_MALFORMED); // a byte-order mark

    // Format: missing or another is foreign, even where the rest is not this shape.
    expect_edit("\"format\": \"" TUNING_RECORD_FORMAT "\",", "", TUNING_RECORD_FOREIGN);
    expect_edit(TUNING_RECORD_FORMAT, "tailor-tuning-record-2", TUNING_RECORD_FOREIGN);
    expect_edit("\"identity\"", "\"future\": [1], \"identity\"", TUNING_RECORD_MALFORMED);
    expect_check("{\"format\": \"tailor-tuning-record-2\", \"future\": [1]}", TUNING_RECORD_FOREIGN,
                 "a later format");
    expect_check("", TUNING_RECORD_MALFORMED, "empty");
    expect_check("[]", TUNING_RECORD_MALFORMED, "an array");
    expect_check("{}", TUNING_RECORD_FOREIGN, "an empty object (no format)");
    char why[64];
    CHECK(tuning_record_parse(NULL, 0, &parsed, why, sizeof why) == TUNING_RECORD_MALFORMED,
          "NULL");
    CHECK(tuning_record_parse("{}", 2, &parsed, NULL, 0) == TUNING_RECORD_FOREIGN, "why NULL");

    // Too many values: the reader stops at TUNING_RECORD_MAX_VALUES, format refuses more.
    other = sample;
    other.count = TUNING_RECORD_MAX_VALUES;
    for (size_t i = 0; i < other.count; ++i) {
        snprintf(other.values[i].name, sizeof other.values[i].name, "P%zu", i);
        other.values[i].value = (int)i;
    }
    size_t length;
    char *full = format_text(&other, &length);
    CHECK(parse_exact(full, length, &parsed, why, sizeof why) == TUNING_RECORD_OK, "%s", why);
    CHECK(tuning_record_equal(&other, &parsed), "a full record differs");
    char *over = replace(full, "\"values\": {", "\"values\": {\"EXTRA\": 1,");
    expect_check(over, TUNING_RECORD_MALFORMED, "one value too many");
    free(over);
    free(full);
    other.count = TUNING_RECORD_MAX_VALUES + 1;
    CHECK(tuning_record_format(&other, NULL, 0) == -1, "format took too many values");
    other.count = 3;
    snprintf(other.values[2].name, sizeof other.values[2].name, "P0");
    CHECK(tuning_record_format(&other, NULL, 0) == -1, "format took a name twice");
    other = sample;
    memset(other.identity.profile, 'x', sizeof other.identity.profile);
    CHECK(tuning_record_format(&other, NULL, 0) == -1, "format took an unterminated string");
}

static void test_truncation(void)
{
    size_t length;
    char *text = format_text(&sample, &length);
    // Only the final newline may go: it is whitespace after a whole record.
    for (size_t cut = 0; cut < length; ++cut) {
        char why[256] = "";
        enum tuning_record_check check = parse_exact(text, cut, &parsed, why, sizeof why);
        enum tuning_record_check expected =
            cut == length - 1 ? TUNING_RECORD_OK : TUNING_RECORD_MALFORMED;
        CHECK(check == expected, "cut at %zu of %zu: %s (%s)", cut, length,
              tuning_record_check_name(check), why);
    }
    free(text);
}

static void test_names_and_paths(void)
{
    static const struct {
        enum tuning_record_check check;
        const char *name;
    } names[] = {
        {TUNING_RECORD_OK, "ok"},
        {TUNING_RECORD_MALFORMED, "malformed"},
        {TUNING_RECORD_FOREIGN, "foreign"},
        {TUNING_RECORD_CORRUPT, "corrupt"},
        {TUNING_RECORD_UNTRUSTED, "untrusted"},
        {TUNING_RECORD_MISSING, "missing"},
        {TUNING_RECORD_IO_ERROR, "io-error"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        CHECK(strcmp(tuning_record_check_name(names[i].check), names[i].name) == 0, "%s",
              names[i].name);
    CHECK(strcmp(tuning_record_check_name((enum tuning_record_check)99), "unknown") == 0, "99");

    char path[512], again[512];
    CHECK(tuning_record_path("/some/dir", &sample.identity, path, sizeof path) == 0, "path");
    CHECK(tuning_record_path("/some/dir", &sample.identity, again, sizeof again) == 0, "path");
    CHECK(strcmp(path, again) == 0, "the path is not stable");
    const char *name = path + strlen("/some/dir/");
    CHECK(strncmp(path, "/some/dir/", strlen("/some/dir/")) == 0 &&
              tuning_record_is_file_name(name),
          "%s", path);
    CHECK(tuning_record_path("/some/dir", &sample.identity, path, 20) == -1, "a short buffer");

    // Each identity field moves the path.
    for (int field = 0; field < 7; ++field) {
        other = sample;
        struct tuning_identity *id = &other.identity;
        char *strings[] = {id->platform, id->device, NULL,       id->driver,
                           id->profile,  id->tailor, id->sources};
        if (strings[field])
            strings[field][0] ^= 1;
        else
            id->vendor_id ^= 1;
        CHECK(tuning_record_path("/some/dir", id, again, sizeof again) == 0, "path");
        CHECK(strcmp(path, again) != 0, "field %d does not change the path", field);
    }
    // Moving text from one field to the next must not give the same identity text.
    other = sample;
    snprintf(other.identity.platform, sizeof other.identity.platform, "NVIDIA");
    snprintf(other.identity.device, sizeof other.identity.device, " CUDANVIDIA H100 80GB HBM3");
    CHECK(tuning_record_path("/some/dir", &other.identity, again, sizeof again) == 0 &&
              strcmp(path, again) != 0,
          "fields run together");

    CHECK(tuning_record_is_file_name("tuning-0123456789abcdef0123456789abcdef.json"), "good name");
    static const char *const bad[] = {
        "",
        "tuning-.json",
        "tuning-0123456789abcdef0123456789abcde.json",
        "tuning-0123456789abcdef0123456789abcdef0.json",
        "tuning-0123456789ABCDEF0123456789abcdef.json",
        "tuning-0123456789abcdeg0123456789abcdef.json",
        "tuning-0123456789abcdef0123456789abcdef.json.bak",
        "tuning-0123456789abcdef0123456789abcdef.jso",
        "Tuning-0123456789abcdef0123456789abcdef.json",
        ".tmp-tuning0123456789abcdef0123456789abcdef-12-0",
        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.bin",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        CHECK(!tuning_record_is_file_name(bad[i]), "'%s' taken as a record's name", bad[i]);
}

static int write_file(const char *path, const char *text, size_t length, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
    if (fd < 0)
        return -1;
    int ok = write(fd, text, length) == (ssize_t)length;
    return close(fd) == 0 && ok && chmod(path, mode) == 0 ? 0 : -1;
}

static enum tuning_record_check load(const char *dir, const struct tuning_identity *identity,
                                     char *why, size_t why_size)
{
    why[0] = '\0';
    return tuning_record_load(dir, identity, &parsed, why, why_size);
}

// The directory's entries other than . and ..; `temps` counts those named .tmp-*.
static size_t count_entries(const char *dir, size_t *temps)
{
    DIR *listing = opendir(dir);
    size_t count = 0;
    *temps = 0;
    for (struct dirent *e; listing && (e = readdir(listing));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        ++count;
        *temps += strncmp(e->d_name, ".tmp-", 5) == 0;
    }
    if (listing)
        closedir(listing);
    return count;
}

static void remove_tree(const char *dir)
{
    DIR *listing = opendir(dir);
    char path[4200];
    for (struct dirent *e; listing && (e = readdir(listing));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (unlink(path) != 0)
            remove_tree(path);
    }
    if (listing)
        closedir(listing);
    rmdir(dir);
}

static void test_files(void)
{
    char dir[] = "/tmp/tailor-tuning-record-XXXXXX";
    if (!mkdtemp(dir)) {
        CHECK(0, "mkdtemp: %s", strerror(errno));
        return;
    }
    char why[256], path[4200], elsewhere[4200];
    size_t temps;
    CHECK(tuning_record_path(dir, &sample.identity, path, sizeof path) == 0, "path");
    CHECK(load(dir, &sample.identity, why, sizeof why) == TUNING_RECORD_MISSING, "%s", why);
    CHECK(tuning_record_remove(dir, &sample.identity) == 0, "removing nothing: %s",
          strerror(errno));

    // Store, load, store again: the later record is read, nothing else is left.
    CHECK(tuning_record_store(dir, &sample) == 0, "store: %s", strerror(errno));
    CHECK(load(dir, &sample.identity, why, sizeof why) == TUNING_RECORD_OK, "%s", why);
    CHECK(tuning_record_equal(&sample, &parsed), "the loaded record differs");
    struct stat st;
    memset(&st, 0, sizeof st);
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600, "mode %o", (unsigned)st.st_mode);
    other = sample;
    other.values[0].value = 32;
    other.tuned_unix_time += 60;
    CHECK(tuning_record_store(dir, &other) == 0, "store: %s", strerror(errno));
    CHECK(load(dir, &sample.identity, why, sizeof why) == TUNING_RECORD_OK, "%s", why);
    CHECK(tuning_record_equal(&other, &parsed), "the first record was loaded, not the second");
    CHECK(count_entries(dir, &temps) == 1 && temps == 0, "%zu entries, %zu temporary",
          count_entries(dir, &temps), temps);

    // Every identity field of the record the file holds must be the one expected.
    size_t length;
    char *text = format_text(&sample, &length);
    static const char *const fields[] = {"platform", "device", "vendor_id", "driver",
                                         "profile",  "tailor", "sources"};
    for (int field = 0; field < 7; ++field) {
        struct tuning_identity expected = sample.identity;
        char *strings[] = {expected.platform, expected.device,  NULL,
                           expected.driver,   expected.profile, expected.tailor,
                           expected.sources};
        if (strings[field])
            strings[field][1] ^= 1;
        else
            expected.vendor_id = 0x8086;
        char foreign_path[4200];
        tuning_record_path(dir, &expected, foreign_path, sizeof foreign_path);
        CHECK(write_file(foreign_path, text, length, 0600) == 0, "writing %s", foreign_path);
        CHECK(load(dir, &expected, why, sizeof why) == TUNING_RECORD_FOREIGN, "field %s: %s",
              fields[field], why);
        CHECK(strstr(why, fields[field]), "the note '%s' does not name %s", why, fields[field]);
        unlink(foreign_path);
    }

    // A value edited on disk.
    char *edited = replace(text, "128", "129");
    CHECK(write_file(path, edited, strlen(edited), 0600) == 0, "write");
    CHECK(load(dir, &sample.identity, why, sizeof why) == TUNING_RECORD_CORRUPT, "%s", why);
    free(edited);

    // Trust: the file's mode, a link, a FIFO, the directory's mode.
    CHECK(write_file(path, text, length, 0600) == 0, "write");
    CHECK(load(dir, &sample.identity, why, sizeof why) == TUNING_RECORD_OK, "%s", why);
    CHECK(chmod(path, 0666) == 0, "chmod");
    CHECK(load(dir, &sample.identity, why, sizeof why) == TUNING_RECORD_UNTRUSTED, "0666: %s", why);
    CHECK(chmod(path, 0620) == 0, "chmod");
    CHECK(load(dir, &sample.identity, why, sizeof why) == TUNING_RECORD_UNTRUSTED, "0620: %s", why);
    CHECK(chmod(path, 0400) == 0, "chmod");
    CHECK(load(dir, &sample.identity, why, sizeof why) == TUNING_RECORD_OK, "0400: %s", why);
    snprintf(elsewhere, sizeof elsewhere, "%s/elsewhere", dir);
    CHECK(rename(path, elsewhere) == 0 && symlink(elsewhere, path) == 0, "symlink");
    CHECK(load(dir, &sample.identity, why, sizeof why) == TUNING_RECORD_UNTRUSTED, "a link: %s",
          why);
    CHECK(tuning_record_remove(dir, &sample.identity) == 0, "remove the link");
    CHECK(lstat(elsewhere, &st) == 0, "removing the link removed its target");
    CHECK(mkfifo(path, 0600) == 0, "mkfifo");
    CHECK(load(dir, &sample.identity, why, sizeof why) == TUNING_RECORD_UNTRUSTED, "a FIFO: %s",
          why);
    unlink(path);
    CHECK(tuning_record_store(dir, &sample) == 0, "store: %s", strerror(errno));
    CHECK(chmod(dir, 0777) == 0, "chmod dir");
    CHECK(load(dir, &sample.identity, why, sizeof why) == TUNING_RECORD_UNTRUSTED, "dir 0777: %s",
          why);
    CHECK(chmod(dir, 0700) == 0, "chmod dir");
    CHECK(load(dir, &sample.identity, why, sizeof why) == TUNING_RECORD_OK, "dir 0700: %s", why);

    // Too large to read, and empty.
    char *big = malloc(TUNING_RECORD_MAX_BYTES + 2);
    memcpy(big, text, length);
    memset(big + length, ' ', TUNING_RECORD_MAX_BYTES + 1 - length);
    CHECK(write_file(path, big, TUNING_RECORD_MAX_BYTES, 0600) == 0, "write");
    CHECK(load(dir, &sample.identity, why, sizeof why) == TUNING_RECORD_OK, "at the limit: %s",
          why);
    CHECK(write_file(path, big, TUNING_RECORD_MAX_BYTES + 1, 0600) == 0, "write");
    CHECK(load(dir, &sample.identity, why, sizeof why) == TUNING_RECORD_MALFORMED,
          "past the limit: %s", why);
    free(big);
    CHECK(write_file(path, "", 0, 0600) == 0, "write");
    CHECK(load(dir, &sample.identity, why, sizeof why) == TUNING_RECORD_MALFORMED, "empty: %s",
          why);

    // Remove; a directory that is not there.
    CHECK(tuning_record_remove(dir, &sample.identity) == 0, "remove: %s", strerror(errno));
    CHECK(load(dir, &sample.identity, why, sizeof why) == TUNING_RECORD_MISSING, "%s", why);
    CHECK(tuning_record_remove(dir, &sample.identity) == 0, "remove again: %s", strerror(errno));
    char gone[4200];
    snprintf(gone, sizeof gone, "%s/gone", dir);
    CHECK(load(gone, &sample.identity, why, sizeof why) == TUNING_RECORD_MISSING, "%s", why);
    CHECK(tuning_record_store(gone, &sample) == -1 && errno == ENOENT, "store into nothing: %s",
          strerror(errno));
    other = sample;
    other.count = TUNING_RECORD_MAX_VALUES + 1;
    CHECK(tuning_record_store(dir, &other) == -1 && errno == EINVAL, "a bad record stored");
    CHECK(count_entries(dir, &temps) == 1 && temps == 0, "left: %zu entries, %zu temporary",
          count_entries(dir, &temps), temps); // elsewhere
    free(text);
    remove_tree(dir);
}

// The fuzzer's seed (argv[1]) must stay a valid record.
static void test_seed(const char *path)
{
    FILE *f = fopen(path, "rb");
    static char text[1 << 16];
    size_t length = f ? fread(text, 1, sizeof text, f) : 0;
    if (f)
        fclose(f);
    char why[256] = "";
    CHECK(length > 0 && length < sizeof text, "reading %s", path);
    CHECK(parse_exact(text, length, &parsed, why, sizeof why) == TUNING_RECORD_OK, "%s: %s", path,
          why);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        test_seed(argv[1]);
    test_round_trip();
    test_strings();
    test_malformed();
    test_truncation();
    test_names_and_paths();
    test_files();
    return test_exit_status("test_tuning_record");
}
