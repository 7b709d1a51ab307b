/*
 * atomic.h - write a file so that readers see either the old file or the
 * complete new one, never a partial write.
 *
 * atomic_write_open() creates PATH.tmp.PID.SEQ next to PATH (same
 * directory, so the final rename stays on one file system; SEQ counts the
 * temporaries of this process, so two outputs never share one) and returns a
 * stream on it.  atomic_write_commit() flushes, fsyncs, closes and renames
 * the temporary over PATH, then fsyncs the directory; atomic_write_abort()
 * closes and removes the temporary.  Exactly one of the two must follow a
 * successful open; both free *tmp.  If the process is killed between open
 * and commit the temporary may remain; PATH itself is never partial.
 *
 * Several files all or nothing: atomic_write_finish() each (flush, fsync,
 * close: every write error shows here), and only when all succeeded
 * atomic_write_publish() each (the renames); atomic_write_discard() removes
 * a finished temporary that is not to be published.
 *
 * A PATH that is a symbolic link is written through: the temporary is made
 * beside the file the link names and renamed over it, so the link stays.
 * A PATH that exists and is not a regular file (/dev/null, /dev/full, a FIFO)
 * cannot be replaced by rename: it is opened and written directly, *tmp is
 * NULL, and publishing it does nothing.
 *
 * Used by the front end for `dtplan -o FILE` (and by anything else that
 * writes results, such as calibration profiles).  Never prints.
 */
#ifndef DT_ATOMIC_H
#define DT_ATOMIC_H

#include <stdio.h>

#include "xmem.h"

/*
 * Create PATH.tmp.PID (exclusive, mode 0666 less the umask) and return a
 * stream on it.  *tmp receives the temporary's name (owned by the caller
 * until commit or abort frees it).  Returns NULL with e->msg set and *tmp
 * NULL on failure.
 */
FILE *atomic_write_open(const char *path, char **tmp, struct dt_err *e);

/*
 * Flush, fsync and close f, then rename tmp over path and fsync the
 * directory.  Returns 0, or -1 with e->msg set after removing tmp.  Frees tmp
 * and closes f in both cases.
 */
int atomic_write_commit(FILE *f, char *tmp, const char *path, struct dt_err *e);

/* Close f and remove tmp; frees tmp.  NULL arguments are ignored. */
void atomic_write_abort(FILE *f, char *tmp);

/*
 * Flush, fsync and close f (path names it in messages).  Returns 0 with tmp
 * still owned by the caller, for atomic_write_publish() or
 * atomic_write_discard(); or -1 with e->msg "PATH: write failed: REASON",
 * tmp removed and freed.
 */
int atomic_write_finish(FILE *f, char *tmp, const char *path, struct dt_err *e);

/* Rename a finished tmp over the file it was made for and fsync the
 * directory.  Returns 0, or -1 with e->msg set and tmp removed; frees tmp.
 * A NULL tmp (a file written directly) is 0. */
int atomic_write_publish(char *tmp, const char *path, struct dt_err *e);

/* Remove a finished tmp and free it; NULL is ignored. */
void atomic_write_discard(char *tmp);

/*
 * Whether two output paths name one file: the same existing file (device
 * and inode, through links), or the same name in the same directory once
 * symbolic links are followed.  1 yes, 0 no.  Two /dev/null are not one
 * output (writes there go nowhere).
 */
int atomic_same_file(const char *a, const char *b);

/* Whether path names the file (or device, pipe) standard output writes to. */
int atomic_is_stdout(const char *path);

#endif
