/*
 * args.h - the table-driven flag parser of every dtplan command: `dtplan
 * SCENARIO`, `dtplan plan` (cli/) and `dtplan calibrate` (calibrate/).
 *
 * Flags are given as a table of struct args_opt.  The parser accepts
 * "--flag VALUE" and "--flag=VALUE" (long flags only for the latter); it
 * stops at the first bad argument with one error line in e->msg, in the
 * formats of docs/cli.md and docs/calibrate.md:
 *
 *   CMD: --steps: expected an integer from 1 to 1000000, found "0"
 *   CMD: unknown option "--x" (try CMD --help)
 *   dtplan calibrate: --x: unknown flag, expected one of --cpu, ..., --help
 *
 * It never prints and never exits.  Cost: O(arguments x options).
 */
#ifndef DT_ARGS_H
#define DT_ARGS_H

#include "xmem.h"

enum args_kind {
    ARGS_SWITCH,     /* no value: *flag = 1 */
    ARGS_STOP,       /* no value: parsing stops and args_parse returns ARGS_STOPPED (--help) */
    ARGS_FILE,       /* a non-empty file name into *str */
    ARGS_DIR,        /* a non-empty directory into *str */
    ARGS_UINT,       /* a decimal integer in [lo, hi] into *num, *flag = 1 */
    ARGS_VALUE       /* any value, checked and stored by take(val, dst); *flag = 1 */
};

struct args_opt {
    const char *name;           /* "--json" */
    const char *alias;          /* "-q", or NULL */
    enum args_kind kind;
    int *flag;                  /* ARGS_SWITCH, ARGS_UINT: set to 1 when given (may be NULL) */
    const char **str;           /* ARGS_FILE, ARGS_DIR */
    unsigned long long *num;    /* ARGS_UINT */
    unsigned long long lo, hi;  /* ARGS_UINT bounds; hi == ULONG_MAX with lo == 0 reads
                                 * "a non-negative integer" in errors */
    /* ARGS_VALUE: what is expected ("a shell command"), and the check that
     * stores val into dst: 0, or -1 when val is not what is expected. */
    const char *what;
    int (*take)(const char *val, void *dst);
    void *dst;
    const char *missing;        /* ARGS_VALUE: what a missing value should have been,
                                   when shorter than what ("a count"); NULL: what */
};

/* The positional argument and the subcommand word the parser accepts. */
struct args_cmd {
    const char *name;           /* "dtplan" or "dtplan plan": prefix of error lines */
    const char *skip_word;      /* a first positional skipped once ("run"), or NULL */
    const struct args_opt *opts;
    int nopts;
    /*
     * A command that takes flags only (dtplan calibrate) names what every
     * argument must be ("a flag (the profile is given with -o)"); its lines
     * are all of the form "CMD: FLAG: expected ..., found ...", an unknown
     * flag listing the table's names in order.  NULL: one positional
     * argument, "--" ends the flags, and the front end's lines
     * ("unknown option ... (try CMD --help)", "takes no value").
     */
    const char *flags_only;
};

enum { ARGS_PARSED = 0, ARGS_STOPPED = 1, ARGS_BAD = -1 };

/*
 * Parse argv[1..argc-1].  *positional gets the positional argument (NULL
 * when none).  Returns ARGS_PARSED, ARGS_STOPPED with *stop set to the ARGS_STOP
 * option met, or ARGS_BAD with e->msg set.
 */
int args_parse(const struct args_cmd *cmd, int argc, char **argv, const char **positional,
              const struct args_opt **stop, struct dt_err *e);

/* Parse a decimal integer in [0, hi]: digits only, no sign, no blanks.
 * Returns 0, or -1 when s is NULL or not such a number. */
int args_parse_uint(const char *s, unsigned long long hi, unsigned long long *out);

#endif
