/*
 * coll_hier.c - hierarchical all-reduce (Horovod hierarchical, 2D):
 * intra-node reduce-scatter, inter-node ring all-reduce of each rank's 1/g
 * shard, intra-node all-gather.  One stream: the three phases of a bucket run
 * before the next bucket's.
 *
 * Per rank: (g-1)S/g over the GPU link, then 2(N-1)/N * S/g over the NIC,
 * with all g ranks of a node sharing it (multiplicity g), then (g-1)S/g again.
 * Uncontended: 2(g-1)(a_i + S/(gB_i)) + 2(N-1)(a_n + S/(N B_nic)).
 */
#include "coll.h"

#include <math.h>
#include <string.h>

static void intra_phase(const struct coll_ctx *ctx, struct coll_phase *ph, int g, double bytes)
{
    memset(ph, 0, sizeof *ph);
    ph->lat_s = (g - 1) * coll_alpha_intra(ctx);
    ph->amount = (double)(g - 1) / g * bytes;
    ph->bound = INFINITY;
    for (int i = 0; i < ctx->ntg; i++)
        if (ctx->tg[i].wpn > 1)
            coll_use(ph, ctx->tg[i].r_intra, 1);
}

static int hier_build(const struct coll_ctx *ctx, double bytes, struct coll_phase *ph)
{
    int n = coll_nodes(ctx), g = coll_max_wpn(ctx), np = 0;

    if (coll_ranks(ctx) <= 1)
        return 0;
    if (g > 1)
        intra_phase(ctx, &ph[np++], g, bytes);
    if (n > 1) {
        struct coll_phase *p = &ph[np++];
        memset(p, 0, sizeof *p);
        p->lat_s = 2.0 * (n - 1) * coll_alpha_net(ctx);
        p->amount = 2.0 * (n - 1) / n * bytes / g;
        p->bound = INFINITY;
        for (int i = 0; i < ctx->ntg; i++) {
            coll_use(p, ctx->tg[i].r_tx, ctx->tg[i].wpn);
            coll_use(p, ctx->tg[i].r_rx, ctx->tg[i].wpn);
        }
        coll_use(p, ctx->r_fabric, (double)coll_ranks(ctx));
    }
    if (g > 1)
        intra_phase(ctx, &ph[np++], g, bytes);
    return np;
}

const struct coll_ops coll_hier = {"hierarchical", 0, hier_build};
