/*
 * plan_cmd.h - "dtplan plan SCENARIO": search the catalog for clusters
 * (docs/plan.md).  Also run by "dtplan SCENARIO" for a scenario with a
 * plan: section and no clusters.
 */
#ifndef DT_PLAN_CMD_H
#define DT_PLAN_CMD_H

#include "ld_scenario.h"

struct format;

struct plan_cmd_opts {
    const struct format *format; /* the report's format (format.h): table, JSON or CSV */
    const char *output;     /* NULL: stdout; else written atomically */
    const char *trace;      /* NULL, or the Chrome trace of the recommended cluster */
    const char *report;     /* NULL, or the HTML report of the top N and the front */
    const char *save_json;  /* NULL, or the JSON report beside the format asked for */
    const char *cmd;        /* messages begin "CMD: " ("dtplan plan", or "dtplan" for a
                             * scenario with a plan: section run as `dtplan SCENARIO`) */
    int quiet;              /* -q: no progress lines (progress.h) */
};

/* argv[0] is "plan".  Returns the process exit status. */
int plan_cmd_main(int argc, char **argv);

/* Search with a loaded scenario (sc->plan filled) and write the report on
 * rank 0.  Starts MPI under a launcher.  Returns the process exit status. */
int plan_cmd_search(const struct scenario *sc, const struct plan_cmd_opts *o);

#endif
