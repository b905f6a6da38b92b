#include "cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache_entry.h"
#include "file_io.h"
#include "settings.h"
#include "sha256.h"

// Entries larger than this are not read: no program binary comes near it.
#define CACHE_ENTRY_MAX_BYTES (1ull << 30)
// A temporary file this old belongs to a writer that died, whatever its pid.
#define STALE_TEMP_SECONDS 3600

static int path_join(char *buffer, size_t size, const char *dir, const char *name)
{
    int length = snprintf(buffer, size, "%s/%s", dir, name);
    return length < 0 || (size_t)length >= size ? -1 : 0;
}

// mkdir -p, each created component private to the user.
static int make_directories(const char *path)
{
    char partial[4096];
    size_t length = strlen(path);
    if (length == 0 || length >= sizeof partial)
        return -1;
    memcpy(partial, path, length + 1);
    for (size_t i = 1; i <= length; ++i) {
        if (partial[i] != '/' && partial[i] != '\0')
            continue;
        char saved = partial[i];
        partial[i] = '\0';
        if (mkdir(partial, 0700) != 0 && errno != EEXIST)
            return -1;
        partial[i] = saved;
    }
    return 0;
}

static int is_stale_temp(const char *dir, const char *name)
{
    // .tmp-<hash>-<pid>-<serial>
    const char *pid_text = strchr(name + strlen(CACHE_TEMP_PREFIX), '-');
    long pid = pid_text ? strtol(pid_text + 1, NULL, 10) : 0;
    if (pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH)
        return 1;
    char path[4096 + 256];
    struct stat st;
    if (path_join(path, sizeof path, dir, name) != 0 || lstat(path, &st) != 0)
        return 0;
    return time(NULL) - st.st_mtime > STALE_TEMP_SECONDS;
}

static void remove_stale_temps(const char *dir)
{
    DIR *listing = opendir(dir);
    if (!listing)
        return;
    for (struct dirent *e; (e = readdir(listing));) {
        if (!cache_is_temp_name(e->d_name) || !is_stale_temp(dir, e->d_name))
            continue;
        char path[4096 + 256];
        if (path_join(path, sizeof path, dir, e->d_name) == 0)
            unlink(path);
    }
    closedir(listing);
}

void cache_open(struct cache *cache, const char *configured_dir, int disabled, uint64_t max_bytes)
{
    memset(cache, 0, sizeof *cache);
    cache->max_bytes = max_bytes ? max_bytes : CACHE_DEFAULT_MAX_BYTES;
    if (disabled) {
        snprintf(cache->note, sizeof cache->note, "disabled by the settings or TAILOR_CACHE=off");
        return;
    }
    if (settings_cache_directory(configured_dir, cache->dir, sizeof cache->dir) != 0) {
        snprintf(cache->note, sizeof cache->note, "no cache directory (no HOME, no passwd entry)");
        return;
    }
    make_directories(cache->dir);
    struct stat st;
    if (stat(cache->dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(cache->note, sizeof cache->note, "the cache path is missing or not a directory");
        return;
    }
    // A cached binary is code that runs on the device: only a directory
    // nobody else can write to is trusted.
    if (file_distrust(&st)) {
        snprintf(cache->note, sizeof cache->note,
                 "the cache directory is writable by other users or not owned by this user");
        return;
    }
    remove_stale_temps(cache->dir);
    cache->enabled = 1;
}

int cache_is_entry_name(const char *name)
{
    size_t length = strlen(name);
    size_t suffix = strlen(CACHE_ENTRY_SUFFIX);
    if (length != 2 * SHA256_BYTES + suffix || strcmp(name + length - suffix, CACHE_ENTRY_SUFFIX) != 0)
        return 0;
    return strspn(name, "0123456789abcdef") == 2 * SHA256_BYTES;
}

int cache_is_temp_name(const char *name)
{
    return strncmp(name, CACHE_TEMP_PREFIX, strlen(CACHE_TEMP_PREFIX)) == 0;
}

static int entry_path(const struct cache *cache, const char *key, char *path, size_t size)
{
    uint8_t digest[SHA256_BYTES];
    char hex[SHA256_HEX_BYTES];
    sha256_digest(key, strlen(key), digest);
    sha256_hex(digest, hex);
    int length = snprintf(path, size, "%s/%s%s", cache->dir, hex, CACHE_ENTRY_SUFFIX);
    return length < 0 || (size_t)length >= size ? -1 : 0;
}

enum cache_lookup cache_load(const struct cache *cache, const char *key, uint8_t **entry,
                             const uint8_t **payload, size_t *payload_size)
{
    *entry = NULL;
    char path[4096 + 128];
    if (!cache->enabled || entry_path(cache, key, path, sizeof path) != 0)
        return CACHE_MISS;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        if (errno != ELOOP)
            return CACHE_MISS;
        unlink(path); // a symbolic link where an entry belongs
        return CACHE_BAD_ENTRY;
    }
    enum cache_lookup outcome = CACHE_BAD_ENTRY;
    struct stat st;
    uint8_t *data = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || file_distrust(&st) ||
        (uint64_t)st.st_size > CACHE_ENTRY_MAX_BYTES)
        goto done;
    data = malloc(st.st_size ? (size_t)st.st_size : 1);
    if (!data) {
        outcome = CACHE_MISS;
        goto done;
    }
    if (read_all(fd, data, (size_t)st.st_size) != 0)
        goto done;
    if (cache_entry_parse(data, (size_t)st.st_size, key, payload, payload_size, NULL, NULL) !=
        CACHE_ENTRY_OK)
        goto done;
    futimens(fd, NULL); // last use, for eviction; fails harmlessly on a read-only directory
    outcome = CACHE_HIT;
    *entry = data;
    data = NULL;
done:
    close(fd);
    free(data);
    if (outcome == CACHE_BAD_ENTRY)
        unlink(path);
    return outcome;
}

void cache_discard(const struct cache *cache, const char *key)
{
    char path[4096 + 128];
    if (cache->enabled && entry_path(cache, key, path, sizeof path) == 0)
        unlink(path);
}

struct entry_use {
    char name[256];
    uint64_t bytes;
    struct timespec used;
};

static int older_first(const void *a, const void *b)
{
    const struct timespec *x = &((const struct entry_use *)a)->used;
    const struct timespec *y = &((const struct entry_use *)b)->used;
    if (x->tv_sec != y->tv_sec)
        return x->tv_sec < y->tv_sec ? -1 : 1;
    return (x->tv_nsec > y->tv_nsec) - (x->tv_nsec < y->tv_nsec);
}

// Removes least recently used entries until the directory fits the cap,
// never the entry just written (`keep`).
static unsigned evict(const struct cache *cache, const char *keep)
{
    DIR *listing = opendir(cache->dir);
    if (!listing)
        return 0;
    struct entry_use *uses = NULL;
    size_t count = 0, capacity = 0;
    uint64_t total = 0;
    for (struct dirent *e; (e = readdir(listing));) {
        struct stat st;
        if (!cache_is_entry_name(e->d_name) ||
            fstatat(dirfd(listing), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
            continue;
        total += (uint64_t)st.st_size;
        if (count == capacity) {
            size_t grown = capacity ? 2 * capacity : 64;
            struct entry_use *bigger = realloc(uses, grown * sizeof *uses);
            if (!bigger)
                break;
            uses = bigger;
            capacity = grown;
        }
        snprintf(uses[count].name, sizeof uses[count].name, "%s", e->d_name);
        uses[count].bytes = (uint64_t)st.st_size;
        uses[count].used = st.st_mtim;
        ++count;
    }
    unsigned evicted = 0;
    if (total > cache->max_bytes) {
        qsort(uses, count, sizeof *uses, older_first);
        for (size_t i = 0; i < count && total > cache->max_bytes; ++i) {
            if (strcmp(uses[i].name, keep) == 0)
                continue;
            if (unlinkat(dirfd(listing), uses[i].name, 0) == 0) {
                total -= uses[i].bytes;
                ++evicted;
            }
        }
    }
    closedir(listing);
    free(uses);
    return evicted;
}

// Writing past RLIMIT_FSIZE raises SIGXFSZ, which kills the process by
// default; an entry that would not fit is not written at all.
static int fits_file_size_limit(uint64_t bytes)
{
    struct rlimit limit;
    return getrlimit(RLIMIT_FSIZE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY ||
           bytes <= (uint64_t)limit.rlim_cur;
}

int cache_store(const struct cache *cache, const char *key, const void *payload, size_t size,
                unsigned *evicted)
{
    static atomic_uint serial;
    *evicted = 0;
    char final_path[4096 + 128], temp_path[4096 + 128];
    size_t key_length = strlen(key);
    if (!cache->enabled || entry_path(cache, key, final_path, sizeof final_path) != 0 ||
        !fits_file_size_limit(CACHE_ENTRY_HEADER_BYTES + key_length + (uint64_t)size))
        return -1;
    const char *final_name = strrchr(final_path, '/') + 1;
    int length = snprintf(temp_path, sizeof temp_path, "%s/%s%.16s-%ld-%u", cache->dir,
                          CACHE_TEMP_PREFIX, final_name, (long)getpid(),
                          atomic_fetch_add(&serial, 1));
    if (length < 0 || (size_t)length >= sizeof temp_path)
        return -1;
    int fd = open(temp_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    uint8_t header[CACHE_ENTRY_HEADER_BYTES];
    cache_entry_header(key, key_length, payload, size, header);
    int failed = write_all(fd, header, sizeof header) != 0 || write_all(fd, key, key_length) != 0 ||
                 write_all(fd, payload, size) != 0 || fdatasync(fd) != 0;
    failed |= close(fd) != 0;
    if (failed || rename(temp_path, final_path) != 0) {
        unlink(temp_path);
        return -1;
    }
    *evicted = evict(cache, final_name);
    return 0;
}
