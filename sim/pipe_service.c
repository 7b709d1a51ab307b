/*
 * pipe_service.c - data nodes as an input service (tf.data service, a gRPC
 * loader): one producer per data group.  A batch is preprocessed and
 * serialized on the data nodes' CPUs, crosses the network (data NIC out,
 * train NIC in: the NIC the gradients also use, and the fabric), is received
 * on the train node's CPU, then crosses PCIe to the GPU.  A data group's
 * nodes serve every train worker evenly: each carries ranks / count of this
 * group's streams.
 */
#include "pipe.h"

#include <math.h>

static int service_build(const struct pipe_ctx *ctx, struct pipe_line *out, int max)
{
    const struct sim_config *cfg = ctx->cfg;
    const struct sim_group *g = &cfg->groups[ctx->g];
    double cpu, bytes, send, recv;
    int n = 0, gi = ctx->g;

    pipe_batch_costs(ctx, &cpu, &bytes, &send, &recv);
    for (int d = 0; d < cfg->ngroups && n < max; d++) {
        const struct sim_group *dg = &cfg->groups[d];
        double share = ctx->ranks / dg->count; /* this group's streams per data node */
        struct pipe_line *p = &out[n];
        struct pipe_stage *st;

        if (dg->role != SIM_DATA)
            continue;
        n++;
        p->nst = 0;
        pipe_use(pipe_stage_new(p, cpu + send, INFINITY), ctx->r_cpu[d], share);
        if (!(bytes > 0))
            continue;
        st = pipe_stage_new(p, bytes, INFINITY);
        pipe_use(st, ctx->r_tx[d], share);
        pipe_use(st, ctx->r_rx[gi], sim_workers_per_node(g));
        pipe_use(st, ctx->r_fabric, ctx->ranks);
        if (recv > 0 && ctx->r_cpu[gi] >= 0)
            pipe_use(pipe_stage_new(p, recv, INFINITY), ctx->r_cpu[gi], sim_workers_per_node(g));
        if (g->gpus > 0 && p->nst < PIPE_MAX_STAGES)
            pipe_use(pipe_stage_new(p, bytes, INFINITY), ctx->r_pcie[gi], 1);
    }
    return n;
}

const struct pipe_ops pipe_service = { "service", service_build };
