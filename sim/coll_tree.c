/*
 * coll_tree.c - pipelined (double binary) tree all-reduce, as NCCL's tree.
 *
 * Bandwidth: with two complementary trees each rank sends and receives about
 * 2S(k-1)/k in the pipelined limit, the same as the ring (NCCL's model keeps
 * the ring's bus-bandwidth factor).  Latency is logarithmic in the nodes:
 * 2((g-1) a_intra + ceil(log2 N) a_net), g ranks per node (NCCL tuning.cc,
 * tree all-reduce latency).  See docs/model.md.
 */
#include "coll.h"

static int tree_build(const struct coll_ctx *ctx, double bytes, struct coll_phase *ph)
{
    int k = coll_ranks(ctx), n = coll_nodes(ctx), g = coll_max_wpn(ctx);
    double lat;

    if (k <= 1)
        return 0;
    lat = 2.0 * ((g - 1) * coll_alpha_intra(ctx) + ilog2_ceil(n) * coll_alpha_net(ctx));
    coll_flat_phase(ctx, ph, 2.0 * (k - 1) / k * bytes, lat);
    return 1;
}

const struct coll_ops coll_tree = {"tree", 0, tree_build};
