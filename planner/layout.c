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
 * Cost: at most 5 stages x 21 micro-batches evaluated, memory-pruned.
 */
#include "planner.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "memory.h"
#include "plan_int.h"
#include "../base/units.h"
#include "../base/xmem.h"

#define LAYOUT_MARGIN 0.005
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

/* What each stage came to: its best candidate, or why none fitted. */
struct stage_best {
    int tried, fits;
    double rate;                 /* samples/s of its best candidate */
    int batch;
    double need_gib, cap_gib;    /* memory at its smallest micro-batch */
};

static void explain(const struct scenario *sc, const struct plan_cluster *best,
                    const struct stage_best *sb, int nfit, char *buf, size_t cap)
{
    size_t n = 0;
    int over = 0, runner = -1;

    n += (size_t)snprintf(buf + n, cap - n, "%s, batch_per_gpu %d (grad_accum %d), chosen from "
                          "%d layout%s that fit", scenario_sharding_name(best->sharding),
                          best->batch_per_gpu, best->grad_accum, nfit, nfit == 1 ? "" : "s");
    for (int s = 0; s < NSTAGES && n < cap; s++) {
        if (!sb[s].tried || sb[s].fits)
            continue;
        n += (size_t)snprintf(buf + n, cap - n, "%s%s needs %.1f GiB a GPU", over ? ", " : "; ",
                              scenario_sharding_name(stages[s]), sb[s].need_gib);
        over = 1;
    }
    if (over && n < cap)
        n += (size_t)snprintf(buf + n, cap - n, " at batch_per_gpu %d, over the %.1f GiB usable",
                              sc->batch_auto ? 1 : sc->batch_per_gpu, sb[0].cap_gib);
    for (int s = 0; s < NSTAGES; s++)
        if (sb[s].fits && stages[s] != best->sharding && (runner < 0 || sb[s].rate > sb[runner].rate))
            runner = s;
    if (runner >= 0 && n < cap && best->res.samples_per_s > sb[runner].rate)
        n += (size_t)snprintf(buf + n, cap - n, "; %.1f%% faster than %s (batch_per_gpu %d)",
                              100 * (best->res.samples_per_s / sb[runner].rate - 1),
                              scenario_sharding_name(stages[runner]), sb[runner].batch);
    else if (runner >= 0 && n < cap)
        n += (size_t)snprintf(buf + n, cap - n, "; within %.1f%% of %s (batch_per_gpu %d), which "
                              "moves more or holds more, so the simpler is kept",
                              100 * (sb[runner].rate / best->res.samples_per_s - 1),
                              scenario_sharding_name(stages[runner]), sb[runner].batch);
    else if (n < cap && nfit > 0)
        n += (size_t)snprintf(buf + n, cap - n, "; the only stage that fits");
    if (n < cap)
        snprintf(buf + n, cap - n, "; %s", best->bound_text);
}

int plan_cluster_eval(const struct scenario *sc, const struct sc_cluster *cl,
                      const struct plan_eval_opts *o, struct plan_cluster *pc, struct dt_err *e)
{
    struct scenario *t;
    struct plan_cluster *cand;
    struct stage_best sb[NSTAGES];
    int nodes, wpn, k = train_ranks(cl, &nodes, &wpn), nfit = 0, have = 0, rc = 0;
    int last_stage = 0;

    if (!sc->sharding_auto && !sc->batch_auto)
        return plan_cluster_eval_one(sc, cl, o, pc, e);
    t = x_malloc(sizeof *t);
    cand = x_malloc(sizeof *cand);
    *t = *sc;
    t->sharding_auto = t->batch_auto = 0;
    memset(sb, 0, sizeof sb);
    for (int s = 0; s < NSTAGES; s++) {
        if (!sc->sharding_auto && stages[s] != (sc->sharding == SC_SHARD_FSDP ? SC_SHARD_ZERO3
                                                                               : sc->sharding))
            continue;
        if (stages[s] == SC_SHARD_HSDP && sc->sharding_auto && (nodes < 2 || wpn < 2))
            continue;   /* hsdp is zero3 on one node or one GPU a node */
        t->sharding = sc->sharding_auto ? stages[s] : sc->sharding;
        last_stage = s;
        sb[s].tried = 1;
        for (int j = 0; j < LAYOUT_MAX_BATCH_STEPS; j++) {
            int b = sc->batch_auto ? 1 << j : sc->batch_per_gpu;
            double need = 0, capg = 0;
            if (sc->batch_auto && (double)b * k > sc->global_batch)
                break;  /* one micro-batch would pass the global batch */
            t->batch_per_gpu = b;
            if (memory_ratio(t, cl, k, &need, &capg) > 1) {
                if (j == 0) {
                    sb[s].need_gib = need;
                    sb[s].cap_gib = capg;
                }
                break;  /* larger micro-batches need more */
            }
            if (j == 0)
                sb[s].cap_gib = capg;
            if ((rc = plan_cluster_eval_one(t, cl, o, cand, e)) != 0)
                goto out;
            if (!sb[s].fits || cand->res.samples_per_s > sb[s].rate) {
                sb[s].rate = cand->res.samples_per_s;
                sb[s].batch = b;
            }
            sb[s].fits = 1;
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
    if (!have) {
        /* nothing fits: the most sharded stage at the smallest batch, reported infeasible */
        t->sharding = sc->sharding_auto ? stages[last_stage] : sc->sharding;
        t->batch_per_gpu = sc->batch_auto ? 1 : sc->batch_per_gpu;
        if ((rc = plan_cluster_eval_one(t, cl, o, pc, e)) != 0)
            goto out;
    }
    /* the simulated config pointed into the copy */
    pc->cfg.c.bucket_list = sc->nbucket_list > 0 ? sc->bucket_list : NULL;
    explain(sc, pc, sb, nfit, pc->layout_why, sizeof pc->layout_why);
out:
    x_free(cand);
    x_free(t);
    return rc;
}
