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

static int auto_build(const struct coll_ctx *ctx, double bytes, struct coll_phase *ph)
{
    int k = coll_ranks(ctx), nodes = coll_nodes(ctx);
    double w_gpu, w_nic;
    struct nccl_choice c;

    if (k <= 1 || nccl_pick(&ctx->nccl, bytes, &c) != 0)
        return 0;
    w_gpu = c.algo == NCCL_NVLS || c.algo == NCCL_NVLS_TREE ? 1.0 : 2.0 * (k - 1) / k;
    w_nic = c.algo == NCCL_RING ? 2.0 * (k - 1) / k : 1.0;
    memset(ph, 0, sizeof *ph);
    ph->lat_s = c.lat_s;
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

int sim_collectives(const struct sim_config *cfg, struct sim_coll_choice *out, int max)
{
    struct nccl_shape sh;
    struct nccl_model m;
    double left = cfg->w.grad_bytes;
    int n = 0, nb;

    if (cfg->c.strategy != SIM_AUTO || sim_nccl_shape(cfg, &sh) != 0)
        return 0;
    nccl_model_init(&m, &sh, NCCL_ALLREDUCE);
    nb = sim_bucket_count(&cfg->c, cfg->w.grad_bytes);
    for (int b = 0; b < nb && n < max; b++) {
        double cap = b < cfg->c.nbucket_list ? cfg->c.bucket_list[b] : cfg->c.bucket_bytes;
        double bytes = left < cap ? left : cap;
        struct nccl_choice c;
        int seen = 0;

        left -= bytes;
        for (int j = 0; j < n; j++)
            seen |= out[j].bytes == bytes;
        if (seen || !(bytes > 0) || nccl_pick(&m, bytes, &c) != 0)
            continue;
        out[n].bytes = bytes;
        out[n].algorithm = nccl_algo_name(c.algo);
        out[n].protocol = nccl_proto_name(c.proto);
        out[n].channels = c.channels;
        out[n].time_s = c.time_s;
        out[n].busbw_Bps = c.busbw_Bps;
        n++;
    }
    return n;
}

const struct coll_ops coll_auto = {"auto", 0, auto_build};
