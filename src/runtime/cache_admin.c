// The public cache commands (`tailor cache path|list|clear`), on the
// directory the default settings resolve to or on the one a handle uses.
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "context.h"
#include "cache_entry.h"
#include "error.h"
#include "settings.h"

tailor_status tailor_cache_directory(char *buffer, size_t size)
{
    error_clear();
    REQUIRE(buffer && size > 0, TAILOR_ERROR_INVALID_ARGUMENT, "buffer is NULL or empty");
    REQUIRE(settings_cache_directory(NULL, buffer, size) == 0, TAILOR_ERROR_INVALID_ARGUMENT,
            "no cache directory can be resolved (no TAILOR_CACHE_DIR, XDG_CACHE_HOME or HOME), or it "
            "does not fit in %zu bytes",
            size);
    return TAILOR_SUCCESS;
}

// The key of an entry file as a string, or NULL if the file is not a valid entry.
static char *read_entry_key(int dir_fd, const char *name)
{
    int fd = openat(dir_fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    char *key = NULL;
    uint8_t *data = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && st.st_size < (1 << 30) &&
        (data = malloc((size_t)st.st_size)) && read(fd, data, (size_t)st.st_size) == st.st_size) {
        const char *stored;
        size_t length;
        if (cache_entry_parse(data, (size_t)st.st_size, NULL, NULL, NULL, &stored, &length) ==
                CACHE_ENTRY_OK &&
            (key = malloc(length + 1))) {
            memcpy(key, stored, length);
            key[length] = '\0';
        }
    }
    free(data);
    close(fd);
    return key;
}

static void list_directory(const char *dir,
                           void (*visit)(const tailor_cache_entry_info *entry, void *user), void *user)
{
    DIR *listing = opendir(dir);
    if (!listing)
        return; // no directory: no entries
    for (struct dirent *e; (e = readdir(listing));) {
        struct stat st;
        if (!cache_is_entry_name(e->d_name) ||
            fstatat(dirfd(listing), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        char *key = read_entry_key(dirfd(listing), e->d_name);
        tailor_cache_entry_info info = {
            .file_name = e->d_name,
            .bytes = (uint64_t)st.st_size,
            .last_used_unix = (int64_t)st.st_mtime,
            .key = key ? key : "",
        };
        visit(&info, user);
        free(key);
    }
    closedir(listing);
}

// Removes the entries and temporary files of `dir`; returns how many went.
static size_t clear_directory(const char *dir)
{
    size_t count = 0;
    DIR *listing = opendir(dir);
    if (!listing)
        return 0;
    for (struct dirent *e; (e = readdir(listing));)
        if ((cache_is_entry_name(e->d_name) || cache_is_temp_name(e->d_name)) &&
            unlinkat(dirfd(listing), e->d_name, 0) == 0)
            ++count;
    closedir(listing);
    return count;
}

tailor_status tailor_cache_list(void (*visit)(const tailor_cache_entry_info *entry, void *user),
                                void *user)
{
    char dir[4096];
    tailor_status status = tailor_cache_directory(dir, sizeof dir);
    if (status != TAILOR_SUCCESS)
        return status;
    REQUIRE(visit, TAILOR_ERROR_INVALID_ARGUMENT, "visit is NULL");
    list_directory(dir, visit, user);
    return TAILOR_SUCCESS;
}

tailor_status tailor_cache_clear(size_t *removed)
{
    char dir[4096];
    tailor_status status = tailor_cache_directory(dir, sizeof dir);
    if (status != TAILOR_SUCCESS)
        return status;
    size_t count = clear_directory(dir);
    if (removed)
        *removed = count;
    return TAILOR_SUCCESS;
}

tailor_status tailor_context_cache_list(const tailor_context *ctx,
                                        void (*visit)(const tailor_cache_entry_info *entry,
                                                      void *user),
                                        void *user)
{
    error_clear();
    REQUIRE(ctx, TAILOR_ERROR_NULL_HANDLE, "the tailor handle is NULL");
    REQUIRE(visit, TAILOR_ERROR_INVALID_ARGUMENT, "visit is NULL");
    if (ctx->cache.enabled)
        list_directory(ctx->cache.dir, visit, user);
    return TAILOR_SUCCESS;
}

tailor_status tailor_context_cache_clear(const tailor_context *ctx, size_t *removed)
{
    error_clear();
    REQUIRE(ctx, TAILOR_ERROR_NULL_HANDLE, "the tailor handle is NULL");
    size_t count = ctx->cache.enabled ? clear_directory(ctx->cache.dir) : 0;
    if (removed)
        *removed = count;
    return TAILOR_SUCCESS;
}
