/*
 * html_table.h - the HTML report's cluster table (html_table.c): one row a
 * cluster of short values, and under it a row spanning the table with the
 * bottleneck in full and the layout the planner chose.  Deterministic;
 * writes only to the stream it is given.
 */
#ifndef DT_HTML_TABLE_H
#define DT_HTML_TABLE_H

#include <stdio.h>

#include "../planner/planner.h"

/* The table of rep's clusters, in a box that scrolls sideways on its own. */
void html_table_clusters(FILE *f, const struct plan_report *rep);

#endif
