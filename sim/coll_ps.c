/*
 * coll_ps.c - parameter server push/pull, sharded over s servers.
 *
 * Workers are nodes: a multi-GPU node first reduces inside the node over its
 * GPU link, pushes its gradient, split in s shards of S/s, to the servers,
 * the servers sum what they receive on their CPU, and the workers pull the
 * s updated shards back, then broadcast inside the node.  With N worker
 * nodes and P dedicated server nodes each server node receives N*s/P shard
 * flows (incast) and sums N*S/P bytes per bucket.  Colocated (s = N): every
 * worker node serves one shard, sending and receiving (N-1)S/N, and sums on
 * the same CPU that preprocesses data.
 * Uncontended, dedicated: push max(S/B_w, N S/(P B_ps)) and the same for the
 * pull (BytePS's non-colocated PS: max(M/B, nM/(kB)), Jiang et al. OSDI'20).
 * Asynchronous workers (ps_incast < n): the server-side multiplicities use
 * the number of nodes pushing at once instead of n (sim.c, sim_run).
 * Servers that take pushes in turn (ps_turn_weight > 0; a loop of blocking
 * receives from any worker, for shards above the transport's eager limit):
 * each server receives the n shards one after the other, in an order of its
 * own, so in each of the n rounds the s servers pick workers at random and a
 * worker picked by c servers at once sends c shards through its NIC.  The
 * push then takes n E[max c] shard times on the workers' links instead of
 * s (E[max c] from coll_expected_max_load(s, n): 1.5 for 2 servers and 2
 * workers); the server side moves the same n shards either way.
 * Pulls that do not end together (ps_first_pull f, calibrated: a sender's
 * FIFO lets one stream run ahead): the first worker to have its pull steps
 * on and pushes its next gradients while the others still pull, on links
 * the pull does not use (workers' transmit, servers' receive).  A
 * synchronous step then waits only for the first pull, f of the pull time;
 * the others' tails run in its shadow and are not carried as flows.  f is
 * no less than 1/n: the last worker's pull still ends before its turn to
 * push, after the n-1 others.
 * Lanes: intra reduce 0, push 1, sum 2, pull and broadcast 3, so the pull of
 * one bucket overlaps the push of the next.  A serial PS (ps_serial: a worker
 * waits for bucket b's pull before it pushes b+1) puts every phase in lane 0.
 */
#include "coll.h"

#include <math.h>
#include <string.h>

static void phase_init(struct coll_phase *ph, int lane, double lat, double amount)
{
    memset(ph, 0, sizeof *ph);
    ph->lane = lane;
    ph->lat_s = lat;
    ph->amount = amount;
    ph->bound = INFINITY;
}

static void intra(const struct coll_ctx *ctx, struct coll_phase *ph, int lane, double bytes)
{
    int g = coll_max_wpn(ctx);
    phase_init(ph, lane, (g - 1) * coll_alpha_intra(ctx), (double)(g - 1) / g * bytes);
    for (int i = 0; i < ctx->ntg; i++)
        if (ctx->tg[i].wpn > 1)
            coll_use(ph, ctx->tg[i].r_intra, 1);
}

static int ps_build(const struct coll_ctx *ctx, double bytes, struct coll_phase *ph)
{
    int n = coll_nodes(ctx), g = coll_max_wpn(ctx), np = 0;
    double a = coll_alpha_net(ctx);
    /* Nodes whose pushes meet at a server: n when synchronous (the caller
     * may leave it 0), fewer when asynchronous workers drift apart. */
    double inc = ctx->ps_incast > 0 ? ctx->ps_incast : n;

    if (g > 1)
        intra(ctx, &ph[np++], 0, bytes);
    if (ctx->ps_dedicated) {
        int s = ctx->ps_servers, p = ctx->ps_nodes;
        double per_node = (double)s / p;      /* shards hosted by one PS node */
        struct coll_phase *push = &ph[np++], *sum = &ph[np++], *pull = &ph[np++];

        if (ctx->ps_alpha_net > a)
            a = ctx->ps_alpha_net;
        phase_init(push, 1, a, bytes / s);
        phase_init(pull, 3, a, bytes / s);
        if (ctx->ps_first_pull > 0)
            pull->amount *= fmax(ctx->ps_first_pull, 1.0 / n);
        for (int i = 0; i < ctx->ntg; i++) {
            coll_use(push, ctx->tg[i].r_tx, ctx->ps_turn_weight > 0 ? ctx->ps_turn_weight : s);
            coll_use(pull, ctx->tg[i].r_rx, s);
        }
        coll_use(push, ctx->r_ps_rx, inc * per_node);
        coll_use(pull, ctx->r_ps_tx, inc * per_node);
        coll_use(push, ctx->r_fabric, inc * s);
        coll_use(pull, ctx->r_fabric, inc * s);
        /* Each shard sums n copies of S/s bytes. */
        phase_init(sum, 2, 0, inc * bytes / s * ctx->ps_reduce_s_per_byte);
        coll_use(sum, ctx->r_ps_cpu, per_node);
        if (sum->amount <= 0)
            sum->nuse = 0;
    } else {
        struct coll_phase *push, *sum, *pull;
        if (n <= 1)
            goto out;
        push = &ph[np++];
        sum = &ph[np++];
        pull = &ph[np++];
        phase_init(push, 1, a, bytes / n);
        phase_init(pull, 3, a, bytes / n);
        for (int i = 0; i < ctx->ntg; i++) {
            coll_use(push, ctx->tg[i].r_tx, n - 1);   /* its own shards out */
            coll_use(push, ctx->tg[i].r_rx, inc - 1); /* other workers' shards in */
            coll_use(pull, ctx->tg[i].r_tx, inc - 1);
            coll_use(pull, ctx->tg[i].r_rx, n - 1);
        }
        coll_use(push, ctx->r_fabric, (double)n * (inc - 1));
        coll_use(pull, ctx->r_fabric, (double)n * (inc - 1));
        /* The local server sums n shards of S/n: S bytes on this node's CPU. */
        phase_init(sum, 2, 0, bytes * ctx->ps_reduce_s_per_byte);
        for (int i = 0; i < ctx->ntg; i++)
            coll_use(sum, ctx->tg[i].r_cpu, 1);
    }
out:
    if (g > 1)
        intra(ctx, &ph[np++], 3, bytes);
    if (ctx->ps_serial)
        for (int i = 0; i < np; i++)
            ph[i].lane = 0;
    return np;
}

/* Synchronous and asynchronous servers move the same bytes; the step model
 * (sim.c) decides whether workers wait for each other. */
const struct coll_ops coll_ps_sync = {"ps_sync", 1, ps_build};
const struct coll_ops coll_ps_async = {"ps_async", 1, ps_build};
