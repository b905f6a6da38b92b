// What the on-disk stores (the binary cache, tuning records) share: whole
// reads and writes that survive EINTR and short transfers, and the rule
// that decides whether a file or directory can be trusted.
#ifndef TAILOR_FILE_IO_H
#define TAILOR_FILE_IO_H

#include <stddef.h>
#include <sys/stat.h>

// 0 once `size` bytes are read; -1 on an error or an early end of file.
int read_all(int fd, void *buffer, size_t size);

// 0 once `size` bytes are written; -1 (errno set, EIO for a write of
// nothing) otherwise.
int write_all(int fd, const void *data, size_t size);

// Why a file or directory cannot be trusted with code or tuning values
// ("owned by another user", "writable by group or others"), or NULL.
const char *file_distrust(const struct stat *st);

#endif
