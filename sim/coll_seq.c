/*
 * coll_seq.c - collectives that run one after another (coll.h, struct
 * coll_seq): the parallel dimensions' per-layer collectives as phases of
 * the strategy, ready to run as flows on the cluster's resources.
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
