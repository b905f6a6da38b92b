#include "tuning_record.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_io.h"
#include "sha256.h"

// Printed in the record's order; a field of size 0 is vendor_id, the one integer.
#define FIELD_SIZE(f) sizeof(((struct tuning_identity *)0)->f)
#define STRING_FIELD(f) {#f, offsetof(struct tuning_identity, f), FIELD_SIZE(f)}
static const struct identity_field {
    const char *name;
    size_t offset, size;
} identity_fields[] = {
    STRING_FIELD(platform),
    STRING_FIELD(device),
    {"vendor_id", 0, 0},
    STRING_FIELD(driver),
    STRING_FIELD(profile),
    STRING_FIELD(tailor),
    STRING_FIELD(sources),
};
#define IDENTITY_FIELDS (sizeof identity_fields / sizeof identity_fields[0])

static const char *field_of(const struct tuning_identity *id, const struct identity_field *f)
{
    return (const char *)id + f->offset;
}

const char *tuning_record_check_name(enum tuning_record_check check)
{
    static const char *const names[] = {
        [TUNING_RECORD_OK] = "ok",
        [TUNING_RECORD_MALFORMED] = "malformed",
        [TUNING_RECORD_FOREIGN] = "foreign",
        [TUNING_RECORD_CORRUPT] = "corrupt",
        [TUNING_RECORD_UNTRUSTED] = "untrusted",
        [TUNING_RECORD_MISSING] = "missing",
        [TUNING_RECORD_IO_ERROR] = "io-error",
    };
    return (unsigned)check < sizeof names / sizeof names[0] ? names[check] : "unknown";
}

// ---- Writing ----------------------------------------------------------------

// Output with snprintf's contract: what does not fit is counted, not written.
// With `hash` set every byte also goes to SHA-256, so the checksum needs no
// second buffer.
struct text {
    char *buffer;
    size_t size, length;
    struct sha256 *hash;
};

static void put_bytes(struct text *t, const char *data, size_t n)
{
    if (t->hash)
        sha256_update(t->hash, data, n);
    if (t->length + 1 < t->size) {
        size_t room = t->size - 1 - t->length;
        memcpy(t->buffer + t->length, data, n < room ? n : room);
    }
    t->length += n;
}

static void put_text(struct text *t, const char *s)
{
    put_bytes(t, s, strlen(s));
}

static void put_integer(struct text *t, int64_t v)
{
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%" PRId64, v);
    put_bytes(t, digits, (size_t)n);
}

// A JSON string: '"' and '\' escaped, control characters as \u00XX, every
// other byte (UTF-8 included) as it is.
static void put_string(struct text *t, const char *s)
{
    put_bytes(t, "\"", 1);
    for (;;) {
        size_t plain = 0;
        while (s[plain] && s[plain] != '"' && s[plain] != '\\' && (unsigned char)s[plain] >= 0x20)
            ++plain;
        put_bytes(t, s, plain);
        s += plain;
        if (!*s)
            break;
        char escape[8];
        unsigned char c = (unsigned char)*s++;
        int n = c < 0x20 ? snprintf(escape, sizeof escape, "\\u%04x", c)
                         : snprintf(escape, sizeof escape, "\\%c", c);
        put_bytes(t, escape, (size_t)n);
    }
    put_bytes(t, "\"", 1);
}

// "name": as a member line at `indent`, the comma of the previous one first.
static void put_name(struct text *t, int first, const char *indent, const char *name)
{
    put_text(t, first ? "\n" : ",\n");
    put_text(t, indent);
    put_string(t, name);
    put_text(t, ": ");
}

static void put_identity(struct text *t, const struct tuning_identity *id, const char *indent)
{
    char inner[16];
    snprintf(inner, sizeof inner, "%s  ", indent);
    put_text(t, "{");
    for (size_t i = 0; i < IDENTITY_FIELDS; ++i) {
        const struct identity_field *f = &identity_fields[i];
        put_name(t, i == 0, inner, f->name);
        if (f->size)
            put_string(t, field_of(id, f));
        else
            put_integer(t, id->vendor_id);
    }
    put_text(t, "\n");
    put_text(t, indent);
    put_text(t, "}");
}

// The canonical text; without `checksum`, the text the checksum covers: the
// same object with the checksum member (and the comma before it) left out.
static void put_record(struct text *t, const struct tuning_record *r, const char *checksum)
{
    put_text(t, "{");
    put_name(t, 1, "  ", "format");
    put_string(t, TUNING_RECORD_FORMAT);
    put_name(t, 0, "  ", "identity");
    put_identity(t, &r->identity, "  ");
    put_name(t, 0, "  ", "tuned");
    put_text(t, "{");
    put_name(t, 1, "    ", "unix_time");
    put_integer(t, r->tuned_unix_time);
    put_name(t, 0, "    ", "seconds");
    put_integer(t, r->tuned_seconds);
    put_name(t, 0, "    ", "budget");
    put_integer(t, r->budget_seconds);
    put_text(t, "\n  }");
    put_name(t, 0, "  ", "values");
    put_text(t, "{");
    for (size_t i = 0; i < r->count; ++i) {
        put_name(t, i == 0, "    ", r->values[i].name);
        put_integer(t, r->values[i].value);
    }
    put_text(t, r->count ? "\n  }" : "}");
    if (checksum) {
        put_name(t, 0, "  ", "checksum");
        put_string(t, checksum);
    }
    put_text(t, "\n}\n");
}

static void record_checksum(const struct tuning_record *r, char hex[SHA256_HEX_BYTES])
{
    struct sha256 h;
    sha256_init(&h);
    struct text t = {NULL, 0, 0, &h};
    put_record(&t, r, NULL);
    uint8_t digest[SHA256_BYTES];
    sha256_final(&h, digest);
    sha256_hex(digest, hex);
}

static int identity_is_valid(const struct tuning_identity *id)
{
    for (size_t i = 0; i < IDENTITY_FIELDS; ++i)
        if (identity_fields[i].size &&
            !memchr(field_of(id, &identity_fields[i]), '\0', identity_fields[i].size))
            return 0;
    return 1;
}

// Whether the parser would take the record back: every string ends in its
// field, at most TUNING_RECORD_MAX_VALUES values, no name twice.
static int record_is_valid(const struct tuning_record *r)
{
    if (!identity_is_valid(&r->identity) || r->count > TUNING_RECORD_MAX_VALUES)
        return 0;
    for (size_t i = 0; i < r->count; ++i) {
        if (!memchr(r->values[i].name, '\0', sizeof r->values[i].name))
            return 0;
        for (size_t j = 0; j < i; ++j)
            if (strcmp(r->values[i].name, r->values[j].name) == 0)
                return 0;
    }
    return 1;
}

int tuning_record_format(const struct tuning_record *record, char *buffer, size_t size)
{
    if (!record || (!buffer && size) || !record_is_valid(record))
        return -1;
    char hex[SHA256_HEX_BYTES];
    record_checksum(record, hex);
    struct text t = {buffer, size, 0, NULL};
    put_record(&t, record, hex);
    if (size)
        buffer[t.length < size ? t.length : size - 1] = '\0';
    return t.length > INT_MAX ? -1 : (int)t.length;
}

// ---- Reading ----------------------------------------------------------------

// A cursor over text that is not NUL-terminated; the first failure stops
// everything and leaves its reason in `why`.
struct reader {
    const char *begin, *at, *end;
    char *why;
    size_t why_size;
    int failed;
};

// Returns 0, so that `return fail(r, ...);` ends a reader.
static int fail(struct reader *r, const char *what)
{
    if (!r->failed && r->why && r->why_size)
        snprintf(r->why, r->why_size, "%s at byte %td", what, r->at - r->begin);
    r->failed = 1;
    return 0;
}

static void skip_space(struct reader *r)
{
    while (r->at < r->end && (*r->at == ' ' || *r->at == '\t' || *r->at == '\n' || *r->at == '\r'))
        ++r->at;
}

static int take(struct reader *r, char c)
{
    skip_space(r);
    if (r->failed || r->at == r->end || *r->at != c)
        return 0;
    ++r->at;
    return 1;
}

static void expect(struct reader *r, char c)
{
    if (!r->failed && !take(r, c)) {
        char what[48];
        snprintf(what, sizeof what, "'%c' expected", c);
        fail(r, what);
    }
}

// Four hex digits of a \u escape; -1 if they are not there.
static long read_hex4(struct reader *r)
{
    if (r->end - r->at < 4)
        return -1;
    long v = 0;
    for (int i = 0; i < 4; ++i) {
        char c = r->at[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    r->at += 4;
    return v;
}

// The code point of a \u escape (the backslash and 'u' read), a surrogate
// pair joined; 0 after a failure.
static long read_escaped_code_point(struct reader *r)
{
    long high = read_hex4(r);
    if (high < 0)
        return fail(r, "a \\u escape needs four hex digits");
    if (high == 0)
        return fail(r, "\\u0000 in a string");
    if (high >= 0xdc00 && high <= 0xdfff)
        return fail(r, "a lone low surrogate");
    if (high < 0xd800 || high > 0xdbff)
        return high;
    if (r->end - r->at < 2 || r->at[0] != '\\' || r->at[1] != 'u')
        return fail(r, "a high surrogate without its low one");
    r->at += 2;
    long low = read_hex4(r);
    if (low < 0xdc00 || low > 0xdfff)
        return fail(r, "a high surrogate without its low one");
    return 0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00);
}

// A string into out[size] (NUL included). Raw bytes from 0x20 on are taken
// as they are; \u escapes past ASCII become UTF-8.
static int read_string(struct reader *r, char *out, size_t size, const char *what)
{
    skip_space(r);
    if (r->failed)
        return 0;
    if (r->at == r->end || *r->at != '"')
        return fail(r, "a string expected");
    ++r->at;
    size_t used = 0;
    for (;;) {
        if (r->at == r->end)
            return fail(r, "an unterminated string");
        unsigned char c = (unsigned char)*r->at++;
        char bytes[4];
        size_t n = 1;
        bytes[0] = (char)c;
        if (c == '"') {
            break;
        } else if (c < 0x20) {
            return fail(r, "a control character in a string");
        } else if (c == '\\') {
            if (r->at == r->end)
                return fail(r, "an unterminated string");
            char e = *r->at++;
            static const char plain[] = "\"\\/bfnrt", meaning[] = "\"\\/\b\f\n\r\t";
            const char *known = e ? strchr(plain, e) : NULL;
            if (known) {
                bytes[0] = meaning[known - plain];
            } else if (e == 'u') {
                long cp = read_escaped_code_point(r);
                if (r->failed)
                    return 0;
                if (cp < 0x80) {
                    bytes[0] = (char)cp;
                } else if (cp < 0x800) {
                    bytes[0] = (char)(0xc0 | cp >> 6);
                    bytes[1] = (char)(0x80 | (cp & 0x3f));
                    n = 2;
                } else if (cp < 0x10000) {
                    bytes[0] = (char)(0xe0 | cp >> 12);
                    bytes[1] = (char)(0x80 | (cp >> 6 & 0x3f));
                    bytes[2] = (char)(0x80 | (cp & 0x3f));
                    n = 3;
                } else {
                    bytes[0] = (char)(0xf0 | cp >> 18);
                    bytes[1] = (char)(0x80 | (cp >> 12 & 0x3f));
                    bytes[2] = (char)(0x80 | (cp >> 6 & 0x3f));
                    bytes[3] = (char)(0x80 | (cp & 0x3f));
                    n = 4;
                }
            } else {
                return fail(r, "an unknown escape in a string");
            }
        }
        if (used + n >= size) {
            char note[96];
            snprintf(note, sizeof note, "%s longer than %zu bytes", what, size - 1);
            return fail(r, note);
        }
        memcpy(out + used, bytes, n);
        used += n;
    }
    out[used] = '\0';
    return 1;
}

// A JSON integer (no fraction, no exponent, no leading zero) in [minimum, maximum].
static int64_t read_integer(struct reader *r, int64_t minimum, int64_t maximum, const char *what)
{
    skip_space(r);
    if (r->failed)
        return 0;
    int negative = r->at < r->end && *r->at == '-';
    r->at += negative;
    if (r->at == r->end || *r->at < '0' || *r->at > '9')
        return fail(r, "an integer expected");
    if (*r->at == '0' && r->end - r->at > 1 && r->at[1] >= '0' && r->at[1] <= '9')
        return fail(r, "an integer with a leading zero");
    // The magnitude stays within 2^63, INT64_MIN's, so nothing wraps.
    const uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    uint64_t magnitude = 0;
    int overflow = 0;
    for (; r->at < r->end && *r->at >= '0' && *r->at <= '9'; ++r->at) {
        unsigned digit = (unsigned)(*r->at - '0');
        overflow |= magnitude > (limit - digit) / 10;
        magnitude = overflow ? magnitude : magnitude * 10 + digit;
    }
    if (r->at < r->end && (*r->at == '.' || *r->at == 'e' || *r->at == 'E'))
        return fail(r, "a number that is not an integer");
    // 2^63 is reachable only after a minus: INT64_MIN.
    int64_t v = magnitude > (uint64_t)INT64_MAX ? INT64_MIN : (int64_t)magnitude;
    if (negative && v != INT64_MIN)
        v = -v;
    if (overflow || v < minimum || v > maximum) {
        char note[96];
        snprintf(note, sizeof note, "%s out of range", what);
        return fail(r, note);
    }
    return v;
}

// Steps through the members of an object whose '{' was read: returns 1 with
// the next member's name read and its ':' taken, 0 at the '}' or a failure.
static int next_member(struct reader *r, int *first, char *name, size_t size)
{
    if (*first) {
        *first = 0;
        if (take(r, '}'))
            return 0;
    } else if (!take(r, ',')) {
        expect(r, '}');
        return 0;
    }
    read_string(r, name, size, "a member name");
    expect(r, ':');
    return !r->failed;
}

// Marks a member as read; a second time is a failure.
static void once(struct reader *r, unsigned *seen, unsigned bit, const char *name)
{
    if (*seen & bit) {
        char note[96];
        snprintf(note, sizeof note, "\"%s\" appears twice", name);
        fail(r, note);
    }
    *seen |= bit;
}

// Fails if one of `count` members, `names`, is missing from `seen`.
static int require_all(struct reader *r, unsigned seen, const char *const *names, size_t count,
                       const char *object)
{
    for (size_t i = 0; i < count && !r->failed; ++i)
        if (!(seen & 1u << i)) {
            char note[96];
            snprintf(note, sizeof note, "%s has no \"%s\"", object, names[i]);
            return fail(r, note);
        }
    return !r->failed;
}

static int read_identity(struct reader *r, struct tuning_identity *id)
{
    const char *names[IDENTITY_FIELDS];
    for (size_t i = 0; i < IDENTITY_FIELDS; ++i)
        names[i] = identity_fields[i].name;
    unsigned seen = 0;
    char name[64];
    expect(r, '{');
    for (int first = 1; next_member(r, &first, name, sizeof name);) {
        size_t i = 0;
        while (i < IDENTITY_FIELDS && strcmp(name, identity_fields[i].name) != 0)
            ++i;
        if (i == IDENTITY_FIELDS)
            return fail(r, "an unknown member in \"identity\"");
        const struct identity_field *f = &identity_fields[i];
        once(r, &seen, 1u << i, f->name);
        if (f->size)
            read_string(r, (char *)id + f->offset, f->size, f->name);
        else
            id->vendor_id = (uint32_t)read_integer(r, 0, UINT32_MAX, "vendor_id");
    }
    return require_all(r, seen, names, IDENTITY_FIELDS, "\"identity\"");
}

static int read_tuned(struct reader *r, struct tuning_record *record)
{
    static const char *const names[] = {"unix_time", "seconds", "budget"};
    int64_t *const fields[] = {&record->tuned_unix_time, &record->tuned_seconds,
                               &record->budget_seconds};
    unsigned seen = 0;
    char name[64];
    expect(r, '{');
    for (int first = 1; next_member(r, &first, name, sizeof name);) {
        size_t i = 0;
        while (i < 3 && strcmp(name, names[i]) != 0)
            ++i;
        if (i == 3)
            return fail(r, "an unknown member in \"tuned\"");
        once(r, &seen, 1u << i, names[i]);
        *fields[i] = read_integer(r, INT64_MIN, INT64_MAX, names[i]);
    }
    return require_all(r, seen, names, 3, "\"tuned\"");
}

static int read_values(struct reader *r, struct tuning_record *record)
{
    struct tuning_value_entry entry;
    expect(r, '{');
    for (int first = 1; next_member(r, &first, entry.name, sizeof entry.name);) {
        if (record->count == TUNING_RECORD_MAX_VALUES)
            return fail(r, "more values than TUNING_RECORD_MAX_VALUES");
        for (size_t i = 0; i < record->count; ++i)
            if (strcmp(record->values[i].name, entry.name) == 0)
                return fail(r, "a value named twice");
        entry.value = (int)read_integer(r, INT_MIN, INT_MAX, "a value");
        record->values[record->count++] = entry;
    }
    return !r->failed;
}

enum tuning_record_check tuning_record_parse(const char *text, size_t length,
                                             struct tuning_record *record, char *why,
                                             size_t why_size)
{
    static const char *const names[] = {"format", "identity", "tuned", "values", "checksum"};
    if (why && why_size)
        why[0] = '\0';
    memset(record, 0, sizeof *record);
    struct reader r = {text, text, text + (text ? length : 0), why, why_size, 0};
    char format[64] = "", checksum[SHA256_HEX_BYTES] = "", name[64];
    unsigned seen = 0;
    int format_read = 0;
    expect(&r, '{');
    for (int first = 1; next_member(&r, &first, name, sizeof name);) {
        size_t i = 0;
        while (i < 5 && strcmp(name, names[i]) != 0)
            ++i;
        if (i == 5) {
            char note[96];
            snprintf(note, sizeof note, "an unknown member \"%s\"", name);
            fail(&r, note);
            break;
        }
        once(&r, &seen, 1u << i, names[i]);
        if (i == 0)
            format_read = read_string(&r, format, sizeof format, "format");
        else if (i == 1)
            read_identity(&r, &record->identity);
        else if (i == 2)
            read_tuned(&r, record);
        else if (i == 3)
            read_values(&r, record);
        else
            read_string(&r, checksum, sizeof checksum, "checksum");
    }
    skip_space(&r);
    if (r.at != r.end)
        fail(&r, "text after the record");
    // Another format's record is foreign even where it does not parse as this one.
    if (format_read && strcmp(format, TUNING_RECORD_FORMAT) != 0) {
        if (why && why_size)
            snprintf(why, why_size, "format \"%s\", not \"%s\"", format, TUNING_RECORD_FORMAT);
        return TUNING_RECORD_FOREIGN;
    }
    if (r.failed)
        return TUNING_RECORD_MALFORMED;
    if (!(seen & 1)) {
        if (why && why_size)
            snprintf(why, why_size, "no \"format\" member");
        return TUNING_RECORD_FOREIGN;
    }
    if (!require_all(&r, seen, names, 5, "the record"))
        return TUNING_RECORD_MALFORMED;
    char hex[SHA256_HEX_BYTES];
    record_checksum(record, hex);
    if (strcmp(hex, checksum) != 0) {
        if (why && why_size)
            snprintf(why, why_size, "the checksum does not match the contents");
        return TUNING_RECORD_CORRUPT;
    }
    return TUNING_RECORD_OK;
}

// The name of the first field in which two identities differ, NULL if none.
static const char *identity_difference(const struct tuning_identity *a,
                                       const struct tuning_identity *b)
{
    for (size_t i = 0; i < IDENTITY_FIELDS; ++i) {
        const struct identity_field *f = &identity_fields[i];
        if (f->size ? strncmp(field_of(a, f), field_of(b, f), f->size) != 0
                    : a->vendor_id != b->vendor_id)
            return f->name;
    }
    return NULL;
}

int tuning_identity_equal(const struct tuning_identity *a, const struct tuning_identity *b)
{
    return identity_difference(a, b) == NULL;
}

int tuning_record_equal(const struct tuning_record *a, const struct tuning_record *b)
{
    if (!tuning_identity_equal(&a->identity, &b->identity) ||
        a->tuned_unix_time != b->tuned_unix_time || a->tuned_seconds != b->tuned_seconds ||
        a->budget_seconds != b->budget_seconds || a->count != b->count)
        return 0;
    for (size_t i = 0; i < a->count; ++i)
        if (strcmp(a->values[i].name, b->values[i].name) != 0 ||
            a->values[i].value != b->values[i].value)
            return 0;
    return 1;
}

// ---- Files ------------------------------------------------------------------

// dir/tuning-<32 hex>.json; `hex` gets the 32 digits (and a NUL).
static int record_path(const char *dir, const struct tuning_identity *identity, char *path,
                       size_t size, char hex[SHA256_HEX_BYTES])
{
    if (!dir || !identity || !identity_is_valid(identity))
        return -1;
    // The identity object's canonical text: every field, each string quoted.
    struct sha256 h;
    sha256_init(&h);
    struct text t = {NULL, 0, 0, &h};
    put_identity(&t, identity, "");
    uint8_t digest[SHA256_BYTES];
    sha256_final(&h, digest);
    sha256_hex(digest, hex);
    hex[32] = '\0';
    int length =
        snprintf(path, size, "%s/%s%s%s", dir, TUNING_RECORD_PREFIX, hex, TUNING_RECORD_SUFFIX);
    return length < 0 || (size_t)length >= size ? -1 : 0;
}

int tuning_record_path(const char *dir, const struct tuning_identity *identity, char *path,
                       size_t size)
{
    char hex[SHA256_HEX_BYTES];
    return record_path(dir, identity, path, size, hex);
}

int tuning_record_is_file_name(const char *name)
{
    size_t prefix = strlen(TUNING_RECORD_PREFIX);
    return name && strlen(name) == prefix + 32 + strlen(TUNING_RECORD_SUFFIX) &&
           strncmp(name, TUNING_RECORD_PREFIX, prefix) == 0 &&
           strspn(name + prefix, "0123456789abcdef") == 32 &&
           strcmp(name + prefix + 32, TUNING_RECORD_SUFFIX) == 0;
}

static enum tuning_record_check note(char *why, size_t why_size, enum tuning_record_check check,
                                     const char *format, const char *detail)
{
    if (why && why_size)
        snprintf(why, why_size, format, detail);
    return check;
}

enum tuning_record_check tuning_record_load(const char *dir, const struct tuning_identity *identity,
                                            struct tuning_record *record, char *why,
                                            size_t why_size)
{
    char path[4096 + 64], hex[SHA256_HEX_BYTES];
    struct stat st;
    if (!record || record_path(dir, identity, path, sizeof path, hex) != 0)
        return note(why, why_size, TUNING_RECORD_IO_ERROR, "%s", "no path for the record");
    if (stat(dir, &st) != 0)
        return note(why, why_size, errno == ENOENT ? TUNING_RECORD_MISSING : TUNING_RECORD_IO_ERROR,
                    "the directory: %s", strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return note(why, why_size, TUNING_RECORD_IO_ERROR, "%s", "the directory is not one");
    if (file_distrust(&st))
        return note(why, why_size, TUNING_RECORD_UNTRUSTED, "the directory is %s",
                    file_distrust(&st));
    // O_NONBLOCK: a FIFO in the record's place must not hang the open.
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        if (errno == ENOENT)
            return note(why, why_size, TUNING_RECORD_MISSING, "no record %s",
                        strrchr(path, '/') + 1);
        if (errno == ELOOP)
            return note(why, why_size, TUNING_RECORD_UNTRUSTED, "%s",
                        "the record is a symbolic link");
        return note(why, why_size, TUNING_RECORD_IO_ERROR, "%s", strerror(errno));
    }
    enum tuning_record_check check = TUNING_RECORD_IO_ERROR;
    char *text = NULL;
    if (fstat(fd, &st) != 0) {
        note(why, why_size, check, "%s", strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        check =
            note(why, why_size, TUNING_RECORD_UNTRUSTED, "%s", "the record is not a regular file");
    } else if (file_distrust(&st)) {
        check = note(why, why_size, TUNING_RECORD_UNTRUSTED, "the record is %s",
                     file_distrust(&st));
    } else if ((uint64_t)st.st_size > TUNING_RECORD_MAX_BYTES) {
        check = note(why, why_size, TUNING_RECORD_MALFORMED, "%s",
                     "the record is larger than TUNING_RECORD_MAX_BYTES");
    } else if (!(text = malloc(st.st_size ? (size_t)st.st_size : 1))) {
        note(why, why_size, check, "%s", "out of memory");
    } else if (read_all(fd, text, (size_t)st.st_size) != 0) {
        note(why, why_size, check, "%s", "reading the record failed");
    } else {
        check = tuning_record_parse(text, (size_t)st.st_size, record, why, why_size);
        const char *field =
            check == TUNING_RECORD_OK ? identity_difference(&record->identity, identity) : NULL;
        if (field)
            check = note(why, why_size, TUNING_RECORD_FOREIGN, "the record's %s differs", field);
    }
    free(text);
    close(fd);
    return check;
}

int tuning_record_store(const char *dir, const struct tuning_record *record)
{
    static atomic_uint serial;
    char path[4096 + 64], temp[4096 + 128], hex[SHA256_HEX_BYTES];
    int needed = record ? tuning_record_format(record, NULL, 0) : -1;
    if (needed < 0 || record_path(dir, &record->identity, path, sizeof path, hex) != 0)
        return errno = EINVAL, -1;
    // cache.c's stale-temp sweep reads the pid after the first '-' past
    // ".tmp-", so the part before it has none: .tmp-tuning<32 hex>-<pid>-<serial>.
    int length = snprintf(temp, sizeof temp, "%s/.tmp-tuning%s-%ld-%u", dir, hex, (long)getpid(),
                          atomic_fetch_add(&serial, 1));
    if (length < 0 || (size_t)length >= sizeof temp)
        return errno = ENAMETOOLONG, -1;
    char *text = malloc((size_t)needed + 1);
    if (!text)
        return errno = ENOMEM, -1;
    tuning_record_format(record, text, (size_t)needed + 1);
    int fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    int failed = fd < 0;
    if (!failed) {
        failed = write_all(fd, text, (size_t)needed) != 0 || fdatasync(fd) != 0;
        int saved = errno;
        if ((close(fd) != 0 || rename(temp, path) != 0) && !failed) {
            failed = 1;
            saved = errno;
        }
        if (failed) {
            unlink(temp);
            errno = saved;
        }
    }
    free(text);
    return failed ? -1 : 0;
}

int tuning_record_remove(const char *dir, const struct tuning_identity *identity)
{
    char path[4096 + 64], hex[SHA256_HEX_BYTES];
    if (record_path(dir, identity, path, sizeof path, hex) != 0)
        return errno = EINVAL, -1;
    return unlink(path) == 0 || errno == ENOENT ? 0 : -1;
}
