/*
 * report_search.c - the reports of `dtplan plan` (report_search.h): the
 * search's ranked table, Pareto front and best of each kind for people, one
 * JSON object for programs, and the ranked clusters as CSV through
 * report.c's writer.  Cells and JSON fields go through report.h's helpers,
 * so a cluster reads the same here as in `dtplan SCENARIO`'s report.
 *
 * Everything printed was computed by the search (planner/search.h: the
 * list's counts and memory need, each pick's struct plan_cluster); these
 * functions only format.  Cost: O(picks x columns) cells.
 */
#include "report_search.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../base/units.h"
#include "../base/xmem.h"
#include "report.h"
#include "report_parts.h"

/* ---- the table --------------------------------------------------------- */

/* The columns; the step's parts, PH_PARTS on, in enum report_part's order,
 * as report_parts_shown says. */
static const char *pick_head[] = {"#", "cluster", "strategy", "bucket MiB", "step ms", "band ms",
                                  "compute", "stall", "dp comm", "tp comm", "ep comm", "bubble",
                                  "interf", "optim", "GPU%", "CPU%", "NIC%", "samples/s", "$/h",
                                  "$/step", "to train", "$ to train", "bound"};
enum { PH_PARTS = 6, PH_N = 23 };
_Static_assert(sizeof pick_head / sizeof pick_head[0] == PH_N, "a heading for each column");
_Static_assert(PH_N == 15 + REPORT_NPARTS, "a column for each part of the step");

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
    double part[REPORT_NPARTS];

    report_parts_of(&pc->res, part);
    row[0] = x_strdup(mark);
    row[1] = cell_groups(&pk->cl);
    row[2] = x_strdup(comm ? sim_strategy_name(pc->cfg.c.strategy) : "-");
    row[3] = comm ? report_cell_num("%g", pc->cfg.c.bucket_bytes / DT_MIB) : x_strdup("-");
    row[4] = report_cell_num("%.1f", 1e3 * pc->res.step_mean_s);
    row[5] = report_cell_band(pc);
    char **after = row + PH_PARTS + REPORT_NPARTS;   /* the columns after the parts */

    for (int p = 0; p < REPORT_NPARTS; p++)
        row[PH_PARTS + p] = report_cell_num("%.1f", 1e3 * part[p]);
    after[0] = report_cell_num("%.0f", 100 * pc->res.util_gpu);
    after[1] = report_cell_num("%.0f", 100 * pc->res.util_cpu);
    after[2] = report_cell_num("%.0f", 100 * pc->res.util_nic);
    after[3] = report_cell_num("%.1f", pc->res.samples_per_s);
    after[4] = report_cell_num("%.3f", pc->price_usd_h);
    after[5] = report_cell_usd(pc->cost_per_step_usd, cf->usd_step_decimals);
    after[6] = report_cell_duration(pc->train_s, cf->train);
    after[7] = report_cell_num("%.2f", pc->cost_to_train_usd);
    after[8] = x_strdup(plan_bound_name(pc->bound));
}

static void print_picks(FILE *f, const struct search_pick *pk, int n, const char *const *marks,
                        int numbered)
{
    char **cells = x_calloc((size_t)(n + 1) * PH_N, sizeof *cells);
    struct report_colfmt cf;
    int right[PH_N], show[PH_N], parts[REPORT_NPARTS];

    report_colfmt_of(n > 0 ? &pk[0].pc : NULL, n, sizeof *pk, &cf);
    report_parts_shown(n > 0 ? &pk[0].pc : NULL, n, sizeof *pk, parts);
    for (int c = 0; c < PH_N; c++) {
        cells[c] = x_strdup(pick_head[c]);
        right[c] = c == 0 || (c >= 3 && c < PH_N - 1);     /* all but the names and bound */
        show[c] = c < PH_PARTS || c >= PH_PARTS + REPORT_NPARTS || parts[c - PH_PARTS];
    }
    for (int i = 0; i < n; i++) {
        char num[16];
        snprintf(num, sizeof num, "%d", i + 1);
        pick_row(numbered ? num : marks[i], &pk[i], &cf, &cells[(size_t)(i + 1) * PH_N]);
    }
    report_grid_print(f, cells, n + 1, PH_N, right, show);
    for (size_t i = 0; i < (size_t)(n + 1) * PH_N; i++)
        x_free(cells[i]);
    x_free(cells);
}

/* The legend of the step's parts any of the three tables shows. */
static void parts_legend(FILE *f, const struct search_result *r)
{
    int show[REPORT_NPARTS], some[REPORT_NPARTS];

    report_parts_shown(&r->top[0].pc, r->ntop, sizeof *r->top, show);
    report_parts_shown(r->nfront > 0 ? &r->front[0].pc : NULL, r->nfront, sizeof *r->front, some);
    for (int p = 0; p < REPORT_NPARTS; p++)
        show[p] |= some[p];
    for (int k = 0; k < SEARCH_NKINDS; k++)
        if (r->kinds[k].index >= 0) {
            report_parts_shown(&r->kinds[k].pc, 1, sizeof r->kinds[k], some);
            for (int p = 0; p < REPORT_NPARTS; p++)
                show[p] |= some[p];
        }
    report_parts_shown(r->nclouds > 0 ? &r->clouds[0].pc : NULL, r->nclouds, sizeof *r->clouds,
                       some);
    for (int p = 0; p < REPORT_NPARTS; p++)
        show[p] |= some[p];
    fprintf(f, "Times in ms per step (");
    report_parts_sum(f, show);
    fprintf(f, ").\nParts: ");
    report_parts_legend(f, show);
    fprintf(f, ".\n");
}

static int write_table(FILE *f, const struct search_result *r, const struct search_list *l)
{
    const struct scenario *sc = r->sc;
    const char *marks[SEARCH_NKINDS];
    struct search_pick kinds[SEARCH_NKINDS];
    int nk = 0;
    double state = l->state_bytes, need = l->memory_bytes;

    fprintf(f, "Scenario: %s (catalog search)\n", sc->name);
    if (sc->plan.search_steps > 0 || sc->plan.search_warmup >= 0)
        fprintf(f, "Seed: %lu; each candidate simulated with %d steps after %d warm-up, the rows "
                "below again with %d after %d\n", sc->simulation.seed,
                sc->plan.search_steps > 0 ? sc->plan.search_steps : sc->simulation.steps,
                sc->plan.search_warmup >= 0 ? sc->plan.search_warmup : sc->simulation.warmup, sc->simulation.steps,
                sc->simulation.warmup);
    else
        fprintf(f, "Seed: %lu (each candidate: %d measured steps after %d warm-up)\n", sc->simulation.seed,
                sc->simulation.steps, sc->simulation.warmup);
    char tp_note[192] = "";
    if (l->pruned_tp)
        snprintf(tp_note, sizeof tp_note, ", %ld where parallel.tp %d does not fit a node",
                 l->pruned_tp, sc->parallel.tp);
    if (l->pruned_pp) {
        size_t n = strlen(tp_note);
        int cp = sc->parallel.cp > 1 ? sc->parallel.cp : 1, ep = sc->parallel.ep > 1 ? sc->parallel.ep : 1;
        n += (size_t)snprintf(tp_note + n, sizeof tp_note - n,
                              ", %ld that cannot place parallel.pp %d x tp %d", l->pruned_pp,
                              sc->parallel.pp, sc->parallel.tp > 1 ? sc->parallel.tp : 1);
        if (cp > 1 && n < sizeof tp_note)
            n += (size_t)snprintf(tp_note + n, sizeof tp_note - n, " x cp %d", cp);
        if (ep > 1 && n < sizeof tp_note)
            snprintf(tp_note + n, sizeof tp_note - n, " with ep %d", ep);
    }
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
                catalog_prec_name(sc->workload.precision));
    if (l->memory_unknown)
        fprintf(f, "Memory: activation memory of %s unknown (catalog act_mib_per_sample empty): "
                "pruned on the model state only (%.2f GiB per worker)\n", sc->workload.model->name,
                state / DT_GIB);
    else if (sc->parallel.tp_auto || sc->parallel.pp_auto || sc->parallel.recompute_auto ||
             sc->parallel.cp_auto || sc->parallel.ep_auto || sc->parallel.etp_auto) {
        int shape = sc->parallel.tp_auto || sc->parallel.pp_auto;
        int more = sc->parallel.cp_auto || sc->parallel.ep_auto || sc->parallel.etp_auto;
        fprintf(f, "Memory: %.2f GiB on one worker (model state %.2f GiB + activations at batch "
                "%d%s); each candidate must fit in 90%% of a GPU's memory at the smallest "
                "footprint of the layouts left to the planner (%s%s%s%s%s)\n", need / DT_GIB,
                state / DT_GIB, sc->parallel.micro_batch_auto ? 1 : sc->parallel.micro_batch,
                sc->parallel.recompute_auto ? ", recompute full" : "",
                shape ? "tensor and pipeline parallelism up to what the cluster allows" : "",
                more && shape ? ", " : "",
                more ? "context and expert parallelism" : "",
                (shape || more) && sc->parallel.recompute_auto
                    ? ", recompute" : sc->parallel.recompute_auto ? "recompute" : "",
                sc->parallel.sharding_auto ? ", sharding" : "");
    }
    else
        fprintf(f, "Memory: %.2f GiB per worker (model state %.2f GiB + activations at batch "
                "%d) must fit in 90%% of a GPU's memory\n", need / DT_GIB,
                state / DT_GIB, sc->parallel.micro_batch);
    if (l->skipped_cpu)
        fprintf(f, "CPU types left out: %d, for a transformer of %.1fB parameters (over %.0fB); "
                "plan.instances lists those to search\n", l->skipped_cpu,
                sc->workload.model->params / 1e9, SEARCH_CPU_MAX_PARAMS / 1e9);
    if (l->cpu_deadline)
        fprintf(f, "CPU types left out: %d that miss the %g h deadline even at their peak FLOP/s "
                "on %d nodes\n", l->cpu_deadline, sc->objective.deadline_h, sc->plan.max_nodes);
    if (l->no_data_nodes && sc->plan.max_data_nodes > 0)
        fprintf(f, "No data nodes searched: the input has no work for them (input.cpu_s_per_sample "
                "0, no prep_bytes)\n");
    fprintf(f, "Objective: %s", scenario_objective_name(sc->objective.minimize));
    if (isfinite(sc->objective.deadline_h))
        fprintf(f, ", deadline %g h", sc->objective.deadline_h);
    if (isfinite(sc->objective.budget_usd_h))
        fprintf(f, ", budget $%.2f/h", sc->objective.budget_usd_h);
    if (sc->objective.max_data_channels > 0)
        fprintf(f, ", at most %d data channels", sc->objective.max_data_channels);
    fprintf(f, "\n\n");
    if (r->ntop == 0) {
        fprintf(f, "Recommendation: %s\n", r->reason);
        return ferror(f) ? -1 : 0;
    }
    fprintf(f, "Top %d by %s%s:\n", r->ntop, scenario_objective_name(sc->objective.minimize),
            r->report.tie.first > 0
                ? (sc->objective.minimize == SC_OBJ_TIME
                       ? " (first: the cheapest of those that tie within the model's error)"
                       : " (first: the fastest of those that tie within the model's error)")
                : "");
    print_picks(f, r->top, r->ntop, NULL, 1);
    parts_legend(f, r);
    report_precision_notes(f, &r->top[0].pc, r->ntop, sizeof *r->top);
    report_batch_notes(f, &r->top[0].pc, r->ntop, sizeof *r->top);
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
    if (r->nclouds > 0) {
        const char *cm[SEARCH_MAX_CLOUDS];
        for (int k = 0; k < r->nclouds; k++)
            cm[k] = r->clouds[k].pc.cl->groups[0].inst->cloud;
        fprintf(f, "\nBest on each cloud:\n");
        print_picks(f, r->clouds, r->nclouds, cm, 0);
    }
    fprintf(f, "\n%s: %s: %s\n", r->current_listed ? "Current choice" : "Smallest start",
            r->current.cl->name, r->current.bound_text);
    if (r->keep_current)
        fprintf(f, "Recommended: %s (%s): %s\n", r->current.cl->name,
                plan_action_name(r->action), r->current.bound_text);
    else
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
    report_json_band(o, "step_band_s", pc->band_lo_s, pc->band_hi_s);
    report_json_cluster_model(o, pc);
    report_json_num(o, "compute_s", pc->res.compute_s);
    report_json_num(o, "data_stall_s", pc->res.data_stall_s);
    report_json_num(o, "exposed_comm_s", pc->res.exposed_comm_s);
    report_json_num(o, "dp_comm_s", report_parts_dp_comm_s(&pc->res));
    report_json_num(o, "tp_comm_s", pc->res.tp_comm_s);
    report_json_num(o, "ep_comm_s", pc->res.ep_comm_s);
    report_json_num(o, "pipeline_bubble_s", pc->res.pp_bubble_s);
    report_json_num(o, "comm_interference_s", pc->res.comm_interference_s);
    report_json_num(o, "optimizer_s", pc->res.optimizer_s);
    report_json_num(o, "workers", pc->res.workers);
    report_json_num(o, "samples_per_s", pc->res.samples_per_s);
    report_json_num(o, "util_gpu", pc->res.util_gpu);
    report_json_num(o, "util_cpu", pc->res.util_cpu);
    report_json_num(o, "util_nic", pc->res.util_nic);
    report_json_num(o, "price_usd_h", pc->price_usd_h);
    report_json_num(o, "cost_per_step_usd", pc->cost_per_step_usd);
    report_json_num(o, "train_s", pc->train_s);
    report_json_num(o, "cost_to_train_usd", pc->cost_to_train_usd);
    report_json_train_band(o, "train_band_s", pc);
    cJSON_AddItemToObject(o, "goodput", report_json_goodput(pc));
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
    double state = l->state_bytes, need = l->memory_bytes;
    char *txt;
    int rc;

    cJSON_AddStringToObject(o, "scenario", sc->name);
    cJSON_AddNumberToObject(o, "seed", (double)sc->simulation.seed);
    cJSON_AddStringToObject(o, "objective", scenario_objective_name(sc->objective.minimize));
    report_json_num(o, "deadline_h", sc->objective.deadline_h);
    report_json_num(o, "budget_usd_h", sc->objective.budget_usd_h);
    s = cJSON_AddObjectToObject(o, "search");
    cJSON_AddNumberToObject(s, "candidates", (double)r->candidates);
    cJSON_AddNumberToObject(s, "feasible", (double)r->feasible);
    cJSON_AddNumberToObject(s, "instance_types", l->ntrain_types);
    cJSON_AddNumberToObject(s, "pruned_memory", (double)l->pruned_memory);
    cJSON_AddNumberToObject(s, "pruned_budget", (double)l->pruned_budget);
    cJSON_AddNumberToObject(s, "pruned_channels", (double)l->pruned_channels);
    cJSON_AddNumberToObject(s, "pruned_gpus", (double)l->pruned_gpus);
    cJSON_AddNumberToObject(s, "pruned_tp", (double)l->pruned_tp);
    cJSON_AddNumberToObject(s, "pruned_pp", (double)l->pruned_pp);
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
    cJSON_AddNumberToObject(s, "skipped_cpu_large_model", l->skipped_cpu);
    cJSON_AddNumberToObject(s, "skipped_cpu_deadline", l->cpu_deadline);
    cJSON_AddBoolToObject(s, "data_nodes_searched", !l->no_data_nodes && sc->plan.max_data_nodes > 0);
    if (l->closest_nodes > 0) {
        cJSON *c = cJSON_AddObjectToObject(s, "closest_pruned_on_memory");
        char name[160];
        snprintf(name, sizeof name, "%dx %s", l->closest_nodes,
                 sc->catalog->instances[l->closest_train].name);
        cJSON_AddStringToObject(c, "cluster", name);
        cJSON_AddStringToObject(c, "layout", l->closest_layout);
        cJSON_AddNumberToObject(c, "need_bytes", l->closest_mem.total);
        cJSON_AddNumberToObject(c, "usable_bytes", l->closest_mem.capacity);
    }
    cJSON_AddNumberToObject(s, "search_steps",
                            sc->plan.search_steps > 0 ? sc->plan.search_steps : sc->simulation.steps);
    cJSON_AddNumberToObject(s, "search_warmup",
                            sc->plan.search_warmup >= 0 ? sc->plan.search_warmup : sc->simulation.warmup);
    cJSON_AddNumberToObject(s, "steps", sc->simulation.steps);
    cJSON_AddNumberToObject(s, "warmup", sc->simulation.warmup);
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
    /* the best on each cloud, when the candidates span two or more */
    s = cJSON_AddObjectToObject(o, "best_of_cloud");
    for (int k = 0; k < r->nclouds; k++)
        cJSON_AddItemToObject(s, r->clouds[k].pc.cl->groups[0].inst->cloud, jpick(&r->clouds[k]));
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
        cJSON_AddStringToObject(s, "cluster",
                                r->keep_current ? r->current.cl->name : r->top[0].cl.name);
    else
        cJSON_AddNullToObject(s, "cluster");
    cJSON_AddStringToObject(s, "reason", r->reason);
    if (r->report.tie.n > 0)
        report_json_tie(s, &r->report.tie, r->top[r->report.tie.first].cl.name,
                        r->top[r->report.tie.other].cl.name);
    else
        report_json_tie(s, &r->report.tie, NULL, NULL);
    txt = cJSON_Print(o);
    cJSON_Delete(o);
    if (!txt)
        return -1;
    rc = fprintf(f, "%s\n", txt) < 0 ? -1 : 0;
    x_free(txt);
    return rc || ferror(f) ? -1 : 0;
}

/* ---- the formats' writers ---------------------------------------------- */

int report_search_table(FILE *f, const void *ctx, struct dt_err *e)
{
    const struct report_search *s = ctx;

    (void)e;
    return write_table(f, s->r, s->l);
}

int report_search_json(FILE *f, const void *ctx, struct dt_err *e)
{
    const struct report_search *s = ctx;

    (void)e;
    return write_json(f, s->r, s->l);
}

int report_search_csv(FILE *f, const void *ctx, struct dt_err *e)
{
    const struct report_search *s = ctx;
    struct plan_report ranked = s->r->report;

    (void)e;
    /* the ranked table: the top N, after the current choice when it is kept */
    ranked.nclusters = s->r->ntop + s->r->keep_current;
    return report_csv(f, &ranked);
}
