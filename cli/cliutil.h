/*
 * cliutil.h - what the command lines of `dtplan SCENARIO` (main.c) and
 * `dtplan plan` (plan_cmd.c) share besides the flag parser (base/args.h,
 * which `dtplan calibrate` uses too): finding the catalog directory, and
 * writing one output to standard output or atomically to a file.
 *
 * These helpers never print and never exit: the caller prints e->msg and
 * picks the exit status (cli_write_output is the exception that prints its
 * one error line, as both front ends did).
 */
#ifndef DT_CLIUTIL_H
#define DT_CLIUTIL_H

#include <stdio.h>

#include "../base/args.h"
#include "../base/xmem.h"

/* Exit statuses (docs/cli.md). */
#define DTPLAN_VERSION "0.1.0"

enum { CLI_EXIT_OK = 0, CLI_EXIT_PLAN = 1, CLI_EXIT_INPUT = 2 };

/*
 * The catalog directory: given (--catalog), else $DTPLAN_CATALOG (both taken
 * as given), else the first of <exe dir>/../catalog, DT_CATALOG_DIR (when
 * compiled in) and ./catalog that holds instances.csv.  Returns a string the
 * caller frees, or NULL with e->msg set (prefixed with cmd).
 */
char *cli_catalog_find(const char *cmd, const char *given, struct dt_err *e);

/* Load the catalog at path (cli_catalog_find's): a dtplan catalog
 * directory, or SkyPilot's vms.csv (a file, or a directory of them) over
 * the catalog shipped with dtplan (catalog.h catalog_use_skypilot). */
struct catalog;
int cli_catalog_load(const char *cmd, const char *path, struct catalog *cat, struct dt_err *e);

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
 * path is NULL; an entry with fn NULL is skipped.  flag names it in
 * messages ("-o", "--trace"; NULL: standard output). */
struct cli_output {
    const char *path;
    cli_writer fn;
    const void *ctx;
    const char *flag;
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

/* After printing on standard output (help, a table): 0 when it all got
 * there, else CLI_EXIT_PLAN after one line "CMD: cannot write to standard
 * output: REASON" (a full disk, a closed stream). */
int cli_flush_stdout(const char *cmd);

/*
 * Before any work: refuse outputs that would land in one file (two flags
 * naming the same file through any spelling, link or hard link, or a file
 * that standard output already goes to while an output is printed there).
 * Returns 0, or CLI_EXIT_INPUT after printing one line.  The null device
 * may take any number.
 */
int cli_check_outputs(const char *cmd, const struct cli_output *outs, int n);

/* Writers of a struct plan_report (ctx) for cli_write_output: the table,
 * JSON and CSV of report.h, the trace of chrome_trace.h, the HTML of html.h. */
int cli_write_table(FILE *f, const void *ctx, struct dt_err *e);
int cli_write_json(FILE *f, const void *ctx, struct dt_err *e);
int cli_write_csv(FILE *f, const void *ctx, struct dt_err *e);
int cli_write_trace(FILE *f, const void *ctx, struct dt_err *e);
int cli_write_html(FILE *f, const void *ctx, struct dt_err *e);

/* Flag values of ARGS_VALUE options (base/args.h).  cli_take_name: dst
 * is a struct cli_name_arg, the value one of a closed set of names
 * (base/names.h), stored as its index.  cli_take_str: dst a const char *,
 * the value non-empty. */
struct cli_name_arg {
    const char *(*name)(int);
    int *out;
};
int cli_take_name(const char *val, void *dst);
int cli_take_str(const char *val, void *dst);

#endif
