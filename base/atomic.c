/*
 * atomic.c - all-or-nothing file writes: write PATH.tmp.PID.SEQ, fsync,
 * rename.
 *
 * rename(2) within one directory replaces PATH in one step, so a reader (or a
 * crash) sees either the previous file or the complete new one.  The
 * directory is fsynced afterwards so that the rename itself survives a power
 * loss; a file system that cannot fsync a directory is not an error.
 *
 * A PATH that exists and is not a regular file (/dev/null, a FIFO) cannot be
 * replaced by rename; it is opened and written directly, and *tmp is NULL.
 * A symbolic link is followed to the file it names (atomic_target), which
 * is the one replaced; the temporary's name is that file's name plus the
 * suffix, so publishing finds its destination from the temporary alone.
 */
#include "atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define ATOMIC_TMP_MARK ".tmp."
#define ATOMIC_MAX_LINKS 40     /* symbolic links followed, as the kernel's ELOOP limit */

/* Temporaries made by this process so far: their sequence numbers. */
static unsigned atomic_seq;

/* A copy of the directory part of path ("." when it has none). */
static char *atomic_dirname(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir;

    if (!slash)
        return x_strdup(".");
    if (slash == path)
        return x_strdup("/");
    dir = x_malloc((size_t)(slash - path) + 1);
    memcpy(dir, path, (size_t)(slash - path));
    dir[slash - path] = '\0';
    return dir;
}

/*
 * The file path names once symbolic links in its last part are followed
 * (a dangling link names the file it would create), as a string the caller
 * frees.  A loop of links stops after ATOMIC_MAX_LINKS and returns the last
 * name reached; opening it then fails with the system's reason.
 */
static char *atomic_target(const char *path)
{
    char *cur = x_strdup(path);
    struct stat st;

    for (int hop = 0; hop < ATOMIC_MAX_LINKS; hop++) {
        char link[PATH_MAX];
        ssize_t n;
        char *next, *dir;
        size_t len;

        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            break;
        n = readlink(cur, link, sizeof link - 1);
        if (n <= 0)
            break;
        link[n] = '\0';
        if (link[0] == '/') {
            next = x_strdup(link);
        } else {
            dir = atomic_dirname(cur);
            len = strlen(dir) + (size_t)n + 2;
            next = x_malloc(len);
            snprintf(next, len, "%s/%s", dir, link);
            x_free(dir);
        }
        x_free(cur);
        cur = next;
    }
    return cur;
}

/* The last part of path ("" when it ends with a slash). */
static const char *atomic_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Two names of files that need not exist name one file: the same last part
 * in one directory (its device and inode), links followed. */
static int atomic_same_name(const char *a, const char *b)
{
    char *ta = atomic_target(a), *tb = atomic_target(b);
    char *da = atomic_dirname(ta), *db = atomic_dirname(tb);
    struct stat sa, sb;
    int same;

    same = strcmp(atomic_basename(ta), atomic_basename(tb)) == 0;
    if (same && stat(da, &sa) == 0 && stat(db, &sb) == 0)
        same = sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    else if (same)
        same = strcmp(da, db) == 0;
    x_free(da);
    x_free(db);
    x_free(ta);
    x_free(tb);
    return same;
}

/* st is the null device: any number of outputs may go there. */
static int atomic_is_null(const struct stat *st)
{
    struct stat null;
    return S_ISCHR(st->st_mode) && stat("/dev/null", &null) == 0 && st->st_rdev == null.st_rdev;
}

int atomic_same_file(const char *a, const char *b)
{
    struct stat sa, sb;

    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino && !atomic_is_null(&sa);
    return atomic_same_name(a, b);
}

int atomic_is_stdout(const char *path)
{
    struct stat so, sp;

    return fstat(STDOUT_FILENO, &so) == 0 && stat(path, &sp) == 0 && so.st_dev == sp.st_dev &&
           so.st_ino == sp.st_ino && !atomic_is_null(&sp);
}

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
    char *target = atomic_target(path);
    int have_old = stat(target, &st) == 0;
    FILE *f = NULL;
    char *name = NULL;
    int fd;

    *tmp = NULL;
    if (have_old && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) {
            dt_errf(e, "%s: is a directory", path);
            goto out;
        }
        fd = open(target, O_WRONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd >= 0)    /* a FIFO with no reader refused at open; then write blocking */
            (void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        if (fd < 0 || !(f = atomic_fdopen(fd)))
            dt_errf(e, "%s: cannot open for writing: %s", path, strerror(errno));
        goto out;
    }

    size_t n = strlen(target) + 48;
    name = x_malloc(n);
    snprintf(name, n, "%s" ATOMIC_TMP_MARK "%ld.%u", target, (long)getpid(), atomic_seq++);
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
    x_free(target);
    return f;
}

/* fsync the directory that holds path; best effort. */
static void atomic_sync_dir(const char *path)
{
    char *dir = atomic_dirname(path);
    int fd;

    fd = open(dir, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    x_free(dir);
}

int atomic_write_finish(FILE *f, char *tmp, const char *path, struct dt_err *e)
{
    int err = 0;

    errno = 0;
    if (fflush(f) != 0 || ferror(f))
        err = errno ? errno : EIO;
    if (!err && tmp && fsync(fileno(f)) != 0)
        err = errno;
    if (fclose(f) != 0 && !err)
        err = errno ? errno : EIO;
    if (!err)
        return 0;
    dt_errf(e, "%s: write failed: %s", path, strerror(err));
    atomic_write_discard(tmp);
    return -1;
}

int atomic_write_publish(char *tmp, const char *path, struct dt_err *e)
{
    char *dest, *mark;
    int rc = 0;

    if (!tmp)
        return 0;
    dest = x_strdup(tmp);
    mark = dest;
    for (char *m = strstr(dest, ATOMIC_TMP_MARK); m; m = strstr(m + 1, ATOMIC_TMP_MARK))
        mark = m;
    *mark = '\0';        /* the name the temporary was made for (atomic_write_open) */
    if (rename(tmp, dest) != 0) {
        rc = dt_errf(e, "%s: cannot replace: %s", path, strerror(errno));
        unlink(tmp);
    } else {
        atomic_sync_dir(dest);
    }
    x_free(dest);
    x_free(tmp);
    return rc;
}

void atomic_write_discard(char *tmp)
{
    if (tmp)
        unlink(tmp);
    x_free(tmp);
}

int atomic_write_commit(FILE *f, char *tmp, const char *path, struct dt_err *e)
{
    if (atomic_write_finish(f, tmp, path, e) != 0)
        return -1;
    return atomic_write_publish(tmp, path, e);
}

void atomic_write_abort(FILE *f, char *tmp)
{
    if (f)
        fclose(f);
    atomic_write_discard(tmp);
}
