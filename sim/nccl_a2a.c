/*
 * nccl_a2a.c - an all-to-all as NCCL runs it: point-to-point sends from
 * every rank to every other at once, no algorithm or protocol to choose
 * (nccl.h, nccl_alltoall_s and nccl_a2a_s).
 *
 * The time is the slower of a rank's two paths: the bytes it sends inside
 * its node over its NVLink share, and the bytes bound for other nodes over
 * its share of the node's NICs, every GPU of the node sending at once, at
 * the network's all-to-all share of their rate (struct nccl_a2a_net: the
 * many concurrent messages run below one stream's rate), plus what the
 * network's call and each remote peer cost beyond the bytes (a call's
 * set-up and each peer's messages, which the host's proxy posts one by
 * one).  The expert-parallel dispatch and combine
 * (planner/resolve_ep.c) and `dtplan collectives --coll all_to_all` both
 * take it from here; docs/collectives.md "All-to-all" sets it against
 * published nccl-tests alltoall runs.
 */
#include "nccl.h"

#include <math.h>

double nccl_a2a_s(double intra_Bps, double gpu_net_Bps, double nvl_bytes, double net_bytes,
                  double net_over_s)
{
    double t_nvl = nvl_bytes > 0 && intra_Bps > 0 ? nvl_bytes / intra_Bps : 0;
    double t_net = net_bytes > 0 && gpu_net_Bps > 0 ? net_bytes / gpu_net_Bps + net_over_s : 0;

    return fmax(t_nvl, t_net);
}

double nccl_a2a_share(const struct nccl_a2a_net *a)
{
    return a->eff > 0 ? a->eff : 1;
}

double nccl_a2a_over_s(const struct nccl_a2a_net *a, double remote_peers)
{
    return remote_peers > 0 ? a->call_s + remote_peers * a->peer_s : 0;
}

void nccl_a2a_merge(struct nccl_a2a_net *to, const struct nccl_a2a_net *from)
{
    if (from->eff > 0 && (to->eff == 0 || from->eff < to->eff))
        to->eff = from->eff;
    to->call_s = fmax(to->call_s, from->call_s);
    to->peer_s = fmax(to->peer_s, from->peer_s);
}

double nccl_alltoall_s(const struct nccl_shape *sh, double bytes)
{
    double n = (double)sh->nodes * sh->ppn;

    if (n < 2 || !(bytes > 0))
        return 0;
    /* bytes / n to each rank, its own included: ppn - 1 shares stay in the
     * node, the other nodes' n - ppn leave it */
    return nccl_a2a_s(sh->intra_Bps * nccl_link_run(sh->cc), sh->nodes > 1 ? sh->net_Bps / sh->ppn * nccl_a2a_share(&sh->a2a) : 0,
                      bytes * (sh->ppn - 1) / n, bytes * (n - sh->ppn) / n,
                      nccl_a2a_over_s(&sh->a2a, n - sh->ppn));
}
