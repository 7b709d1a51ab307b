/*
 * main.c - the dtplan command line: parse flags, find and load the catalog,
 * load the scenario, apply overrides, plan, print the report.
 *
 *   dtplan [OPTIONS] SCENARIO.yaml
 *   dtplan run [OPTIONS] SCENARIO.yaml
 *   dtplan calibrate ...    (calibrate/calibrate.c)
 *   dtplan plan ...         (cli/plan_cmd.c)
 *
 * The command front ends (this file, plan_cmd.c, compute_cmd.c,
 * coll_cmd.c, catalog_cmd.c, calibrate/calibrate.c) are the only places
 * that print errors and pick exit statuses (docs/cli.md): 0 success, 1
 * simulation, planning or output error, 2 bad flags or bad input (catalog,
 * scenario, output path, two outputs on one file).  Everything it
 * allocates is freed on every path.  Flag parsing, the catalog search and
 * the atomic outputs are shared with `dtplan plan` (cliutil.h), and so are
 * the output formats, each a flag and a writer (format.h).
 */
#include <cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../calibrate/calibrate.h"
#include "../catalog/catalog.h"
#include "../planner/planner.h"
#include "cliutil.h"
#include "coll_cmd.h"
#include "catalog_cmd.h"
#include "compute_cmd.h"
#include "format.h"
#include "plan_cmd.h"
#include "report.h"
#include "ld_scenario.h"
#include "chrome_trace.h"


#define STEPS_MAX 1000000

enum { EXIT_PLAN = CLI_EXIT_PLAN, EXIT_INPUT = CLI_EXIT_INPUT };

/* The usage line after the format flags (format_usage). */
static const char usage_rest[] =
    "[-o FILE] [--trace FILE] [--report FILE] [--save-json FILE] [--catalog DIR] [--seed N] [--steps N] "
    "[-q] SCENARIO.yaml";

static void usage(FILE *f)
{
    format_usage(f, "dtplan", usage_rest);
    fprintf(f,
            "       dtplan run [OPTIONS] SCENARIO.yaml\n"
            "       dtplan plan [OPTIONS] SCENARIO.yaml      (search the catalog; dtplan plan --help)\n"
            "       dtplan calibrate [OPTIONS] -o PROFILE    (measure this machine; dtplan calibrate --help)\n"
            "       dtplan compute --model NAME [OPTIONS]    (one GPU's training throughput; dtplan compute --help)\n"
            "       dtplan collectives [OPTIONS]             (the all-reduce NCCL would run; dtplan collectives --help)\n"
            "       dtplan catalog list|import [OPTIONS]     (instance types; SkyPilot's catalogs; dtplan catalog --help)\n"
            "\n"
            "Predict the training step time and cost of each cluster in SCENARIO.yaml and\n"
            "recommend one.\n"
            "\n"
            "Options:\n");
    format_help(f, 0, 18);
    fprintf(f,
            "  -o, --output FILE  write the report to FILE (atomically: all or nothing)\n"
            "  --trace FILE       also write the simulated steps of every cluster as a Chrome\n"
            "                     trace (JSON; open in ui.perfetto.dev or chrome://tracing)\n"
            "  --report FILE      also write a self-contained HTML report with SVG charts\n"
            "  --save-json FILE   also write the report as --json prints it, to FILE\n"
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
            STEPS_MAX);
}

struct options {
    int format_given[FORMAT_MAX]; /* the format flags given, by row of the table */
    const struct format *format;  /* the one picked (format.h) */
    const char *trace;      /* --trace FILE, NULL: none */
    const char *report;     /* --report FILE (HTML), NULL: none */
    const char *save_json;  /* --save-json FILE, NULL: none */
    int quiet;
    const char *output;     /* NULL: stdout */
    const char *catalog;    /* NULL: search */
    const char *scenario;
    int have_seed;
    unsigned long long seed;
    int have_steps;
    unsigned long long steps;
};

/*
 * Parse argv into o.  Returns -1 when main should exit 0 (help, version),
 * 0 to go on, or EXIT_INPUT after printing one error line.
 */
static int parse_args(int argc, char **argv, struct options *o)
{
    const struct args_opt head[] = {
        {"--help", "-h", ARGS_STOP, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--version", NULL, ARGS_STOP, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL},
    };
    const struct args_opt tail[] = {
        {"--quiet", "-q", ARGS_SWITCH, &o->quiet, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--trace", NULL, ARGS_FILE, NULL, &o->trace, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--report", NULL, ARGS_FILE, NULL, &o->report, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--save-json", NULL, ARGS_FILE, NULL, &o->save_json, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--output", "-o", ARGS_FILE, NULL, &o->output, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--catalog", NULL, ARGS_DIR, NULL, &o->catalog, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--seed", NULL, ARGS_UINT, &o->have_seed, NULL, &o->seed, 0, ULONG_MAX, NULL, NULL, NULL, NULL},
        {"--steps", NULL, ARGS_UINT, &o->have_steps, NULL, &o->steps, 1, STEPS_MAX, NULL, NULL, NULL, NULL},
    };
    /* the help and version, the format flags (format.h), then the rest */
    struct args_opt opts[sizeof head / sizeof head[0] + FORMAT_MAX + sizeof tail / sizeof tail[0]];
    int nopts = (int)(sizeof head / sizeof head[0]);
    const struct args_opt *stop = NULL;
    struct dt_err e = {{0}};
    int rc;

    memcpy(opts, head, sizeof head);
    nopts += format_opts(opts + nopts, o->format_given);
    memcpy(opts + nopts, tail, sizeof tail);
    nopts += (int)(sizeof tail / sizeof tail[0]);
    {
        const struct args_cmd cmd = {"dtplan", "run", opts, nopts, NULL};
        rc = args_parse(&cmd, argc, argv, &o->scenario, &stop, &e);
    }

    if (rc == ARGS_BAD) {
        fprintf(stderr, "%s\n", e.msg);
        return EXIT_INPUT;
    }
    if (rc == ARGS_STOPPED) {
        if (!strcmp(stop->name, "--help"))
            usage(stdout);
        else
            printf("dtplan " DTPLAN_VERSION "\n");
        return -1;
    }
    o->format = format_pick("dtplan", o->format_given, &e);
    if (!o->format) {
        fprintf(stderr, "%s\n", e.msg);
        return EXIT_INPUT;
    }
    if (!o->scenario) {
        format_usage(stderr, "dtplan", usage_rest);
        return EXIT_INPUT;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct options o = {0};
    struct catalog cat;
    struct scenario sc;
    struct plan_report rep;
    struct plan_opts popts;
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
    if (argc > 1 && strcmp(argv[1], "compute") == 0)
        return compute_cmd_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "collectives") == 0)
        return coll_cmd_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "catalog") == 0)
        return catalog_cmd_main(argc - 1, argv + 1);

    rc = parse_args(argc, argv, &o);
    if (rc < 0)
        return cli_flush_stdout("dtplan");
    if (rc)
        return rc;
    {
        struct cli_output outs[] = {
            {o.output, cli_write_table, NULL, "-o"},
            {o.trace, cli_write_trace, NULL, "--trace"},
            {o.report, cli_write_html, NULL, "--report"},
            {o.save_json, cli_write_json, NULL, "--save-json"},
        };
        if ((rc = cli_check_outputs("dtplan", outs, 4)) != 0)
            return rc;
    }

    catdir = cli_catalog_find("dtplan", o.catalog, &e);
    if (!catdir) {
        fprintf(stderr, "%s\n", e.msg);
        rc = EXIT_INPUT;
        goto out;
    }
    if (cli_catalog_load("dtplan", catdir, &cat, &e) != 0) {
        fprintf(stderr, "%s\n", e.msg);
        rc = EXIT_INPUT;
        goto out_catalog;
    }
    if (ld_scenario_load(&sc, o.scenario, &cat, &e) != 0) {
        fprintf(stderr, "%s\n", e.msg);
        rc = EXIT_INPUT;
        goto out_scenario;
    }
    if (o.have_seed)
        sc.simulation.seed = (unsigned long)o.seed;
    if (o.have_steps)
        sc.simulation.steps = (int)o.steps;
    if (!o.quiet)
        fprintf(stderr, "dtplan: seed %lu\n", sc.simulation.seed);

    if (sc.nclusters == 0 && sc.plan.present) { /* a plan: section and no clusters: search */
        struct plan_cmd_opts po = {o.format, o.output, o.trace, o.report, o.save_json, "dtplan",
                                   o.quiet};
        rc = plan_cmd_search(&sc, &po);
        goto out_report;
    }
    popts.trace = o.trace != NULL;
    popts.trace_max_records = CHROME_TRACE_MAX_RECORDS;
    if (plan_run(&sc, &popts, &rep, &e) != 0) {
        fprintf(stderr, "dtplan: %s\n", e.msg);
        rc = EXIT_PLAN;
        goto out_report;
    }
    report_today(rep.today, sizeof rep.today);
    {
        struct cli_output outs[] = {
            {o.output, o.format->run, &rep, "-o"},
            {o.trace, o.trace ? cli_write_trace : NULL, &rep, "--trace"},
            {o.report, o.report ? cli_write_html : NULL, &rep, "--report"},
            {o.save_json, o.save_json ? cli_write_json : NULL, &rep, "--save-json"},
        };
        rc = cli_write_outputs("dtplan", outs, 4);
    }

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
