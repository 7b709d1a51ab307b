/*
 * format.c - the table of output formats (format.h).  A row names its
 * flag, its --help line in each command and its two writers: the run's,
 * over a struct plan_report (report.c, through cliutil.c's adapters), and
 * the search's, over a struct report_search (report_search.c).  The
 * table's order is the order of the flags in both commands' option tables
 * and --help.
 */
#include "format.h"

#include <string.h>

#include "report_search.h"

static const struct format rows[] = {
    {NULL, NULL, NULL, cli_write_table, report_search_table},
    {"--json", "print one JSON object instead of the table", NULL, cli_write_json,
     report_search_json},
    {"--csv", "print the cluster table as CSV instead of the table",
     "print the ranked table as CSV instead of the table", cli_write_csv, report_search_csv},
};
enum { NROWS = (int)(sizeof rows / sizeof rows[0]) };

_Static_assert(NROWS <= FORMAT_MAX, "FORMAT_MAX holds every row");

int format_opts(struct args_opt *opts, int *given)
{
    int n = 0;

    for (int i = 0; i < NROWS; i++) {
        if (!rows[i].flag)
            continue;
        memset(&opts[n], 0, sizeof opts[n]);
        opts[n].name = rows[i].flag;
        opts[n].kind = ARGS_SWITCH;
        opts[n].flag = &given[i];
        n++;
    }
    return n;
}

const struct format *format_pick(const char *cmd, const int *given, struct dt_err *e)
{
    const struct format *pick = &rows[0];
    int n = 0;

    for (int i = 0; i < NROWS; i++)
        if (rows[i].flag && given[i]) {
            pick = &rows[i];
            n++;
        }
    if (n > 1) {
        char list[256];
        size_t o = 0;
        int k = 0, nflags = 0;

        for (int i = 0; i < NROWS; i++)
            nflags += rows[i].flag != NULL;
        list[0] = '\0';
        /* "--json and --csv"; with more flags, "--a, --b and --c" */
        for (int i = 0; i < NROWS && o < sizeof list; i++) {
            const char *sep = k == 0 ? "" : k == nflags - 1 ? " and " : ", ";
            int w;
            if (!rows[i].flag)
                continue;
            w = snprintf(list + o, sizeof list - o, "%s%s", sep, rows[i].flag);
            if (w > 0)
                o += (size_t)w;
            k++;
        }
        if (n == 2)
            dt_errf(e, "%s: %s: expected at most one of %s, found both", cmd, pick->flag, list);
        else
            dt_errf(e, "%s: %s: expected at most one of %s, found %d", cmd, pick->flag, list, n);
        return NULL;
    }
    return pick;
}

void format_usage(FILE *f, const char *cmd, const char *rest)
{
    const char *sep = " [";

    fprintf(f, "usage: %s", cmd);
    for (int i = 0; i < NROWS; i++)
        if (rows[i].flag) {
            fprintf(f, "%s%s", sep, rows[i].flag);
            sep = " | ";
        }
    fprintf(f, "%s %s\n", sep[1] == '|' ? "]" : "", rest);
}

void format_help(FILE *f, int search, int width)
{
    for (int i = 0; i < NROWS; i++) {
        const char *help = search ? rows[i].search_help : rows[i].run_help;
        if (rows[i].flag && help)
            fprintf(f, "  %-*s %s\n", width, rows[i].flag, help);
    }
}
