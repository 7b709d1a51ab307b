/*
 * search.c - enumerate candidate clusters from the catalog, prune what cannot
 * run, simulate the rest with few steps, rank by the objective, re-run the
 * best with the scenario's settings and recommend (see search.h and
 * docs/plan.md).
 *
 * Each candidate is simulated through plan_run() on a copy of the scenario
 * with one cluster and the candidate's gradient settings, so the search and
 * "dtplan SCENARIO" share every cost, feasibility and bottleneck rule.
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

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan_int.h"

#define STATE_BYTES_PER_PARAM 16.0
#define MEM_USABLE 0.90
#define FRONT_MAX 25

/* ---- names ------------------------------------------------------------- */

const char *search_kind_name(enum search_kind k)
{
    static const char *n[] = {"single node", "scale-out", "heterogeneous", "CPU only"};
    return (unsigned)k < SEARCH_NKINDS ? n[k] : "?";
}

/* ---- enumeration ------------------------------------------------------- */

static int considered(const struct scenario *sc, const struct cat_instance *in)
{
    const struct sc_plan *p = &sc->plan;
    int ok = p->ninstances == 0;

    for (int i = 0; i < p->ninstances && !ok; i++)
        ok = catalog_name_matches(p->instances[i], in->name);
    if (ok && p->nregions > 0) {
        ok = 0;
        for (int i = 0; i < p->nregions && !ok; i++)
            ok = strcmp(p->regions[i], in->region) == 0;
    }
    return ok && in->vcpus > 0 && in->gpu_count >= 0 && !isnan(in->price_usd_h);
}

static double group_price(const struct scenario *sc, const struct cat_instance *in)
{
    return sc->plan.spot && !isnan(in->spot_usd_h) ? in->spot_usd_h : in->price_usd_h;
}

double search_memory_bytes(const struct scenario *sc, double *state_bytes)
{
    double act = sc->model->act_mib_per_sample;
    double width = sc->precision == CAT_FP32 || sc->precision == CAT_TF32 ? 2.0 : 1.0;

    *state_bytes = sc->model->params * STATE_BYTES_PER_PARAM;
    if (isnan(act))
        return NAN;
    return *state_bytes + act * 1048576.0 * width * sc->batch_per_gpu;
}

/* Usable memory of one worker of `in`, bytes. */
static double worker_memory(const struct cat_instance *in)
{
    double gib = in->gpu_count > 0 ? (!isnan(in->gpu_mem_gib) ? in->gpu_mem_gib
                                      : in->gpu ? in->gpu->mem_gib : NAN)
                                   : in->mem_gib;
    return gib * 1073741824.0 * MEM_USABLE;
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

int search_enumerate(const struct scenario *sc, struct search_list *l, struct dt_err *e)
{
    const struct catalog *cat = sc->catalog;
    const struct sc_plan *p = &sc->plan;
    int nb = p->nbuckets > 0 ? p->nbuckets : 1;
    double state, need = search_memory_bytes(sc, &state);

    memset(l, 0, sizeof *l);
    l->memory_unknown = isnan(need);
    if (isnan(need))
        need = state;
    if (!p->strategies)
        return dt_errf(e, "plan: no gradient strategy to try");
    for (int t = 0; t < cat->ninstances; t++) {
        const struct cat_instance *ti = &cat->instances[t];
        int wpn = ti->gpu_count > 0 ? ti->gpu_count : 1;

        if (!considered(sc, ti) || (ti->gpu_count > 0 && !ti->gpu) ||
            (ti->gpu_count == 0 && !p->cpu_training))
            continue;
        if (ti->gpu_count > 0 && isnan(ti->gpu->peak_tflops[sc->precision]) &&
            !(sc->precision == CAT_TF32 && !isnan(ti->gpu->peak_tflops[CAT_FP32])) &&
            isnan(sc->measured_compute_s)) {
            l->skipped_peak++; /* peak FLOP/s at this precision unknown: cannot be costed */
            continue;
        }
        l->ntrain_types++;
        for (int nodes = 1; nodes <= p->max_nodes; nodes = next_count(nodes)) {
            double workers = (double)nodes * wpn;
            double price0 = nodes * group_price(sc, ti);
            int single = workers == 1;
            int multi_node_ok = !isnan(ti->net_gbps);

            if (nodes > 1 && !multi_node_ok)
                break;
            if (need > worker_memory(ti)) {
                l->pruned_memory++;
                break; /* more nodes do not help data parallelism fit */
            }
            if (p->max_gpus > 0 && ti->gpu_count > 0 && workers > p->max_gpus) {
                l->pruned_gpus++;
                break;
            }
            if (sc->max_data_channels > 0 && workers > sc->max_data_channels) {
                l->pruned_channels++;
                break;
            }
            /* data nodes: none, or each CPU type of the same cloud x counts */
            for (int d = -1; d < cat->ninstances; d++) {
                const struct cat_instance *di = d >= 0 ? &cat->instances[d] : NULL;
                if (di && (di->gpu_count != 0 || !considered(sc, di) || isnan(di->net_gbps) ||
                           !multi_node_ok || strcmp(di->cloud, ti->cloud) != 0))
                    continue;
                for (int nd = di ? 1 : 0; nd <= (di ? p->max_data_nodes : 0); nd = next_count(nd)) {
                    double price1 = price0 + (di ? nd * group_price(sc, di) : 0);
                    for (int s = 0; s <= SIM_PS_ASYNC; s++) {
                        if (!(p->strategies & (1u << s)))
                            continue;
                        if (single && (p->strategies & ((1u << s) - 1)))
                            continue; /* one worker shares nothing: one strategy is enough */
                        if (s == SIM_HIERARCHICAL && (wpn == 1 || nodes == 1) &&
                            (p->strategies & (1u << SIM_RING)))
                            continue; /* one GPU per node or one node: hierarchical is the ring */
                        for (int q = -1; q < (sim_is_ps(s) ? cat->ninstances : 0); q++) {
                            const struct cat_instance *qi = q >= 0 ? &cat->instances[q] : NULL;
                            if (qi && (qi->gpu_count != 0 || !considered(sc, qi) ||
                                       isnan(qi->net_gbps) || !multi_node_ok ||
                                       strcmp(qi->cloud, ti->cloud) != 0))
                                continue;
                            for (int nq = qi ? 1 : 0; nq <= (qi ? p->max_ps : 0); nq = next_count(nq)) {
                                double price = price1 + (qi ? nq * group_price(sc, qi) : 0);
                                for (int b = 0; b < (single ? 1 : nb); b++) {
                                    struct search_cand c = {t, nodes, di ? d : -1, nd,
                                                            qi ? q : -1, nq, s, b, p->spot};
                                    if (!isnan(sc->budget_usd_h) && price > sc->budget_usd_h) {
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
    }
    return 0;
}

void search_list_free(struct search_list *l)
{
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

/* The candidate as a scenario cluster plus the scenario copy it runs with. */
static void build(const struct scenario *base, const struct search_cand *c, int full,
                  struct sc_cluster *cl, struct scenario *s)
{
    const struct catalog *cat = base->catalog;
    const struct sc_plan *p = &base->plan;
    int g = 0;

    memset(cl, 0, sizeof *cl);
    cl->strategy = c->strategy;
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
        search_cand_name(base, c, cl->name, sizeof cl->name);

    *s = *base;
    s->clusters = cl;
    s->nclusters = 1;
    s->measured_cluster = -1;
    s->solve_for = SC_SOLVE_NONE;
    s->strategy = (enum sim_strategy)c->strategy;
    if (p->nbuckets > 0)
        s->bucket_bytes = p->bucket_bytes[c->bucket];
    if (sim_is_ps(c->strategy)) {
        s->ps_place = c->ps >= 0 ? SC_PS_DEDICATED : SC_PS_COLOCATED;
        s->ps_count = c->ps >= 0 ? c->nps : c->nodes;
    }
    if (!full && p->search_steps > 0)
        s->steps = p->search_steps;
    if (!full && p->search_warmup >= 0)
        s->warmup = p->search_warmup;
}

static double objective_of(const struct scenario *sc, const struct plan_cluster *pc)
{
    switch (sc->objective) {
    case SC_OBJ_TIME:
        return !isnan(pc->train_s) ? pc->train_s : 1.0 / pc->res.samples_per_s;
    case SC_OBJ_COST_STEP:
        /* Candidates differ in workers, so in samples per step: rank by cost per sample. */
        return pc->cost_per_step_usd / (pc->res.workers * pc->cfg.w.batch);
    case SC_OBJ_COST_TRAIN:
        return !isnan(pc->cost_to_train_usd) ? pc->cost_to_train_usd
                                             : pc->cost_per_step_usd / pc->res.samples_per_s;
    }
    return pc->res.step_mean_s;
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
    ev->objective = objective_of(sc, pc);
    ev->bound = pc->bound;
}

int search_eval(const struct scenario *sc, const struct search_list *l, int part, int nparts,
                struct search_eval *ev, struct dt_err *e)
{
    struct sc_cluster cl;
    struct scenario s;
    struct plan_report rep;
    struct dt_err ce;

    if (nparts < 1 || part < 0 || part >= nparts)
        return dt_errf(e, "search: part %d of %d", part, nparts);
    for (int i = part; i < l->n; i += nparts) {
        build(sc, &l->c[i], 0, &cl, &s);
        memset(&ev[i], 0, sizeof ev[i]);
        if (plan_run(&s, &rep, &ce) != 0)
            continue; /* ok = 0: this candidate cannot be simulated */
        fill_eval(&s, &rep.clusters[0], &ev[i]);
        plan_report_free(&rep);
    }
    return 0;
}

/* ---- finishing --------------------------------------------------------- */

static int pick_run(const struct scenario *sc, const struct search_list *l, int idx,
                    struct search_pick *pk, struct dt_err *e)
{
    char msg[sizeof e->msg];

    memset(pk, 0, sizeof *pk);
    pk->index = idx;
    build(sc, &l->c[idx], 1, &pk->cl, &pk->sc);
    pk->sc.clusters = &pk->cl;
    if (plan_run(&pk->sc, &pk->rep, e) != 0) {
        snprintf(msg, sizeof msg, "%s", e->msg);
        return dt_errf(e, "candidate %s: %s", pk->cl.name, msg);
    }
    return 0;
}

/* A pick moved to its final place: the scenario copy must point at its own cluster. */
static void pick_fix(struct search_pick *pk)
{
    pk->sc.clusters = &pk->cl;
    pk->rep.sc = &pk->sc;
    if (pk->rep.clusters)
        pk->rep.clusters[0].cl = &pk->cl;
}

static void pick_free(struct search_pick *pk)
{
    plan_report_free(&pk->rep);
}

static const struct search_eval *sort_ev;

/* Feasible first, then objective, then index: a total order. */
static int by_objective(const void *a, const void *b)
{
    int i = *(const int *)a, j = *(const int *)b;
    double x = sort_ev[i].objective, y = sort_ev[j].objective;
    if (x < y)
        return -1;
    if (x > y)
        return 1;
    return (i > j) - (i < j);
}

static int front_train;

/* x to 30 bits of mantissa (about 1e-9 relative): candidates whose times or
 * costs differ by floating-point noise alone tie on the Pareto front. */
static double q30(double x)
{
    int ex;
    double m = frexp(x, &ex);
    return isfinite(x) ? ldexp(nearbyint(ldexp(m, 30)), ex - 30) : x;
}

static void front_xy(const struct search_eval *v, double *x, double *y)
{
    *x = q30(front_train ? v->train_s : v->step_s);
    *y = q30(front_train ? v->cost_to_train_usd : v->cost_per_step_usd);
}

static int by_time(const void *a, const void *b)
{
    int i = *(const int *)a, j = *(const int *)b;
    double xi, yi, xj, yj;
    front_xy(&sort_ev[i], &xi, &yi);
    front_xy(&sort_ev[j], &xj, &yj);
    if (xi != xj)
        return xi < xj ? -1 : 1;
    if (yi != yj)
        return yi < yj ? -1 : 1;
    return (i > j) - (i < j);
}

static double pick_objective(const struct search_pick *pk)
{
    return objective_of(&pk->sc, &pk->rep.clusters[0]);
}

static int by_pick_objective(const void *a, const void *b)
{
    const struct search_pick *p = a, *q = b;
    double x = pick_objective(p), y = pick_objective(q);
    if (x < y)
        return -1;
    if (x > y)
        return 1;
    return (p->index > q->index) - (p->index < q->index);
}

static enum search_kind kind_of(const struct scenario *sc, const struct search_cand *c)
{
    if (sc->catalog->instances[c->train].gpu_count == 0)
        return SEARCH_CPU;
    if (c->data >= 0)
        return SEARCH_HETERO;
    return c->nodes > 1 ? SEARCH_SCALE_OUT : SEARCH_SINGLE;
}

/* The first train group (a candidate always has one). */
static const struct sc_group *train_group(const struct sc_cluster *cl)
{
    const struct sc_group *g = plan_first_train(cl);
    return g ? g : &cl->groups[0];
}

static int same_cluster(const struct sc_cluster *a, const struct sc_cluster *b)
{
    if (a->ngroups != b->ngroups)
        return 0;
    for (int i = 0; i < a->ngroups; i++)
        if (a->groups[i].role != b->groups[i].role || a->groups[i].inst != b->groups[i].inst ||
            a->groups[i].count != b->groups[i].count)
            return 0;
    return 1;
}

static void recommend(const struct scenario *sc, struct search_result *r)
{
    const struct plan_cluster *cur = &r->current.clusters[0];
    const struct plan_cluster *best = &r->top[0].rep.clusters[0];
    const struct sc_group *ct = train_group(cur->cl), *bt = train_group(best->cl);
    char *p = r->reason;
    size_t left = sizeof r->reason;
    int n;

    if (same_cluster(cur->cl, best->cl))
        r->action = PLAN_KEEP;
    else if (bt->inst->gpu_count == 0 && ct->inst->gpu_count > 0)
        r->action = PLAN_CPU_ONLY;
    else if (plan_has_role(best->cl, SIM_DATA) && !plan_has_role(cur->cl, SIM_DATA))
        r->action = PLAN_HETEROGENEOUS;
    else if (plan_train_nodes(best->cl) > plan_train_nodes(cur->cl))
        r->action = PLAN_SCALE_OUT;
    else
        r->action = PLAN_SCALE_UP;

#define ADD(...) do { n = snprintf(p, left, __VA_ARGS__); if (n > 0 && (size_t)n < left) { p += n; left -= (size_t)n; } } while (0)
    ADD("%s %s is %s.", r->current_listed ? "The current choice" : "The smallest start",
        cur->cl->name, cur->bound_text);
    if (r->action == PLAN_KEEP) {
        ADD(" It is also the best of %ld candidates for %s.", r->candidates,
            scenario_objective_name(sc->objective));
    } else {
        ADD(" Best for %s: %s (%s, %s), step %.1f ms -> %.1f ms, $%.3g -> $%.3g per step",
            scenario_objective_name(sc->objective), best->cl->name,
            sim_strategy_name(r->top[0].sc.strategy), plan_action_name(r->action),
            1e3 * cur->res.step_mean_s, 1e3 * best->res.step_mean_s, cur->cost_per_step_usd,
            best->cost_per_step_usd);
        if (!isnan(best->train_s) && !isnan(cur->train_s))
            ADD(", %.2f h and $%.2f to train instead of %.2f h and $%.2f", best->train_s / 3600,
                best->cost_to_train_usd, cur->train_s / 3600, cur->cost_to_train_usd);
        if (!cur->feasible)
            ADD(" (%s: %s)", cur->cl->name, cur->infeasible_why);
        ADD("; it is %s.", best->bound_text);
        if (r->action == PLAN_SCALE_UP &&
            (double)bt->count * bt->inst->gpu_count < (double)ct->count * ct->inst->gpu_count)
            ADD(" (scale_up here is a change of instance type to fewer GPUs, which does "
                "better for %s.)", scenario_objective_name(sc->objective));
    }
    /* What to try first, from what bounds the starting point. */
    switch (cur->bound) {
    case PLAN_BOUND_CPU:
        if (ct->inst->gpu_count > 0) {
            const struct cat_instance *up = plan_bigger_ratio(sc->catalog, ct->inst, 0);
            ADD(" Try first: more vCPU per GPU, not more of the same nodes (%s has %.0f vCPU per "
                "GPU; another %s keeps that ratio).", ct->inst->name, plan_vcpu_per_gpu(ct->inst),
                ct->inst->name);
            if (up)
                ADD(" Scale up within the family: %s has %.0f vCPU per GPU; then add CPU data "
                    "nodes (heterogeneous) if that is not enough.", up->name, plan_vcpu_per_gpu(up));
            else
                ADD(" No instance of the family has a larger CPU:GPU ratio: add CPU data nodes "
                    "for preprocessing (heterogeneous).");
        } else {
            ADD(" Try first: a larger CPU instance, then more nodes.");
        }
        break;
    case PLAN_BOUND_NETWORK:
    case PLAN_BOUND_PS:
    case PLAN_BOUND_GPU_LINK:
        ADD(" Try first: fewer, larger nodes with a fast intra-node link (NVLink), fp16 "
            "gradients or larger buckets; scale out only once the network is not the bound.");
        break;
    case PLAN_BOUND_INPUT_NET:
        ADD(" Try first: more or faster-network data nodes, or preprocessing on the GPU nodes.");
        break;
    case PLAN_BOUND_PCIE:
        ADD(" Try first: smaller preprocessed samples or instances with a faster host link.");
        break;
    case PLAN_BOUND_COMPUTE:
        ADD(" Try first: scale up (a faster GPU, or more GPUs in one node over NVLink), then "
            "scale out.");
        break;
    }
    ADD(" Check utilisation before scaling: on %s GPU %.0f%%, CPU %.0f%%, busiest NIC %.0f%%.",
        cur->cl->name, 100 * cur->res.util_gpu, 100 * cur->res.util_cpu, 100 * cur->res.util_nic);
#undef ADD
}

int search_prepare(const struct scenario *sc, struct scenario *base, struct dt_err *e)
{
    struct plan_report rep;
    int rc = 0;

    *base = *sc;
    if (sc->measured_cluster < 0 || sc->solve_for == SC_SOLVE_NONE)
        return 0;
    if (plan_run(sc, &rep, e) != 0)
        return -1;
    if (sc->solve_for == SC_SOLVE_CPU) {
        base->cpu_s_per_sample = rep.solved_value;
    } else {
        const struct sc_group *tg = train_group(&sc->clusters[sc->measured_cluster]);
        if (tg->inst->gpu_count == 0 || !tg->inst->gpu) {
            rc = dt_errf(e, "plan: a compute time solved on CPU cluster %s cannot be carried "
                         "to other instances; give workload.measured_compute",
                         sc->clusters[sc->measured_cluster].name);
        } else {
            base->measured_gpu = tg->inst->gpu;
            base->measured_compute_s = rep.solved_value;
            base->measured_batch = sc->batch_per_gpu * sc->grad_accum;
        }
    }
    base->measured_cluster = -1;
    base->solve_for = SC_SOLVE_NONE;
    plan_report_free(&rep);
    return rc;
}

int search_finish(const struct scenario *scp, const struct search_list *l,
                  const struct search_eval *ev, struct search_result *r, struct dt_err *e)
{
    struct scenario sc = *scp;
    int *ord = NULL, nord = 0, *fr = NULL, nfr = 0, rc = -1;
    double besty = INFINITY;

    memset(r, 0, sizeof *r);
    r->sc = scp;
    for (int k = 0; k < SEARCH_NKINDS; k++)
        r->kinds[k].index = -1;
    r->baseline.index = -1;
    if (scp->measured_cluster >= 0 && scp->solve_for != SC_SOLVE_NONE)
        return dt_errf(e, "search: the scenario was not prepared (search_prepare)");
    if (scp->nclusters > 0 && plan_run(scp, &r->current, e) != 0)
        return -1;
    r->current_listed = scp->nclusters > 0;
    r->candidates = l->n;
    ord = x_calloc((size_t)l->n + 1, sizeof *ord);
    fr = x_calloc((size_t)l->n + 1, sizeof *fr);
    for (int i = 0; i < l->n; i++)
        if (ev[i].ok && ev[i].feasible)
            ord[nord++] = i;
    r->feasible = nord;
    if (nord == 0) {
        int okn = 0;
        for (int i = 0; i < l->n; i++)
            okn += ev[i].ok != 0;
        if (l->n > 0 && okn == 0) {
            struct search_pick pk;
            if (pick_run(&sc, l, 0, &pk, e) == 0) /* the reason, from the first candidate */
                dt_errf(e, "plan: no candidate could be simulated");
            pick_free(&pk);
            goto out;
        }
        snprintf(r->reason, sizeof r->reason,
                 "No candidate meets the constraints (%ld enumerated, %d simulated): relax the "
                 "deadline, the budget or the limits of the plan: section.", r->candidates, okn);
        r->action = PLAN_KEEP;
        rc = 0;
        goto out;
    }
    sort_ev = ev;
    qsort(ord, (size_t)nord, sizeof *ord, by_objective);

    /* the top N at full settings, ranked again */
    r->ntop = nord < sc.plan.top ? nord : sc.plan.top;
    r->top = x_calloc((size_t)r->ntop, sizeof *r->top);
    for (int i = 0; i < r->ntop; i++)
        if (pick_run(&sc, l, ord[i], &r->top[i], e) != 0)
            goto out;
    qsort(r->top, (size_t)r->ntop, sizeof *r->top, by_pick_objective);
    for (int i = 0; i < r->ntop; i++)
        pick_fix(&r->top[i]);

    /* the Pareto front over every feasible candidate, at search fidelity */
    front_train = !isnan(sc.dataset_samples);
    r->front_train = front_train;
    memcpy(fr, ord, (size_t)nord * sizeof *fr);
    qsort(fr, (size_t)nord, sizeof *fr, by_time);
    for (int i = 0; i < nord; i++) {
        double x, y;
        front_xy(&ev[fr[i]], &x, &y);
        if (y < besty) {
            besty = y;
            fr[nfr++] = fr[i];
        }
    }
    if (nfr > FRONT_MAX) { /* keep both ends and evenly spaced points between */
        for (int i = 0; i < FRONT_MAX; i++)
            fr[i] = fr[(int)((double)i * (nfr - 1) / (FRONT_MAX - 1) + 0.5)];
        nfr = FRONT_MAX;
    }
    r->front = x_calloc((size_t)nfr, sizeof *r->front);
    for (int i = 0; i < nfr; i++) {
        if (pick_run(&sc, l, fr[i], &r->front[i], e) != 0)
            goto out;
        r->nfront++;
        pick_fix(&r->front[i]);
    }

    /* the best of each kind */
    for (int i = 0; i < nord; i++) {
        enum search_kind k = kind_of(&sc, &l->c[ord[i]]);
        if (r->kinds[k].index >= 0)
            continue;
        if (pick_run(&sc, l, ord[i], &r->kinds[k], e) != 0)
            goto out;
        pick_fix(&r->kinds[k]);
    }

    /* the starting point: the listed cluster, else the cheapest single GPU node */
    if (!r->current_listed) {
        int bi = -1;
        for (int pass = 0; pass < 2 && bi < 0; pass++)
            for (int i = 0; i < l->n; i++) {
                const struct search_cand *c = &l->c[i];
                int gpu = sc.catalog->instances[c->train].gpu_count > 0;
                if (!ev[i].ok || c->nodes != 1 || c->data >= 0 || c->ps >= 0 ||
                    (pass == 0 && !gpu))
                    continue;
                if (bi < 0 || ev[i].price_usd_h < ev[bi].price_usd_h ||
                    (ev[i].price_usd_h == ev[bi].price_usd_h && ev[i].step_s < ev[bi].step_s))
                    bi = i;
            }
        if (bi < 0)
            bi = ord[0];
        if (pick_run(&sc, l, bi, &r->baseline, e) != 0)
            goto out;
        pick_fix(&r->baseline);
        r->current = r->baseline.rep;
        r->current.clusters = x_calloc(1, sizeof *r->current.clusters);
        r->current.clusters[0] = r->baseline.rep.clusters[0];
    }
    recommend(&sc, r);
    rc = 0;

out:
    x_free(ord);
    x_free(fr);
    if (rc)
        search_result_free(r);
    return rc;
}

void search_result_free(struct search_result *r)
{
    for (int i = 0; i < r->ntop; i++)
        pick_free(&r->top[i]);
    for (int i = 0; i < r->nfront; i++)
        pick_free(&r->front[i]);
    for (int k = 0; k < SEARCH_NKINDS; k++)
        if (r->kinds[k].index >= 0)
            pick_free(&r->kinds[k]);
    if (r->baseline.index >= 0)
        pick_free(&r->baseline);
    x_free(r->top);
    x_free(r->front);
    plan_report_free(&r->current);
    memset(r, 0, sizeof *r);
}
