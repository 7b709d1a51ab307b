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
 * the collectives take past the compute is waited for.  The pipeline of
 * the split (its first and last pieces) is not modelled.  A
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
 * the worker's own (lane SH_TP, index the worker); O(1) events a layer.
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

void tp_dp_ctx(const struct coll_ctx *all, int tp, struct coll_ctx *dp, int *nic_share)
{
    int share = 1;

    *dp = *all;
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

void tp_build(struct sim *s, const struct nccl_shape *shape)
{
    const struct sim_comm *cm = &s->cfg->c;
    struct shard *sh = &s->sh;
    const struct coll_ctx *all = &s->ch[0].ctx;
    struct nccl_shape tpg, dpg;
    int share;
    enum nccl_coll kinds[2] = {NCCL_ALLREDUCE, NCCL_ALLREDUCE};

    if (cm->tp <= 1 || !(cm->tp_bytes > 0))
        return;
    if (shape)
        sim_tp_shapes(shape, cm->tp, &tpg, &dpg, &share);
    if (cm->tp_sp) {
        kinds[0] = NCCL_REDUCESCATTER;
        kinds[1] = NCCL_ALLGATHER;
    }
    for (int i = 0; i < all->ntg; i++) {
        struct coll_ctx g;
        tp_ctx(all, i, cm->tp, &g);
        /* two of them: all-reduces, or each a reduce-scatter and an all-gather */
        for (int k = 0; k < 2; k++)
            for (int j = 0; j < (cm->tp_sp ? 2 : 1); j++)
                shard_coll_into(&sh->tpc[i], &g, cm->strategy, kinds[j], shape ? &tpg : NULL,
                                cm->tp_bytes, 1);
    }
}

static void tp_phase_start(struct sim *s, int wi, int p)
{
    struct worker *w = &s->w[wi];
    const struct coll_phase *ph = &s->sh.tpc[s->w[wi].tg].ph[p];

    w->tp_ph = p;
    if (s->cfg->trace)
        sim_trace_begin(s->cfg->trace, s->now, SIM_ACT_SHARD, SH_TP, wi, p, -1,
                        ph->amount * w->tp_f, NULL, 0);
    if (ph->lat_s > 0)
        evq_push(&s->q, s->now + ph->lat_s * w->tp_f, EV_SHARD_LAT, SH_TP, wi, p);
    else
        tp_phase_flow(s, wi, p);
}

static void tp_start(struct sim *s, int wi, int bwd, double dilation)
{
    struct worker *w = &s->w[wi];

    w->tp_f = dilation;
    w->t_tp0 = s->now;
    w->tp_round = 0;
    w->tp_rounds = bwd && s->cfg->c.tp_recompute ? 2 : 1;
    tp_phase_start(s, wi, 0);
}

int tp_before_use(struct sim *s, int wi, int bwd, double dilation)
{
    if (!s->cfg->c.tp_overlap || s->sh.tpc[s->w[wi].tg].nph == 0)
        return 0;
    s->w[wi].tp_wait = 0;
    shard_comm_started(s);
    tp_start(s, wi, bwd, dilation);
    return 1;
}

int tp_after_use(struct sim *s, int wi, int bwd, double dilation)
{
    struct worker *w = &s->w[wi];

    if (s->sh.tpc[s->w[wi].tg].nph == 0)
        return 0;
    if (s->cfg->c.tp_overlap) {
        if (w->tp_ph < 0)
            return 0;       /* the collectives ended within the compute */
        w->tp_wait = 1;     /* the rest is waited for */
        w->t_tp0 = s->now;
        return 1;
    }
    tp_start(s, wi, bwd, dilation);
    return 1;
}

void tp_phase_flow(struct sim *s, int wi, int p)
{
    const struct worker *w = &s->w[wi];
    const struct coll_phase *ph = &s->sh.tpc[s->w[wi].tg].ph[p];

    if (s->cfg->trace && ph->amount > 0)
        sim_trace_begin(s->cfg->trace, s->now, SIM_ACT_SHARD_FLOW, SH_TP, wi, p, -1,
                        ph->amount * w->tp_f, ph->use, ph->nuse);
    if (ph->amount <= 0 || ph->nuse == 0)
        tp_phase_done(s, wi, p);
    else
        mm_add_flow(&s->mm, ph->amount * w->tp_f, ph->bound, ph->use, ph->nuse, FL_SHARD, SH_TP,
                    wi, p);
}

void tp_phase_done(struct sim *s, int wi, int p)
{
    struct worker *w = &s->w[wi];

    if (s->cfg->trace) {
        sim_trace_end(s->cfg->trace, s->now, SIM_ACT_SHARD_FLOW, SH_TP, wi, p);
        sim_trace_end(s->cfg->trace, s->now, SIM_ACT_SHARD, SH_TP, wi, p);
    }
    if (p + 1 < s->sh.tpc[s->w[wi].tg].nph) {
        tp_phase_start(s, wi, p + 1);
        return;
    }
    if (++w->tp_round < w->tp_rounds) {
        tp_phase_start(s, wi, 0);
        return;
    }
    w->tp_ph = -1;
    if (s->cfg->c.tp_overlap) {
        shard_comm_ended(s);
        if (!w->tp_wait)
            return;         /* the compute goes on; its end finishes the use */
    }
    if (sim_measured(s, w->step)) {
        w->exposed += s->now - w->t_tp0;
        w->tp_exp += s->now - w->t_tp0;
    }
    shard_use_finished(s, wi);
}
