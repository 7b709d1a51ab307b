/*
 * input_local.c - the loader on the train node (PyTorch DataLoader workers,
 * tf.data on the host): the node's loader vCPUs preprocess a batch, at most
 * loader_workers cores at a time per worker, then it crosses PCIe to the
 * GPU.  With data nodes present it runs only when the train nodes keep
 * preprocessing (local_with_data_nodes), and then, being one more consumer
 * of the data service, it pays the service's serialization and receive
 * cost too.
 */
#include "input.h"

#include <math.h>

static int local_build(const struct input_ctx *ctx, struct input_line *out, int max)
{
    const struct sim_config *cfg = ctx->cfg;
    const struct sim_group *g = &cfg->groups[ctx->g];
    double cpu, bytes, send, recv;
    struct input_stage *st;

    if (max < 1 || ctx->r_cpu[ctx->g] < 0 || (ctx->ndata > 0 && !cfg->w.local_with_data_nodes))
        return 0;
    input_batch_costs(ctx, &cpu, &bytes, &send, &recv);
    out->nst = 0;
    st = input_stage_new(out, cpu + (ctx->ndata ? send + recv : 0),
                        cfg->w.loader_workers * g->core_speed);
    input_use(st, ctx->r_cpu[ctx->g], sim_workers_per_node(g));
    if (g->gpus > 0 && bytes > 0)
        input_use(input_stage_new(out, bytes, INFINITY), ctx->r_pcie[ctx->g], 1);
    return 1;
}

const struct input_ops input_local = { "local", local_build };
