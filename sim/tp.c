/*
 * tp.c - tensor parallelism in the step simulator (sim.h: sim_comm.tp;
 * docs/model.md "Tensor parallelism"), Megatron style.
 *
 * A layer's weights are split over tp ranks.  After each layer's forward
 * two all-reduces of the layer's activations (s b h at 16 bits, tp_bytes)
 * join the partial results, and two more after its backward; under
 * sequence parallelism each is a reduce-scatter and an all-gather of the
 * same bytes; a backward that recomputes its forward (full recompute) runs
 * its two again.  The layer waits for them: they run on the compute stream,
 * so nothing overlaps them and they do not slow compute elsewhere.  With
 * tp_overlap (split GEMMs that hand each piece to the collective as it is
 * done, Megatron's --tp-comm-overlap) they start with the layer's compute
 * and run beside it, slowing it by the group's comm_slowdown as the
 * reductions of shard.c do; the layer ends when both have, and only what
 * the collectives take past the compute is waited for, and at least what
 * the products next to them cannot hide (tp_hold: each collective hides
 * under its own product alone, and its split's first or last piece
 * stays exposed), when the planner gives the products' shares.  A
 * tensor-parallel group is tp GPUs of a node (its GPU links), or tp / ppn
 * whole nodes (their NICs too).
 *
 * Data parallelism then runs over the ranks at one tensor-parallel
 * position: ppn / tp of them a node, or one every tp / ppn nodes; the
 * min(tp, ppn) such groups a node holds share its NICs (tp_dp_ctx).  Each
 * rank holds a tp-th of the model, so the gathers and reductions of
 * shard.c move a tp-th of the bytes.
 *
 * The phases of one use's collectives run one after another as flows of
 * the worker's own; O(1) events a layer.  They run in the layer-by-layer
 * step of shard.c, through the use_begin and use_end hooks (dim.h).
 */
#include "sim_int.h"

#include <math.h>
#include <string.h>

#include "trace.h"

int sim_tp_fits(int gpus, int count, int tp)
{
    if (tp <= 1)
        return 1;
    return gpus > 0 && (gpus % tp == 0 || (tp % gpus == 0 && count % (tp / gpus) == 0));
}

enum { TP_EV_LAT, TP_EV_HOLD };   /* a phase's latency ends; an overlapped use's exposed
                                      minimum ends */

/* A worker's collectives after (or beside) its use in progress. */
struct tp_worker {
    int ph;                      /* phase in flight, -1 none */
    double f, t0;                /* their dilation (shard.c); when the use's compute ended */
    double exp;                  /* sum over measured steps of time waiting for them */
    int wait;                    /* tp_overlap: 1 once the use's compute ended while its
                                    collectives still run */
    int round, rounds;           /* the collectives' pass; passes after this use (2 after a
                                    backward that recomputes its forward) */
    int bwd;                     /* the use is a backward */
    double hold;                 /* tp_overlap: what stays exposed of the use's collectives
                                    however long its compute (tp_hold) */
    double until;                /* tp_overlap: the use ends no sooner, once its compute has */
};

struct tp {
    int id;                      /* in the table of dimensions */
    struct coll_seq coll[SIM_MAX_GROUPS]; /* per train group: a layer's collectives after
                                    its forward */
    struct coll_seq bcoll[SIM_MAX_GROUPS]; /* and after its backward, where the forward's
                                    all-gathers move fp8 (sim_comm.tp_gather_bytes; otherwise
                                    coll serves both) */
    struct coll_seq redo[SIM_MAX_GROUPS]; /* SIM_TP_REDO_GATHERS: what the recomputing
                                    backward runs again (the all-gathers; unsplit, the
                                    output projection's all-reduce) */
    double alone[SIM_MAX_GROUPS][4]; /* tp_overlap: each of those collectives' time alone,
                                    in the order of the products they sit next to */
    int nalone;                  /* 4 (sequence parallel), 2 (all-reduces), 0 (not split) */
    struct tp_worker w[SIM_MAX_GROUPS];
};

/* The data-parallel group of ranks at one tensor-parallel position, in
 * place, and how many such groups share a node's NICs. */
static void dp_ctx(struct coll_ctx *dp, int tp, int *nic_share)
{
    int share = 1;

    for (int i = 0; i < dp->ntg; i++) {
        struct coll_group *g = &dp->tg[i];
        int wpn = g->wpn;
        if (tp <= wpn) {
            g->wpn = wpn / tp;
        } else {
            g->wpn = 1;
            g->nodes = g->nodes / (tp / wpn);
        }
        if ((tp < wpn ? tp : wpn) > share)
            share = tp < wpn ? tp : wpn;
    }
    *nic_share = share;
}
/* The tensor-parallel group of train group i of all: one node's tp GPUs,
 * or tp / wpn nodes. */
static void tp_ctx(const struct coll_ctx *all, int i, int tp, struct coll_ctx *g)
{
    int wpn = all->tg[i].wpn;

    *g = *all;
    g->ntg = 1;
    g->tg[0] = all->tg[i];
    g->tg[0].nodes = tp <= wpn ? 1 : tp / wpn;
    g->tg[0].wpn = tp <= wpn ? tp : wpn;
}

static int split(const struct sim_comm *c)
{
    return c->tp_gemm_share[0] + c->tp_gemm_share[1] + c->tp_gemm_share[2] +
               c->tp_gemm_share[3] > 0;
}

/* The shares of the products each collective of a layer sits next to:
 * under sequence parallelism the all-gathers before the Q, K, V projection
 * and the first feed-forward product, the reduce-scatters after the
 * output projection and the second; else the two all-reduces after the
 * output projection and the second feed-forward product. */
static double share_of(const struct sim_comm *c, int k)
{
    static const int sp[4] = {0, 1, 2, 3}, ar[2] = {1, 3};

    return c->tp_gemm_share[c->tp_sp ? sp[k] : ar[k]];
}

/* tp_overlap: train group i's collectives alone, in t->alone. */
/* The forward all-gathers' bytes under sequence parallelism: fp8 ones a
 * byte an element (sim_comm.tp_gather_bytes), else tp_bytes. */
static double gather_bytes(const struct sim_comm *c)
{
    return c->tp_gather_bytes > 0 ? c->tp_gather_bytes : c->tp_bytes;
}

/* Of the layers, the share that runs a dense feed-forward block's pair of
 * collectives (sim_comm.tp_moe_share). */
static double ffn_share(const struct sim_comm *c)
{
    return c->tp_moe_share > 0 ? 1 - c->tp_moe_share : 1;
}

/* The phases of sq from n0 on, each for share f of the layers: its bytes
 * and its latency times f. */
static void scale_from(struct coll_seq *sq, int n0, double f)
{
    for (int p = n0; p < sq->nph; p++) {
        sq->ph[p].amount *= f;
        sq->ph[p].lat_s *= f;
    }
}

static void alone_of(struct sim *s, struct tp *t, int i, const struct nccl_shape *tpg)
{
    const struct sim_config *cfg = s->cfg;
    const struct sim_group *g = &cfg->groups[s->w[i].g];
    int tp = cfg->c.tp, tn = tp <= g->gpus ? 1 : tp / g->gpus, tw = tp <= g->gpus ? tp : g->gpus;

    if (!split(&cfg->c))
        return;
    if (cfg->c.tp_sp) {
        double ag = coll_alone_s(cfg, g, tpg, tn, tw, NCCL_ALLGATHER, gather_bytes(&cfg->c));
        double rs = coll_alone_s(cfg, g, tpg, tn, tw, NCCL_REDUCESCATTER, cfg->c.tp_bytes);
        t->alone[i][0] = ag;
        t->alone[i][1] = rs;
        t->alone[i][2] = ffn_share(&cfg->c) * ag;
        t->alone[i][3] = ffn_share(&cfg->c) * rs;
        t->nalone = 4;
    } else {
        t->alone[i][0] = coll_alone_s(cfg, g, tpg, tn, tw, NCCL_ALLREDUCE, cfg->c.tp_bytes);
        t->alone[i][1] = ffn_share(&cfg->c) * t->alone[i][0];
        t->nalone = 2;
    }
}

/*
 * What stays exposed of a layer's overlapped collectives (tp_overlap) whose
 * compute takes comp: each collective hides only under the product next to
 * it (its share of comp), split in tp pieces, so that the first piece of an
 * all-gather (before the product's first piece can start) or the last of a
 * reduce-scatter (after the product's last) is always exposed, and what
 * takes longer than its product too: the sum over them of
 * max(c / tp, c - share x comp), times the passes (a recomputing backward
 * runs its forward's collectives too, beside its share of the compute).
 */
static double tp_hold(const struct sim_comm *c, const double *alone, int n, double comp,
                      int rounds)
{
    double h = 0;

    for (int k = 0; k < n; k++)
        h += fmax(alone[k] / c->tp, alone[k] - share_of(c, k) * comp / rounds);
    return (1 + (rounds - 1) * (1 - c->tp_redo_skip)) * h;
}

static void *tp_build(struct sim *s, int id)
{
    const struct sim_comm *cm = &s->cfg->c;
    const struct coll_ctx *all = &s->ch[0].ctx;
    struct nccl_shape shape, tpg, dpg;
    int share, have = 0;
    enum nccl_coll kinds[2] = {NCCL_ALLREDUCE, NCCL_ALLREDUCE};
    struct tp *t;

    if (cm->tp <= 1 || !(cm->tp_bytes > 0) || coll_ranks(all) <= 1)
        return NULL;
    t = x_calloc(1, sizeof *t);
    t->id = id;
    if (sim_nccl_shape(s->cfg, &shape) == 0) {
        have = 1;
        sim_tp_shapes(&shape, cm->tp, &tpg, &dpg, &share);
    }
    if (cm->tp_sp) {
        kinds[0] = NCCL_REDUCESCATTER;
        kinds[1] = NCCL_ALLGATHER;
    }
    for (int i = 0; i < all->ntg; i++) {
        struct coll_ctx g;
        if (cm->tp_overlap)
            alone_of(s, t, i, have ? &tpg : NULL);
        tp_ctx(all, i, cm->tp, &g);
        /* two of them: all-reduces, or each a reduce-scatter and an all-gather;
         * the second, the feed-forward block's, in the dense layers alone */
        for (int k = 0; k < 2; k++) {
            double f = k == 1 ? ffn_share(cm) : 1;
            int n0[3] = {t->coll[i].nph, t->bcoll[i].nph, t->redo[i].nph};
            if (!(f > 0))
                break;
            for (int j = 0; j < (cm->tp_sp ? 2 : 1); j++) {
                int gather = cm->tp_sp && j == 1;
                coll_seq_add(&t->coll[i], &g, cm->strategy, kinds[j], have ? &tpg : NULL,
                             gather ? gather_bytes(cm) : cm->tp_bytes, 1);
                if (gather_bytes(cm) != cm->tp_bytes)
                    coll_seq_add(&t->bcoll[i], &g, cm->strategy, kinds[j], have ? &tpg : NULL,
                                 cm->tp_bytes, 1);
            }
            if (cm->tp_recompute == SIM_TP_REDO_GATHERS && (cm->tp_sp || k == 0))
                coll_seq_add(&t->redo[i], &g, cm->strategy, kinds[cm->tp_sp ? 1 : 0],
                             have ? &tpg : NULL, cm->tp_sp ? gather_bytes(cm) : cm->tp_bytes, 1);
            if (f < 1) {
                scale_from(&t->coll[i], n0[0], f);
                scale_from(&t->bcoll[i], n0[1], f);
                scale_from(&t->redo[i], n0[2], f);
            }
        }
    }
    return t;
}

/* The collectives worker wi runs in its current pass: a forward's, a
 * backward's, then what a recomputing backward runs again (its forward's
 * all, or their all-gathers). */
static const struct coll_seq *seq_of(const struct sim *s, const struct tp *t, int wi)
{
    const struct tp_worker *tw = &t->w[wi];
    int g = s->w[wi].tg;

    if (tw->round > 0)
        return s->cfg->c.tp_recompute == SIM_TP_REDO_GATHERS ? &t->redo[g] : &t->coll[g];
    return tw->bwd && t->bcoll[g].nph > 0 ? &t->bcoll[g] : &t->coll[g];
}

static void tp_free(void *st)
{
    x_free(st);
}

static void phase_done(struct sim *s, struct tp *t, int wi, int p);
static void finish(struct sim *s, struct tp *t, int wi);

/* What scales worker wi's pass: its dilation, and in a recomputing pass
 * the share of the layers that recompute. */
static double pass_f(const struct sim *s, const struct tp_worker *tw)
{
    return tw->round > 0 ? tw->f * (1 - s->cfg->c.tp_redo_skip) : tw->f;
}

static void phase_flow(struct sim *s, struct tp *t, int wi, int p)
{
    const struct tp_worker *tw = &t->w[wi];
    const struct coll_phase *ph = &seq_of(s, t, wi)->ph[p];

    if (s->cfg->trace && ph->amount > 0)
        sim_trace_begin(s->cfg->trace, s->now, SIM_ACT_SHARD_FLOW, SIM_LANE_TP, wi, p, -1,
                        ph->amount * pass_f(s, tw), ph->use, ph->nuse);
    if (ph->amount <= 0 || ph->nuse == 0)
        phase_done(s, t, wi, p);
    else
        sim_dim_flow(s, t->id, ph->amount * pass_f(s, tw), ph->bound, ph->use, ph->nuse, wi, p, 0);
}

static void phase_start(struct sim *s, struct tp *t, int wi, int p)
{
    struct tp_worker *tw = &t->w[wi];
    const struct coll_phase *ph = &seq_of(s, t, wi)->ph[p];

    tw->ph = p;
    if (s->cfg->trace)
        sim_trace_begin(s->cfg->trace, s->now, SIM_ACT_SHARD, SIM_LANE_TP, wi, p, -1,
                        ph->amount * pass_f(s, tw), NULL, 0);
    if (ph->lat_s > 0)
        sim_dim_push(s, t->id, TP_EV_LAT, s->now + ph->lat_s * pass_f(s, tw), wi, p, 0);
    else
        phase_flow(s, t, wi, p);
}

static void start(struct sim *s, struct tp *t, int wi, int bwd, double dilation)
{
    struct tp_worker *tw = &t->w[wi];

    tw->f = dilation;
    tw->t0 = s->now;
    tw->round = 0;
    tw->bwd = bwd;
    tw->rounds = bwd && s->cfg->c.tp_recompute != SIM_TP_REDO_NONE ? 2 : 1;
    phase_start(s, t, wi, 0);
}

/* tp_overlap: the use's collectives start as its compute starts. */
static int tp_use_begin(struct sim *s, void *st, int wi, int bwd, double dilation)
{
    struct tp *t = st;

    if (!s->cfg->c.tp_overlap || t->coll[s->w[wi].tg].nph == 0)
        return 0;
    t->w[wi].wait = 0;
    sim_comm(s, +1);
    start(s, t, wi, bwd, dilation);
    /* the use's compute (bwd_total, dilated as its collectives are) */
    t->w[wi].hold = t->nalone && dilation > 0
                        ? tp_hold(&s->cfg->c, t->alone[s->w[wi].tg], t->nalone,
                                  s->w[wi].bwd_total / dilation, t->w[wi].rounds) * dilation
                        : 0;
    return 1;
}

/* The use's compute ended: its collectives start (or, overlapped, what is
 * left of them is waited for). */
static int tp_use_end(struct sim *s, void *st, int wi, int bwd, double dilation)
{
    struct tp *t = st;
    struct tp_worker *tw = &t->w[wi];

    if (t->coll[s->w[wi].tg].nph == 0)
        return 0;
    if (s->cfg->c.tp_overlap) {
        tw->t0 = s->now;
        tw->until = s->now + tw->hold;
        if (tw->ph < 0 && !(tw->hold > 0))
            return 0;       /* the collectives ended within the compute */
        tw->wait = 1;       /* the rest is waited for, at least the hold */
        if (tw->ph < 0)
            sim_dim_push(s, t->id, TP_EV_HOLD, tw->until, wi, 0, 0);
        return 1;
    }
    start(s, t, wi, bwd, dilation);
    return 1;
}

static void phase_done(struct sim *s, struct tp *t, int wi, int p)
{
    struct tp_worker *tw = &t->w[wi];

    if (s->cfg->trace) {
        sim_trace_end(s->cfg->trace, s->now, SIM_ACT_SHARD_FLOW, SIM_LANE_TP, wi, p);
        sim_trace_end(s->cfg->trace, s->now, SIM_ACT_SHARD, SIM_LANE_TP, wi, p);
    }
    if (p + 1 < seq_of(s, t, wi)->nph) {
        phase_start(s, t, wi, p + 1);
        return;
    }
    if (++tw->round < tw->rounds && seq_of(s, t, wi)->nph > 0) {
        phase_start(s, t, wi, 0);
        return;
    }
    tw->ph = -1;
    if (s->cfg->c.tp_overlap) {
        sim_comm(s, -1);
        if (!tw->wait)
            return;         /* the compute goes on; its end finishes the use */
        if (sim_dim_hold(s, t->id, TP_EV_HOLD, tw->until, wi))
            return;
    }
    finish(s, t, wi);
}

/* The use's collectives are done and waited for: the layer goes on. */
static void finish(struct sim *s, struct tp *t, int wi)
{
    struct worker *w = &s->w[wi];
    struct tp_worker *tw = &t->w[wi];

    if (sim_measured(s, w->step)) {
        w->exposed += s->now - tw->t0;
        tw->exp += s->now - tw->t0;
    }
    sim_use_done(s, wi);
}

static void tp_event(struct sim *s, void *st, int kind, int a, int b, int c)
{
    (void)c;
    if (kind == TP_EV_HOLD)
        finish(s, st, a);
    else
        phase_flow(s, st, a, b);
}

static void tp_flow_done(struct sim *s, void *st, int a, int b, int c)
{
    (void)c;
    phase_done(s, st, a, b);
}

static void tp_collect(const struct sim *s, const void *st, int slow, struct sim_result *res)
{
    const struct tp *t = st;

    res->tp_comm_s = t->w[slow].exp / s->cfg->steps;
}

/* ---- about a config ---------------------------------------------------- */

static int tp_check(const struct sim_config *cfg, struct dt_err *e)
{
    const struct sim_comm *c = &cfg->c;

    if (c->tp < 0)
        return dt_errf(e, "sim: tensor parallelism %d, expected >= 1 (0: none)", c->tp);
    if (c->tp <= 1)
        return 0;
    for (int k = 0; k < 4; k++)
        if (!(c->tp_gemm_share[k] >= 0 && c->tp_gemm_share[k] <= 1))
            return dt_errf(e, "sim: tensor-parallel product share %g, expected a fraction in "
                           "[0, 1]", c->tp_gemm_share[k]);
    if (!(c->tp_moe_share >= 0 && c->tp_moe_share <= 1))
        return dt_errf(e, "sim: tensor-parallel MoE layers' share %g, expected a fraction in "
                       "[0, 1]", c->tp_moe_share);
    if (sim_is_ps(c->strategy) || !isfinite(c->tp_bytes) || c->tp_bytes < 0)
        return dt_errf(e, "sim: tensor parallelism %d with strategy %s and %g bytes a layer; "
                       "expected an all-reduce strategy and finite bytes", c->tp,
                       sim_strategy_name(c->strategy), c->tp_bytes);
    for (int i = 0; i < cfg->ngroups; i++) {
        const struct sim_group *g = &cfg->groups[i];
        if (g->role == SIM_TRAIN && !sim_tp_fits(g->gpus, g->count, c->tp))
            return dt_errf(e, "sim: tensor parallelism %d on train group %d of %d x %d GPUs; "
                           "expected tp to divide a node's GPUs, or whole nodes", c->tp, i,
                           g->count, g->gpus);
    }
    return 0;
}

static int tp_layered(const struct sim_config *cfg)
{
    return cfg->c.tp > 1;
}

/* Data parallelism runs over the ranks at one tensor-parallel position,
 * each holding a tp-th of the model. */
static void tp_narrow(const struct sim_config *cfg, struct coll_ctx *dp, struct nccl_shape *sh,
                      int *share, int *split)
{
    int tp = cfg->c.tp, n = 1;

    if (tp <= 1)
        return;
    if (dp)
        dp_ctx(dp, tp, &n);
    if (sh) {
        struct nccl_shape tpg, dpg;
        int m;
        sim_tp_shapes(sh, tp, &tpg, &dpg, &m);
        *sh = dpg;
        if (!dp)
            n = m;
    }
    *share *= n;
    *split *= tp;
}

/* A layer's activation collectives on a tensor-parallel group. */
static int tp_collectives(const struct sim_config *cfg, const struct nccl_shape *all,
                          struct sim_coll_choice *out, int n, int max, int *final)
{
    const struct sim_comm *cm = &cfg->c;
    struct nccl_shape tpg, dpg;
    int share;

    (void)final;
    if (cm->tp <= 1)
        return n;
    sim_tp_shapes(all, cm->tp, &tpg, &dpg, &share);
    n = sim_choice_add(out, n, max, &tpg, cm->tp_sp ? NCCL_REDUCESCATTER : NCCL_ALLREDUCE,
                       cm->tp_bytes);
    if (cm->tp_sp)
        n = sim_choice_add(out, n, max, &tpg, NCCL_ALLGATHER, cm->tp_bytes);
    return n;
}

/* A pipelined stage's layer: two collectives after its forward, two after
 * its backward (four when it recomputes its forward), alone on a
 * tensor-parallel group. */
static void tp_stage_layer(const struct sim_config *cfg, const struct sim_group *g,
                           const struct nccl_shape *all, double *fwd_s, double *bwd_s)
{
    const struct sim_comm *c = &cfg->c;
    struct nccl_shape tpg, dpg;
    int tp = c->tp, tn, tw, share;
    double t1;

    if (tp <= 1 || !(c->tp_bytes > 0))
        return;
    if (all)
        sim_tp_shapes(all, tp, &tpg, &dpg, &share);
    tn = tp <= g->gpus ? 1 : tp / g->gpus;
    tw = tp <= g->gpus ? tp : g->gpus;
    double ag = 0, t0;

    if (c->tp_sp) {
        double rs = coll_alone_s(cfg, g, all ? &tpg : NULL, tn, tw, NCCL_REDUCESCATTER, c->tp_bytes);
        ag = coll_alone_s(cfg, g, all ? &tpg : NULL, tn, tw, NCCL_ALLGATHER, gather_bytes(c));
        t0 = rs + ag;       /* a forward's pair */
        t1 = rs + coll_alone_s(cfg, g, all ? &tpg : NULL, tn, tw, NCCL_ALLGATHER, c->tp_bytes);
    } else {
        t0 = t1 = coll_alone_s(cfg, g, all ? &tpg : NULL, tn, tw, NCCL_ALLREDUCE, c->tp_bytes);
    }
    /* the attention's pair, and the feed-forward block's in the dense layers */
    double pairs = 1 + ffn_share(c);

    *fwd_s += pairs * t0;
    *bwd_s += pairs * t1 + (1 - c->tp_redo_skip) *
                               (c->tp_recompute == SIM_TP_REDO_ALL ? pairs * t0
                                : c->tp_recompute == SIM_TP_REDO_GATHERS ? (c->tp_sp ? pairs * ag : t0)
                                : 0);
}

/* tp_overlap: the collectives beside the compute, which runs slower by the
 * group's comm_slowdown meanwhile; the operation ends when both have. */
static double tp_op_time(const struct sim_config *cfg, double comp, double comm)
{
    double slow = cfg->groups[0].comm_slowdown > 1 ? cfg->groups[0].comm_slowdown : 1;
    double alone[4], held;
    int n = cfg->c.tp_sp ? 4 : 2;

    if (!cfg->c.tp_overlap || !(comm > 0))
        return comp + comm;
    if (!split(&cfg->c))
        return comp * slow > comm ? comm + comp - comm / slow : comm;
    /* the op's collectives alike, each next to its product */
    for (int k = 0; k < n; k++)
        alone[k] = comm / n;
    held = fmin(comm, tp_hold(&cfg->c, alone, n, comp, 1));
    return comp + (comm - held) * (1 - 1 / slow) + held;
}

const struct sim_dim_ops sim_dim_tp = {
    .name = "tp",
    .check = tp_check,
    .layered = tp_layered,
    .narrow = tp_narrow,
    .collectives = tp_collectives,
    .build = tp_build,
    .free = tp_free,
    .event = tp_event,
    .flow_done = tp_flow_done,
    .use_begin = tp_use_begin,
    .use_end = tp_use_end,
    .collect = tp_collect,
    .stage_layer = tp_stage_layer,
    .op_time = tp_op_time,
};
