/*
 * atomic.c - all-or-nothing file writes: write PATH.tmp.PID, fsync, rename.
 *
 * rename(2) within one directory replaces PATH in one step, so a reader (or a
 * crash) sees either the previous file or the complete new one.  The
 * directory is fsynced afterwards so that the rename itself survives a power
 * loss; a file system that cannot fsync a directory is not an error.
 *
 * A PATH that exists and is not a regular file (/dev/null, a FIFO) cannot be
 * replaced by rename; it is opened and written directly, and *tmp is NULL.
 */
#include "atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* Open a stream on fd, closing fd if that fails. */
static FILE *atomic_fdopen(int fd)
{
    FILE *f = fdopen(fd, "w");
    if (!f) {
        int err = errno;
        close(fd);
        errno = err;
    }
    return f;
}

FILE *atomic_write_open(const char *path, char **tmp, struct dt_err *e)
{
    struct stat st;
    int have_old = stat(path, &st) == 0;
    FILE *f = NULL;
    char *name = NULL;
    int fd;

    *tmp = NULL;
    if (have_old && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) {
            dt_errf(e, "%s: is a directory", path);
            goto out;
        }
        fd = open(path, O_WRONLY | O_CLOEXEC);
        if (fd < 0 || !(f = atomic_fdopen(fd)))
            dt_errf(e, "%s: cannot open for writing: %s", path, strerror(errno));
        goto out;
    }

    size_t n = strlen(path) + 32;
    name = x_malloc(n);
    snprintf(name, n, "%s.tmp.%ld", path, (long)getpid());
    fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno == EEXIST) {
        /* Left by an earlier process with our pid that was killed. */
        unlink(name);
        fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    }
    if (fd < 0) {
        dt_errf(e, "%s: cannot create: %s", path, strerror(errno));
        goto out_name;
    }
    if (have_old)
        (void)fchmod(fd, st.st_mode & 07777); /* keep the old file's permissions */
    f = atomic_fdopen(fd);
    if (!f) {
        dt_errf(e, "%s: cannot create: %s", path, strerror(errno));
        unlink(name);
        goto out_name;
    }
    *tmp = name;
    goto out;

out_name:
    x_free(name);
out:
    return f;
}

/* fsync the directory that holds path; best effort. */
static void atomic_sync_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir;
    int fd;

    if (!slash)
        dir = x_strdup(".");
    else if (slash == path)
        dir = x_strdup("/");
    else {
        size_t n = (size_t)(slash - path);
        dir = x_malloc(n + 1);
        memcpy(dir, path, n);
        dir[n] = '\0';
    }
    fd = open(dir, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    x_free(dir);
}

int atomic_write_commit(FILE *f, char *tmp, const char *path, struct dt_err *e)
{
    int rc = -1;
    int err = 0;

    errno = 0;
    if (fflush(f) != 0 || ferror(f))
        err = errno ? errno : EIO;
    if (!err && tmp && fsync(fileno(f)) != 0)
        err = errno;
    if (fclose(f) != 0 && !err)
        err = errno ? errno : EIO;
    if (err) {
        dt_errf(e, "%s: write failed: %s", path, strerror(err));
        goto out_unlink;
    }
    if (!tmp) {
        rc = 0;
        goto out;
    }
    if (rename(tmp, path) != 0) {
        dt_errf(e, "%s: cannot replace: %s", path, strerror(errno));
        goto out_unlink;
    }
    atomic_sync_dir(path);
    rc = 0;
    goto out;

out_unlink:
    if (tmp)
        unlink(tmp);
out:
    x_free(tmp);
    return rc;
}

void atomic_write_abort(FILE *f, char *tmp)
{
    if (f)
        fclose(f);
    if (tmp)
        unlink(tmp);
    x_free(tmp);
}
