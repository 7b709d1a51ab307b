/*
 * input_service.c - data nodes as an input service (tf.data service, a gRPC
 * loader): one producer per data group.  A batch is preprocessed and
 * serialized on the data nodes' CPUs, crosses the network (data NIC out,
 * train NIC in: the NIC the gradients also use, and the fabric), is received
 * on the train node's CPU, then crosses PCIe to the GPU.  A data group's
 * nodes serve every train worker evenly: each carries ranks / count of this
 * group's streams.
 */
#include "input.h"

#include <math.h>

static int service_build(const struct input_ctx *ctx, struct input_line *out, int max)
{
    const struct sim_config *cfg = ctx->cfg;
    const struct sim_group *g = &cfg->groups[ctx->g];
    double cpu, bytes, send, recv;
    int n = 0, gi = ctx->g;

    input_batch_costs(ctx, &cpu, &bytes, &send, &recv);
    for (int d = 0; d < cfg->ngroups && n < max; d++) {
        const struct sim_group *dg = &cfg->groups[d];
        double share = ctx->ranks / dg->count; /* this group's streams per data node */
        struct input_line *p = &out[n];
        struct input_stage *st;

        if (dg->role != SIM_DATA)
            continue;
        n++;
        p->nst = 0;
        input_use(input_stage_new(p, cpu + send, INFINITY), ctx->r_cpu[d], share);
        if (!(bytes > 0))
            continue;
        st = input_stage_new(p, bytes, INFINITY);
        input_use(st, ctx->r_tx[d], share);
        input_use(st, ctx->r_rx[gi], sim_workers_per_node(g));
        input_use(st, ctx->r_fabric, ctx->ranks);
        if (recv > 0 && ctx->r_cpu[gi] >= 0)
            input_use(input_stage_new(p, recv, INFINITY), ctx->r_cpu[gi], sim_workers_per_node(g));
        if (g->gpus > 0 && p->nst < INPUT_MAX_STAGES)
            input_use(input_stage_new(p, bytes, INFINITY), ctx->r_pcie[gi], 1);
    }
    return n;
}

const struct input_ops input_service = { "service", service_build };
