/*
 * files.h - whether an input path names a file that can be read, checked
 * where the path was given, so that the error names that place (a CSV row,
 * a scenario's line) rather than only the path; and an input file read
 * whole, up to a cap on its size.
 */
#ifndef DT_FILES_H
#define DT_FILES_H

#include <stddef.h>
#include <stdio.h>

#include "xmem.h"

/* The most bytes an input file may hold: a scenario (a few KiB) or a
 * catalog table (SkyPilot's largest vms.csv is a few MiB). */
#define FILE_MAX_BYTES ((size_t)16 << 20)

/* NULL when path is a regular file this process can open for reading; else
 * why not ("No such file or directory", "is a directory", "is not a regular
 * file", ...), a string that stays valid until the next call. */
const char *file_problem(const char *path);

/*
 * Open an input file for reading without waiting on it: a FIFO nobody
 * writes to would block open(2), so the file is opened non-blocking and
 * then read as usual (such a FIFO reads as empty).  A directory is refused.
 * NULL with e->msg "PATH: cannot open: REASON" on failure.
 */
FILE *file_open_read(const char *path, struct dt_err *e);

/*
 * The whole of the open stream f, at most max bytes, into a new buffer
 * *buf (NUL-terminated, the caller frees it) of *len bytes; name is what
 * messages call it.  0 when read.  Else -1, *buf NULL, and e says why in
 * one line: "NAME: N bytes, expected at most MAX" for a regular file over
 * the cap (known from its size, before anything is read), "NAME: more than
 * MAX bytes, expected at most MAX" for a stream that runs past it, "NAME:
 * cannot read: REASON".  O(min(size, max)) time and memory.
 */
int file_read_all(FILE *f, const char *name, size_t max, char **buf, size_t *len,
                  struct dt_err *e);

#endif
