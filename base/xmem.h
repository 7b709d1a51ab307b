/*
 * xmem.h - allocation wrappers and the error record shared by every module.
 *
 * All heap memory in dtplan goes through x_malloc/x_calloc/x_realloc/x_strdup.
 * On failure they print the requested size and abort: there is no useful
 * recovery from out-of-memory in a planning tool.  x_free(NULL) is a no-op.
 *
 * Library code never prints: it fills a caller-owned struct dt_err and returns
 * a non-zero status.  Only main() prints the message and picks the exit code.
 */
#ifndef DT_XMEM_H
#define DT_XMEM_H

#include <stddef.h>

void *x_malloc(size_t n);
void *x_calloc(size_t count, size_t size);
void *x_realloc(void *p, size_t n);
char *x_strdup(const char *s);
void x_free(void *p);

/* Error record filled by library code; msg is one line without newline. */
struct dt_err {
    char msg[1024];
};

/* printf-style; returns -1 so callers can write `return dt_errf(e, ...)`.
 * Bytes of the result that are not printable UTF-8 (a line break, an escape
 * sequence, a broken UTF-8 sequence from an input) are written as \xNN. */
int dt_errf(struct dt_err *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
