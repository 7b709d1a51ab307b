/*
 * html.h - the HTML report: one self-contained file (inline CSS and SVG, no
 * script, no fonts or images from elsewhere, so it opens without network
 * access) with the recommendation, the step-time breakdown of every cluster
 * (stacked bars), cost per step against step time with the Pareto front,
 * the scaling curve (samples/s and efficiency against GPUs) when the
 * scenario has one training instance type at several sizes, and the cluster
 * table.  See docs/reports.md.
 *
 * Formats a struct plan_report only; computes nothing but chart geometry.
 * Every text from the scenario is escaped.  Deterministic output.  Library
 * code: prints only to the stream it is given.
 */
#ifndef DT_HTML_H
#define DT_HTML_H

#include <stdio.h>

#include "../planner/planner.h"

/* Write the report to f.  Returns 0, or -1 if the stream reports an error. */
int html_write(FILE *f, const struct plan_report *rep);

/* Clusters on the Pareto front of (step time, cost per step): feasible, with
 * both known, and no other such cluster at most as slow and as costly and
 * better in one.  on_front[i] is set to 1 or 0; returns how many are on it. */
int html_pareto(const struct plan_report *rep, int *on_front);

#endif
