/*
 * spot.h - a spot instance type's interruption band (instances.csv column
 * `spot_interrupt`, an inline instance's `spot_interrupt`; docs/catalog.md
 * "Spot interruptions"): the band AWS's Spot Instance Advisor gives a type,
 * the share of its spot capacity reclaimed over the trailing month, and the
 * preemption rate a spot node takes from it.  A table; no I/O.
 */
#ifndef DT_SPOT_H
#define DT_SPOT_H

#include <stddef.h>

/* The share of capacity reclaimed a month that band stands for ("<5%",
 * "5-10%", "10-15%", "15-20%", ">20%"): the middle of a closed band, the
 * lower bound of the open top one (0.2); NAN for anything else. */
double cat_spot_month(const char *band);

/* The bands, for a message: "<5%, 5-10%, 10-15%, 15-20% or >20%". */
const char *cat_spot_bands(void);

/* The notice a cloud gives before it reclaims a spot node, seconds: aws
 * 120, gcp and azure 30; NAN for another cloud (none known). */
double cat_spot_notice_s(const char *cloud);

/* A spot node's preemptions a day from a monthly share: share / 30. */
double cat_spot_per_day(double month);

#endif
