/*
 * nccl_collnet.c - CollNet: collectives whose reduction the network's
 * switches perform (InfiniBand SHARP through NCCL's CollNet plugin,
 * nccl-rdma-sharp-plugins), as NCCL 2.30.7 finds, prices and runs them
 * (nccl.h; docs/collectives.md "In-network reduction (SHARP)").  All
 * references are to NVIDIA/nccl@5067397c.
 *
 * NCCL builds two CollNet graphs when NCCL_COLLNET_ENABLE=1 and the plugin
 * finds SHARP (src/init.cc, lines 1189-1206):
 * - CollNetDirect (src/graph/search.cc, ncclTopoSearchTryCollnetDirect):
 *   each channel is a head GPU with a NIC of its own, at most
 *   NCCL_MAX_DIRECT_ARITY + 1 = 8 of them; a head gathers from every
 *   other GPU of the node and scatters back to it, a share 1 / (GPUs - 1)
 *   of its speed to each, so a GPU's links carry its own head's speed and
 *   its share of every other head's;
 * - CollNetChain: the tree pattern with the ring's channel count, each
 *   channel a chain through the node's GPUs whose first GPU takes one NIC
 *   both ways, so that its links carry what a ring's across nodes do.
 * Both start at the fastest speed of the network's list that one NIC
 * carries, and the second pass raises the intra-node speed to at most
 * twice the network's while the links carry it (search.cc, "increase
 * bwIntra for trees (2 nodes or collnet)").
 *
 * tuning.cc then prices them on the intra-node speed whatever the node
 * count: CollNetDirect's all-reduce at channels x speed over the GPU:NIC
 * factor, x 0.85 on Hopper and later, its all-gather and reduce-scatter at
 * GPUs x min(intra, 0.9 x network); CollNetChain's all-reduce at channels x
 * speed; the all-reduces' bus bandwidth halved.  Latencies: base 0; a hop
 * of 3.7 us (Direct) and 2.8 us (Chain) inside a node, 31 and 30 us across.
 * Simple only; Direct only on NVSwitch nodes; all-gather and reduce-scatter
 * by Direct only, with one head for each local GPU; neither on nodes of more
 * than 8 GPUs (enqueue.cc, updateCollCostTable), so not across NVL72 racks.
 *
 * What runs: NCCL's price, but an all-reduce no faster than the share of
 * the node's NICs that an in-network reduction reaches (the fabric's
 * collnet_eff: each node sends its S once and takes the result once,
 * whatever the node count, so S over the NICs' rate at that share bounds
 * it).  NCCL's model leaves the switches' aggregation rate out; on B200
 * nodes it prices CollNetChain at 688 GB/s of bus bandwidth where runs of
 * 2 to 64 nodes reach 526 to 548.
 */
#include "nccl.h"

#include <math.h>

#define DIRECT_MAX_HEADS 8      /* NCCL_MAX_DIRECT_ARITY + 1 (src/include/device.h) */
#define DIRECT_HOP_US 0.4       /* tuning.cc: arity serialization a local peer */

/* The load on a GPU's links, per direction, of nch channels at speed s,
 * over s: Direct, its own head's s and its share 1 / (GPUs - 1) of every
 * other head's; Chain, as a ring across nodes, (GPUs - 1) of every GPUs
 * hops of a channel on NVLink (the first GPU of the chain takes the NIC). */
static double link_load(const struct nccl_shape *sh, enum nccl_algo a, int nch)
{
    if (sh->ppn <= 1)
        return 0;
    if (a == NCCL_COLLNET_DIRECT)
        return 1 + (nch - 1.0) / (sh->ppn - 1.0);
    return nch * (sh->ppn - 1.0) / sh->ppn;
}

void nccl_collnet_graph(const struct nccl_shape *sh, enum nccl_algo a, const double *v, int n,
                        int ring_nch, int *nch, double *bw_intra, double *bw_inter)
{
    int i = 0;
    int rails = sh->nics < sh->ppn ? sh->nics : sh->ppn;
    double intra = sh->intra_Bps / 1e9, nic = sh->net_Bps / 1e9 / (rails > 0 ? rails : 1);
    double path = (nic < intra ? nic : intra) * (1 + 1e-9);
    int want, cap;

    *nch = 0;
    *bw_intra = *bw_inter = 0;
    if (rails < 1)
        return;
    if (a == NCCL_COLLNET_DIRECT) {
        cap = sh->ppn < DIRECT_MAX_HEADS ? sh->ppn : DIRECT_MAX_HEADS;
        want = rails < cap ? rails : cap;       /* a head a NIC with a GPU of its own */
    } else {
        cap = want = ring_nch;
    }
    if (want < 1)
        return;
    /* pass 1: the fastest speed one NIC carries for its channels and the
     * links carry for all of them */
    {
        double per_nic = ceil((double)want / rails), load = link_load(sh, a, want);
        while (i < n - 1 && !(v[i] <= path && v[i] * per_nic <= nic * (1 + 1e-9) &&
                              v[i] * load <= intra * (1 + 1e-9)))
            i++;
    }
    *nch = want;
    *bw_intra = *bw_inter = v[i];
    /* ncclTopoDupChannels, up to the pattern's cap; the second pass starts
     * from the speed that leaves */
    if (v[i] >= 25.0 && !(sh->cc > 80 && v[i] < 50.0 && want > 4) && cap > want) {
        int dup = 2 * want < cap ? 2 * want : cap, div = (dup + want - 1) / want;
        *nch = dup;
        *bw_intra /= div;
        *bw_inter /= div;
        for (i = 0; i < n - 1 && v[i] > *bw_inter; i++)
            ;
    }
    /* pass 2: the intra-node speed up the list while it is under twice the
     * network's and the links carry it */
    {
        double load = link_load(sh, a, *nch);
        while (i > 0 && *bw_intra < 2 * *bw_inter && v[i - 1] * load <= intra * (1 + 1e-9))
            *bw_intra = v[--i];
    }
}

int nccl_collnet_ok(const struct nccl_shape *sh, enum nccl_coll c, enum nccl_algo a, int p,
                    int nch)
{
    /* enqueue.cc: both need at most 8 local GPUs (NCCL_MAX_DIRECT_ARITY + 1),
     * so an NVLink domain of more GPUs runs no CollNet */
    if (!sh->collnet || sh->nodes < 2 || p != NCCL_SIMPLE || nch < 1 ||
        sh->ppn > DIRECT_MAX_HEADS)
        return 0;
    if (a == NCCL_COLLNET_CHAIN)
        return c == NCCL_ALLREDUCE;
    if (sh->link != NCCL_LINK_NVSWITCH)
        return 0;       /* Direct needs an NVSwitch (tuning.cc: nvsCount) */
    /* all-gather and reduce-scatter: a head for each local GPU */
    return c == NCCL_ALLREDUCE || sh->ppn <= nch;
}

double nccl_collnet_bw(const struct nccl_shape *sh, enum nccl_coll c, enum nccl_algo a, int nch,
                       double bw_intra, double bw_inter)
{
    double bus = nch * bw_intra;

    if (a == NCCL_COLLNET_DIRECT) {
        double factor = (double)sh->ppn / nch;
        if (c != NCCL_ALLREDUCE)
            return sh->ppn * fmin(bw_intra, bw_inter * 0.9);
        factor -= (factor - 1) / 2;
        bus /= factor;
        if (sh->cc >= 90)
            bus *= 0.85;
    }
    return bus * 0.5;
}

double nccl_collnet_lat_us(const struct nccl_shape *sh, enum nccl_algo a, double intra_us,
                           double net_us)
{
    int local = sh->ppn - 1;

    if (a == NCCL_COLLNET_DIRECT)
        return 2 * ((local < 1 ? local : 1) * intra_us + local * DIRECT_HOP_US) + net_us;
    return 2 * local * intra_us + net_us;
}

double nccl_collnet_run_bw(const struct nccl_shape *sh, enum nccl_coll c, double bw_Bps)
{
    if (c != NCCL_ALLREDUCE || !(sh->collnet_eff > 0))
        return bw_Bps;
    return fmin(bw_Bps, sh->net_Bps * sh->collnet_eff);
}
