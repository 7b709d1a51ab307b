/*
 * atomic.h - write a file so that readers see either the old file or the
 * complete new one, never a partial write.
 *
 * atomic_write_open() creates PATH.tmp.PID next to PATH (same directory, so
 * the final rename stays on one file system) and returns a stream on it.
 * atomic_write_commit() flushes, fsyncs, closes and renames the temporary
 * over PATH, then fsyncs the directory; atomic_write_abort() closes and
 * removes the temporary.  Exactly one of the two must follow a successful
 * open; both free *tmp.  If the process is killed between open and commit
 * the temporary may remain; PATH itself is never partial.
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

#endif
