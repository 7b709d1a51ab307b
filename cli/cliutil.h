/*
 * cliutil.h - what the command lines of `dtplan SCENARIO` (main.c) and
 * `dtplan plan` (plan_cmd.c) share: a table-driven flag parser, finding the
 * catalog directory, and writing one output to standard output or
 * atomically to a file.
 *
 * Flags are given as a table of struct cli_opt.  The parser accepts
 * "--flag VALUE" and "--flag=VALUE" (long flags only for the latter), "--"
 * to end the flags, and at most one positional argument; it stops at the
 * first bad argument with one error line in e->msg, in the formats of
 * docs/cli.md:
 *
 *   CMD: --steps: expected an integer from 1 to 1000000, found "0"
 *   CMD: unknown option "--x" (try CMD --help)
 *
 * These helpers never print and never exit: the caller prints e->msg and
 * picks the exit status (cli_write_output is the exception that prints its
 * one error line, as both front ends did).
 */
#ifndef DT_CLIUTIL_H
#define DT_CLIUTIL_H

#include <stdio.h>

#include "../base/xmem.h"

/* Exit statuses (docs/cli.md). */
enum { CLI_EXIT_OK = 0, CLI_EXIT_PLAN = 1, CLI_EXIT_INPUT = 2 };

enum cli_opt_kind {
    CLI_SWITCH,     /* no value: *flag = 1 */
    CLI_STOP,       /* no value: parsing stops and cli_parse returns CLI_STOPPED (--help) */
    CLI_FILE,       /* a non-empty file name into *str */
    CLI_DIR,        /* a non-empty directory into *str */
    CLI_UINT        /* a decimal integer in [lo, hi] into *num, *flag = 1 */
};

struct cli_opt {
    const char *name;           /* "--json" */
    const char *alias;          /* "-q", or NULL */
    enum cli_opt_kind kind;
    int *flag;                  /* CLI_SWITCH, CLI_UINT: set to 1 when given (may be NULL) */
    const char **str;           /* CLI_FILE, CLI_DIR */
    unsigned long long *num;    /* CLI_UINT */
    unsigned long long lo, hi;  /* CLI_UINT bounds; hi == ULONG_MAX with lo == 0 reads
                                 * "a non-negative integer" in errors */
};

/* The positional argument and the subcommand word the parser accepts. */
struct cli_cmd {
    const char *name;           /* "dtplan" or "dtplan plan": prefix of error lines */
    const char *skip_word;      /* a first positional skipped once ("run"), or NULL */
    const struct cli_opt *opts;
    int nopts;
};

enum { CLI_PARSED = 0, CLI_STOPPED = 1, CLI_BAD = -1 };

/*
 * Parse argv[1..argc-1].  *positional gets the positional argument (NULL
 * when none).  Returns CLI_PARSED, CLI_STOPPED with *stop set to the CLI_STOP
 * option met, or CLI_BAD with e->msg set.
 */
int cli_parse(const struct cli_cmd *cmd, int argc, char **argv, const char **positional,
              const struct cli_opt **stop, struct dt_err *e);

/* Parse a decimal integer in [0, hi]: digits only, no sign, no blanks.
 * Returns 0, or -1 when s is NULL or not such a number. */
int cli_parse_uint(const char *s, unsigned long long hi, unsigned long long *out);

/*
 * The catalog directory: given (--catalog), else $DTPLAN_CATALOG (both taken
 * as given), else the first of <exe dir>/../catalog, DT_CATALOG_DIR (when
 * compiled in) and ./catalog that holds instances.csv.  Returns a string the
 * caller frees, or NULL with e->msg set (prefixed with cmd).
 */
char *cli_catalog_find(const char *cmd, const char *given, struct dt_err *e);

/* Writes one output to f; returns 0, or -1 (with e->msg set, or left empty
 * for a plain write error). */
typedef int (*cli_writer)(FILE *f, const void *ctx, struct dt_err *e);

/*
 * Run fn on standard output (path NULL) or on path, atomically.  Prints one
 * line "CMD: ..." on failure and returns the exit status: 0, CLI_EXIT_INPUT
 * when path cannot be created, CLI_EXIT_PLAN when writing or committing
 * fails.
 */
int cli_write_output(const char *cmd, const char *path, cli_writer fn, const void *ctx);

/* One output of a run: fn writes ctx to path, or to standard output when
 * path is NULL; an entry with fn NULL is skipped. */
struct cli_output {
    const char *path;
    cli_writer fn;
    const void *ctx;
};
#define CLI_MAX_OUTPUTS 4

/*
 * Write the outputs of one run all or nothing: every file is written to its
 * temporary first, and only when all of them are written are they renamed
 * into place; then the one on standard output, if any, is printed.  A path
 * that cannot be created, or a failed write or flush, leaves none of the
 * files and prints nothing on standard output; only an fsync or rename that
 * fails after others were renamed leaves those.  Same messages and exit
 * statuses as cli_write_output.
 */
int cli_write_outputs(const char *cmd, const struct cli_output *outs, int n);

/* Writers of a struct plan_report (ctx) for cli_write_output: the table,
 * JSON and CSV of report.h, the trace of trace.h, the HTML of html.h. */
int cli_write_table(FILE *f, const void *ctx, struct dt_err *e);
int cli_write_json(FILE *f, const void *ctx, struct dt_err *e);
int cli_write_csv(FILE *f, const void *ctx, struct dt_err *e);
int cli_write_trace(FILE *f, const void *ctx, struct dt_err *e);
int cli_write_html(FILE *f, const void *ctx, struct dt_err *e);

#endif
