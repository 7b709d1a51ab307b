/*
 * names.h - closed sets of names (strategies, roles, precisions, ...).
 *
 * Each set is defined once, by the module that owns it, as a name function:
 * NAME(i) is the i-th name, NULL past the end (and for i < 0).  Parsing,
 * listing the choices in a message and checking a value all go through that
 * one function, so a set is never spelled twice.
 */
#ifndef DT_NAMES_H
#define DT_NAMES_H

#include <stddef.h>

/* The i-th entry of a NULL-terminated array, NULL when out of range. */
#define NAMES_AT(arr, i) \
    ((i) >= 0 && (size_t)(i) < sizeof(arr) / sizeof *(arr) - 1 ? (arr)[(i)] : NULL)

/* Index of s in the set, or -1. */
int names_parse(const char *(*name)(int), const char *s);

/*
 * The entry named `name` among n entries of size `stride` starting at base,
 * each holding its name as a NUL-terminated char array at offset name_off
 * (offsetof(struct x, name)); NULL when none.  O(n).
 */
const void *names_find(const void *base, int n, size_t stride, size_t name_off,
                       const char *name);

/* "a, b, c" into buf[cap] (cut when it does not fit). */
void names_join(const char *(*name)(int), char *buf, size_t cap);

#endif
