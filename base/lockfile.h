/*
 * lockfile.h - one writer per output path: an advisory lock on PATH.lock.
 *
 * lockfile_take() creates PATH.lock (if absent), takes flock(2)'s exclusive
 * lock on it without waiting and writes the process id in it, so that a
 * second writer can name the first.  The lock belongs to the open file: it
 * ends when the process does, however it ends, so a file left by a killed
 * process never blocks a later one (the next taker locks it again and
 * writes its own pid).  lockfile_release() removes the file while still
 * holding the lock, then closes it; a taker that opened the old file just
 * before the removal finds, once locked, that the path no longer names its
 * file and starts over on the new one.  The descriptor is close-on-exec, so
 * commands the holder runs do not keep the lock alive after it.
 *
 * Advisory: only writers that take the lock are kept apart.  Never prints.
 */
#ifndef DT_LOCKFILE_H
#define DT_LOCKFILE_H

#include "xmem.h"

enum { LOCKFILE_HELD = 1 };

/*
 * Lock `path` (the lock file itself, e.g. "PROFILE.json.lock").  Returns 0
 * with *fd the descriptor to keep until lockfile_release(); LOCKFILE_HELD
 * when another process holds it, with *holder its pid as the file says (0
 * when it has not written one yet); -1 with e->msg set when the file
 * cannot be created, locked or written.
 */
int lockfile_take(const char *path, int *fd, long *holder, struct dt_err *e);

/* Remove `path` and release the lock held on fd; fd < 0 does nothing. */
void lockfile_release(const char *path, int fd);

#endif
