/*
 * lockfile.c - an advisory lock on PATH.lock with flock(2) (lockfile.h).
 *
 * Taking it costs an open, a flock, an fstat and a stat; a taker that loses
 * the race with a release (it locked a file just removed) tries again, at
 * most LOCKFILE_TRIES times.
 */
#include "lockfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOCKFILE_TRIES 100

/* The pid written in the lock file open on fd, 0 if none can be read. */
static long lockfile_holder(int fd)
{
    char buf[32];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    char *end;
    long pid;

    if (n <= 0)
        return 0;
    buf[n] = '\0';
    pid = strtol(buf, &end, 10);
    return end != buf && (*end == '\n' || !*end) && pid > 0 ? pid : 0;
}

/* 1 when fd is the file path names now (not one removed since it was opened). */
static int lockfile_current(int fd, const char *path)
{
    struct stat a, b;

    return fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

int lockfile_take(const char *path, int *fd_out, long *holder, struct dt_err *e)
{
    char pid[32];
    int fd = -1, n, rc = -1;

    *fd_out = -1;
    *holder = 0;
    for (int tries = 0; tries < LOCKFILE_TRIES; tries++) {
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
        if (fd < 0) {
            dt_errf(e, "%s: cannot create: %s", path, strerror(errno));
            goto out;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            if (errno == EWOULDBLOCK) {
                *holder = lockfile_holder(fd);
                rc = LOCKFILE_HELD;
            } else {
                dt_errf(e, "%s: cannot lock: %s", path, strerror(errno));
            }
            goto out_close;
        }
        if (lockfile_current(fd, path))
            break;
        close(fd); /* released and removed as we opened it: lock the new file */
        fd = -1;
    }
    if (fd < 0) {
        dt_errf(e, "%s: cannot lock: the file was replaced %d times", path, LOCKFILE_TRIES);
        goto out;
    }
    n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
        dt_errf(e, "%s: write failed: %s", path, strerror(errno));
        unlink(path);
        goto out_close;
    }
    *fd_out = fd;
    rc = 0;
    goto out;

out_close:
    close(fd);
out:
    return rc;
}

void lockfile_release(const char *path, int fd)
{
    if (fd < 0)
        return;
    unlink(path);
    close(fd);
}
