/*
 * clock.c - the time a run stamps on what it writes (clock.h).
 */
#include "clock.h"

#include <stdlib.h>

int clock_now(time_t *t)
{
    const char *s = getenv("SOURCE_DATE_EPOCH");
    char *end;
    long long v;

    *t = time(NULL);
    if (!s || !*s)
        return 0;
    v = strtoll(s, &end, 10);
    if (*end != '\0' || v < 0)
        return -1;
    *t = (time_t)v;
    return 0;
}
