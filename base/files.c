/*
 * files.c - is an input path a readable regular file, and an input file
 * read whole up to its cap (files.h).
 */
#include "files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *file_problem(const char *path)
{
    struct stat st;
    FILE *f;

    if (stat(path, &st) != 0)
        return strerror(errno);
    if (S_ISDIR(st.st_mode))
        return "is a directory";
    if (!S_ISREG(st.st_mode))
        return "is not a regular file";
    if (!(f = fopen(path, "rb")))
        return strerror(errno);
    fclose(f);
    return NULL;
}

FILE *file_open_read(const char *path, struct dt_err *e)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    FILE *f;

    if (fd < 0) {
        dt_errf(e, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(fd);
        dt_errf(e, "%s: cannot open: is a directory", path);
        return NULL;
    }
    (void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    if (!(f = fdopen(fd, "rb"))) {
        dt_errf(e, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}

int file_read_all(FILE *f, const char *name, size_t max, char **buf, size_t *len,
                  struct dt_err *e)
{
    struct stat st;
    size_t cap = 4096, n = 0, got;
    char *b;

    *buf = NULL;
    *len = 0;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (unsigned long long)st.st_size > max)
        return dt_errf(e, "%s: %llu bytes, expected at most %zu", name,
                       (unsigned long long)st.st_size, max);
    b = x_malloc(cap);
    for (;;) {
        if (n + 1 >= cap) {
            cap = cap < max ? 2 * cap : max + 2;   /* room for max + 1 bytes and the NUL */
            b = x_realloc(b, cap);
        }
        got = fread(b + n, 1, cap - 1 - n, f);
        n += got;
        if (n > max) {
            x_free(b);
            return dt_errf(e, "%s: more than %zu bytes, expected at most %zu", name, max, max);
        }
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        x_free(b);
        return dt_errf(e, "%s: cannot read: %s", name, strerror(errno));
    }
    b[n] = '\0';
    *buf = b;
    *len = n;
    return 0;
}
