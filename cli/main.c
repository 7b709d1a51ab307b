/*
 * main.c - the dtplan command line: parse flags, find and load the catalog,
 * load the scenario, apply overrides, plan, print the report.
 *
 *   dtplan [OPTIONS] SCENARIO.yaml
 *   dtplan run [OPTIONS] SCENARIO.yaml
 *   dtplan calibrate ...    (calibrate/calibrate.c)
 *   dtplan plan ...         (cli/plan_cmd.c)
 *
 * This is the only place that prints errors and picks exit statuses
 * (docs/cli.md): 0 success, 1 simulation, planning or output error, 2 bad
 * flags or bad input (catalog, scenario, output path).  Everything it
 * allocates is freed on every path.
 */
#include <cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../calibrate/calibrate.h"
#include "../catalog/catalog.h"
#include "../planner/planner.h"
#include "atomic.h"
#include "html.h"
#include "plan_cmd.h"
#include "report.h"
#include "scenario.h"
#include "trace.h"

#define DTPLAN_VERSION "0.1.0"
#define STEPS_MAX 1000000

enum { EXIT_PLAN = 1, EXIT_INPUT = 2 };

static const char usage_line[] =
    "usage: dtplan [--json | --csv] [-o FILE] [--trace FILE] [--report FILE] [--catalog DIR] [--seed N] [--steps N] [-q] SCENARIO.yaml";

static void usage(FILE *f)
{
    fprintf(f,
            "%s\n"
            "       dtplan run [OPTIONS] SCENARIO.yaml\n"
            "\n"
            "Predict the training step time and cost of each cluster in SCENARIO.yaml and\n"
            "recommend one.\n"
            "\n"
            "Options:\n"
            "  --json             print one JSON object instead of the table\n"
            "  --csv              print the cluster table as CSV instead of the table\n"
            "  -o, --output FILE  write the report to FILE (atomically: all or nothing)\n"
            "  --trace FILE       also write the simulated steps of every cluster as a Chrome\n"
            "                     trace (JSON; open in ui.perfetto.dev or chrome://tracing)\n"
            "  --report FILE      also write a self-contained HTML report with SVG charts\n"
            "  --catalog DIR      catalog directory (default: $DTPLAN_CATALOG, then\n"
            "                     <dtplan's directory>/../catalog, the installed catalog,\n"
            "                     ./catalog)\n"
            "  --seed N           random seed (overrides simulation.seed), N >= 0\n"
            "  --steps N          measured steps (overrides simulation.steps), 1..%d\n"
            "  -q, --quiet        do not print the seed note on stderr\n"
            "  -h, --help         print this help and exit\n"
            "  --version          print the version and exit\n"
            "\n"
            "Exit status: 0 ok, 1 simulation or planning error, 2 bad flags or input.\n"
            "See docs/cli.md, docs/output.md, docs/reports.md and man dtplan.\n",
            usage_line, STEPS_MAX);
}

struct options {
    int json;
    int csv;
    const char *trace;      /* --trace FILE, NULL: none */
    const char *report;     /* --report FILE (HTML), NULL: none */
    int quiet;
    const char *output;     /* NULL: stdout */
    const char *catalog;    /* NULL: search */
    const char *scenario;
    int have_seed;
    unsigned long seed;
    int have_steps;
    int steps;
};

/* Parse a decimal integer in [0, hi]: digits only, no sign, no blanks. */
static int parse_uint(const char *s, unsigned long long hi, unsigned long long *out)
{
    char *end;
    unsigned long long v;

    if (!s || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || *end || v > hi)
        return -1;
    *out = v;
    return 0;
}

/*
 * Parse argv into o.  Returns -1 when main should exit 0 (help, version),
 * 0 to go on, or EXIT_INPUT after printing one error line.
 */
static int parse_args(int argc, char **argv, struct options *o)
{
    const char *scenario = NULL;
    int npos = 0, only_pos = 0, saw_run = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        const char *eq;
        char flag[32];

        if (only_pos || a[0] != '-' || a[1] == '\0') {
            /* "dtplan run SCENARIO": the subcommand word, in first place only. */
            if (npos == 0 && !saw_run && !only_pos && strcmp(a, "run") == 0) {
                saw_run = 1;
                continue;
            }
            if (npos == 1) {
                fprintf(stderr, "dtplan: unexpected argument \"%s\" (try dtplan --help)\n", a);
                return EXIT_INPUT;
            }
            scenario = a;
            npos = 1;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_pos = 1;
            continue;
        }

        /* --name=value */
        eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
        if (eq) {
            size_t n = (size_t)(eq - a);
            if (n >= sizeof flag)
                n = sizeof flag - 1;
            memcpy(flag, a, n);
            flag[n] = '\0';
            val = eq + 1;
        } else {
            snprintf(flag, sizeof flag, "%s", a);
        }

        if (!strcmp(flag, "-h") || !strcmp(flag, "--help")) {
            if (val)
                goto no_value;
            usage(stdout);
            return -1;
        }
        if (!strcmp(flag, "--version")) {
            if (val)
                goto no_value;
            printf("dtplan " DTPLAN_VERSION "\n");
            return -1;
        }
        if (!strcmp(flag, "--json")) {
            if (val)
                goto no_value;
            o->json = 1;
            continue;
        }
        if (!strcmp(flag, "--csv")) {
            if (val)
                goto no_value;
            o->csv = 1;
            continue;
        }
        if (!strcmp(flag, "-q") || !strcmp(flag, "--quiet")) {
            if (val)
                goto no_value;
            o->quiet = 1;
            continue;
        }

        /* Flags with a value: --flag=VALUE or --flag VALUE. */
        int is_output = !strcmp(flag, "-o") || !strcmp(flag, "--output");
        int is_catalog = !strcmp(flag, "--catalog");
        int is_seed = !strcmp(flag, "--seed");
        int is_steps = !strcmp(flag, "--steps");
        int is_trace = !strcmp(flag, "--trace");
        int is_html = !strcmp(flag, "--report");
        if (is_trace || is_html) {
            if (!val && i + 1 < argc)
                val = argv[++i];
            if (!val || !*val) {
                fprintf(stderr, "dtplan: %s: expected a file name, found %s\n", flag,
                        val ? "\"\"" : "nothing");
                return EXIT_INPUT;
            }
            if (is_trace)
                o->trace = val;
            else
                o->report = val;
            continue;
        }
        if (!is_output && !is_catalog && !is_seed && !is_steps) {
            fprintf(stderr, "dtplan: unknown option \"%s\" (try dtplan --help)\n", a);
            return EXIT_INPUT;
        }
        if (!val && i + 1 < argc)
            val = argv[++i];
        if (is_output || is_catalog) {
            if (!val || !*val) {
                fprintf(stderr, "dtplan: %s: expected a %s, found %s\n", flag,
                        is_output ? "file name" : "directory", val ? "\"\"" : "nothing");
                return EXIT_INPUT;
            }
            if (is_output)
                o->output = val;
            else
                o->catalog = val;
            continue;
        }
        unsigned long long v;
        if (is_seed) {
            if (!val || parse_uint(val, ULONG_MAX, &v) != 0) {
                if (val)
                    fprintf(stderr, "dtplan: --seed: expected a non-negative integer, found \"%s\"\n",
                            val);
                else
                    fprintf(stderr, "dtplan: --seed: expected a non-negative integer, found nothing\n");
                return EXIT_INPUT;
            }
            o->have_seed = 1;
            o->seed = (unsigned long)v;
            continue;
        }
        if (!val || parse_uint(val, STEPS_MAX, &v) != 0 || v < 1) {
            if (val)
                fprintf(stderr, "dtplan: --steps: expected an integer from 1 to %d, found \"%s\"\n",
                        STEPS_MAX, val);
            else
                fprintf(stderr, "dtplan: --steps: expected an integer from 1 to %d, found nothing\n",
                        STEPS_MAX);
            return EXIT_INPUT;
        }
        o->have_steps = 1;
        o->steps = (int)v;
        continue;

    no_value:
        fprintf(stderr, "dtplan: %s: takes no value, found \"%s\"\n", flag, val);
        return EXIT_INPUT;
    }

    if (o->json && o->csv) {
        fprintf(stderr, "dtplan: --csv: expected at most one of --json and --csv, found both\n");
        return EXIT_INPUT;
    }
    if (npos == 0) {
        fprintf(stderr, "%s\n", usage_line);
        return EXIT_INPUT;
    }
    o->scenario = scenario;
    return 0;
}

/* dir/instances.csv is readable: dir looks like a catalog. */
static int catalog_dir_ok(const char *dir)
{
    size_t n = strlen(dir) + sizeof "/instances.csv";
    char *p = x_malloc(n);
    int ok;

    snprintf(p, n, "%s/instances.csv", dir);
    ok = access(p, R_OK) == 0;
    x_free(p);
    return ok;
}

/* <directory of the running executable>/../catalog, or NULL. */
static char *catalog_next_to_exe(void)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash;
    size_t len;
    char *dir;

    if (n <= 0)
        return NULL;
    exe[n] = '\0';
    slash = strrchr(exe, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    len = strlen(exe) + sizeof "/../catalog";
    dir = x_malloc(len);
    snprintf(dir, len, "%s/../catalog", exe);
    return dir;
}

/*
 * The catalog directory: --catalog, else $DTPLAN_CATALOG (both taken as
 * given), else the first of <exe dir>/../catalog, DT_CATALOG_DIR (when
 * compiled in) and ./catalog that holds instances.csv.  Returns a string the
 * caller frees, or NULL with e->msg set.
 */
static char *catalog_find(const struct options *o, struct dt_err *e)
{
    const char *env = getenv("DTPLAN_CATALOG");
    char *cand[3] = {NULL, NULL, NULL};
    char *found = NULL;
    int nc = 0;

    if (o->catalog)
        return x_strdup(o->catalog);
    if (env && *env)
        return x_strdup(env);

    if ((cand[nc] = catalog_next_to_exe()) != NULL)
        nc++;
#ifdef DT_CATALOG_DIR
    cand[nc++] = x_strdup(DT_CATALOG_DIR);
#endif
    cand[nc++] = x_strdup("catalog");

    for (int i = 0; i < nc && !found; i++)
        if (catalog_dir_ok(cand[i])) {
            found = cand[i];
            cand[i] = NULL;
        }
    if (!found)
        dt_errf(e, "dtplan: no catalog found (looked in %s%s%s%s%s); use --catalog DIR or set DTPLAN_CATALOG",
                cand[0], nc > 1 ? ", " : "", nc > 1 ? cand[1] : "", nc > 2 ? ", " : "",
                nc > 2 ? cand[2] : "");
    for (int i = 0; i < nc; i++)
        x_free(cand[i]);
    return found;
}

/* Write the report to stdout or, atomically, to o->output. */
static int write_report(const struct options *o, const struct plan_report *rep)
{
    struct dt_err e = {{0}};
    char *tmp = NULL;
    FILE *f = stdout;
    int rc;

    if (o->output) {
        f = atomic_write_open(o->output, &tmp, &e);
        if (!f) {
            fprintf(stderr, "dtplan: %s\n", e.msg);
            return EXIT_INPUT;
        }
    }
    rc = o->json ? report_json(f, rep) : o->csv ? report_csv(f, rep) : report_table(f, rep);
    if (!o->output) {
        if (rc != 0 || fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "dtplan: cannot write the report to standard output: %s\n",
                    strerror(errno ? errno : EIO));
            return EXIT_PLAN;
        }
        return 0;
    }
    if (rc != 0) {
        atomic_write_abort(f, tmp);
        fprintf(stderr, "dtplan: %s: write failed\n", o->output);
        return EXIT_PLAN;
    }
    if (atomic_write_commit(f, tmp, o->output, &e) != 0) {
        fprintf(stderr, "dtplan: %s\n", e.msg);
        return EXIT_PLAN;
    }
    return 0;
}

/* Write an extra output (--trace, --report) to path, atomically.  kind is
 * 't' for the trace, 'h' for the HTML report. */
static int write_extra(const char *path, int kind, const struct plan_report *rep)
{
    struct dt_err e = {{0}};
    char *tmp = NULL;
    FILE *f = atomic_write_open(path, &tmp, &e);
    int rc;

    if (!f) {
        fprintf(stderr, "dtplan: %s\n", e.msg);
        return EXIT_INPUT;
    }
    if (kind == 't') {
        rc = trace_write(f, rep, &e);
    } else {
        rc = html_write(f, rep);
        if (rc)
            dt_errf(&e, "%s: write failed", path);
    }
    if (rc != 0) {
        atomic_write_abort(f, tmp);
        fprintf(stderr, "dtplan: %s\n", e.msg);
        return EXIT_PLAN;
    }
    if (atomic_write_commit(f, tmp, path, &e) != 0) {
        fprintf(stderr, "dtplan: %s\n", e.msg);
        return EXIT_PLAN;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct options o = {0};
    struct catalog cat;
    struct scenario sc;
    struct plan_report rep;
    struct dt_err e = {{0}};
    cJSON_Hooks hooks = {x_malloc, x_free};
    char *catdir = NULL;
    int rc;

    memset(&cat, 0, sizeof cat);
    memset(&sc, 0, sizeof sc);
    memset(&rep, 0, sizeof rep);
    cJSON_InitHooks(&hooks); /* cJSON allocates through x_malloc too */

    /* Subcommands with flags of their own. */
    if (argc > 1 && strcmp(argv[1], "calibrate") == 0)
        return calibrate_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "plan") == 0)
        return plan_cmd_main(argc - 1, argv + 1);

    rc = parse_args(argc, argv, &o);
    if (rc < 0)
        return fflush(stdout) == 0 && !ferror(stdout) ? 0 : EXIT_PLAN;
    if (rc)
        return rc;

    catdir = catalog_find(&o, &e);
    if (!catdir) {
        fprintf(stderr, "%s\n", e.msg);
        rc = EXIT_INPUT;
        goto out;
    }
    if (catalog_load(&cat, catdir, &e) != 0) {
        fprintf(stderr, "%s\n", e.msg);
        rc = EXIT_INPUT;
        goto out_catalog;
    }
    if (scenario_load(&sc, o.scenario, &cat, &e) != 0) {
        fprintf(stderr, "%s\n", e.msg);
        rc = EXIT_INPUT;
        goto out_scenario;
    }
    if (o.have_seed)
        sc.seed = o.seed;
    if (o.have_steps)
        sc.steps = o.steps;
    if (!o.quiet)
        fprintf(stderr, "dtplan: seed %lu\n", sc.seed);

    if (sc.nclusters == 0 && sc.plan.present) { /* a plan: section and no clusters: search */
        struct plan_cmd_opts po = {o.json, o.output};
        rc = plan_cmd_search(&sc, &po);
        goto out_report;
    }
    if (plan_run(&sc, &rep, &e) != 0) {
        fprintf(stderr, "dtplan: %s\n", e.msg);
        rc = EXIT_PLAN;
        goto out_report;
    }
    rc = write_report(&o, &rep);
    if (rc == 0 && o.trace)
        rc = write_extra(o.trace, 't', &rep);
    if (rc == 0 && o.report)
        rc = write_extra(o.report, 'h', &rep);

out_report:
    plan_report_free(&rep);
out_scenario:
    scenario_free(&sc);
out_catalog:
    catalog_free(&cat);
out:
    x_free(catdir);
    return rc;
}
