/*
 * plan_cmd.c - "dtplan plan SCENARIO": search the catalog for the best
 * cluster (planner/search.h; docs/plan.md), and the same search for
 * "dtplan SCENARIO" when the scenario has a plan: section and no clusters.
 *
 * Under mpirun the candidates are split round-robin by index across the
 * ranks (search_eval's part/nparts); each rank fills the entries it owns and
 * an MPI_Reduce with MPI_SUM puts them together on rank 0 (every entry is
 * nonzero on one rank only, and x + 0 is exact, so the result is the same
 * bits as one process).  Rank 0 alone finishes and writes the report, which
 * is byte-identical to a single process's.
 *
 * Output: a table for people, one JSON object (--json) or the ranked table
 * as CSV (--csv), the format's flag and writer taken from the table of
 * format.h that `dtplan SCENARIO` uses too, the writers in report_search.c;
 * written atomically with -o.  --report and --trace write the HTML report
 * (top N and Pareto front) and the Chrome trace (the recommended cluster)
 * through the writers of `dtplan SCENARIO`, from the struct plan_report the
 * search result carries (search.h).  Flags, the catalog search and atomic
 * output: cliutil.h.  Exit status as dtplan's:
 * 0, 1 planning or output error, 2 bad flags or input.
 */
#include "plan_cmd.h"

#include <cJSON.h>
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../catalog/catalog.h"
#include "../planner/search.h"
#include "cliutil.h"
#include "../base/mpienv.h"
#include "format.h"
#include "ld_scenario.h"
#include "report_search.h"
#include "chrome_trace.h"
#include "progress.h"

enum { EXIT_PLAN = CLI_EXIT_PLAN, EXIT_INPUT = CLI_EXIT_INPUT };

/* The usage line after the format flags (format_usage). */
static const char usage_rest[] =
    "[-o FILE] [--trace FILE] [--report FILE] [--save-json FILE] [--catalog DIR] "
    "[--seed N] [--steps N] [--top N] [--all] [-q] SCENARIO.yaml";

/* ---- outputs ----------------------------------------------------------- */

/* The report in the format asked for, --trace and --report, all or nothing,
 * on rank 0. */
static int write_outputs(const struct search_result *r, const struct search_list *l,
                         const struct plan_cmd_opts *o)
{
    struct report_search rs = {r, l};
    struct plan_report recommended = r->report;

    recommended.nclusters = r->ntop > 0 ? 1 : 0; /* the trace: the first, if any */
    {
        struct cli_output outs[] = {
            {o->output, o->format->search, &rs, "-o"},
            {o->trace, o->trace ? cli_write_trace : NULL, &recommended, "--trace"},
            {o->report, o->report ? cli_write_html : NULL, &r->report, "--report"},
            {o->save_json, o->save_json ? report_search_json : NULL, &rs, "--save-json"},
        };
        return cli_write_outputs(o->cmd, outs, 4);
    }
}

/* ---- running the search ------------------------------------------------ */

int plan_cmd_search(const struct scenario *sc0, const struct plan_cmd_opts *o)
{
    struct scenario base, *sc = &base;
    struct search_list l;
    struct search_eval *ev = NULL;
    struct search_result r;
    struct search_opts sopts;
    struct progress prog;
    struct search_progress pg = {progress_search, &prog};
    struct dt_err e = {{0}};
    int rank, size, rc = EXIT_PLAN, evaluated;

    if (mpienv_init(NULL, NULL) != 0)
        return EXIT_PLAN;
    rank = mpienv_rank();
    size = mpienv_size();
    memset(&l, 0, sizeof l);
    if (search_prepare(sc0, &base, &e) != 0) {
        if (rank == 0)
            fprintf(stderr, "%s: %s\n", o->cmd, e.msg);
        goto out;
    }
    if (search_enumerate(sc, &l, &e) != 0) {
        if (rank == 0)
            fprintf(stderr, "%s: %s\n", o->cmd, e.msg);
        goto out;
    }
    ev = x_calloc((size_t)l.n + 1, sizeof *ev);
    /* rank 0 shows its part's progress, as the whole's (the parts are even) */
    progress_start(&prog, o->cmd, rank == 0 && !o->quiet ? stderr : NULL);
    evaluated = search_eval(sc, &l, rank, size, ev, &pg, &e) == 0;
    if (!evaluated) {
        progress_end(&prog, l.n);
        fprintf(stderr, "%s: %s\n", o->cmd, e.msg);
        goto free_list;
    }
    if (size > 1) {
        int cnt = l.n * SEARCH_NFIELDS;
        if (rank == 0)
            MPI_Reduce(MPI_IN_PLACE, ev, cnt, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        else
            MPI_Reduce(ev, NULL, cnt, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        if (rank != 0) {
            rc = 0;
            goto free_list;
        }
    }
    sopts.trace = o->trace != NULL;
    sopts.trace_max_records = CHROME_TRACE_MAX_RECORDS;
    sopts.finishing = progress_finishing;
    sopts.arg = &prog;
    if (search_finish(sc, &l, ev, &sopts, &r, &e) != 0) {
        progress_end(&prog, l.n);
        fprintf(stderr, "%s: %s\n", o->cmd, e.msg);
        goto free_list;
    }
    progress_end(&prog, l.n);
    rc = write_outputs(&r, &l, o);
    search_result_free(&r);
free_list:
    x_free(ev);
    search_list_free(&l);
out:
    mpienv_finalize();
    return rc;
}

/* ---- flags ------------------------------------------------------------- */

static void usage(void)
{
    format_usage(stdout, "dtplan plan", usage_rest);
    printf("\nSearch the catalog for the cluster that best meets the scenario's "
           "objective (the plan: section\nlimits the search; see docs/plan.md).  Under "
           "mpirun the sweep is split across the ranks.\n\n"
           "  --top N        rows of the ranked table (overrides plan.top), 1..1000\n"
           "  --all          keep every strategy of a cluster, and candidates more than 10x\n"
           "                 worse than the best, in the table\n");
    format_help(stdout, 1, 14);
    printf("  --trace FILE   also write the simulated steps of the recommended cluster as a\n"
           "                 Chrome trace (JSON)\n"
           "  --report FILE  also write an HTML report with SVG charts of the top N and the\n"
           "                 Pareto front\n"
           "  --save-json FILE\n"
           "                 also write the report as --json prints it, to FILE\n"
           "Other options as for dtplan (dtplan --help).\n");
}

int plan_cmd_main(int argc, char **argv)
{
    struct plan_cmd_opts o = {0};
    int given[FORMAT_MAX] = {0};
    const char *scenario = NULL, *catarg = NULL;
    int have_seed = 0, have_steps = 0, have_top = 0, quiet = 0, rc, all = 0;
    unsigned long long seed = 0, steps = 0, top = 0;
    const struct args_opt tail[] = {
        {"--quiet", "-q", ARGS_SWITCH, &quiet, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--trace", NULL, ARGS_FILE, NULL, &o.trace, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--report", NULL, ARGS_FILE, NULL, &o.report, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--save-json", NULL, ARGS_FILE, NULL, &o.save_json, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--output", "-o", ARGS_FILE, NULL, &o.output, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--catalog", NULL, ARGS_DIR, NULL, &catarg, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--seed", NULL, ARGS_UINT, &have_seed, NULL, &seed, 0, ULONG_MAX, NULL, NULL, NULL, NULL},
        {"--steps", NULL, ARGS_UINT, &have_steps, NULL, &steps, 1, 1000000, NULL, NULL, NULL, NULL},
        {"--top", NULL, ARGS_UINT, &have_top, NULL, &top, 1, 1000, NULL, NULL, NULL, NULL},
        {"--all", NULL, ARGS_SWITCH, &all, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--version", NULL, ARGS_STOP, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL},
    };
    /* --help, the format flags (format.h), then the rest */
    struct args_opt opts[1 + FORMAT_MAX + sizeof tail / sizeof tail[0]] = {
        {"--help", "-h", ARGS_STOP, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL},
    };
    int nopts = 1;
    const struct args_opt *stop = NULL;
    char *catdir;
    struct catalog cat;
    struct scenario sc;
    struct dt_err e = {{0}};
    cJSON_Hooks hooks = {x_malloc, x_free};

    cJSON_InitHooks(&hooks);
    nopts += format_opts(opts + nopts, given);
    memcpy(opts + nopts, tail, sizeof tail);
    nopts += (int)(sizeof tail / sizeof tail[0]);
    {
        const struct args_cmd cmd = {"dtplan plan", NULL, opts, nopts, NULL};
        rc = args_parse(&cmd, argc, argv, &scenario, &stop, &e);
    }
    if (rc == ARGS_BAD) {
        fprintf(stderr, "%s\n", e.msg);
        return EXIT_INPUT;
    }
    if (rc == ARGS_STOPPED) {
        if (!strcmp(stop->name, "--version"))
            printf("dtplan " DTPLAN_VERSION "\n");
        else
            usage();
        return cli_flush_stdout("dtplan plan");
    }
    o.format = format_pick("dtplan plan", given, &e);
    if (!o.format) {
        fprintf(stderr, "%s\n", e.msg);
        return EXIT_INPUT;
    }
    if (!scenario) {
        format_usage(stderr, "dtplan plan", usage_rest);
        return EXIT_INPUT;
    }
    o.cmd = "dtplan plan";
    o.quiet = quiet;
    {
        struct cli_output outs[] = {
            {o.output, o.format->search, NULL, "-o"},
            {o.trace, cli_write_trace, NULL, "--trace"},
            {o.report, cli_write_html, NULL, "--report"},
            {o.save_json, report_search_json, NULL, "--save-json"},
        };
        if ((rc = cli_check_outputs(o.cmd, outs, 4)) != 0)
            return rc;
    }
    catdir = cli_catalog_find("dtplan plan", catarg, &e);
    if (!catdir) {
        fprintf(stderr, "%s\n", e.msg);
        return EXIT_INPUT;
    }
    rc = cli_catalog_load("dtplan plan", catdir, &cat, &e);
    x_free(catdir);
    if (rc != 0) {
        fprintf(stderr, "%s\n", e.msg);
        return EXIT_INPUT;
    }
    if (ld_scenario_load(&sc, scenario, &cat, &e) != 0) {
        fprintf(stderr, "%s\n", e.msg);
        catalog_free(&cat);
        return EXIT_INPUT;
    }
    if (!sc.plan.present)
        scenario_plan_defaults(&sc.plan);
    if (have_seed)
        sc.simulation.seed = (unsigned long)seed;
    if (have_steps)
        sc.simulation.steps = (int)steps;
    sc.plan.all = all;
    if (have_top)
        sc.plan.top = (int)top;
    if (!quiet && (!mpienv_launched() || getenv("OMPI_COMM_WORLD_RANK") == NULL ||
                   strcmp(getenv("OMPI_COMM_WORLD_RANK"), "0") == 0))
        fprintf(stderr, "dtplan: seed %lu\n", sc.simulation.seed);
    rc = plan_cmd_search(&sc, &o);
    scenario_free(&sc);
    catalog_free(&cat);
    return rc;
}
