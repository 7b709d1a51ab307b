/*
 * shard.c - sharded data parallelism in the step simulator (sim.h, enum
 * sim_shard; docs/model.md "Sharded data parallelism").
 *
 * A sharded step is a sequence of uses: per micro-batch, the forward of
 * units 0..L-1 then the backward of units L-1..0.  The uses that need their
 * unit's parameters gathered (every use under FULL and HYBRID; the first
 * micro-batch's forward under OPT) are all-gathered on the gather lane, in
 * use order; the gather for use u may start once every member has started
 * use u-1 (one unit ahead, as FSDP's BACKWARD_PRE prefetch and Megatron's
 * overlapped parameter gather issue it) and the previous gather is done.
 * A use computes once it is gathered and the worker's previous use is
 * done.  After a backward use whose gradients are reduced (every micro-
 * batch's under FULL, HYBRID and OPT_GRAD; the last micro-batch's under
 * OPT, which accumulates them whole) they are reduce-scattered on the
 * reduce lane (HYBRID: within the node, then the shard all-reduced across
 * nodes) once every member finished it.  The optimizer starts when the
 * last reduction ends.
 *
 * Every collective runs as the phases of the strategy (coll_build_kind),
 * as flows on the same resources as everything else.  A use computes at
 * full speed, or 1/comm_slowdown of it while a collective is in flight.
 *
 * Micro-batches between the first and the last repeat one pattern (the
 * step's jitter is one multiplier), so at most SHARD_MB_SIM are simulated:
 * the first, the last, and one in the middle that stands for the other
 * mb - 2, dilated in time by that factor: its uses compute mb - 2 times as
 * long, and each collective that overlaps one of them (the gather issued
 * while it computes, the reduction that follows the use before it) moves
 * mb - 2 times the bytes after mb - 2 times the latency.  Rates do not
 * change, so each overlapping pair takes what mb - 2 of them take in turn,
 * and the totals of compute, bytes and latency are the step's.  Cost per
 * step: O(L x min(mb, 3)) events, independent of the number of GPUs.
 */
#include "sim_int.h"

#include <math.h>
#include <string.h>

#include "trace.h"

/* ---- set-up ------------------------------------------------------------ */

static int is_gpu_link(const struct coll_ctx *ctx, int res)
{
    for (int i = 0; i < ctx->ntg; i++)
        if (ctx->tg[i].r_intra == res)
            return 1;
    return 0;
}

void shard_coll_into(struct shard_coll *sc, const struct coll_ctx *ctx, enum sim_strategy st,
                     enum nccl_coll kind, const struct nccl_shape *shape, double bytes,
                     double nic_scale)
{
    struct nccl_model m;
    struct coll_phase tmp[COLL_MAX_PHASES];
    int n;

    memset(&m, 0, sizeof m);
    if (st == SIM_AUTO && shape)
        nccl_model_init(&m, shape, kind);
    n = bytes > 0 ? coll_build_kind(ctx, st, kind, &m, bytes, tmp) : 0;
    for (int p = 0; p < n && sc->nph < SHARD_MAX_PH; p++) {
        for (int u = 0; u < tmp[p].nuse; u++)
            if (!is_gpu_link(ctx, tmp[p].use[u].res))
                tmp[p].use[u].w *= nic_scale;
        sc->ph[sc->nph++] = tmp[p];
    }
}

static int use_bwd(const struct shard *sh, int u)
{
    return u % (2 * sh->L) >= sh->L;
}

/* Which uses each lane serves (the file's comment). */
static void lanes_of(struct shard *sh, enum sim_shard mode)
{
    /* zero3 and hsdp gather for every use, zero1 and zero2 for the first
     * micro-batch's forward; unsharded (tensor parallelism alone) nothing,
     * its gradients accumulated whole and all-reduced a layer at a time
     * after the last micro-batch, as zero1 reduces them */
    int gather_all = mode == SIM_SHARD_FULL || mode == SIM_SHARD_HYBRID;
    int gather_first = mode == SIM_SHARD_OPT || mode == SIM_SHARD_OPT_GRAD;
    int reduce_last = mode == SIM_SHARD_OPT || mode == SIM_SHARD_NONE;

    for (int l = 0; l < SH_NLANE; l++)
        sh->uses[l] = x_calloc((size_t)sh->nuse, sizeof *sh->uses[l]);
    sh->gather_of = x_calloc((size_t)sh->nuse, sizeof *sh->gather_of);
    for (int u = 0; u < sh->nuse; u++) {
        int mbi = u / (2 * sh->L), bwd = use_bwd(sh, u);
        sh->gather_of[u] = -1;
        if (gather_all || (gather_first && mbi == 0 && !bwd)) {
            sh->gather_of[u] = sh->n[SH_GATHER];
            sh->uses[SH_GATHER][sh->n[SH_GATHER]++] = u;
        }
        if (bwd && (!reduce_last || mbi == sh->mb_sim - 1))
            sh->uses[SH_REDUCE][sh->n[SH_REDUCE]++] = u;
    }
}

void shard_build(struct sim *s)
{
    const struct sim_config *cfg = s->cfg;
    const struct sim_comm *cm = &cfg->c;
    struct shard *sh = &s->sh;
    const struct coll_ctx *all = &s->ch[0].ctx;
    struct coll_ctx dp;
    struct nccl_shape shape, tpg, dsh, *shp = NULL;
    int tp = cm->tp > 1 ? cm->tp : 1, share;
    double L, grad, param;
    enum nccl_coll reduce = cm->shard == SIM_SHARD_NONE ? NCCL_ALLREDUCE : NCCL_REDUCESCATTER;

    memset(sh, 0, sizeof *sh);
    for (int l = 0; l < SH_NLANE; l++)
        sh->ph[l] = -1;
    if ((cm->shard == SIM_SHARD_NONE && tp == 1) || coll_ranks(all) <= 1)
        return;
    if (sim_nccl_shape(cfg, &shape) == 0) {
        shp = &dsh;
        sim_tp_shapes(&shape, tp, &tpg, &dsh, &share);
    }
    sh->on = 1;
    sh->L = cm->units > 0 ? cm->units : 1;
    sh->mb = cm->micro_batches > 0 ? cm->micro_batches : 1;
    sh->mb_sim = sh->mb < SHARD_MB_SIM || cm->all_micro_batches ? sh->mb : SHARD_MB_SIM;
    sh->nuse = 2 * sh->L * sh->mb_sim;
    lanes_of(sh, cm->shard);
    tp_build(s, shp ? &shape : NULL);
    /* data parallelism over the ranks at one tensor-parallel position, each
     * holding a tp-th of the model (tp.c) */
    tp_dp_ctx(all, tp, &dp, &share);
    L = sh->L;
    grad = cfg->w.grad_bytes / tp / L;
    param = cm->param_bytes / tp / L;
    if (coll_ranks(&dp) <= 1)
        return;   /* tensor parallelism alone: nothing to share */
    if (cm->shard != SIM_SHARD_HYBRID || coll_nodes(&dp) <= 1) {
        if (cm->shard != SIM_SHARD_NONE)
            shard_coll_into(&sh->coll[SH_GATHER], &dp, cm->strategy, NCCL_ALLGATHER, shp, param,
                            share);
        shard_coll_into(&sh->coll[SH_REDUCE], &dp, cm->strategy, reduce, shp, grad, share);
        return;
    }
    /* HYBRID: the node's ranks of the data-parallel group are the shard
     * group (the train group with the most GPUs per node stands for every
     * node); its shard of each unit's gradients is then all-reduced by one
     * ring a GPU of one rank per node. */
    {
        struct coll_ctx node = dp, across = dp;
        struct nccl_shape nsh, ash;
        int best = 0, wpn;
        for (int i = 1; i < dp.ntg; i++)
            if (dp.tg[i].wpn > dp.tg[best].wpn)
                best = i;
        node.ntg = 1;
        node.tg[0] = dp.tg[best];
        node.tg[0].nodes = 1;
        wpn = node.tg[0].wpn;
        for (int i = 0; i < across.ntg; i++) {
            across.tg[i].wpn = 1;
            across.tg[i].r_intra = -1;
        }
        if (shp)
            sim_hybrid_shapes(&dsh, &nsh, &ash);
        shard_coll_into(&sh->coll[SH_GATHER], &node, cm->strategy, NCCL_ALLGATHER,
                        shp ? &nsh : NULL, param, 1);
        shard_coll_into(&sh->coll[SH_REDUCE], &node, cm->strategy, NCCL_REDUCESCATTER,
                        shp ? &nsh : NULL, grad, 1);
        shard_coll_into(&sh->coll[SH_REDUCE], &across, cm->strategy, NCCL_ALLREDUCE,
                        shp ? &ash : NULL, grad / wpn, (double)wpn * share);
    }
}

void shard_free(struct sim *s)
{
    for (int l = 0; l < SH_NLANE; l++)
        x_free(s->sh.uses[l]);
    x_free(s->sh.gather_of);
}

/* ---- lanes ------------------------------------------------------------- */

static void lane_try(struct sim *s, int lane);
static void unit_start(struct sim *s, int wi);

static const struct chain *members(const struct sim *s)
{
    return &s->ch[0];
}

/* How many micro-batches use u stands for: mb - 2 in the middle one when
 * only three are simulated, else 1. */
static double dil_use(const struct shard *sh, int u)
{
    return sh->mb > sh->mb_sim && u >= 2 * sh->L && u < 4 * sh->L ? sh->mb - 2 : 1;
}

/* ... and the lane's collective idx, as the use it overlaps: a gather the
 * use before its own, a reduction the use after. */
static double dil_coll(const struct shard *sh, int lane, int idx)
{
    int u = sh->uses[lane][idx] + (lane == SH_GATHER ? -1 : 1);
    return u >= 0 && u < sh->nuse ? dil_use(sh, u) : 1;
}

/* May the lane's i-th collective start: every member far enough. */
static int lane_ready(const struct sim *s, int lane, int i)
{
    const struct chain *c = members(s);
    int u = s->sh.uses[lane][i];

    for (int k = 0; k < c->nmem; k++) {
        const struct worker *w = &s->w[c->mem[k]];
        if (lane == SH_GATHER && ((w->state != W_FWD && w->state != W_BWD) || w->su_start < u))
            return 0;
        if (lane == SH_REDUCE && (w->su_done <= u || s->sh.reduced))
            return 0;
    }
    return 1;
}

/* Queue the end of worker wi's use at the current rate (generation bwd_gen). */
static void unit_schedule(struct sim *s, int wi)
{
    struct worker *w = &s->w[wi];

    w->bwd_rate = s->sh.active > 0 ? 1 / sim_slowdown(s, w) : 1;
    w->bwd_gen++;
    evq_push(&s->q, s->now + fmax(0, w->bwd_total - w->bwd_done) / w->bwd_rate, EV_UNIT, wi,
             w->su_start - 1, w->bwd_gen);
}

/* Collectives started or all ended: the members' uses change speed. */
static void rates_changed(struct sim *s)
{
    const struct chain *c = members(s);

    for (int k = 0; k < c->nmem; k++) {
        struct worker *w = &s->w[c->mem[k]];
        if (!w->su_busy || sim_slowdown(s, w) <= 1)
            continue;
        w->bwd_done += (s->now - w->bwd_t) * w->bwd_rate;
        w->bwd_t = s->now;
        unit_schedule(s, c->mem[k]);
    }
}

void shard_comm_started(struct sim *s)
{
    if (s->sh.active++ == 0)
        rates_changed(s);
}

void shard_comm_ended(struct sim *s)
{
    if (--s->sh.active == 0)
        rates_changed(s);
}

static void phase_start(struct sim *s, int lane, int idx, int p)
{
    const struct coll_phase *ph = &s->sh.coll[lane].ph[p];

    s->sh.ph[lane] = p;
    shard_comm_started(s);
    if (s->cfg->trace)
        sim_trace_begin(s->cfg->trace, s->now, SIM_ACT_SHARD, lane, idx, p, -1,
                        ph->amount * dil_coll(&s->sh, lane, idx), NULL, 0);
    if (ph->lat_s > 0)
        evq_push(&s->q, s->now + ph->lat_s * dil_coll(&s->sh, lane, idx), EV_SHARD_LAT, lane, idx,
                 p);
    else
        shard_phase_flow(s, lane, idx, p);
}

void shard_phase_flow(struct sim *s, int lane, int idx, int p)
{
    const struct coll_phase *ph;

    if (lane == SH_TP) {
        tp_phase_flow(s, idx, p);
        return;
    }
    ph = &s->sh.coll[lane].ph[p];

    if (s->cfg->trace && ph->amount > 0)
        sim_trace_begin(s->cfg->trace, s->now, SIM_ACT_SHARD_FLOW, lane, idx, p, -1,
                        ph->amount * dil_coll(&s->sh, lane, idx), ph->use, ph->nuse);
    if (ph->amount <= 0 || ph->nuse == 0)
        shard_phase_done(s, lane, idx, p);
    else
        mm_add_flow(&s->mm, ph->amount * dil_coll(&s->sh, lane, idx), ph->bound, ph->use, ph->nuse,
                    FL_SHARD, lane, idx, p);
}

/* Is use u ready to compute: gathered when it needs to be (the lane has
 * moved past its gather). */
static int gathered(const struct shard *sh, int u)
{
    int g = sh->gather_of[u];
    return g < 0 || g < sh->next[SH_GATHER] - (sh->ph[SH_GATHER] >= 0);
}

/* The lane's collective idx is done: whoever waited on it goes on. */
static void coll_done(struct sim *s, int lane, int idx)
{
    struct shard *sh = &s->sh;
    const struct chain *c = members(s);

    if (lane == SH_GATHER) {
        int u = sh->uses[SH_GATHER][idx];
        for (int k = 0; k < c->nmem; k++) {
            const struct worker *w = &s->w[c->mem[k]];
            if (!w->su_busy && w->su_start == u && w->su_done == u && gathered(sh, u))
                unit_start(s, c->mem[k]);
        }
    } else if (idx + 1 == sh->n[SH_REDUCE]) {
        /* the step's gradients are reduced: the optimizer, and a new step of lanes */
        sh->next[SH_GATHER] = sh->next[SH_REDUCE] = 0;
        sh->reduced = 1;
        for (int k = 0; k < c->nmem; k++)
            sim_worker_start_opt(s, c->mem[k]);
    }
}

void shard_phase_done(struct sim *s, int lane, int idx, int p)
{
    struct shard *sh = &s->sh;

    if (lane == SH_TP) {
        tp_phase_done(s, idx, p);
        return;
    }
    shard_comm_ended(s);
    if (s->cfg->trace) {
        sim_trace_end(s->cfg->trace, s->now, SIM_ACT_SHARD_FLOW, lane, idx, p);
        sim_trace_end(s->cfg->trace, s->now, SIM_ACT_SHARD, lane, idx, p);
    }
    if (p + 1 < sh->coll[lane].nph) {
        phase_start(s, lane, idx, p + 1);
        return;
    }
    sh->ph[lane] = -1;
    coll_done(s, lane, idx);
    lane_try(s, lane);
}

static void lane_try(struct sim *s, int lane)
{
    struct shard *sh = &s->sh;

    /* a lane without phases finishes each collective at once */
    while (sh->ph[lane] < 0 && sh->next[lane] < sh->n[lane] && lane_ready(s, lane, sh->next[lane])) {
        int idx = sh->next[lane]++;
        if (sh->coll[lane].nph > 0) {
            phase_start(s, lane, idx, 0);
            return;
        }
        coll_done(s, lane, idx);
    }
}

/* ---- workers ----------------------------------------------------------- */

static void unit_start(struct sim *s, int wi)
{
    struct worker *w = &s->w[wi];
    const struct shard *sh = &s->sh;
    const struct sim_group *g = &s->cfg->groups[w->g];
    int u = w->su_start;
    double per = (use_bwd(sh, u) ? g->bwd_s : g->fwd_s) * w->m / (sh->L * sh->mb) * dil_use(sh, u);

    if (sim_measured(s, w->step))
        w->exposed += s->now - w->t_gwait;
    if (u % sh->L == 0 && u > 0)
        sim_tr_worker(s, wi, use_bwd(sh, u) ? SIM_ACT_FWD : SIM_ACT_BWD,
                      use_bwd(sh, u) ? SIM_ACT_BWD : SIM_ACT_FWD);
    w->state = use_bwd(sh, u) ? W_BWD : W_FWD;
    w->su_start++;
    w->su_busy = 1;
    w->t_unit0 = s->now;
    w->bwd_total = per;
    w->bwd_done = 0;
    w->bwd_t = s->now;
    tp_before_use(s, wi, use_bwd(sh, u), dil_use(sh, u));   /* tp_overlap: beside it */
    unit_schedule(s, wi);
    lane_try(s, SH_GATHER);
}

void shard_step_begin(struct sim *s, int wi)
{
    struct worker *w = &s->w[wi];

    s->sh.reduced = 0;
    w->state = W_FWD;
    w->su_start = w->su_done = 0;
    w->su_busy = 0;
    w->t_fwd0 = w->t_gwait = s->now;
    lane_try(s, SH_GATHER);
    if (!w->su_busy && w->su_start == 0 && gathered(&s->sh, 0))
        unit_start(s, wi);
}

void shard_unit_done(struct sim *s, int wi, int use, int gen)
{
    struct worker *w = &s->w[wi];
    struct shard *sh = &s->sh;

    if (gen != w->bwd_gen || !w->su_busy || use != w->su_start - 1)
        return;
    if (sim_measured(s, w->step)) {
        w->compute += w->bwd_total;
        if (sim_slowdown(s, w) > 1)
            w->interf += fmax(0, s->now - w->t_unit0 - w->bwd_total);
    }
    w->su_busy = 0;
    /* the layer's tensor-parallel collectives, which it waits for (tp.c) */
    if (!tp_after_use(s, wi, use_bwd(sh, use), dil_use(sh, use)))
        shard_use_finished(s, wi);
}

void shard_use_finished(struct sim *s, int wi)
{
    struct worker *w = &s->w[wi];
    struct shard *sh = &s->sh;
    int use = w->su_done;

    w->su_done++;
    if (w->su_done == sh->nuse) {
        /* waiting first: a reduction with nothing to move ends the step at once */
        w->state = W_WAIT_COMM;
        w->t_bwd_end = s->now;
        sim_tr_worker(s, wi, SIM_ACT_BWD, SIM_ACT_WAIT_COMM);
        lane_try(s, SH_REDUCE);
        return;
    }
    if (use_bwd(sh, use))
        lane_try(s, SH_REDUCE);
    w->t_gwait = s->now;
    if (gathered(sh, w->su_start))
        unit_start(s, wi);
}
