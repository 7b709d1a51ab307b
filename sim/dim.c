/*
 * dim.c - the table of parallel dimensions (dim.h), the walks over it that
 * the checks and the collectives' listing share, and, for a run, the
 * calls of the hooks that the layer-by-layer step makes (sim_int.h).  The
 * order is the order hooks run in: tensor parallelism first (innermost: its per-layer
 * collectives come first in a listing, and the groups it leaves are what
 * the others see), expert parallelism's all-to-alls after a layer's
 * tensor-parallel collectives, then pipeline parallelism (a pipelined step runs as
 * another config, so the dimensions after it see that one), then sharded
 * data parallelism.
 */
#include "dim.h"
#include "sim_int.h"

extern const struct sim_dim_ops sim_dim_tp, sim_dim_ep, sim_dim_pp, sim_dim_shard;

const struct sim_dim_ops *const sim_dims[] = {&sim_dim_tp, &sim_dim_ep, &sim_dim_pp,
                                              &sim_dim_shard, NULL};

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

/* ---- a run's layer-by-layer step: the hooks of its dimensions ---------- */

int sim_use_begin(struct sim *s, int wi, int bwd, double dil)
{
    int any = 0;

    for (int i = 0; i < s->nhooked; i++) {
        int d = s->hooked[i];
        if (sim_dims[d]->use_begin)
            any |= sim_dims[d]->use_begin(s, s->dim[d], wi, bwd, dil);
    }
    return any;
}

/* The next hooked dimension, from worker wi's cursor on, that runs
 * collectives after its use: 1, or 0 when none is left. */
static int next_end(struct sim *s, int wi)
{
    struct worker *w = &s->w[wi];

    while (w->hook_at < s->nhooked) {
        int d = s->hooked[w->hook_at++];
        if (sim_dims[d]->use_end && sim_dims[d]->use_end(s, s->dim[d], wi, w->hook_bwd,
                                                         w->hook_dil))
            return 1;
    }
    return 0;
}

int sim_use_end(struct sim *s, int wi, int bwd, double dil)
{
    struct worker *w = &s->w[wi];

    w->hook_at = 0;
    w->hook_bwd = bwd;
    w->hook_dil = dil;
    return next_end(s, wi);
}

/* A hooked dimension's collectives after the use are done (or the stepper,
 * none took it): the next one's, else the stepper goes on. */
void sim_use_done(struct sim *s, int wi)
{
    if (next_end(s, wi))
        return;
    sim_dims[s->stepper]->use_done(s, s->dim[s->stepper], wi);
}

void sim_comm(struct sim *s, int delta)
{
    sim_dims[s->stepper]->comm(s, s->dim[s->stepper], delta);
}
