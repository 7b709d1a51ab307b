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
 * nodes' GPUs (1, 2, 4, ...) is tried with every stage.
 *
 * Cost: at most 7 tp x 5 stages x 21 micro-batches, pruned: by memory; one rank
 * or parameter servers shard nothing, so only none is tried; a stage stops
 * growing its micro-batch once doubling it gains no more than the margin.
 * Candidates are ranked on LAYOUT_RANK_STEPS simulated steps after one
 * warm-up, and the one chosen is simulated again as the scenario says.
 */
#include "planner.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "memory.h"
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

/* What each combination of tensor parallelism and sharding stage came to:
 * its best candidate, or why none fitted. */
struct combo {
    int tried, fits;
    int tp;
    enum sc_sharding stage;      /* as simulated (fsdp stays fsdp) */
    double rate;                 /* samples/s of its best candidate */
    int batch;
    double need_gib;             /* memory at its smallest micro-batch */
    int stop;                    /* why its micro-batch stopped growing: STOP_* */
    double stop_gib;             /* STOP_MEMORY: what the next one needs */
};

enum { STOP_FIXED = 0, STOP_GLOBAL, STOP_MEMORY, STOP_GAIN };

#define MAX_TP_STEPS 7          /* tp 1, 2, 4, ..., 64 */
#define MAX_COMBOS (MAX_TP_STEPS * NSTAGES)

/* "zero3", or "tp 8 + zero1" when the search chooses tp too */
static const char *combo_name(const struct scenario *sc, int tp, enum sc_sharding st, char *buf,
                              size_t len)
{
    if (!sc->tp_auto)
        return scenario_sharding_name(st);
    snprintf(buf, len, "tp %d + %s", tp, scenario_sharding_name(st));
    return buf;
}

static void explain(const struct scenario *sc, const struct plan_cluster *best,
                    const struct combo *cb, int ncb, int nfit, double cap_gib, char *buf,
                    size_t cap)
{
    size_t n = 0;
    int over = 0, runner = -1, mine = -1, btp = best->cfg.c.tp > 1 ? best->cfg.c.tp : 1;
    int close = -1, nover = 0;
    char a[48], b[48];

    for (int i = 0; i < ncb; i++)
        if (cb[i].fits && cb[i].tp == btp && cb[i].stage == best->sharding)
            mine = i;
    if (nfit > 0)
        n += (size_t)snprintf(buf + n, cap - n, "%s, batch_per_gpu %d (grad_accum %d), chosen "
                              "from %d layout%s that fit",
                              combo_name(sc, btp, best->sharding, a, sizeof a),
                              best->batch_per_gpu, best->grad_accum, nfit, nfit == 1 ? "" : "s");
    else
        n += (size_t)snprintf(buf + n, cap - n, "no layout fits; shown: %s, batch_per_gpu %d",
                              combo_name(sc, btp, best->sharding, a, sizeof a),
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
                              combo_name(sc, cb[close].tp, cb[close].stage, a, sizeof a),
                              cb[close].need_gib, cap_gib);
    } else {
        for (int i = 0; i < ncb && n < cap; i++) {
            if (!cb[i].tried || cb[i].fits)
                continue;
            n += (size_t)snprintf(buf + n, cap - n, "%s%s needs %.1f GiB a GPU",
                                  over ? ", " : "; ",
                                  combo_name(sc, cb[i].tp, cb[i].stage, a, sizeof a),
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
                              combo_name(sc, cb[runner].tp, cb[runner].stage, b, sizeof b),
                              cb[runner].batch);
    else if (runner >= 0 && n < cap)
        n += (size_t)snprintf(buf + n, cap - n, "; within %.1f%% of %s (batch_per_gpu %d), which "
                              "moves more or holds more, so the simpler is kept",
                              100 * (cb[runner].rate / best->res.samples_per_s - 1),
                              combo_name(sc, cb[runner].tp, cb[runner].stage, b, sizeof b),
                              cb[runner].batch);
    else if (n < cap && nfit > 0 && (sc->sharding_auto || sc->tp_auto))
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
        snprintf(buf + n, cap - n, "; %s", best->bound_text);
}

/* The tensor-parallel sizes to try on cl: 1, and under tp: auto the powers
 * of two that divide every train node's GPUs (a model given by its shape). */
static int tp_steps(const struct scenario *sc, const struct sc_cluster *cl, int *tps)
{
    int n = 0, wpn = 0;

    if (!sc->tp_auto) {
        tps[0] = sc->tp > 1 ? sc->tp : 1;
        return 1;
    }
    for (int i = 0; i < cl->ngroups; i++)
        if (cl->groups[i].role == SIM_TRAIN) {
            int g = cl->groups[i].inst->gpu_count;
            wpn = wpn == 0 ? g : (g < wpn ? g : wpn);
        }
    for (int tp = 1; n < MAX_TP_STEPS; tp *= 2) {
        if (tp > 1 && (wpn <= 0 || wpn % tp != 0 || !shape_known(sc->model)))
            break;
        tps[n++] = tp;
    }
    return n;
}

static int layout_eval(const struct scenario *sc, const struct sc_cluster *cl,
                       const struct plan_eval_opts *o, struct plan_cluster *pc, struct dt_err *e)
{
    struct scenario *t;
    struct plan_cluster *cand;
    struct combo cb[MAX_COMBOS];
    struct plan_eval_opts rank = *o;
    struct sc_comm comm;
    int nodes, wpn, k = train_ranks(cl, &nodes, &wpn), nfit = 0, have = 0, rc = 0;
    int ncb = 0, last = -1, nsim = 0, tps[MAX_TP_STEPS], ntp;
    double cap_gib = 0;

    if (!sc->sharding_auto && !sc->batch_auto && !sc->tp_auto)
        return plan_cluster_eval_one(sc, cl, o, pc, e);
    scenario_cluster_comm(sc, cl, &comm);
    if (!o->trace) {
        rank.steps = LAYOUT_RANK_STEPS;
        rank.warmup = 1;
    }
    ntp = tp_steps(sc, cl, tps);
    t = x_malloc(sizeof *t);
    cand = x_malloc(sizeof *cand);
    *t = *sc;
    t->sharding_auto = t->batch_auto = t->tp_auto = 0;
    memset(cb, 0, sizeof cb);
    for (int ti = 0; ti < ntp; ti++) {
        int tp = tps[ti];
        /* else every stage is none: one replica or parameter servers shard nothing */
        int shards = k / tp > 1 && !sim_is_ps(comm.strategy);
        t->tp = tp;
        for (int s = 0; s < NSTAGES; s++) {
            struct combo *c;
            if (!sc->sharding_auto && stages[s] != (sc->sharding == SC_SHARD_FSDP ? SC_SHARD_ZERO3
                                                                                   : sc->sharding))
                continue;
            if (stages[s] == SC_SHARD_HSDP && sc->sharding_auto && (nodes < 2 || wpn / tp < 2))
                continue;   /* hsdp is zero3 on one node or one replica a node */
            if (sc->sharding_auto && !shards && stages[s] != SC_SHARD_NONE)
                continue;
            t->sharding = sc->sharding_auto ? stages[s] : sc->sharding;
            c = &cb[ncb++];
            c->tried = 1;
            c->tp = tp;
            c->stage = t->sharding;
            last = ncb - 1;
            for (int j = 0; j < LAYOUT_MAX_BATCH_STEPS; j++) {
                int b = sc->batch_auto ? 1 << j : sc->batch_per_gpu;
                double need = 0, capg = 0;
                if (sc->batch_auto && (double)b * (k / tp) > sc->global_batch) {
                    c->stop = STOP_GLOBAL;
                    break;  /* one micro-batch would pass the global batch */
                }
                t->batch_per_gpu = b;
                if (memory_ratio(t, cl, k, &need, &capg) > 1) {
                    if (j == 0)
                        c->need_gib = need;
                    c->stop = STOP_MEMORY;
                    c->stop_gib = need;
                    cap_gib = capg;
                    break;  /* larger micro-batches need more */
                }
                if ((rc = plan_cluster_eval_one(t, cl, &rank, cand, e)) != 0)
                    goto out;
                nsim++;
                if (c->fits && sc->batch_auto &&
                    !(cand->res.samples_per_s > c->rate * (1 + LAYOUT_MARGIN))) {
                    nfit++;
                    c->stop = STOP_GAIN;
                    break;  /* a larger micro-batch gains nothing more */
                }
                if (!c->fits || cand->res.samples_per_s > c->rate) {
                    c->rate = cand->res.samples_per_s;
                    c->batch = b;
                }
                c->fits = 1;
                nfit++;
                if (!have || (cand->feasible && !pc->feasible) ||
                    (cand->feasible == pc->feasible &&
                     cand->res.samples_per_s > pc->res.samples_per_s * (1 + LAYOUT_MARGIN))) {
                    *pc = *cand;
                    have = 1;
                }
                if (!sc->batch_auto)
                    break;
            }
        }
    }
    /* the chosen layout as the scenario says to simulate it; when nothing
     * fits, the last combination tried at the smallest batch, reported infeasible */
    if (have) {
        double ranked = pc->res.samples_per_s;
        t->tp = pc->cfg.c.tp > 1 ? pc->cfg.c.tp : 1;
        t->sharding = pc->sharding;
        t->batch_per_gpu = pc->batch_per_gpu;
        if ((rc = plan_cluster_eval_one(t, cl, o, pc, e)) != 0)
            goto out;
        /* the others as ranked, on the chosen one's terms */
        for (int i = 0; i < ncb; i++)
            if (cb[i].fits)
                cb[i].rate *= pc->res.samples_per_s / ranked;
    } else {
        t->tp = last >= 0 ? cb[last].tp : (sc->tp > 1 ? sc->tp : 1);
        t->sharding = last >= 0 ? cb[last].stage : sc->sharding;
        t->batch_per_gpu = sc->batch_auto ? 1 : sc->batch_per_gpu;
        if ((rc = plan_cluster_eval_one(t, cl, o, pc, e)) != 0)
            goto out;
    }
    pc->nsim = nsim + 1;
    /* the simulated config pointed into the copy */
    pc->cfg.c.bucket_list = sc->nbucket_list > 0 ? sc->bucket_list : NULL;
    explain(sc, pc, cb, ncb, nfit, cap_gib, pc->layout_why, sizeof pc->layout_why);
out:
    x_free(cand);
    x_free(t);
    return rc;
}

int plan_cluster_eval(const struct scenario *sc, const struct sc_cluster *cl,
                      const struct plan_eval_opts *o, struct plan_cluster *pc, struct dt_err *e)
{
    struct scenario *t;
    int rc;

    if (cl->tp == 0 && cl->sp == 0)
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
    rc = layout_eval(t, cl, o, pc, e);
    pc->cfg.c.bucket_list = sc->nbucket_list > 0 ? sc->bucket_list : NULL;
    x_free(t);
    return rc;
}
