/*
 * coll_hd.c - recursive halving-doubling all-reduce (Rabenseifner; MPICH's
 * long-message all-reduce; Gloo's halving-doubling in Goyal et al.).
 *
 * Reduce-scatter by recursive halving then all-gather by recursive doubling:
 * 2 ceil(log2 k) messages and 2(k-1)S/k bytes per rank (Thakur, Rabenseifner
 * and Gropp 2005).  The reduction cost is not charged (GPU reductions are
 * far faster than the links).
 */
#include "coll.h"

static int hd_build(const struct coll_ctx *ctx, double bytes, struct coll_phase *ph)
{
    int k = coll_ranks(ctx), n = coll_nodes(ctx);
    double a = n > 1 ? coll_alpha_net(ctx) : coll_alpha_intra(ctx);

    if (k <= 1)
        return 0;
    coll_flat_phase(ctx, ph, 2.0 * (k - 1) / k * bytes, 2.0 * ilog2_ceil(k) * a);
    return 1;
}

const struct coll_ops coll_hd = {"halving_doubling", 0, hd_build};
