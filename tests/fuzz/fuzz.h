/*
 * fuzz.h - what the fuzz targets of tests/fuzz/ share (fuzz.c): a scratch
 * file per process for loaders that read paths, and the promises every
 * target checks on what the code under test hands back.
 *
 * A broken promise aborts, which libFuzzer reports as a crash and the
 * replay driver (replay.c) as a failed input.
 */
#ifndef DT_FUZZ_H
#define DT_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* libFuzzer's entry points, defined by each target. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The path of file `name` in a directory of this process under $TMPDIR
 * (or /tmp), removed at exit; the same path on every call with the same
 * slot (0 to 3). */
const char *fuzz_scratch(int slot, const char *name);

/* The whole file at path, a heap buffer the caller frees, its length in *n;
 * NULL when it cannot be opened. */
char *fuzz_read(const char *path, size_t *n);

/* Replace the file at path by data[0..n).  Aborts when it cannot. */
void fuzz_write(const char *path, const void *data, size_t n);

/* The promise of an error message: non-empty, one printable line of UTF-8
 * (base/text.h).  Aborts, printing what was wrong, when it is broken. */
void fuzz_check_msg(const char *what, const char *msg);

/* The promise of a report: valid UTF-8, with no control character other
 * than line feed and tab.  Aborts when it is broken. */
void fuzz_check_report(const char *what, const char *text, size_t n);

/* An in-memory stream, its text checked by fuzz_check_report when closed. */
FILE *fuzz_open_report(char **buf, size_t *len);
void fuzz_close_report(const char *what, FILE *f, char **buf, size_t *len);

/* What a simulation of a fuzzed scenario may cost: runs of the planner are
 * capped at these steps, so that one input takes milliseconds. */
#define FUZZ_MAX_STEPS 6
#define FUZZ_MAX_WARMUP 1
#define FUZZ_MAX_CLUSTERS 3     /* clusters planned of an input's (the loader sees them all) */

#endif
