/*
 * coll_ring.c - flat ring all-reduce (NCCL ring, Horovod, Baidu ring).
 *
 * k ranks, N nodes: reduce-scatter then all-gather, 2(k-1) steps of S/k per
 * rank.  Every rank sends 2(k-1)S/k bytes and, ordered node by node, each
 * node's NIC carries the same 2(k-1)S/k per direction whatever the number of
 * channels.  Steps are lock-stepped, so the fluid form is one flow of
 * 2(k-1)S/k limited by the slowest resource it crosses.  Latency follows
 * NCCL's ring model: 2(k-N) intra-node hops and 2(N-1) network hops.
 * Uncontended: t = 2(k-1)(a + S/(kB)) on a single link type.
 */
#include "coll.h"

static int ring_build(const struct coll_ctx *ctx, double bytes, struct coll_phase *ph)
{
    int k = coll_ranks(ctx), n = coll_nodes(ctx);
    double lat;

    if (k <= 1)
        return 0;
    if (n > 1)
        lat = 2.0 * (k - n) * coll_alpha_intra(ctx) + 2.0 * (n - 1) * coll_alpha_net(ctx);
    else
        lat = 2.0 * (k - 1) * coll_alpha_intra(ctx);
    coll_flat_phase(ctx, ph, 2.0 * (k - 1) / k * bytes, lat);
    return 1;
}

const struct coll_ops coll_ring = {"ring", 0, ring_build};
