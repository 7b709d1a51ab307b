/*
 * coll_auto.c - the all-reduce NCCL would run (strategy auto): for each
 * bucket size, the algorithm, protocol and channels of least time under
 * NCCL's own cost model (nccl.h), simulated as one phase.
 *
 * The phase moves the bucket's S bytes at no more than the model's
 * algorithm bandwidth, after its latency, so that alone on the cluster it
 * takes NCCL's predicted time.  It also crosses the links it loads, so that
 * other traffic (a data node's batches, another bucket) slows it: per byte
 * of the bucket, each GPU's link carries 2(k-1)/k for a ring or a tree (the
 * ring's steps; the tree's chain through the node, up and down) and about 1
 * for NVLS (its share out to the switch, the result back); each node's NIC
 * 2(k-1)/k for a ring and 1 for the trees (two trees, each half the data up
 * and down).  NCCL's bandwidth never needs more than these links carry on
 * their own, so alone the bound decides.
 */
#include "coll.h"
#include "sim_int.h"

#include <math.h>
#include <string.h>

int sim_nccl_shape(const struct sim_config *cfg, struct nccl_shape *sh)
{
    int found = 0;

    memset(sh, 0, sizeof *sh);
    sh->ppn = 1;
    sh->link = NCCL_LINK_NVSWITCH;
    for (int i = 0; i < cfg->ngroups; i++) {
        const struct sim_group *g = &cfg->groups[i];
        int wpn = sim_workers_per_node(g), nics = g->nics > 0 ? g->nics : 1;
        enum nccl_link l = g->link == SIM_LINK_NVSWITCH ? NCCL_LINK_NVSWITCH
                           : g->link == SIM_LINK_NVLINK ? NCCL_LINK_NVLINK : NCCL_LINK_PCI;
        if (g->role != SIM_TRAIN)
            continue;
        sh->nodes += g->count;
        if (wpn > sh->ppn)
            sh->ppn = wpn;
        if (g->gpus > 0 && (!found || (g->gpu_cc > 0 && (sh->cc == 0 || g->gpu_cc < sh->cc))))
            sh->cc = g->gpu_cc;
        if (g->gpus > 1 && l < sh->link)
            sh->link = l;
        if (g->gpus > 1 && (sh->intra_Bps == 0 || g->intra_Bps < sh->intra_Bps))
            sh->intra_Bps = g->intra_Bps;
        if (g->nic_Bps > 0 && (sh->net_Bps == 0 || g->nic_Bps < sh->net_Bps))
            sh->net_Bps = g->nic_Bps;
        if (sh->nics == 0 || nics < sh->nics)
            sh->nics = nics;
        sh->amd_cpu |= g->cpu_amd;
        if (g->aws_efa) {
            sh->net_lat_s = NCCL_EFA_LAT_S;
            sh->simple_only = 1;
        }
        found |= g->gpus > 0;
    }
    if (sh->ppn == 1)
        sh->intra_Bps = sh->intra_Bps > 0 ? sh->intra_Bps : INFINITY;
    return found ? 0 : -1;
}

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
    ph->lat_s = c.lat_s * (ctx->lat_scale > 0 ? ctx->lat_scale : 1);
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

void sim_hybrid_shapes(const struct nccl_shape *sh, struct nccl_shape *node,
                       struct nccl_shape *across)
{
    *node = *across = *sh;
    node->nodes = 1;
    across->ppn = 1;
    across->net_Bps = sh->net_Bps / sh->ppn;
    across->nics = sh->nics > sh->ppn ? sh->nics / sh->ppn : 1;
}

void sim_tp_shapes(const struct nccl_shape *sh, int tp, struct nccl_shape *tpg,
                   struct nccl_shape *dpg, int *nic_share)
{
    int ppn = sh->ppn, share = tp < ppn ? tp : ppn;

    *tpg = *dpg = *sh;
    tpg->ppn = share;
    tpg->nodes = tp <= ppn ? 1 : tp / ppn;
    dpg->ppn = tp <= ppn ? ppn / tp : 1;
    dpg->nodes = tp <= ppn ? sh->nodes : sh->nodes / (tp / ppn);
    dpg->net_Bps = sh->net_Bps / share;
    dpg->nics = sh->nics > share ? sh->nics / share : 1;
    *nic_share = share;
}

/* Append NCCL's choice for collective `kind` of `bytes` on shape sh to out,
 * unless the same collective and size is there already. */
static int add_choice(struct sim_coll_choice *out, int n, int max, const struct nccl_shape *sh,
                      enum nccl_coll kind, double bytes)
{
    struct nccl_model m;
    struct nccl_choice c;

    if (n >= max || !(bytes > 0) || sh->nodes * sh->ppn <= 1)
        return n;
    for (int j = 0; j < n; j++)
        if (out[j].bytes == bytes && strcmp(out[j].collective, nccl_coll_name(kind)) == 0)
            return n;
    nccl_model_init(&m, sh, kind);
    if (nccl_pick(&m, bytes, &c) != 0)
        return n;
    out[n].collective = nccl_coll_name(kind);
    out[n].bytes = bytes;
    out[n].algorithm = nccl_algo_name(c.algo);
    out[n].protocol = nccl_proto_name(c.proto);
    out[n].channels = c.channels;
    out[n].time_s = c.time_s;
    out[n].busbw_Bps = c.busbw_Bps;
    return n + 1;
}

int sim_collectives(const struct sim_config *cfg, struct sim_coll_choice *out, int max)
{
    const struct sim_comm *cm = &cfg->c;
    struct nccl_shape all, sh, tpg, node, across;
    double left = cfg->w.grad_bytes, L = cm->units > 0 ? cm->units : 1;
    int tp = cm->tp > 1 ? cm->tp : 1, share, n = 0, nb;

    if (cm->strategy != SIM_AUTO || sim_nccl_shape(cfg, &all) != 0)
        return 0;
    /* tensor parallelism: its layer all-reduces, then data parallelism over
     * the ranks at one position, each a tp-th of the model */
    sim_tp_shapes(&all, tp, &tpg, &sh, &share);
    if (tp > 1) {
        n = add_choice(out, n, max, &tpg, cm->tp_sp ? NCCL_REDUCESCATTER : NCCL_ALLREDUCE,
                       cm->tp_bytes);
        if (cm->tp_sp)
            n = add_choice(out, n, max, &tpg, NCCL_ALLGATHER, cm->tp_bytes);
    }
    if (cm->pp > 1) {
        /* pipelined: the simulated stage's data-parallel all-reduce (pp.c) */
        struct sim_config *x = x_malloc(sizeof *x);
        struct pp_plan plan;
        struct dt_err e;
        if (sim_check(cfg, &e) == 0 && pp_config(cfg, x, &plan, &e) == 0)
            n += sim_collectives(x, out + n, max - n);
        x_free(x);
        return n;
    }
    if (tp > 1) {
        left /= tp;
        if (cm->shard == SIM_SHARD_NONE)   /* a layer's gradients all-reduced (sim/tp.c) */
            return add_choice(out, n, max, &sh, NCCL_ALLREDUCE, left / L);
    }
    if (cm->shard != SIM_SHARD_NONE && (cm->shard != SIM_SHARD_HYBRID || sh.nodes == 1)) {
        n = add_choice(out, n, max, &sh, NCCL_ALLGATHER, cm->param_bytes / tp / L);
        return add_choice(out, n, max, &sh, NCCL_REDUCESCATTER, left / L);
    }
    if (cm->shard == SIM_SHARD_HYBRID) {
        sim_hybrid_shapes(&sh, &node, &across);
        n = add_choice(out, n, max, &node, NCCL_ALLGATHER, cm->param_bytes / tp / L);
        n = add_choice(out, n, max, &node, NCCL_REDUCESCATTER, left / L);
        return add_choice(out, n, max, &across, NCCL_ALLREDUCE, left / L / sh.ppn);
    }
    nb = sim_bucket_count(cm, cfg->w.grad_bytes);
    for (int b = 0; b < nb && n < max; b++) {
        double cap = b < cm->nbucket_list ? cm->bucket_list[b] : cm->bucket_bytes;
        double bytes = left < cap ? left : cap;
        left -= bytes;
        n = add_choice(out, n, max, &sh, NCCL_ALLREDUCE, bytes);
    }
    return n;
}

const struct coll_ops coll_auto = {"auto", 0, auto_build};
