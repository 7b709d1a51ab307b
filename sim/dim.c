/*
 * dim.c - the table of parallel dimensions (dim.h) and the walks over it
 * that the checks and the collectives' listing share.  The order is the
 * order hooks run in: tensor parallelism first (innermost: its per-layer
 * collectives come first in a listing, and the groups it leaves are what
 * the others see), then pipeline parallelism (a pipelined step runs as
 * another config, so the dimensions after it see that one), then sharded
 * data parallelism.
 */
#include "dim.h"

extern const struct sim_dim_ops sim_dim_tp, sim_dim_pp, sim_dim_shard;

const struct sim_dim_ops *const sim_dims[] = {&sim_dim_tp, &sim_dim_pp, &sim_dim_shard, NULL};

int sim_dims_check(const struct sim_config *cfg, struct dt_err *e)
{
    for (int d = 0; sim_dims[d]; d++)
        if (sim_dims[d]->check && sim_dims[d]->check(cfg, e))
            return -1;
    return 0;
}

int sim_dims_layered(const struct sim_config *cfg)
{
    for (int d = 0; sim_dims[d]; d++)
        if (sim_dims[d]->layered && sim_dims[d]->layered(cfg))
            return 1;
    return 0;
}

void sim_dims_narrow(const struct sim_config *cfg, struct coll_ctx *dp, struct nccl_shape *sh,
                     int *share, int *split)
{
    for (int d = 0; sim_dims[d]; d++)
        if (sim_dims[d]->narrow)
            sim_dims[d]->narrow(cfg, dp, sh, share, split);
}
