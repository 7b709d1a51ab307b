/*
 * report_search.h - the reports of `dtplan plan` over the catalog search's
 * result (planner/search.h): a table for people, one JSON object for
 * programs, or the ranked clusters as CSV.  See docs/plan.md for every
 * line and field.
 *
 * Each is a cli_writer (cliutil.h) whose ctx is a struct report_search, so
 * the format table (format.h) picks one as it picks a writer of `dtplan
 * SCENARIO`.  They format what the search computed and compute nothing
 * new; output is deterministic for a given result.  Library code: they
 * print only to the stream they are given.
 */
#ifndef DT_REPORT_SEARCH_H
#define DT_REPORT_SEARCH_H

#include <stdio.h>

#include "../planner/search.h"

/* What a search writer reads: the result and the list it was found in. */
struct report_search {
    const struct search_result *r;
    const struct search_list *l;
};

/* The table: what was searched and left out, the top N, the Pareto front,
 * the best of each kind and the recommendation.  0, or -1 when the stream
 * reports an error. */
int report_search_table(FILE *f, const void *ctx, struct dt_err *e);

/* One JSON object (cJSON_Print layout, then a newline).  0, or -1 when
 * building the tree failed or the stream reports an error. */
int report_search_json(FILE *f, const void *ctx, struct dt_err *e);

/* The top N as report.h's CSV (report_csv), one line a cluster in rank
 * order.  0, or -1 when the stream reports an error. */
int report_search_csv(FILE *f, const void *ctx, struct dt_err *e);

#endif
