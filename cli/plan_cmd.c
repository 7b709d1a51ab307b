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
 * as CSV (--csv); written atomically with -o.  --report and --trace write
 * the HTML report (top N and Pareto front) and the Chrome trace (the
 * recommended cluster) through the writers of `dtplan SCENARIO`, from the
 * struct plan_report the search result carries (search.h).  Flags,
 * the catalog search and atomic output: cliutil.h.  Exit status as dtplan's:
 * 0, 1 planning or output error, 2 bad flags or input.
 */
#include "plan_cmd.h"

#include <cJSON.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../catalog/catalog.h"
#include "../planner/search.h"
#include "cliutil.h"
#include "../base/mpienv.h"
#include "report.h"
#include "ld_scenario.h"
#include "chrome_trace.h"
#include "../base/units.h"

enum { EXIT_PLAN = CLI_EXIT_PLAN, EXIT_INPUT = CLI_EXIT_INPUT };

static const char usage_line[] =
    "usage: dtplan plan [--json | --csv] [-o FILE] [--trace FILE] [--report FILE] [--catalog DIR] "
    "[--seed N] [--steps N] [--top N] [--all] [-q] SCENARIO.yaml";

/* ---- the table --------------------------------------------------------- */

static const char *pick_head[] = {"#", "cluster", "strategy", "bucket MiB", "step ms", "band ms",
                                  "GPU%", "CPU%", "NIC%", "samples/s", "$/h", "$/step", "to train",
                                  "$ to train", "bound"};
enum { PH_N = 15 };

/* "2x g5.12xlarge + 1x c5.18xlarge data spot", from the groups (never cut short). */
static char *cell_groups(const struct sc_cluster *cl)
{
    char buf[512];
    size_t o = 0;
    int spot = 0;

    buf[0] = 0;
    for (int i = 0; i < cl->ngroups && o < sizeof buf; i++) {
        const struct sc_group *g = &cl->groups[i];
        int n = snprintf(buf + o, sizeof buf - o, "%s%dx %s%s%s", i ? " + " : "", g->count,
                         g->inst->name, g->role == SIM_TRAIN ? "" : " ",
                         g->role == SIM_TRAIN ? "" : sim_role_name(g->role));
        if (n > 0)
            o += (size_t)n;
        spot |= g->spot;
    }
    if (spot && o < sizeof buf)
        snprintf(buf + o, sizeof buf - o, " spot");
    return x_strdup(buf);
}

/* enum plan_infeasible as the report says it, and as JSON names it. */
static const char *const infeasible_words[PLAN_INF_N] = {
    "", "do not fit in memory", "over the budget", "over the data channels",
    "miss the deadline", "over the global batch"};
static const char *const infeasible_key[PLAN_INF_N] = {
    "", "memory", "budget", "channels", "deadline", "global_batch"};

static void pick_row(const char *mark, const struct search_pick *pk,
                     const struct report_colfmt *cf, char **row)
{
    const struct plan_cluster *pc = &pk->pc;
    int comm = search_pick_comm(pk);

    row[0] = x_strdup(mark);
    row[1] = cell_groups(&pk->cl);
    row[2] = x_strdup(comm ? sim_strategy_name(pc->cfg.c.strategy) : "-");
    row[3] = comm ? report_cell_num("%g", pc->cfg.c.bucket_bytes / DT_MIB) : x_strdup("-");
    row[4] = report_cell_num("%.1f", 1e3 * pc->res.step_mean_s);
    row[5] = report_cell_band(pc);
    row[6] = report_cell_num("%.0f", 100 * pc->res.util_gpu);
    row[7] = report_cell_num("%.0f", 100 * pc->res.util_cpu);
    row[8] = report_cell_num("%.0f", 100 * pc->res.util_nic);
    row[9] = report_cell_num("%.1f", pc->res.samples_per_s);
    row[10] = report_cell_num("%.3f", pc->price_usd_h);
    row[11] = report_cell_usd(pc->cost_per_step_usd, cf->usd_step_decimals);
    row[12] = report_cell_duration(pc->train_s, cf->train);
    row[13] = report_cell_num("%.2f", pc->cost_to_train_usd);
    row[14] = x_strdup(plan_bound_name(pc->bound));
}

static void print_picks(FILE *f, const struct search_pick *pk, int n, const char *const *marks,
                        int numbered)
{
    char **cells = x_calloc((size_t)(n + 1) * PH_N, sizeof *cells);
    struct report_colfmt cf;
    int right[PH_N];

    report_colfmt_of(n > 0 ? &pk[0].pc : NULL, n, sizeof *pk, &cf);
    for (int c = 0; c < PH_N; c++) {
        cells[c] = x_strdup(pick_head[c]);
        right[c] = c == 0 || (c >= 3 && c <= 13);
    }
    for (int i = 0; i < n; i++) {
        char num[16];
        snprintf(num, sizeof num, "%d", i + 1);
        pick_row(numbered ? num : marks[i], &pk[i], &cf, &cells[(size_t)(i + 1) * PH_N]);
    }
    report_grid_print(f, cells, n + 1, PH_N, right, NULL);
    for (size_t i = 0; i < (size_t)(n + 1) * PH_N; i++)
        x_free(cells[i]);
    x_free(cells);
}

static int write_table(FILE *f, const struct search_result *r, const struct search_list *l)
{
    const struct scenario *sc = r->sc;
    const char *marks[SEARCH_NKINDS];
    struct search_pick kinds[SEARCH_NKINDS];
    int nk = 0;
    double state, need = search_memory_bytes(sc, &state);

    fprintf(f, "Scenario: %s (catalog search)\n", sc->name);
    if (sc->plan.search_steps > 0 || sc->plan.search_warmup >= 0)
        fprintf(f, "Seed: %lu; each candidate simulated with %d steps after %d warm-up, the rows "
                "below again with %d after %d\n", sc->seed,
                sc->plan.search_steps > 0 ? sc->plan.search_steps : sc->steps,
                sc->plan.search_warmup >= 0 ? sc->plan.search_warmup : sc->warmup, sc->steps,
                sc->warmup);
    else
        fprintf(f, "Seed: %lu (each candidate: %d measured steps after %d warm-up)\n", sc->seed,
                sc->steps, sc->warmup);
    char tp_note[96] = "";
    if (l->pruned_tp)
        snprintf(tp_note, sizeof tp_note, ", %ld where parallel.tp %d does not fit a node",
                 l->pruned_tp, sc->tp);
    fprintf(f, "Searched: %ld candidates over %d instance types, %ld feasible; pruned before "
            "simulating: %ld do not fit in memory, %ld over the budget, %ld over the data "
            "channels, %ld over max_gpus%s\n", r->candidates, l->ntrain_types, r->feasible,
            l->pruned_memory, l->pruned_budget, l->pruned_channels, l->pruned_gpus,
            tp_note);
    {
        char buf[512];
        int o = 0;
        for (int k = PLAN_OK + 1; k < PLAN_INF_N; k++)
            if (r->counts.infeasible[k] && o < (int)sizeof buf)
                o += snprintf(buf + o, sizeof buf - (size_t)o, "%s%ld %s", o ? ", " : "",
                              r->counts.infeasible[k], infeasible_words[k]);
        if (r->counts.failed && o < (int)sizeof buf)
            o += snprintf(buf + o, sizeof buf - (size_t)o, "%s%ld could not be simulated",
                          o ? ", " : "", r->counts.failed);
        if (o)
            fprintf(f, "Simulated and left out: %s\n", buf);
    }
    if (l->single_node)
        fprintf(f, "One node only: %d instance type%s whose network rate is unknown in the "
                "catalog (%s%s): no multi-node candidate of %s was searched\n", l->single_node,
                l->single_node == 1 ? "" : "s", l->single_names, l->single_node > 4 ? ", ..." : "",
                l->single_node == 1 ? "it" : "them");
    if (l->skipped_peak)
        fprintf(f, "Skipped: %d GPU instance types whose %s peak FLOP/s is unknown in the "
                "catalog (they cannot be costed)\n", l->skipped_peak,
                catalog_prec_name(sc->precision));
    if (l->memory_unknown)
        fprintf(f, "Memory: activation memory of %s unknown (catalog act_mib_per_sample empty): "
                "pruned on the model state only (%.2f GiB per worker)\n", sc->model->name,
                state / DT_GIB);
    else
        fprintf(f, "Memory: %.2f GiB per worker (model state %.2f GiB + activations at batch "
                "%d) must fit in 90%% of a GPU's memory\n", need / DT_GIB,
                state / DT_GIB, sc->batch_per_gpu);
    fprintf(f, "Objective: %s", scenario_objective_name(sc->objective));
    if (isfinite(sc->deadline_h))
        fprintf(f, ", deadline %g h", sc->deadline_h);
    if (isfinite(sc->budget_usd_h))
        fprintf(f, ", budget $%.2f/h", sc->budget_usd_h);
    if (sc->max_data_channels > 0)
        fprintf(f, ", at most %d data channels", sc->max_data_channels);
    fprintf(f, "\n\n");
    if (r->ntop == 0) {
        fprintf(f, "Recommendation: %s\n", r->reason);
        return ferror(f) ? -1 : 0;
    }
    fprintf(f, "Top %d by %s%s:\n", r->ntop, scenario_objective_name(sc->objective),
            r->tie_moved ? (sc->objective == SC_OBJ_TIME
                                ? " (first: the cheapest of those that tie within the error of the model)"
                                : " (first: the fastest of those that tie within the error of the model)")
                         : "");
    print_picks(f, r->top, r->ntop, NULL, 1);
    report_precision_notes(f, &r->top[0].pc, r->ntop, sizeof *r->top);
    report_collective_notes(f, &r->top[0].pc, r->ntop, sizeof *r->top);
    report_layout_notes(f, &r->top[0].pc, r->ntop, sizeof *r->top);
    fprintf(f, "\nPareto front (%s against %s; none is both faster and cheaper):\n",
            r->front_train ? "time to train" : "step time",
            r->front_train ? "cost to train" : "cost per step");
    print_picks(f, r->front, r->nfront, NULL, 1);
    for (int k = 0; k < SEARCH_NKINDS; k++)
        if (r->kinds[k].index >= 0) {
            marks[nk] = search_kind_name((enum search_kind)k);
            kinds[nk++] = r->kinds[k];
        }
    fprintf(f, "\nBest of each kind:\n");
    print_picks(f, kinds, nk, marks, 0);
    fprintf(f, "\n%s: %s: %s\n", r->current_listed ? "Current choice" : "Smallest start",
            r->current.cl->name, r->current.bound_text);
    fprintf(f, "Recommended: %s (%s): %s\n", r->top[0].cl.name,
            plan_action_name(r->action), r->top[0].pc.bound_text);
    fprintf(f, "\nRecommendation: %s: %s\n", plan_action_name(r->action), r->reason);
    return ferror(f) ? -1 : 0;
}

/* ---- JSON -------------------------------------------------------------- */

static cJSON *jplan_cluster(const struct plan_cluster *pc, int comm)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", pc->cl->name);
    cJSON_AddItemToObject(o, "groups", report_json_groups(pc->cl, &pc->cfg));
    if (comm) {
        cJSON_AddStringToObject(o, "strategy", sim_strategy_name(pc->cfg.c.strategy));
        report_json_num(o, "bucket_mib", pc->cfg.c.bucket_bytes / DT_MIB);
    }
    report_json_num(o, "step_s", pc->res.step_mean_s);
    report_json_num(o, "step_p95_s", pc->res.step_p95_s);
    report_json_band(o, "step_band_s", pc);
    report_json_cluster_model(o, pc);
    report_json_num(o, "compute_s", pc->res.compute_s);
    report_json_num(o, "data_stall_s", pc->res.data_stall_s);
    report_json_num(o, "exposed_comm_s", pc->res.exposed_comm_s);
    report_json_num(o, "comm_interference_s", pc->res.comm_interference_s);
    report_json_num(o, "workers", pc->res.workers);
    report_json_num(o, "samples_per_s", pc->res.samples_per_s);
    report_json_num(o, "util_gpu", pc->res.util_gpu);
    report_json_num(o, "util_cpu", pc->res.util_cpu);
    report_json_num(o, "util_nic", pc->res.util_nic);
    report_json_num(o, "price_usd_h", pc->price_usd_h);
    report_json_num(o, "cost_per_step_usd", pc->cost_per_step_usd);
    report_json_num(o, "train_s", pc->train_s);
    report_json_num(o, "cost_to_train_usd", pc->cost_to_train_usd);
    cJSON_AddBoolToObject(o, "feasible", pc->feasible);
    if (!pc->feasible)
        cJSON_AddStringToObject(o, "infeasible_why", pc->infeasible_why);
    cJSON_AddStringToObject(o, "bound", plan_bound_name(pc->bound));
    cJSON_AddStringToObject(o, "bound_text", pc->bound_text);
    return o;
}

static cJSON *jpick(const struct search_pick *pk)
{
    return jplan_cluster(&pk->pc, search_pick_comm(pk));
}

static int write_json(FILE *f, const struct search_result *r, const struct search_list *l)
{
    const struct scenario *sc = r->sc;
    cJSON *o = cJSON_CreateObject(), *s, *a;
    double state, need = search_memory_bytes(sc, &state);
    char *txt;
    int rc;

    cJSON_AddStringToObject(o, "scenario", sc->name);
    cJSON_AddNumberToObject(o, "seed", (double)sc->seed);
    cJSON_AddStringToObject(o, "objective", scenario_objective_name(sc->objective));
    report_json_num(o, "deadline_h", sc->deadline_h);
    report_json_num(o, "budget_usd_h", sc->budget_usd_h);
    s = cJSON_AddObjectToObject(o, "search");
    cJSON_AddNumberToObject(s, "candidates", (double)r->candidates);
    cJSON_AddNumberToObject(s, "feasible", (double)r->feasible);
    cJSON_AddNumberToObject(s, "instance_types", l->ntrain_types);
    cJSON_AddNumberToObject(s, "pruned_memory", (double)l->pruned_memory);
    cJSON_AddNumberToObject(s, "pruned_budget", (double)l->pruned_budget);
    cJSON_AddNumberToObject(s, "pruned_channels", (double)l->pruned_channels);
    cJSON_AddNumberToObject(s, "pruned_gpus", (double)l->pruned_gpus);
    cJSON_AddNumberToObject(s, "pruned_tp", (double)l->pruned_tp);
    {
        cJSON *inf = cJSON_AddObjectToObject(s, "infeasible");
        for (int k = PLAN_OK + 1; k < PLAN_INF_N; k++)
            cJSON_AddNumberToObject(inf, infeasible_key[k], (double)r->counts.infeasible[k]);
        cJSON_AddNumberToObject(s, "not_simulated", (double)r->counts.failed);
    }
    cJSON_AddNumberToObject(s, "skipped_unknown_peak", l->skipped_peak);
    cJSON_AddNumberToObject(s, "single_node_unknown_network", l->single_node);
    cJSON_AddBoolToObject(s, "activation_memory_known", !l->memory_unknown);
    report_json_num(s, "memory_per_worker_bytes", l->memory_unknown ? state : need);
    cJSON_AddNumberToObject(s, "search_steps",
                            sc->plan.search_steps > 0 ? sc->plan.search_steps : sc->steps);
    cJSON_AddNumberToObject(s, "search_warmup",
                            sc->plan.search_warmup >= 0 ? sc->plan.search_warmup : sc->warmup);
    cJSON_AddNumberToObject(s, "steps", sc->steps);
    cJSON_AddNumberToObject(s, "warmup", sc->warmup);
    a = cJSON_AddArrayToObject(o, "top");
    for (int i = 0; i < r->ntop; i++)
        cJSON_AddItemToArray(a, jpick(&r->top[i]));
    cJSON_AddStringToObject(o, "front_axes", r->front_train ? "train_s,cost_to_train_usd"
                                                             : "step_s,cost_per_step_usd");
    a = cJSON_AddArrayToObject(o, "front");
    for (int i = 0; i < r->nfront; i++)
        cJSON_AddItemToArray(a, jpick(&r->front[i]));
    s = cJSON_AddObjectToObject(o, "best_of_kind");
    for (int k = 0; k < SEARCH_NKINDS; k++) {
        static const char *key[] = {"single_node", "scale_out", "heterogeneous", "cpu_only"};
        if (r->kinds[k].index >= 0)
            cJSON_AddItemToObject(s, key[k], jpick(&r->kinds[k]));
        else
            cJSON_AddNullToObject(s, key[k]);
    }
    if (r->ntop > 0) {
        const struct plan_cluster *cur = &r->current;
        cJSON *c = jplan_cluster(cur, cur->res.workers > 1 || cur->cl->ngroups > 1);
        cJSON_AddBoolToObject(c, "listed", r->current_listed);
        cJSON_AddItemToObject(o, "current", c);
    } else {
        cJSON_AddNullToObject(o, "current");
    }
    s = cJSON_AddObjectToObject(o, "recommendation");
    cJSON_AddStringToObject(s, "action", plan_action_name(r->action));
    if (r->ntop > 0)
        cJSON_AddStringToObject(s, "cluster", r->top[0].cl.name);
    else
        cJSON_AddNullToObject(s, "cluster");
    cJSON_AddStringToObject(s, "reason", r->reason);
    txt = cJSON_Print(o);
    cJSON_Delete(o);
    if (!txt)
        return -1;
    rc = fprintf(f, "%s\n", txt) < 0 ? -1 : 0;
    x_free(txt);
    return rc || ferror(f) ? -1 : 0;
}

/* ---- outputs ----------------------------------------------------------- */

struct search_out {
    const struct search_result *r;
    const struct search_list *l;
    int json;
};

static int write_main(FILE *f, const void *ctx, struct dt_err *e)
{
    const struct search_out *o = ctx;
    (void)e;
    return o->json ? write_json(f, o->r, o->l) : write_table(f, o->r, o->l);
}

/* The report (table, JSON or CSV), --trace and --report, all or nothing, on rank 0. */
static int write_outputs(const struct search_result *r, const struct search_list *l,
                         const struct plan_cmd_opts *o)
{
    struct search_out so = {r, l, o->json};
    struct plan_report ranked = r->report, recommended = r->report;

    ranked.nclusters = r->ntop;             /* the ranked table: the top N */
    recommended.nclusters = r->ntop > 0 ? 1 : 0; /* the trace: the first, if any */
    {
        struct cli_output outs[] = {
            {o->output, o->csv ? cli_write_csv : write_main, o->csv ? (const void *)&ranked : &so,
             "-o"},
            {o->trace, o->trace ? cli_write_trace : NULL, &recommended, "--trace"},
            {o->report, o->report ? cli_write_html : NULL, &r->report, "--report"},
        };
        return cli_write_outputs(o->cmd, outs, 3);
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
    struct dt_err e = {{0}};
    int rank, size, rc = EXIT_PLAN;

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
    if (search_eval(sc, &l, rank, size, ev, &e) != 0) {
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
    if (search_finish(sc, &l, ev, &sopts, &r, &e) != 0) {
        fprintf(stderr, "%s: %s\n", o->cmd, e.msg);
        goto free_list;
    }
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
    printf("%s\n\nSearch the catalog for the cluster that best meets the scenario's "
           "objective (the plan: section\nlimits the search; see docs/plan.md).  Under "
           "mpirun the sweep is split across the ranks.\n\n"
           "  --top N        rows of the ranked table (overrides plan.top), 1..1000\n"
           "  --all          keep every strategy of a cluster, and candidates more than 10x\n"
           "                 worse than the best, in the table\n"
           "  --csv          print the ranked table as CSV instead of the table\n"
           "  --trace FILE   also write the simulated steps of the recommended cluster as a\n"
           "                 Chrome trace (JSON)\n"
           "  --report FILE  also write an HTML report with SVG charts of the top N and the\n"
           "                 Pareto front\n"
           "Other options as for dtplan (dtplan --help).\n", usage_line);
}

int plan_cmd_main(int argc, char **argv)
{
    struct plan_cmd_opts o = {0};
    const char *scenario = NULL, *catarg = NULL;
    int have_seed = 0, have_steps = 0, have_top = 0, quiet = 0, rc, all = 0;
    unsigned long long seed = 0, steps = 0, top = 0;
    const struct args_opt opts[] = {
        {"--help", "-h", ARGS_STOP, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--json", NULL, ARGS_SWITCH, &o.json, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--csv", NULL, ARGS_SWITCH, &o.csv, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--quiet", "-q", ARGS_SWITCH, &quiet, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--trace", NULL, ARGS_FILE, NULL, &o.trace, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--report", NULL, ARGS_FILE, NULL, &o.report, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--output", "-o", ARGS_FILE, NULL, &o.output, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--catalog", NULL, ARGS_DIR, NULL, &catarg, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--seed", NULL, ARGS_UINT, &have_seed, NULL, &seed, 0, ULONG_MAX, NULL, NULL, NULL, NULL},
        {"--steps", NULL, ARGS_UINT, &have_steps, NULL, &steps, 1, 1000000, NULL, NULL, NULL, NULL},
        {"--top", NULL, ARGS_UINT, &have_top, NULL, &top, 1, 1000, NULL, NULL, NULL, NULL},
        {"--all", NULL, ARGS_SWITCH, &all, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--version", NULL, ARGS_STOP, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL},
    };
    const struct args_cmd cmd = {"dtplan plan", NULL, opts, (int)(sizeof opts / sizeof opts[0]),
                                 NULL};
    const struct args_opt *stop = NULL;
    char *catdir;
    struct catalog cat;
    struct scenario sc;
    struct dt_err e = {{0}};
    cJSON_Hooks hooks = {x_malloc, x_free};

    cJSON_InitHooks(&hooks);
    rc = args_parse(&cmd, argc, argv, &scenario, &stop, &e);
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
    if (o.json && o.csv) {
        fprintf(stderr, "dtplan plan: --csv: expected at most one of --json and --csv, found both\n");
        return EXIT_INPUT;
    }
    if (!scenario) {
        fprintf(stderr, "%s\n", usage_line);
        return EXIT_INPUT;
    }
    o.cmd = "dtplan plan";
    {
        struct cli_output outs[] = {
            {o.output, write_main, NULL, "-o"},
            {o.trace, cli_write_trace, NULL, "--trace"},
            {o.report, cli_write_html, NULL, "--report"},
        };
        if ((rc = cli_check_outputs(o.cmd, outs, 3)) != 0)
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
        sc.seed = (unsigned long)seed;
    if (have_steps)
        sc.steps = (int)steps;
    sc.plan.all = all;
    if (have_top)
        sc.plan.top = (int)top;
    if (!quiet && (!mpienv_launched() || getenv("OMPI_COMM_WORLD_RANK") == NULL ||
                   strcmp(getenv("OMPI_COMM_WORLD_RANK"), "0") == 0))
        fprintf(stderr, "dtplan: seed %lu\n", sc.seed);
    rc = plan_cmd_search(&sc, &o);
    scenario_free(&sc);
    catalog_free(&cat);
    return rc;
}
