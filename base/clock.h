/*
 * clock.h - the time a run stamps on what it writes (a profile's date, the
 * date a report ages prices at): SOURCE_DATE_EPOCH when it is set, as
 * reproducible builds do, else the clock.
 */
#ifndef DT_CLOCK_H
#define DT_CLOCK_H

#include <stddef.h>
#include <time.h>

/* Now, into *t: SOURCE_DATE_EPOCH's seconds when it is set, else the
 * clock's.  Returns -1 when SOURCE_DATE_EPOCH is set but not a
 * non-negative integer (*t then the clock's), else 0. */
int clock_now(time_t *t);

#endif
