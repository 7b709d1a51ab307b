/*
 * xmem.c - allocation wrappers that abort on failure, and the error record.
 */
#include "xmem.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

static void x_oom(size_t n)
{
    fprintf(stderr, "dtplan: out of memory allocating %zu bytes\n", n);
    abort();
}

void *x_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        x_oom(n);
    return p;
}

void *x_calloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        x_oom(count * size);
    return p;
}

void *x_realloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        x_oom(n);
    return q;
}

char *x_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = x_malloc(n);
    memcpy(d, s, n);
    return d;
}

void x_free(void *p)
{
    free(p);
}

/* The message is escaped on its way in (text.h): whatever bytes an input
 * held, e->msg is one printable line of UTF-8. */
int dt_errf(struct dt_err *e, const char *fmt, ...)
{
    char raw[2 * sizeof e->msg];
    va_list ap;

    if (!e)
        return -1;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    text_escape(e->msg, sizeof e->msg, raw);
    return -1;
}
