/*
 * interfere.c - how much slower backward runs while a gradient collective
 * is in flight on the same GPU (sim_group.comm_slowdown; docs/model.md
 * "Compute slowed by communication").
 *
 * NCCL runs each channel as one thread block that keeps an SM of its own
 * for the whole collective (maintainer, NVIDIA/nccl#689), and launches
 * twice the channels of its ring graph (src/graph/connect.cc): 24 blocks on
 * an A100 or H100 node, as measured in NVIDIA/nccl#1225; NVLS runs 16
 * (NCCL_NVLS_NCHANNELS on Hopper).  A kernel of many waves then gets
 * (SMs - blocks) of the GPU's SMs: it runs SMs / (SMs - blocks) times
 * slower, 1.29 on an A100 (108 SMs), 1.22 on an H100 (132) under a ring.
 * Published overlaps fall in that range: 1.19 on average over A100, H100
 * and MI250 runs (Lee et al. 2025, arXiv:2507.03114), matmuls "30-40%
 * slower" on 8 H100 (pytorch/pytorch#179937).  Memory-bandwidth contention
 * is not counted: memory-bound kernels lose more (1.8 for attention on an
 * A100 in NVIDIA/nccl#1428).  A calibration profile's measured factor
 * (the nccl_all_reduce entry's comm_slowdown, which dtplan calibrate --nccl
 * measures) replaces the estimate; a measured factor below 1 counts as 1.
 */
#include "resolve.h"

#include <math.h>

#include "../sim/nccl.h"

/* Thread blocks NCCL launches per channel of the graph, and for NVLS. */
#define BLOCKS_PER_CHANNEL 2
#define NVLS_BLOCKS 16

/* Thread blocks of the all-reduce cfg's largest bucket runs with; 0 when
 * its gradients do not go through GPU collectives. */
static int blocks_of(const struct sim_config *cfg)
{
    struct nccl_shape sh;
    struct nccl_model m;
    struct nccl_choice c;

    if (sim_is_ps(cfg->c.strategy) || sim_nccl_shape(cfg, &sh) != 0 ||
        sh.nodes * sh.ppn < 2)
        return 0;
    nccl_model_init(&m, &sh, NCCL_ALLREDUCE);
    if (cfg->c.strategy != SIM_AUTO)
        return BLOCKS_PER_CHANNEL * m.nch[NCCL_RING];
    if (nccl_pick(&m, cfg->c.bucket_bytes, &c) != 0)
        return 0;
    return c.algo == NCCL_NVLS || c.algo == NCCL_NVLS_TREE ? NVLS_BLOCKS
                                                           : BLOCKS_PER_CHANNEL * c.channels;
}

void resolve_interference(const struct scenario *sc, const struct sc_cluster *cl,
                          struct sim_config *cfg)
{
    int blocks = blocks_of(cfg);

    for (int i = 0; i < cl->ngroups; i++) {
        const struct cat_instance *in = cl->groups[i].inst;
        const struct prof_measured *m = resolve_profile_of(sc, in);
        struct sim_group *g = &cfg->groups[i];
        int sms = in->gpu ? in->gpu->sm_count : 0;

        g->comm_slowdown = 1;
        if (g->role != SIM_TRAIN || g->gpus < 1 || blocks == 0)
            continue;
        if (m && m->comm_slowdown > 0)
            g->comm_slowdown = m->comm_slowdown >= 1 ? m->comm_slowdown : 1;
        else if (sms > 2 * blocks)
            g->comm_slowdown = (double)sms / (sms - blocks);
    }
}
