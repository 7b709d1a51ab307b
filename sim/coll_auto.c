/*
 * coll_auto.c - the all-reduce NCCL would run (strategy auto): for each
 * bucket size, the algorithm, protocol and channels of least time under
 * NCCL's own cost model (nccl.h), simulated as one phase.
 *
 * The phase moves the bucket's S bytes at no more than the model's
 * algorithm bandwidth, after its latency and its pipeline's fill, so that
 * alone on the cluster it takes the time nccl_on gives.  It also crosses the links it loads, so that
 * other traffic (a data node's batches, another bucket) slows it: per byte
 * of the bucket, each GPU's link carries 2(k-1)/k for a ring or a tree (the
 * ring's steps; the tree's chain through the node, up and down) and about 1
 * for NVLS (its share out to the switch, the result back); each node's NIC
 * 2(k-1)/k for a ring and 1 for the trees (two trees, each half the data up
 * and down) and for CollNet (the node's sum to the switch, the total
 * back).  NCCL's bandwidth never needs more than these links carry on
 * their own, so alone the bound decides.
 */
#include "coll.h"

#include <math.h>
#include <string.h>

int coll_auto_phase(const struct coll_ctx *ctx, const struct nccl_model *m, double bytes,
                    struct coll_phase *ph)
{
    int k = coll_ranks(ctx), nodes = coll_nodes(ctx);
    double w_gpu, w_nic, part = (k - 1.0) / k;
    struct nccl_choice c;

    if (k <= 1 || nccl_pick(m, bytes, &c) != 0)
        return 0;
    if (m->coll == NCCL_ALLREDUCE) {
        w_gpu = c.algo == NCCL_NVLS || c.algo == NCCL_NVLS_TREE ? 1.0 : 2 * part;
        w_nic = c.algo == NCCL_RING ? 2 * part : 1.0;
    } else {
        /* an all-gather or reduce-scatter moves each byte of the others' shards once */
        w_gpu = w_nic = part;
    }
    memset(ph, 0, sizeof *ph);
    /* the pipeline's start across nodes (nccl_fill_s) waits as a latency does */
    ph->lat_s = c.lat_s * (ctx->lat_scale > 0 ? ctx->lat_scale : 1) + c.fill_s;
    ph->amount = bytes;
    ph->bound = c.algbw_Bps;
    for (int i = 0; i < ctx->ntg; i++) {
        const struct coll_group *g = &ctx->tg[i];
        if (g->wpn > 1)
            coll_use(ph, g->r_intra, w_gpu);
        if (nodes > 1) {
            coll_use(ph, g->r_tx, w_nic);
            coll_use(ph, g->r_rx, w_nic);
        }
    }
    if (nodes > 1)
        coll_use(ph, ctx->r_fabric, nodes * w_nic);
    return 1;
}

static int auto_build(const struct coll_ctx *ctx, double bytes, struct coll_phase *ph)
{
    return coll_auto_phase(ctx, &ctx->nccl, bytes, ph);
}

/* An explicit strategy runs a reduce-scatter or an all-gather as the first
 * or second half of its all-reduce: exactly a ring's, and its latency and
 * volume halved for the others. */
int coll_build_kind(const struct coll_ctx *ctx, enum sim_strategy st, enum nccl_coll kind,
                    const struct nccl_model *m, double bytes, struct coll_phase *ph)
{
    int n;

    if (st == SIM_AUTO)
        return coll_auto_phase(ctx, m, bytes, ph);
    n = coll_for(st)->build(ctx, bytes, ph);
    for (int p = 0; p < n && kind != NCCL_ALLREDUCE; p++) {
        ph[p].amount *= 0.5;
        ph[p].lat_s *= 0.5;
    }
    return n;
}

const struct coll_ops coll_auto = {"auto", 0, auto_build};
