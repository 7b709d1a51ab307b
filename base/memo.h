/*
 * memo.h - results kept by the bytes of their inputs, for a caller that
 * asks the same pure question many times (the planner's layout search runs
 * one pipeline schedule for each layout that shares it: sim/pp.c).
 *
 * A memo maps a key (bytes) to a value (bytes), both copied in.  A lookup
 * compares the whole key, so a hit returns exactly what the computation
 * gave for those inputs and a run with a memo prints what a run without
 * one does.  It holds at most the bytes it was made with; past them it
 * keeps what it has and takes no more.  Not for use from two threads.
 */
#ifndef DT_MEMO_H
#define DT_MEMO_H

#include <stddef.h>

struct memo;

/* A memo of at most max_bytes of keys and values (its own bookkeeping
 * besides). */
struct memo *memo_new(size_t max_bytes);
void memo_free(struct memo *m);

/* The value stored under the klen bytes at key (*vlen its length), or NULL;
 * its bytes are not aligned for any type: copy them out.  m may be NULL: no
 * memo, nothing found. */
const void *memo_get(struct memo *m, const void *key, size_t klen, size_t *vlen);

/* Store a copy of value under a copy of key; a key already there keeps its
 * value.  m may be NULL (nothing kept). */
void memo_put(struct memo *m, const void *key, size_t klen, const void *value, size_t vlen);

/* Lookups that found their key, and entries held (a test's view). */
void memo_stats(const struct memo *m, long *hits, long *entries);

#endif
