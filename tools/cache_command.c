// `tailor cache path|list|clear`.
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "tailor.h"

static void print_entry(const tailor_cache_entry_info *entry, void *user)
{
    int *count = user;
    ++*count;
    char when[32] = "?";
    time_t used = (time_t)entry->last_used_unix;
    struct tm local;
    if (localtime_r(&used, &local))
        strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &local);
    // The key's "program" and "device" lines say what the entry is.
    const char *program = strstr(entry->key, "program ");
    const char *device = strstr(entry->key, "\ndevice ");
    printf("%s %10llu bytes  last used %s  %.*s  %.*s\n", entry->file_name,
           (unsigned long long)entry->bytes, when,
           program ? (int)strcspn(program + 8, "\n") : 9, program ? program + 8 : "(invalid)",
           device ? (int)strcspn(device + 8, "\n") : 0, device ? device + 8 : "");
}

int command_cache(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: tailor cache path|list|clear\n");
        return 2;
    }
    tailor_status status;
    if (strcmp(argv[1], "path") == 0) {
        char dir[4096];
        status = tailor_cache_directory(dir, sizeof dir);
        if (status == TAILOR_SUCCESS)
            printf("%s\n", dir);
    } else if (strcmp(argv[1], "list") == 0) {
        int count = 0;
        status = tailor_cache_list(print_entry, &count);
        if (status == TAILOR_SUCCESS)
            printf("%d entr%s\n", count, count == 1 ? "y" : "ies");
    } else if (strcmp(argv[1], "clear") == 0) {
        size_t removed = 0;
        status = tailor_cache_clear(&removed);
        if (status == TAILOR_SUCCESS)
            printf("removed %zu file%s\n", removed, removed == 1 ? "" : "s");
    } else {
        fprintf(stderr, "usage: tailor cache path|list|clear\n");
        return 2;
    }
    if (status != TAILOR_SUCCESS) {
        fprintf(stderr, "tailor cache %s: %s\n", argv[1], tailor_last_error());
        return 1;
    }
    return 0;
}
