/*
 * search.c - enumerate candidate clusters from the catalog, prune what cannot
 * run, simulate the rest with few steps, rank by the objective, re-run the
 * best with the scenario's settings and recommend (see search.h and
 * docs/plan.md).
 *
 * Each candidate is a cluster with its own gradient settings, evaluated by
 * plan_cluster_eval() against the scenario, so the search and "dtplan
 * SCENARIO" share every cost, feasibility and bottleneck rule.  Sorting
 * carries its keys in the array it sorts (search_finish.c): no file-scope state.
 *
 * Memory fit (docs/plan.md): a worker holds the model state, 16 bytes per
 * parameter (fp32 weights, gradients and two Adam moments, or fp16 weights
 * and gradients plus fp32 master weights and moments: the 16 Psi of ZeRO,
 * Rajbhandari et al. 2020, sec. 3.1), plus the activations of one
 * micro-batch (catalog models.csv act_mib_per_sample, at 16 bits; twice that
 * for fp32/tf32 compute).  It must fit in 90% of the GPU's memory (the rest
 * for the CUDA context, workspaces and fragmentation), or of the instance's
 * memory for CPU training.
 */
#include "search.h"
#include "search_pick.h"
#include "search_prune.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "plan_int.h"
#include "resolve.h"
#include "../base/memo.h"

#define SEARCH_MEMO_BYTES ((size_t)128 << 20)   /* the candidates' kept schedules, at most */

/* ---- names ------------------------------------------------------------- */

const char *search_kind_name(enum search_kind k)
{
    static const char *n[] = {"single node", "scale-out", "heterogeneous", "CPU only"};
    return (unsigned)k < SEARCH_NKINDS ? n[k] : "?";
}

/* ---- enumeration ------------------------------------------------------- */

/* The strategy a candidate with one worker is listed with: auto when it is
 * searched, else the first searched. */
static int single_strategy(unsigned set)
{
    int s = 0;

    if (set & (1u << SIM_AUTO))
        return SIM_AUTO;
    while (s < SIM_NSTRATEGY - 1 && !(set & (1u << s)))
        s++;
    return s;
}


/* A group's price an hour, at its spot rate in a spot candidate (where the
 * catalog has one). */
static double group_price(const struct cat_instance *in, int spot)
{
    return spot && !isnan(in->spot_usd_h) ? in->spot_usd_h : in->price_usd_h;
}

double search_memory_bytes(const struct scenario *sc, double *state_bytes)
{
    struct cat_instance one;
    struct mem_use u;
    struct scenario *t = x_malloc(sizeof *t);

    memset(&one, 0, sizeof one);
    one.mem_gib = one.gpu_mem_gib = NAN;
    *t = *sc;
    if (sc->parallel.recompute_auto)
        t->parallel.recompute = SC_RECOMPUTE_FULL;  /* auto: the least it may keep */
    memory_of(t, sc->parallel.sharding, &one, 1, 1, &u); /* one worker: nothing sharded, no buckets */
    x_free(t);
    *state_bytes = u.weights + u.gradients + u.optimizer;
    return isnan(u.activations) ? NAN : *state_bytes + u.activations;
}

/* 1, 2, 3, 4, 6, 8, 12, 16, 24, ...: the next count after n. */
static int next_count(int n)
{
    if (n < 4)
        return n + 1;
    for (int p = 4;; p *= 2) {
        if (n < p + p / 2)
            return p + p / 2;
        if (n < 2 * p)
            return 2 * p;
    }
}

static void push(struct search_list *l, const struct search_cand *c)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->c = x_realloc(l->c, (size_t)l->cap * sizeof *l->c);
    }
    l->c[l->n++] = *c;
}


/* Whether nodes x ti place the scenario's fixed pipeline, context and
 * expert parallelism (resolve_pp_fits, resolve_cp_fits, resolve_ep_fits). */
static int pp_places(const struct scenario *sc, const struct cat_instance *ti, int nodes)
{
    struct sc_cluster cl;
    char why[256];

    memset(&cl, 0, sizeof cl);
    cl.gradients.strategy = -1;
    cl.ngroups = 1;
    cl.groups[0] = (struct sc_group){SIM_TRAIN, ti, nodes, 0};
    return (sc->parallel.pp <= 1 || resolve_pp_fits(sc, &cl, why, sizeof why)) &&
           resolve_cp_fits(sc, &cl, why, sizeof why) && resolve_ep_fits(sc, &cl, why, sizeof why);
}

/* Can CPU type x serve beside train type ti's nodes, as data nodes or
 * parameter servers: the same cloud, and both reachable over a network. */
static int cpu_helper_ok(const struct scenario *sc, const struct cat_instance *x,
                         const struct cat_instance *ti)
{
    return x->gpu_count == 0 && search_considered(sc, x) && !isnan(x->net_gbps) &&
           !isnan(ti->net_gbps) && strcmp(x->cloud, ti->cloud) == 0;
}

/* Every candidate on `nodes` nodes of train type t, at spot prices when sp:
 * no data nodes or counts of each usable CPU type, each strategy, parameter
 * servers for the strategies that have them, and each bucket count. */
static void push_nodes(const struct scenario *sc, struct search_list *l, int t, int nodes,
                       int sp, int unsharded_fits)
{
    const struct catalog *cat = sc->catalog;
    const struct sc_plan *p = &sc->plan;
    const struct cat_instance *ti = &cat->instances[t];
    int wpn = ti->gpu_count > 0 ? ti->gpu_count : 1;
    int single = nodes == 1 && wpn == 1;
    int nb = p->nbuckets > 0 ? p->nbuckets : 1;
    double price0 = nodes * group_price(ti, sp);

    /* data nodes: none, or each CPU type of the same cloud x counts */
    for (int d = -1; d < cat->ninstances; d++) {
        const struct cat_instance *di = d >= 0 ? &cat->instances[d] : NULL;
        if (di && !search_input_work(sc))
            break;  /* nothing for data nodes to do */
        if (di && !cpu_helper_ok(sc, di, ti))
            continue;
        for (int nd = di ? 1 : 0; nd <= (di ? p->max_data_nodes : 0); nd = next_count(nd)) {
            double price1 = price0 + (di ? nd * group_price(di, sp) : 0);
            for (int s = 0; s < SIM_NSTRATEGY; s++) {
                if (!(p->strategies & (1u << s)))
                    continue;
                if (single && s != single_strategy(p->strategies))
                    continue; /* one worker shares nothing: one strategy is enough */
                if (sim_is_ps(s) && !unsharded_fits) {
                    l->pruned_memory++;
                    continue; /* the servers' workers hold the whole state */
                }
                if (s == SIM_AUTO && ti->gpu_count == 0 && (p->strategies & (1u << SIM_RING)))
                    continue; /* auto on CPU nodes is the ring */
                if (s == SIM_HIERARCHICAL && (wpn == 1 || nodes == 1) &&
                    (p->strategies & ((1u << SIM_RING) | (1u << SIM_AUTO))))
                    continue; /* one GPU per node or one node: hierarchical is the ring */
                for (int q = -1; q < (sim_is_ps(s) ? cat->ninstances : 0); q++) {
                    const struct cat_instance *qi = q >= 0 ? &cat->instances[q] : NULL;
                    if (qi && !cpu_helper_ok(sc, qi, ti))
                        continue;
                    for (int nq = qi ? 1 : 0; nq <= (qi ? p->max_ps : 0); nq = next_count(nq)) {
                        double price = price1 + (qi ? nq * group_price(qi, sp) : 0);
                        for (int b = 0; b < (single ? 1 : nb); b++) {
                            struct search_cand c = {t, nodes, di ? d : -1, nd,
                                                    qi ? q : -1, nq, s, b, sp};
                            if (!isnan(sc->objective.budget_usd_h) &&
                                price > sc->objective.budget_usd_h) {
                                l->pruned_budget++;
                                continue;
                            }
                            push(l, &c);
                        }
                    }
                }
            }
        }
    }
}

int search_enumerate(const struct scenario *sc, struct search_list *l, struct dt_err *e)
{
    const struct catalog *cat = sc->catalog;
    const struct sc_plan *p = &sc->plan;
    double state, need = search_memory_bytes(sc, &state);

    memset(l, 0, sizeof *l);
    l->no_data_nodes = !search_input_work(sc);
    l->memory_unknown = isnan(need);
    l->memory_bytes = need;
    l->state_bytes = state;
    if (!p->strategies)
        return dt_errf(e, "plan: no gradient strategy to try");
    l->memo = memo_new(SEARCH_MEMO_BYTES);
    for (int t = 0; t < cat->ninstances; t++) {
        const struct cat_instance *ti = &cat->instances[t];
        int wpn = ti->gpu_count > 0 ? ti->gpu_count : 1;

        if (!search_considered(sc, ti) || (ti->gpu_count > 0 && !ti->gpu) ||
            (ti->gpu_count == 0 && !p->cpu_training))
            continue;
        if (ti->gpu_count > 0 && !search_gpu_runs(sc, ti->gpu)) {
            l->skipped_peak++; /* no peak FLOP/s for the precision: cannot be costed */
            continue;
        }
        if (search_cpu_too_large(sc, ti)) {
            l->skipped_cpu++;
            continue;
        }
        if (search_cpu_misses_deadline(sc, ti)) {
            l->cpu_deadline++;
            continue;
        }
        l->ntrain_types++;
        for (int nodes = 1; nodes <= p->max_nodes; nodes = next_count(nodes)) {
            double workers = (double)nodes * wpn;
            int multi_node_ok = !isnan(ti->net_gbps);
            int unsharded_fits = 1;   /* parameter servers shard nothing */

            if (nodes > 1 && !multi_node_ok) {
                /* no network rate: one node only, and the report says so */
                size_t used = strlen(l->single_names);
                if (l->single_node++ < 4 && used + strlen(ti->name) + 3 < sizeof l->single_names)
                    snprintf(l->single_names + used, sizeof l->single_names - used, "%s%s",
                             used ? ", " : "", ti->name);
                break;
            }
            if (!search_memory_fits(sc, l, ti, nodes, &unsharded_fits)) {
                l->pruned_memory++;
                if (!sc->parallel.sharding_auto && sc->parallel.sharding == SC_SHARD_NONE &&
                    !sc->parallel.tp_auto && !sc->parallel.pp_auto && !sc->parallel.cp_auto &&
                    !sc->parallel.ep_auto)
                    break; /* more nodes do not help data parallelism fit (a larger cp or
                              ep would) */
                continue;  /* sharded or split: more ranks may */
            }
            if (!sim_tp_fits(wpn, nodes, sc->parallel.tp)) {
                l->pruned_tp++;
                continue;   /* more nodes may span whole tensor-parallel groups */
            }
            if (!sc->parallel.pp_auto &&
                (sc->parallel.pp > 1 || sc->parallel.cp > 1 || sc->parallel.ep > 1) &&
                !pp_places(sc, ti, nodes)) {
                l->pruned_pp++;
                continue;   /* more nodes may hold the stages */
            }
            if (p->max_gpus > 0 && ti->gpu_count > 0 && workers > p->max_gpus) {
                l->pruned_gpus++;
                break;
            }
            if (sc->objective.max_data_channels > 0 && workers > sc->objective.max_data_channels) {
                l->pruned_channels++;
                break;
            }
            /* plan.spot: each candidate on demand and, where its train type
             * has a spot price, at spot prices as well (the goodput section
             * then charges the spot one its preemptions) */
            for (int sp = 0; sp <= (p->spot && !isnan(ti->spot_usd_h) ? 1 : 0); sp++)
                push_nodes(sc, l, t, nodes, sp, unsharded_fits);
        }
    }
    return 0;
}

void search_list_free(struct search_list *l)
{
    memo_free(l->memo);
    x_free(l->c);
    memset(l, 0, sizeof *l);
}

/* ---- one candidate ----------------------------------------------------- */

void search_cand_name(const struct scenario *sc, const struct search_cand *c, char *buf,
                      size_t len)
{
    const struct catalog *cat = sc->catalog;
    size_t o = 0;
    int n;

#define PUT(...) do { n = snprintf(buf + o, len - o, __VA_ARGS__); if (n > 0) o = o + (size_t)n < len ? o + (size_t)n : len - 1; } while (0)
    buf[0] = 0;
    PUT("%dx %s", c->nodes, cat->instances[c->train].name);
    if (c->data >= 0)
        PUT(" + %dx %s data", c->ndata, cat->instances[c->data].name);
    if (c->ps >= 0)
        PUT(" + %dx %s ps", c->nps, cat->instances[c->ps].name);
    if (c->spot)
        PUT(" spot");
#undef PUT
}

/* The candidate as a cluster with its own communication choice; named when
 * it is shown (full). */
static void build(const struct scenario *sc, const struct search_cand *c, int full,
                  struct sc_cluster *cl)
{
    const struct catalog *cat = sc->catalog;
    const struct sc_plan *p = &sc->plan;
    int g = 0;

    memset(cl, 0, sizeof *cl);
    cl->gradients.strategy = c->strategy;
    cl->groups[g++] = (struct sc_group){SIM_TRAIN, &cat->instances[c->train], c->nodes,
                                        c->spot && !isnan(cat->instances[c->train].spot_usd_h)};
    if (c->data >= 0)
        cl->groups[g++] = (struct sc_group){SIM_DATA, &cat->instances[c->data], c->ndata,
                                            c->spot && !isnan(cat->instances[c->data].spot_usd_h)};
    if (c->ps >= 0)
        cl->groups[g++] = (struct sc_group){SIM_PS, &cat->instances[c->ps], c->nps,
                                            c->spot && !isnan(cat->instances[c->ps].spot_usd_h)};
    cl->ngroups = g;
    if (full)
        search_cand_name(sc, c, cl->name, sizeof cl->name);
    cl->gradients.own = 1;
    cl->gradients.bucket_bytes = p->nbuckets > 0 ? p->bucket_bytes[c->bucket] : sc->gradients.bucket_bytes;
    cl->gradients.ps_place = sc->gradients.ps_place;
    cl->gradients.ps_count = sc->gradients.ps_count;
    if (sim_is_ps(c->strategy)) {
        cl->gradients.ps_place = c->ps >= 0 ? SC_PS_DEDICATED : SC_PS_COLOCATED;
        cl->gradients.ps_count = c->ps >= 0 ? c->nps : c->nodes;
    }
}

static void fill_eval(const struct scenario *sc, const struct plan_cluster *pc,
                      struct search_eval *ev)
{
    ev->ok = 1;
    ev->feasible = pc->feasible;
    ev->step_s = pc->res.step_mean_s;
    ev->price_usd_h = pc->price_usd_h;
    ev->cost_per_step_usd = pc->cost_per_step_usd;
    ev->samples_per_s = pc->res.samples_per_s;
    ev->train_s = pc->train_s;
    ev->cost_to_train_usd = pc->cost_to_train_usd;
    ev->objective = cluster_objective(sc, pc, 1);
    ev->bound = pc->bound;
    ev->sims = pc->nsim;
    ev->infeasible = pc->infeasible;
    ev->over = NAN;
    if (pc->infeasible == PLAN_INF_MEMORY)
        ev->over = pc->mem.total / pc->mem.capacity;
    else if (pc->infeasible == PLAN_INF_DEADLINE)
        ev->over = pc->train_s / (sc->objective.deadline_h * 3600);
    else if (pc->infeasible == PLAN_INF_BUDGET)
        ev->over = pc->price_usd_h / sc->objective.budget_usd_h;
}

int search_eval(const struct scenario *sc, const struct search_list *l, int part, int nparts,
                struct search_eval *ev, const struct search_progress *pg, struct dt_err *e)
{
    struct sc_cluster cl;
    struct plan_cluster pc;
    struct plan_eval_opts o;
    struct dt_err ce;
    int done = 0, total, feasible = 0, best = -1;

    if (nparts < 1 || part < 0 || part >= nparts)
        return dt_errf(e, "search: part %d of %d", part, nparts);
    plan_eval_defaults(&o);     /* the sweep's fidelity: plan.search_steps, search_warmup */
    o.steps = sc->plan.search_steps;
    o.warmup = sc->plan.search_warmup;
    o.whatif = 0;               /* the picks, re-run, are named by what-if */
    o.memo = l->memo;
    total = l->n > part ? (l->n - part + nparts - 1) / nparts : 0;
    for (int i = part; i < l->n; i += nparts) {
        build(sc, &l->c[i], 0, &cl);
        memset(&ev[i], 0, sizeof ev[i]);
        /* ok = 0 when this candidate cannot be simulated */
        if (plan_cluster_eval(sc, &cl, &o, &pc, &ce) == 0) {
            fill_eval(sc, &pc, &ev[i]);
            if (ev[i].feasible) {
                feasible++;
                if (best < 0 || ev[i].objective < ev[best].objective)
                    best = i;
            }
        }
        if (pg && pg->fn)
            pg->fn(pg->arg, ++done, total, feasible, best >= 0 ? &ev[best] : NULL);
    }
    return 0;
}

/* ---- finishing --------------------------------------------------------- */

/* Candidate idx at the scenario's full settings, recording into rec if given. */
int search_pick_run(const struct scenario *sc, const struct search_list *l, int idx,
                    struct sim_trace *rec, struct search_pick *pk, struct dt_err *e)
{
    struct plan_eval_opts o;

    plan_eval_defaults(&o);
    o.trace = rec;
    o.memo = l->memo;
    memset(pk, 0, sizeof *pk);
    pk->index = idx;
    build(sc, &l->c[idx], 1, &pk->cl);
    if (plan_cluster_eval(sc, &pk->cl, &o, &pk->pc, e) != 0) {
        char msg[sizeof e->msg];
        snprintf(msg, sizeof msg, "%s", e->msg);
        return dt_errf(e, "candidate %s: %s", pk->cl.name, msg);
    }
    plan_cluster_details(sc, &pk->pc);
    return 0;
}

/* A pick moved to its final place: its result must point at its own cluster. */
void search_pick_fix(struct search_pick *pk)
{
    pk->pc.cl = &pk->cl;
}

int search_prepare(const struct scenario *sc, struct scenario *base, struct dt_err *e)
{
    struct plan_report rep;
    int rc = 0;

    *base = *sc;
    if (sc->workload.measured_cluster < 0 || sc->workload.solve_for == SC_SOLVE_NONE)
        return 0;
    if (plan_run(sc, NULL, &rep, e) != 0)
        return -1;
    if (sc->workload.solve_for == SC_SOLVE_CPU) {
        base->input.cpu_s_per_sample = rep.solved_value;
    } else {
        const struct sc_group *tg = cluster_first_train(&sc->clusters[sc->workload.measured_cluster]);
        if (tg->inst->gpu_count == 0 || !tg->inst->gpu) {
            rc = dt_errf(e, "plan: a compute time solved on CPU cluster %s cannot be carried "
                         "to other instances; give the model's fwd_gflops (catalog.models), "
                         "or workload.measured_compute measured on a GPU",
                         sc->clusters[sc->workload.measured_cluster].name);
        } else {
            base->workload.measured_gpu = tg->inst->gpu;
            base->workload.measured_compute_s = rep.solved_value;
            base->workload.measured_batch = sc->parallel.micro_batch * sc->workload.grad_accum;
            /* solved as the measured cluster ran it: its layout's recompute */
            base->workload.measured_recompute = rep.clusters[sc->workload.measured_cluster].recompute;
        }
    }
    base->workload.measured_cluster = -1;
    base->workload.solve_for = SC_SOLVE_NONE;
    plan_report_free(&rep);
    return rc;
}
