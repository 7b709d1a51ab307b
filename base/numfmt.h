/*
 * numfmt.h - how durations and dollar amounts are written in every report
 * (table, text, HTML), so that a value reads the same everywhere and a
 * column has one format.
 */
#ifndef DT_NUMFMT_H
#define DT_NUMFMT_H

#include <stddef.h>

/* Duration styles: "51.6 s", "38m34s", "5h07m", "2.3 d"; NUMFMT_OWN: the
 * style of the value itself (numfmt_dur_style), for a duration alone. */
enum numfmt_dur { NUMFMT_OWN = -1, NUMFMT_S = 0, NUMFMT_MS, NUMFMT_HM, NUMFMT_D };

/* The style a duration of s seconds is written in on its own: seconds
 * below a minute, minutes and seconds below an hour, hours and minutes
 * below two days, days beyond. */
enum numfmt_dur numfmt_dur_style(double s);

/* s in style st (a column's style: that of its largest value) into out;
 * "-" when s is not a finite non-negative number. */
void numfmt_duration(char *out, size_t cap, double s, enum numfmt_dur st);

/* Decimals that show the smallest non-zero magnitude among n values with
 * 3 significant digits (at least 2, at most 8); -1 when 8 is not enough
 * (then scientific, %.3e, for the whole column). */
int numfmt_usd_decimals(const double *v, int n);

/* usd with that many decimals (-1: %.3e) into out; "-" when not finite. */
void numfmt_usd(char *out, size_t cap, double usd, int decimals);

#endif
