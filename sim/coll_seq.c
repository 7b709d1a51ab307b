/*
 * coll_seq.c - collectives that run one after another (coll.h, struct
 * coll_seq): the parallel dimensions' per-layer collectives as phases of
 * the strategy, ready to run as flows on the cluster's resources; and one
 * collective's time alone on a group, for the pipeline's schedule.
 */
#include "coll.h"

#include <string.h>

static int is_gpu_link(const struct coll_ctx *ctx, int res)
{
    for (int i = 0; i < ctx->ntg; i++)
        if (ctx->tg[i].r_intra == res)
            return 1;
    return 0;
}

void coll_seq_add(struct coll_seq *sq, const struct coll_ctx *ctx, enum sim_strategy st,
                  enum nccl_coll kind, const struct nccl_shape *shape, double bytes,
                  double nic_scale)
{
    struct nccl_model m;
    struct coll_phase tmp[COLL_MAX_PHASES];
    int n;

    memset(&m, 0, sizeof m);
    if (st == SIM_AUTO && shape)
        nccl_model_init(&m, shape, kind);
    n = bytes > 0 ? coll_build_kind(ctx, st, kind, &m, bytes, tmp) : 0;
    for (int p = 0; p < n && sq->nph < COLL_SEQ_MAX_PHASES; p++) {
        for (int u = 0; u < tmp[p].nuse; u++)
            if (!is_gpu_link(ctx, tmp[p].use[u].res))
                tmp[p].use[u].w *= nic_scale;
        sq->ph[sq->nph++] = tmp[p];
    }
}

double coll_alone_s(const struct sim_config *cfg, const struct sim_group *g,
                      const struct nccl_shape *shape, int nodes, int wpn, enum nccl_coll kind,
                      double bytes)
{
    struct coll_ctx ctx;
    struct coll_phase ph[COLL_MAX_PHASES];
    struct nccl_model m;
    double cap[3] = {g->intra_Bps, g->nic_Bps, g->nic_Bps}, t = 0;
    int n;

    memset(&ctx, 0, sizeof ctx);
    memset(&m, 0, sizeof m);
    ctx.lat_scale = cfg->c.lat_scale;
    ctx.ntg = 1;
    ctx.tg[0].nodes = nodes;
    ctx.tg[0].wpn = wpn;
    ctx.tg[0].alpha_intra = g->intra_alpha_s;
    ctx.tg[0].alpha_net = g->net_alpha_s;
    ctx.tg[0].r_intra = 0;
    ctx.tg[0].r_tx = 1;
    ctx.tg[0].r_rx = 2;
    ctx.tg[0].r_cpu = -1;
    ctx.r_fabric = ctx.r_ps_tx = ctx.r_ps_rx = ctx.r_ps_cpu = -1;
    if (cfg->c.strategy == SIM_AUTO && shape)
        nccl_model_init(&m, shape, kind);
    n = bytes > 0 ? coll_build_kind(&ctx, cfg->c.strategy, kind, &m, bytes, ph) : 0;
    for (int p = 0; p < n; p++) {
        double rate = ph[p].bound;
        for (int u = 0; u < ph[p].nuse; u++)
            if (ph[p].use[u].w > 0 && cap[ph[p].use[u].res] / ph[p].use[u].w < rate)
                rate = cap[ph[p].use[u].res] / ph[p].use[u].w;
        t += ph[p].lat_s + (ph[p].amount > 0 && rate > 0 ? ph[p].amount / rate : 0);
    }
    return t;
}
