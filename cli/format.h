/*
 * format.h - the output formats of `dtplan SCENARIO` and `dtplan plan` as
 * one table: each row is a flag, the writer of a run's report and the
 * writer of a search's.  Both commands take their format flags from the
 * table (format_opts), pick the row the user asked for (format_pick) and
 * print the rows' lines in their --help (format_help), so a new format is
 * a writer file, one row in format.c, its documentation and a golden; the
 * usage lines take their flags from the table too (format_usage)
 * (docs/architecture.md, "Where a change goes").
 *
 * The --trace and --report outputs are written beside the format, not
 * instead of it, and are not rows.  Nothing here prints but format_help.
 */
#ifndef DT_FORMAT_H
#define DT_FORMAT_H

#include <stdio.h>

#include "../base/args.h"
#include "cliutil.h"

struct format {
    const char *flag;          /* "--json"; NULL for the table, which needs no flag */
    const char *run_help;      /* its line in dtplan --help; NULL: none */
    const char *search_help;   /* its line in dtplan plan --help; NULL: none */
    cli_writer run;            /* ctx: the struct plan_report of `dtplan SCENARIO` */
    cli_writer search;         /* ctx: the struct report_search of `dtplan plan` */
};

#define FORMAT_MAX 8           /* rows the table may grow to */

/*
 * The ARGS_SWITCH options of the rows with a flag, in the table's order,
 * into opts (room for FORMAT_MAX); option k sets given[row of k] to 1.
 * given has FORMAT_MAX entries, zeroed by the caller.  Returns how many.
 */
int format_opts(struct args_opt *opts, int *given);

/*
 * The row the flags in given ask for, the table when none does.  NULL,
 * with e->msg "CMD: FLAG: expected at most one of ..., found both", when
 * more than one does (FLAG the last of them in the table's order).
 */
const struct format *format_pick(const char *cmd, const int *given, struct dt_err *e);

/* "usage: CMD [FLAG | FLAG ...] REST" and a newline: the rows' flags as the
 * choice they are. */
void format_usage(FILE *f, const char *cmd, const char *rest);

/* Each row's --help line of one command (search: 0 for `dtplan
 * SCENARIO`, 1 for `dtplan plan`), as "  FLAG  TEXT" with the flag
 * padded to width columns. */
void format_help(FILE *f, int search, int width);

#endif
