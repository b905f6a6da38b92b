#include "file_io.h"

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

int read_all(int fd, void *buffer, size_t size)
{
    uint8_t *bytes = buffer;
    size_t done = 0;
    while (done < size) {
        ssize_t got = read(fd, bytes + done, size - done);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        done += (size_t)got;
    }
    return 0;
}

int write_all(int fd, const void *data, size_t size)
{
    const uint8_t *bytes = data;
    while (size > 0) {
        ssize_t put = write(fd, bytes, size);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0)
            return errno = put == 0 ? EIO : errno, -1;
        bytes += put;
        size -= (size_t)put;
    }
    return 0;
}

const char *file_distrust(const struct stat *st)
{
    if (st->st_uid != geteuid())
        return "owned by another user";
    if (st->st_mode & (S_IWGRP | S_IWOTH))
        return "writable by group or others";
    return NULL;
}
