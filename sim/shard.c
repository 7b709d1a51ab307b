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
 * Every collective runs as the phases of the strategy (coll_seq_add), as
 * flows on the same resources as everything else.  A use computes at
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
 *
 * The step layer by layer is this dimension's (the stepper of dim.h):
 * it also runs when another dimension has per-layer collectives (tensor
 * parallelism) and nothing is sharded, its gradients then accumulated
 * whole and all-reduced a layer at a time after the last micro-batch.
 * Those dimensions' collectives run after a use's compute, or beside it,
 * through the use_begin and use_end hooks.
 */
#include "sim_int.h"

#include <math.h>
#include <string.h>

#include "trace.h"

/* Lanes: each runs its collectives one after another. */
enum { SH_GATHER = 0, SH_REDUCE, SH_NLANE };
enum { SH_EV_UNIT, SH_EV_LAT };   /* a use's compute ends; a phase's latency ends */
#define SHARD_MB_SIM 3

/* A worker's uses: units of a forward or backward pass, 2 L per
 * micro-batch, timed by the worker's bwd_* fields (sim_int.h). */
struct shard_worker {
    int start, done;             /* uses started, finished this step */
    int busy;                    /* 1 while a use computes */
    double t_unit0, t_gwait;     /* when the use began; began waiting for its parameters */
};

struct shard {
    int id;                      /* in the table of dimensions */
    int L, mb;                   /* units; micro-batches a step */
    int mb_sim, nuse;            /* micro-batches simulated (at most SHARD_MB_SIM); uses, 2 L mb_sim */
    struct coll_seq coll[SH_NLANE]; /* a unit's all-gather; its reduce-scatter (and
                                    all-reduce across nodes) */
    int *uses[SH_NLANE];         /* per lane, the uses it serves in order */
    int n[SH_NLANE];
    int *gather_of;              /* per use, its index on the gather lane, -1 none */
    int next[SH_NLANE];          /* collectives of the lane started this step */
    int ph[SH_NLANE];            /* phase in progress, -1 idle */
    int active;                  /* collectives in flight that slow compute */
    int reduced;                 /* 1 from the step's last reduction to the next step */
    struct shard_worker w[SIM_MAX_GROUPS];
};

/* ---- set-up ------------------------------------------------------------ */

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

static void *shard_build(struct sim *s, int id)
{
    const struct sim_config *cfg = s->cfg;
    const struct sim_comm *cm = &cfg->c;
    struct shard *sh;
    const struct coll_ctx *all = &s->ch[0].ctx;
    struct coll_ctx dp;
    struct nccl_shape dsh, *shp = NULL;
    int share = 1, split = 1;
    double L, grad, param;
    enum nccl_coll reduce = cm->shard == SIM_SHARD_NONE ? NCCL_ALLREDUCE : NCCL_REDUCESCATTER;

    if ((cm->shard == SIM_SHARD_NONE && !sim_dims_layered(cfg)) || coll_ranks(all) <= 1)
        return NULL;
    sh = x_calloc(1, sizeof *sh);
    sh->id = id;
    for (int l = 0; l < SH_NLANE; l++)
        sh->ph[l] = -1;
    /* data parallelism over what the other dimensions leave: with tensor
     * parallelism the ranks at one of its positions, each holding a tp-th
     * of the model */
    if (sim_nccl_shape(cfg, &dsh) == 0)
        shp = &dsh;
    dp = *all;
    sim_dims_narrow(cfg, &dp, shp, &share, &split);
    sh->L = cm->units > 0 ? cm->units : 1;
    sh->mb = cm->micro_batches > 0 ? cm->micro_batches : 1;
    sh->mb_sim = sh->mb < SHARD_MB_SIM || cm->all_micro_batches ? sh->mb : SHARD_MB_SIM;
    sh->nuse = 2 * sh->L * sh->mb_sim;
    lanes_of(sh, cm->shard);
    L = sh->L;
    grad = cfg->w.grad_bytes / split / L;
    param = cm->param_bytes / split / L;
    if (coll_ranks(&dp) <= 1)
        return sh;   /* another dimension alone: nothing to share */
    if (cm->shard != SIM_SHARD_HYBRID || coll_nodes(&dp) <= 1) {
        if (cm->shard != SIM_SHARD_NONE)
            coll_seq_add(&sh->coll[SH_GATHER], &dp, cm->strategy, NCCL_ALLGATHER, shp, param,
                         share);
        coll_seq_add(&sh->coll[SH_REDUCE], &dp, cm->strategy, reduce, shp, grad, share);
        return sh;
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
        coll_seq_add(&sh->coll[SH_GATHER], &node, cm->strategy, NCCL_ALLGATHER,
                     shp ? &nsh : NULL, param, 1);
        coll_seq_add(&sh->coll[SH_REDUCE], &node, cm->strategy, NCCL_REDUCESCATTER,
                     shp ? &nsh : NULL, grad, 1);
        coll_seq_add(&sh->coll[SH_REDUCE], &across, cm->strategy, NCCL_ALLREDUCE,
                     shp ? &ash : NULL, grad / wpn, (double)wpn * share);
    }
    return sh;
}

static void shard_free(void *st)
{
    struct shard *sh = st;

    for (int l = 0; l < SH_NLANE; l++)
        x_free(sh->uses[l]);
    x_free(sh->gather_of);
    x_free(sh);
}

/* ---- lanes ------------------------------------------------------------- */

static void lane_try(struct sim *s, struct shard *sh, int lane);
static void unit_start(struct sim *s, struct shard *sh, int wi);
static void phase_done(struct sim *s, struct shard *sh, int lane, int idx, int p);

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
static int lane_ready(const struct sim *s, const struct shard *sh, int lane, int i)
{
    const struct chain *c = members(s);
    int u = sh->uses[lane][i];

    for (int k = 0; k < c->nmem; k++) {
        const struct worker *w = &s->w[c->mem[k]];
        const struct shard_worker *sw = &sh->w[c->mem[k]];
        if (lane == SH_GATHER && ((w->state != W_FWD && w->state != W_BWD) || sw->start < u))
            return 0;
        if (lane == SH_REDUCE && (sw->done <= u || sh->reduced))
            return 0;
    }
    return 1;
}

/* Queue the end of worker wi's use at the current rate (generation bwd_gen). */
static void unit_schedule(struct sim *s, struct shard *sh, int wi)
{
    struct worker *w = &s->w[wi];

    w->bwd_rate = sh->active > 0 ? 1 / sim_slowdown(s, w) : 1;
    w->bwd_gen++;
    sim_dim_push(s, sh->id, SH_EV_UNIT,
                 s->now + fmax(0, w->bwd_total - w->bwd_done) / w->bwd_rate, wi,
                 sh->w[wi].start - 1, w->bwd_gen);
}

/* Collectives started or all ended: the members' uses change speed. */
static void rates_changed(struct sim *s, struct shard *sh)
{
    const struct chain *c = members(s);

    for (int k = 0; k < c->nmem; k++) {
        struct worker *w = &s->w[c->mem[k]];
        if (!sh->w[c->mem[k]].busy || sim_slowdown(s, w) <= 1)
            continue;
        w->bwd_done += (s->now - w->bwd_t) * w->bwd_rate;
        w->bwd_t = s->now;
        unit_schedule(s, sh, c->mem[k]);
    }
}

/* A collective that slows compute started (+1) or ended (-1): this file's
 * and the other dimensions' (sim_comm). */
static void shard_comm(struct sim *s, void *st, int delta)
{
    struct shard *sh = st;

    sh->active += delta;
    if (sh->active == (delta > 0 ? 1 : 0))
        rates_changed(s, sh);
}

static void phase_flow(struct sim *s, struct shard *sh, int lane, int idx, int p)
{
    const struct coll_phase *ph = &sh->coll[lane].ph[p];

    if (s->cfg->trace && ph->amount > 0)
        sim_trace_begin(s->cfg->trace, s->now, SIM_ACT_SHARD_FLOW, lane, idx, p, -1,
                        ph->amount * dil_coll(sh, lane, idx), ph->use, ph->nuse);
    if (ph->amount <= 0 || ph->nuse == 0)
        phase_done(s, sh, lane, idx, p);
    else
        sim_dim_flow(s, sh->id, ph->amount * dil_coll(sh, lane, idx), ph->bound, ph->use,
                     ph->nuse, lane, idx, p);
}

static void phase_start(struct sim *s, struct shard *sh, int lane, int idx, int p)
{
    const struct coll_phase *ph = &sh->coll[lane].ph[p];

    sh->ph[lane] = p;
    shard_comm(s, sh, +1);
    if (s->cfg->trace)
        sim_trace_begin(s->cfg->trace, s->now, SIM_ACT_SHARD, lane, idx, p, -1,
                        ph->amount * dil_coll(sh, lane, idx), NULL, 0);
    if (ph->lat_s > 0)
        sim_dim_push(s, sh->id, SH_EV_LAT, s->now + ph->lat_s * dil_coll(sh, lane, idx), lane,
                     idx, p);
    else
        phase_flow(s, sh, lane, idx, p);
}

/* Is use u ready to compute: gathered when it needs to be (the lane has
 * moved past its gather). */
static int gathered(const struct shard *sh, int u)
{
    int g = sh->gather_of[u];
    return g < 0 || g < sh->next[SH_GATHER] - (sh->ph[SH_GATHER] >= 0);
}

/* The lane's collective idx is done: whoever waited on it goes on. */
static void coll_done(struct sim *s, struct shard *sh, int lane, int idx)
{
    const struct chain *c = members(s);

    if (lane == SH_GATHER) {
        int u = sh->uses[SH_GATHER][idx];
        for (int k = 0; k < c->nmem; k++) {
            const struct shard_worker *sw = &sh->w[c->mem[k]];
            if (!sw->busy && sw->start == u && sw->done == u && gathered(sh, u))
                unit_start(s, sh, c->mem[k]);
        }
    } else if (idx + 1 == sh->n[SH_REDUCE]) {
        /* the step's gradients are reduced: the optimizer, and a new step of lanes */
        sh->next[SH_GATHER] = sh->next[SH_REDUCE] = 0;
        sh->reduced = 1;
        for (int k = 0; k < c->nmem; k++)
            sim_worker_start_opt(s, c->mem[k]);
    }
}

static void phase_done(struct sim *s, struct shard *sh, int lane, int idx, int p)
{
    shard_comm(s, sh, -1);
    if (s->cfg->trace) {
        sim_trace_end(s->cfg->trace, s->now, SIM_ACT_SHARD_FLOW, lane, idx, p);
        sim_trace_end(s->cfg->trace, s->now, SIM_ACT_SHARD, lane, idx, p);
    }
    if (p + 1 < sh->coll[lane].nph) {
        phase_start(s, sh, lane, idx, p + 1);
        return;
    }
    sh->ph[lane] = -1;
    coll_done(s, sh, lane, idx);
    lane_try(s, sh, lane);
}

static void lane_try(struct sim *s, struct shard *sh, int lane)
{
    /* a lane without phases finishes each collective at once */
    while (sh->ph[lane] < 0 && sh->next[lane] < sh->n[lane] &&
           lane_ready(s, sh, lane, sh->next[lane])) {
        int idx = sh->next[lane]++;
        if (sh->coll[lane].nph > 0) {
            phase_start(s, sh, lane, idx, 0);
            return;
        }
        coll_done(s, sh, lane, idx);
    }
}

/* ---- workers ----------------------------------------------------------- */

static void unit_start(struct sim *s, struct shard *sh, int wi)
{
    struct worker *w = &s->w[wi];
    struct shard_worker *sw = &sh->w[wi];
    const struct sim_group *g = &s->cfg->groups[w->g];
    int u = sw->start;
    double per = (use_bwd(sh, u) ? g->bwd_s : g->fwd_s) * w->m / (sh->L * sh->mb) * dil_use(sh, u);

    if (sim_measured(s, w->step))
        w->exposed += s->now - sw->t_gwait;
    if (u % sh->L == 0 && u > 0)
        sim_tr_worker(s, wi, use_bwd(sh, u) ? SIM_ACT_FWD : SIM_ACT_BWD,
                      use_bwd(sh, u) ? SIM_ACT_BWD : SIM_ACT_FWD);
    w->state = use_bwd(sh, u) ? W_BWD : W_FWD;
    sw->start++;
    sw->busy = 1;
    sw->t_unit0 = s->now;
    w->bwd_total = per;
    w->bwd_done = 0;
    w->bwd_t = s->now;
    sim_use_begin(s, wi, use_bwd(sh, u), dil_use(sh, u));   /* collectives beside it */
    unit_schedule(s, sh, wi);
    lane_try(s, sh, SH_GATHER);
}

static void shard_step_begin(struct sim *s, void *st, int wi)
{
    struct shard *sh = st;
    struct worker *w = &s->w[wi];
    struct shard_worker *sw = &sh->w[wi];

    sh->reduced = 0;
    w->state = W_FWD;
    sw->start = sw->done = 0;
    sw->busy = 0;
    w->t_fwd0 = sw->t_gwait = s->now;
    lane_try(s, sh, SH_GATHER);
    if (!sw->busy && sw->start == 0 && gathered(sh, 0))
        unit_start(s, sh, wi);
}

static void unit_done(struct sim *s, struct shard *sh, int wi, int use, int gen)
{
    struct worker *w = &s->w[wi];
    struct shard_worker *sw = &sh->w[wi];

    if (gen != w->bwd_gen || !sw->busy || use != sw->start - 1)
        return;
    if (sim_measured(s, w->step)) {
        w->compute += w->bwd_total;
        if (sim_slowdown(s, w) > 1)
            w->interf += fmax(0, s->now - sw->t_unit0 - w->bwd_total);
    }
    sw->busy = 0;
    /* the other dimensions' collectives after the layer, which it waits for */
    if (!sim_use_end(s, wi, use_bwd(sh, use), dil_use(sh, use)))
        sim_use_done(s, wi);
}

static void shard_use_done(struct sim *s, void *st, int wi)
{
    struct shard *sh = st;
    struct worker *w = &s->w[wi];
    struct shard_worker *sw = &sh->w[wi];
    int use = sw->done;

    sw->done++;
    if (sw->done == sh->nuse) {
        /* waiting first: a reduction with nothing to move ends the step at once */
        w->state = W_WAIT_COMM;
        w->t_bwd_end = s->now;
        sim_tr_worker(s, wi, SIM_ACT_BWD, SIM_ACT_WAIT_COMM);
        lane_try(s, sh, SH_REDUCE);
        return;
    }
    if (use_bwd(sh, use))
        lane_try(s, sh, SH_REDUCE);
    sw->t_gwait = s->now;
    if (gathered(sh, sw->start))
        unit_start(s, sh, wi);
}

static void shard_event(struct sim *s, void *st, int kind, int a, int b, int c)
{
    if (kind == SH_EV_UNIT)
        unit_done(s, st, a, b, c);
    else
        phase_flow(s, st, a, b, c);
}

static void shard_flow_done(struct sim *s, void *st, int a, int b, int c)
{
    phase_done(s, st, a, b, c);
}

/* ---- about a config ---------------------------------------------------- */

static int shard_check(const struct sim_config *cfg, struct dt_err *e)
{
    const struct sim_comm *c = &cfg->c;

    if (c->shard == SIM_SHARD_NONE)
        return 0;
    if ((unsigned)c->shard > SIM_SHARD_HYBRID || sim_is_ps(c->strategy))
        return dt_errf(e, "sim: sharding %d with strategy %s, expected an all-reduce strategy",
                       (int)c->shard, sim_strategy_name(c->strategy));
    if (sim_bad_num(c->param_bytes) || c->units < 1 || c->units > 100000 || c->micro_batches < 1 ||
        (double)c->units * c->micro_batches > 1e6)
        return dt_errf(e, "sim: sharded %g parameter bytes in %d units, %d micro-batches; "
                       "expected finite bytes >= 0, 1 to 100000 units and at most 1e6 "
                       "unit passes a step", c->param_bytes, c->units, c->micro_batches);
    return 0;
}

static int shard_layered(const struct sim_config *cfg)
{
    return cfg->c.shard != SIM_SHARD_NONE;
}

/* A layered step's data-parallel collectives: a unit's all-gather and
 * reduce-scatter (HYBRID: within a node, then the all-reduce across); a
 * layer's gradients all-reduced when nothing is sharded. */
static int shard_collectives(const struct sim_config *cfg, const struct nccl_shape *all,
                             struct sim_coll_choice *out, int n, int max, int *final)
{
    const struct sim_comm *cm = &cfg->c;
    struct nccl_shape sh = *all, node, across;
    double left = cfg->w.grad_bytes, L = cm->units > 0 ? cm->units : 1;
    int share = 1, split = 1;

    if (!sim_dims_layered(cfg))
        return n;
    *final = 1;
    sim_dims_narrow(cfg, NULL, &sh, &share, &split);
    left /= split;
    if (cm->shard == SIM_SHARD_NONE)
        return sim_choice_add(out, n, max, &sh, NCCL_ALLREDUCE, left / L);
    if (cm->shard != SIM_SHARD_HYBRID || sh.nodes == 1) {
        n = sim_choice_add(out, n, max, &sh, NCCL_ALLGATHER, cm->param_bytes / split / L);
        return sim_choice_add(out, n, max, &sh, NCCL_REDUCESCATTER, left / L);
    }
    sim_hybrid_shapes(&sh, &node, &across);
    n = sim_choice_add(out, n, max, &node, NCCL_ALLGATHER, cm->param_bytes / split / L);
    n = sim_choice_add(out, n, max, &node, NCCL_REDUCESCATTER, left / L);
    return sim_choice_add(out, n, max, &across, NCCL_ALLREDUCE, left / L / sh.ppn);
}

const struct sim_dim_ops sim_dim_shard = {
    .name = "shard",
    .check = shard_check,
    .layered = shard_layered,
    .collectives = shard_collectives,
    .build = shard_build,
    .free = shard_free,
    .step_begin = shard_step_begin,
    .event = shard_event,
    .flow_done = shard_flow_done,
    .use_done = shard_use_done,
    .comm = shard_comm,
};
