/*
 * layout.c - the data-parallel layout of one cluster when the scenario
 * leaves it to the planner (gradients.sharding: auto, batch_per_gpu: auto;
 * docs/scenario.md): every sharding stage (none, zero1, zero2, zero3, and
 * hsdp over several nodes of several GPUs) with every micro-batch (powers
 * of two that the global batch allows, or the scenario's), each checked
 * against memory first (memory.h) and simulated when it fits.  The best
 * is the fastest per sample; a later candidate must beat an earlier one by
 * more than LAYOUT_MARGIN, so that near ties keep the simpler stage and
 * the smaller batch.  Its reason names the stages that do not fit, by how
 * much, and the runner-up of another stage.
 *
 * With parallel.tp: auto, each tensor-parallel size that divides the
 * nodes' GPUs (1, 2, 4, ...) is tried with every stage; with parallel.pp:
 * auto, each pipeline depth (1, 2, 4, ... 64) that fits the cluster in
 * Megatron's order, with 1, 2 and 4 chunks a stage unless interleave is
 * given, and only none or zero1 under a pipeline; with recompute: auto,
 * none, selective and full.
 *
 * Cost: at most 7 tp x 7 pp x 3 chunks x 3 recomputes x 5 stages x 21
 * micro-batches, pruned: by memory, and by the layouts that do not fit (a
 * pipeline's micro-batches not a multiple of pp when interleaved); one rank
 * or parameter servers shard nothing, so only none is tried; a combination
 * stops growing its micro-batch once doubling it gains no more than the
 * margin.
 * Candidates are ranked on LAYOUT_RANK_STEPS simulated steps after one
 * warm-up, and the one chosen is simulated again as the scenario says.
 */
#include "planner.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "memory.h"
#include "resolve.h"
#include "plan_int.h"
#include "../catalog/shape.h"
#include "../base/units.h"
#include "../base/xmem.h"

#define LAYOUT_MARGIN 0.005
#define LAYOUT_RANK_STEPS 1
#define LAYOUT_MAX_BATCH_STEPS 21   /* 1 to 2^20 */

static const enum sc_sharding stages[] = {SC_SHARD_NONE, SC_SHARD_ZERO1, SC_SHARD_ZERO2,
                                          SC_SHARD_ZERO3, SC_SHARD_HSDP};
#define NSTAGES ((int)(sizeof stages / sizeof stages[0]))

static int train_ranks(const struct sc_cluster *cl, int *nodes, int *wpn)
{
    int k = 0;

    *nodes = 0;
    *wpn = 1;
    for (int i = 0; i < cl->ngroups; i++) {
        const struct sc_group *g = &cl->groups[i];
        int w = g->inst->gpu_count > 0 ? g->inst->gpu_count : 1;
        if (g->role != SIM_TRAIN)
            continue;
        k += g->count * w;
        *nodes += g->count;
        if (w > *wpn)
            *wpn = w;
    }
    return k;
}

/* The most a GPU (or CPU worker) of cl needs under t's layout, over what it
 * may use: <= 1 fits. */
static double memory_ratio(const struct scenario *t, const struct sc_cluster *cl, int k,
                           double *need_gib, double *cap_gib)
{
    double worst = 0;

    for (int i = 0; i < cl->ngroups; i++) {
        const struct cat_instance *in = cl->groups[i].inst;
        struct mem_use u;
        if (cl->groups[i].role != SIM_TRAIN)
            continue;
        memory_of(t, t->sharding, in, k, in->gpu_count > 0 ? in->gpu_count : 1, &u);
        if (u.total / u.capacity > worst || !(worst > 0)) {
            worst = u.total / u.capacity;
            *need_gib = u.total / DT_GIB;
            *cap_gib = u.capacity / DT_GIB;
        }
    }
    return worst;
}

/* What each combination of layout (tensor and pipeline parallelism,
 * interleaving, recompute) and sharding stage came to: its best candidate,
 * or why none fitted. */
struct combo {
    int tried, fits;
    int tp, pp, v;
    enum sc_recompute rc;
    enum sc_sharding stage;      /* as simulated (fsdp stays fsdp) */
    double rate;                 /* samples/s of its best candidate */
    int batch;
    double need_gib;             /* memory at its smallest micro-batch */
    int stop;                    /* why its micro-batch stopped growing: STOP_* */
    double stop_gib;             /* STOP_MEMORY: what the next one needs */
};

enum { STOP_FIXED = 0, STOP_GLOBAL, STOP_MEMORY, STOP_GAIN };

#define MAX_TP_STEPS 9          /* tp 1, 2, 4, ..., 64, and 2 or 4 nodes' worth */
#define MAX_PP_STEPS 7          /* pp 1, 2, 4, ..., 64 */
#define MAX_V_STEPS 3           /* interleave 1, 2, 4 */
#define MAX_RC_STEPS 3          /* none, selective, full */

/* "zero3", or "tp 8 x pp 4 (interleave 2) + zero1, recompute full" for
 * what the search chooses besides the stage */
static const char *combo_name(const struct scenario *sc, const struct combo *c, char *buf,
                              size_t len)
{
    size_t n = 0;

    buf[0] = '\0';
    if (sc->tp_auto || sc->pp_auto)
        n += (size_t)snprintf(buf + n, len - n, "tp %d ", c->tp);
    if (sc->pp_auto && n < len)
        n += (size_t)snprintf(buf + n, len - n, "x pp %d ", c->pp);
    if (sc->pp_auto && c->pp > 1 && n < len)
        n += (size_t)snprintf(buf + n, len - n, "(interleave %d) ", c->v);
    if (n < len)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "+ " : "",
                              scenario_sharding_name(c->stage));
    if (sc->recompute_auto && n < len)
        snprintf(buf + n, len - n, ", recompute %s", scenario_recompute_name(c->rc));
    return buf;
}

/* Whether combination c is the layout pc ran. */
static int is_layout(const struct combo *c, const struct plan_cluster *pc)
{
    int tp = pc->cfg.c.tp > 1 ? pc->cfg.c.tp : 1, pp = pc->cfg.c.pp > 1 ? pc->cfg.c.pp : 1;
    int v = pp > 1 && pc->cfg.c.pp_interleave > 1 ? pc->cfg.c.pp_interleave : 1;

    return c->fits && c->tp == tp && c->pp == pp && c->v == v && c->rc == pc->recompute &&
           c->stage == pc->sharding;
}

static void explain(const struct scenario *sc, const struct plan_cluster *best,
                    const struct combo *cb, int ncb, int nfit, double cap_gib, char *buf,
                    size_t cap)
{
    size_t n = 0;
    int over = 0, runner = -1, mine = -1, close = -1, nover = 0;
    int searched = sc->sharding_auto || sc->tp_auto || sc->pp_auto || sc->recompute_auto;
    char a[96], b[96];

    for (int i = 0; i < ncb; i++)
        if (is_layout(&cb[i], best))
            mine = i;
    if (nfit > 0)
        n += (size_t)snprintf(buf + n, cap - n, "%s, batch_per_gpu %d (grad_accum %d), chosen "
                              "from %d layout%s that fit",
                              mine >= 0 ? combo_name(sc, &cb[mine], a, sizeof a)
                                        : scenario_sharding_name(best->sharding),
                              best->batch_per_gpu, best->grad_accum, nfit, nfit == 1 ? "" : "s");
    else
        n += (size_t)snprintf(buf + n, cap - n, "no layout fits; shown: %s, batch_per_gpu %d",
                              ncb > 0 ? combo_name(sc, &cb[ncb - 1], a, sizeof a)
                                      : scenario_sharding_name(best->sharding),
                              best->batch_per_gpu);
    for (int i = 0; i < ncb; i++)
        if (cb[i].tried && !cb[i].fits && (close < 0 || cb[i].need_gib < cb[close].need_gib))
            close = i, nover++;
        else if (cb[i].tried && !cb[i].fits)
            nover++;
    if (nover > 4 && n < cap) {
        /* many: how many, and the one that came closest */
        n += (size_t)snprintf(buf + n, cap - n, "; %d do not fit at batch_per_gpu %d, the "
                              "closest %s at %.1f GiB a GPU, over the %.1f GiB usable", nover,
                              sc->batch_auto ? 1 : sc->batch_per_gpu,
                              combo_name(sc, &cb[close], a, sizeof a), cb[close].need_gib,
                              cap_gib);
    } else {
        for (int i = 0; i < ncb && n < cap; i++) {
            if (!cb[i].tried || cb[i].fits)
                continue;
            n += (size_t)snprintf(buf + n, cap - n, "%s%s needs %.1f GiB a GPU",
                                  over ? ", " : "; ", combo_name(sc, &cb[i], a, sizeof a),
                                  cb[i].need_gib);
            over = 1;
        }
        if (over && n < cap)
            n += (size_t)snprintf(buf + n, cap - n, " at batch_per_gpu %d, over the %.1f GiB "
                                  "usable", sc->batch_auto ? 1 : sc->batch_per_gpu, cap_gib);
    }
    for (int i = 0; i < ncb; i++)
        if (cb[i].fits && i != mine && (runner < 0 || cb[i].rate > cb[runner].rate))
            runner = i;
    if (runner >= 0 && n < cap && best->res.samples_per_s > cb[runner].rate)
        n += (size_t)snprintf(buf + n, cap - n, "; %.1f%% faster than %s (batch_per_gpu %d)",
                              100 * (best->res.samples_per_s / cb[runner].rate - 1),
                              combo_name(sc, &cb[runner], b, sizeof b), cb[runner].batch);
    else if (runner >= 0 && n < cap)
        n += (size_t)snprintf(buf + n, cap - n, "; within %.1f%% of %s (batch_per_gpu %d), which "
                              "moves more or holds more, so the simpler is kept",
                              100 * (cb[runner].rate / best->res.samples_per_s - 1),
                              combo_name(sc, &cb[runner], b, sizeof b), cb[runner].batch);
    else if (n < cap && nfit > 0 && searched)
        n += (size_t)snprintf(buf + n, cap - n, "; the only one that fits");
    if (mine >= 0 && n < cap) {
        if (cb[mine].stop == STOP_GLOBAL)
            n += (size_t)snprintf(buf + n, cap - n, "; a larger micro-batch would pass the global "
                                  "batch");
        else if (cb[mine].stop == STOP_MEMORY)
            n += (size_t)snprintf(buf + n, cap - n, "; batch_per_gpu %d needs %.1f GiB a GPU, "
                                  "over the %.1f usable", 2 * cb[mine].batch, cb[mine].stop_gib,
                                  cap_gib);
        else if (cb[mine].stop == STOP_GAIN)
            n += (size_t)snprintf(buf + n, cap - n, "; doubling it gains under %.1f%%",
                                  100 * LAYOUT_MARGIN);
    }
    if (n < cap && nfit > 0)
        snprintf(buf + n, cap - n, "; %.400s", best->bound_text);
}

/* The tensor-parallel sizes to try on cl: 1, and under tp: auto the powers
 * of two that divide every train node's GPUs and the model's heads and KV
 * heads (a model given by its shape),
 * then 2 and 4 whole nodes of one train group, across their NICs, where the
 * cluster has them: the ranking keeps them only where they pay. */
static int tp_steps(const struct scenario *sc, const struct sc_cluster *cl, int *tps)
{
    int n = 0, wpn = 0, groups = 0, count = 0;

    if (!sc->tp_auto) {
        tps[0] = sc->tp > 1 ? sc->tp : 1;
        return 1;
    }
    for (int i = 0; i < cl->ngroups; i++)
        if (cl->groups[i].role == SIM_TRAIN) {
            int g = cl->groups[i].inst->gpu_count;
            wpn = wpn == 0 ? g : (g < wpn ? g : wpn);
            groups++;
            count = cl->groups[i].count;
        }
    for (int tp = 1; n < MAX_TP_STEPS; tp *= 2) {
        if (tp > 1 && (wpn <= 0 || wpn % tp != 0 || !shape_known(sc->model) ||
                       !shape_tp_fits(sc->model, tp)))
            break;
        tps[n++] = tp;
    }
    for (int k = 2; k <= 4 && n < MAX_TP_STEPS && groups == 1 && wpn > 1 &&
                    shape_known(sc->model); k *= 2)
        if (count % k == 0 && sim_tp_fits(wpn, count, wpn * k) &&
            shape_tp_fits(sc->model, wpn * k))
            tps[n++] = wpn * k;
    return n;
}

/* The pipeline depths to try with tp: the scenario's, or under pp: auto 1
 * and the powers of two that fit cl in Megatron's order, at most a layer a
 * stage (sim_pp_fits; one group of GPU train nodes). */
static int pp_steps(const struct scenario *sc, const struct sc_cluster *cl, int tp, int *pps)
{
    int n = 0;

    if (!sc->pp_auto) {
        pps[0] = sc->pp > 1 ? sc->pp : 1;
        return 1;
    }
    pps[n++] = 1;
    if (cl->ngroups != 1 || cl->groups[0].inst->gpu_count < 1 || !shape_known(sc->model))
        return n;
    for (int pp = 2; n < MAX_PP_STEPS && pp <= sc->model->layers; pp *= 2)
        if (sim_pp_fits_in(cl->groups[0].inst->gpu_count, cl->groups[0].count, tp, pp,
                           sc->pp_order))
            pps[n++] = pp;
    return n;
}

/* Chunks a stage to try: 1 without a pipeline; the scenario's when it
 * gives one or fixes pp; else 1, 2 and 4 while a chunk keeps a layer. */
static int v_steps(const struct scenario *sc, int pp, int *vs)
{
    int n = 0;

    if (pp == 1) {
        vs[0] = 1;
        return 1;
    }
    if (sc->interleave_set || !sc->pp_auto) {
        vs[0] = sc->interleave > 1 ? sc->interleave : 1;
        return 1;
    }
    for (int v = 1; n < MAX_V_STEPS && pp * v <= sc->model->layers; v *= 2)
        vs[n++] = v;
    return n;
}

static int rc_steps(const struct scenario *sc, enum sc_recompute *rcs)
{
    if (!sc->recompute_auto) {
        rcs[0] = sc->recompute;
        return 1;
    }
    rcs[0] = SC_RECOMPUTE_NONE;
    rcs[1] = SC_RECOMPUTE_SELECTIVE;
    rcs[2] = SC_RECOMPUTE_FULL;
    return 3;
}

/* The sharding stages to try: the scenario's, or under sharding: auto
 * those that make sense (none only with one rank or parameter servers;
 * hsdp over several nodes of several ranks; none or zero1 under a
 * pipeline). */
static int stage_ok(const struct scenario *sc, int s, int k, int nodes, int wpn, int tp, int pp,
                    int is_ps)
{
    int shards = k / (tp * pp) > 1 && !is_ps;

    if (!sc->sharding_auto)
        return stages[s] == (sc->sharding == SC_SHARD_FSDP ? SC_SHARD_ZERO3 : sc->sharding);
    if (stages[s] == SC_SHARD_HSDP && (nodes < 2 || wpn / tp < 2))
        return 0;   /* hsdp is zero3 on one node or one replica a node */
    if (!shards && stages[s] != SC_SHARD_NONE)
        return 0;
    return pp == 1 || stages[s] <= SC_SHARD_ZERO1;
}

/* Grow combination c's micro-batch under layout t (batch_per_gpu auto: 1,
 * 2, 4, ... while it fits memory, the global batch and gains; else the
 * scenario's), keeping the fastest candidate in *pc. */
static int grow(const struct scenario *sc, struct scenario *t, const struct sc_cluster *cl,
                int k, const struct plan_eval_opts *rank, struct combo *c,
                struct plan_cluster *cand, struct plan_cluster *pc, int *have, int *nfit,
                int *nsim, double *cap_gib, struct dt_err *e)
{
    int mp = c->tp * c->pp, rc;
    char why[320];

    for (int j = 0; j < LAYOUT_MAX_BATCH_STEPS; j++) {
        int b = sc->batch_auto ? 1 << j : sc->batch_per_gpu;
        double need = 0, capg = 0;
        if (sc->batch_auto && (double)b * (k / mp) > sc->global_batch) {
            c->stop = STOP_GLOBAL;
            break;  /* one micro-batch would pass the global batch */
        }
        t->batch_per_gpu = b;
        if (c->pp > 1 && !resolve_pp_fits(t, cl, why, sizeof why)) {
            if (!sc->batch_auto)
                break;
            continue;   /* interleaving: the micro-batches not a multiple of pp */
        }
        c->tried = 1;
        if (memory_ratio(t, cl, k, &need, &capg) > 1) {
            if (!c->fits && !(c->need_gib > 0))
                c->need_gib = need;
            c->stop = STOP_MEMORY;
            c->stop_gib = need;
            *cap_gib = capg;
            break;  /* larger micro-batches need more */
        }
        if ((rc = plan_cluster_eval_one(t, cl, rank, cand, e)) != 0)
            return rc;
        (*nsim)++;
        if (c->fits && sc->batch_auto &&
            !(cand->res.samples_per_s > c->rate * (1 + LAYOUT_MARGIN))) {
            (*nfit)++;
            c->stop = STOP_GAIN;
            break;  /* a larger micro-batch gains nothing more */
        }
        if (!c->fits || cand->res.samples_per_s > c->rate) {
            c->rate = cand->res.samples_per_s;
            c->batch = b;
        }
        c->fits = 1;
        (*nfit)++;
        if (!*have || (cand->feasible && !pc->feasible) ||
            (cand->feasible == pc->feasible &&
             cand->res.samples_per_s > pc->res.samples_per_s * (1 + LAYOUT_MARGIN))) {
            *pc = *cand;
            *have = 1;
        }
        if (!sc->batch_auto)
            break;
    }
    return 0;
}

static void set_layout(struct scenario *t, const struct combo *c)
{
    t->tp = c->tp;
    t->pp = c->pp;
    t->interleave = c->v;
    t->recompute = c->rc;
    t->sharding = c->stage;
}

static int layout_eval(const struct scenario *sc, const struct sc_cluster *cl,
                       const struct plan_eval_opts *o, struct plan_cluster *pc, struct dt_err *e)
{
    struct scenario *t;
    struct plan_cluster *cand;
    struct combo *cb;
    struct plan_eval_opts rank = *o;
    struct sc_comm comm;
    int nodes, wpn, k = train_ranks(cl, &nodes, &wpn), nfit = 0, have = 0, rc = 0;
    int ncb = 0, last = -1, nsim = 0, tps[MAX_TP_STEPS], ntp, pps[MAX_PP_STEPS], npp;
    int vs[MAX_V_STEPS], nv, nrc;
    enum sc_recompute rcs[MAX_RC_STEPS];
    double cap_gib = 0;

    rank.whatif = 0;    /* the candidates are ranked; the chosen one is named (bound.c) */
    if (!sc->sharding_auto && !sc->batch_auto && !sc->tp_auto && !sc->pp_auto &&
        !sc->recompute_auto)
        return plan_cluster_eval_one(sc, cl, o, pc, e);
    scenario_cluster_comm(sc, cl, &comm);
    if (!o->trace) {
        rank.steps = LAYOUT_RANK_STEPS;
        rank.warmup = 1;
    }
    ntp = tp_steps(sc, cl, tps);
    nrc = rc_steps(sc, rcs);
    t = x_malloc(sizeof *t);
    cand = x_malloc(sizeof *cand);
    cb = x_calloc((size_t)MAX_TP_STEPS * MAX_PP_STEPS * MAX_V_STEPS * MAX_RC_STEPS * NSTAGES,
                  sizeof *cb);
    *t = *sc;
    t->sharding_auto = t->batch_auto = t->tp_auto = t->pp_auto = t->recompute_auto = 0;
    for (int ti = 0; ti < ntp; ti++) {
        npp = pp_steps(sc, cl, tps[ti], pps);
        for (int pi = 0; pi < npp; pi++) {
            nv = v_steps(sc, pps[pi], vs);
            for (int vi = 0; vi < nv; vi++)
                for (int ri = 0; ri < nrc; ri++)
                    for (int s = 0; s < NSTAGES; s++) {
                        struct combo *c = &cb[ncb];
                        if (!stage_ok(sc, s, k, nodes, wpn, tps[ti], pps[pi],
                                      sim_is_ps(comm.strategy)))
                            continue;
                        c->tp = tps[ti];
                        c->pp = pps[pi];
                        c->v = vs[vi];
                        c->rc = rcs[ri];
                        c->stage = sc->sharding_auto ? stages[s] : sc->sharding;
                        set_layout(t, c);
                        if ((rc = grow(sc, t, cl, k, &rank, c, cand, pc, &have, &nfit, &nsim,
                                       &cap_gib, e)) != 0)
                            goto out;
                        if (c->tried)
                            last = ncb++;
                        else
                            memset(c, 0, sizeof *c);
                    }
        }
    }
    /* the chosen layout as the scenario says to simulate it; when nothing
     * fits, the last combination tried at the smallest batch, reported infeasible */
    if (have) {
        double ranked = pc->res.samples_per_s;
        struct combo best = {0};
        best.tp = pc->cfg.c.tp > 1 ? pc->cfg.c.tp : 1;
        best.pp = pc->cfg.c.pp > 1 ? pc->cfg.c.pp : 1;
        best.v = best.pp > 1 && pc->cfg.c.pp_interleave > 1 ? pc->cfg.c.pp_interleave : 1;
        best.rc = pc->recompute;
        best.stage = pc->sharding;
        set_layout(t, &best);
        t->batch_per_gpu = pc->batch_per_gpu;
        if ((rc = plan_cluster_eval_one(t, cl, o, pc, e)) != 0)
            goto out;
        /* the others as ranked, on the chosen one's terms */
        for (int i = 0; i < ncb; i++)
            if (cb[i].fits)
                cb[i].rate *= pc->res.samples_per_s / ranked;
    } else {
        if (last >= 0) {
            set_layout(t, &cb[last]);
        } else {
            t->tp = sc->tp > 1 ? sc->tp : 1;
            t->pp = sc->pp > 1 ? sc->pp : 1;
        }
        t->batch_per_gpu = sc->batch_auto ? 1 : sc->batch_per_gpu;
        if ((rc = plan_cluster_eval_one(t, cl, o, pc, e)) != 0)
            goto out;
    }
    pc->nsim = nsim + 1;
    /* the simulated config pointed into the copy */
    pc->cfg.c.bucket_list = sc->nbucket_list > 0 ? sc->bucket_list : NULL;
    explain(sc, pc, cb, ncb, nfit, cap_gib, pc->layout_why, sizeof pc->layout_why);
out:
    x_free(cb);
    x_free(cand);
    x_free(t);
    return rc;
}

int plan_cluster_eval(const struct scenario *sc, const struct sc_cluster *cl,
                      const struct plan_eval_opts *o, struct plan_cluster *pc, struct dt_err *e)
{
    struct scenario *t;
    int rc;

    if (cl->tp == 0 && cl->sp == 0 && cl->pp == 0 && cl->interleave == 0)
        return layout_eval(sc, cl, o, pc, e);
    /* the cluster's own parallel: section over the scenario's */
    t = x_malloc(sizeof *t);
    *t = *sc;
    if (cl->tp != 0) {
        t->tp_auto = cl->tp < 0;
        t->tp = cl->tp > 0 ? cl->tp : 1;
    }
    if (cl->sp != 0)
        t->sequence_parallel = cl->sp == 2;
    if (cl->pp != 0) {
        t->pp_auto = cl->pp < 0;
        t->pp = cl->pp > 0 ? cl->pp : 1;
    }
    if (cl->interleave != 0) {
        t->interleave = cl->interleave;
        t->interleave_set = 1;
    }
    rc = layout_eval(t, cl, o, pc, e);
    pc->cfg.c.bucket_list = sc->nbucket_list > 0 ? sc->bucket_list : NULL;
    x_free(t);
    return rc;
}
