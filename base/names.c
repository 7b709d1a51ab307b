/*
 * names.c - parse and list a closed set of names given by its name
 * function (names.h).
 */
#include "names.h"

#include <stdio.h>
#include <string.h>

int names_parse(const char *(*name)(int), const char *s)
{
    const char *n;

    for (int i = 0; (n = name(i)) != NULL; i++)
        if (strcmp(n, s) == 0)
            return i;
    return -1;
}

const void *names_find(const void *base, int n, size_t stride, size_t name_off,
                       const char *name)
{
    const char *p = base;

    if (!base || !name)
        return NULL;
    for (int i = 0; i < n; i++, p += stride)
        if (strcmp(p + name_off, name) == 0)
            return p;
    return NULL;
}

void names_join(const char *(*name)(int), char *buf, size_t cap)
{
    const char *n;
    size_t o = 0;

    buf[0] = '\0';
    for (int i = 0; (n = name(i)) != NULL && o + 1 < cap; i++)
        o += (size_t)snprintf(buf + o, cap - o, "%s%s", i ? ", " : "", n);
}
