/*
 * nccl_fill.c - the start of a collective's pipeline across nodes, and of
 * NVLS's on one node, which NCCL's own cost model leaves out (nccl.h,
 * nccl_fill_s; docs/collectives.md "Pipeline fill" and "NVLS's fill on one
 * node").
 *
 * NCCL moves a collective in steps: each connection that leaves a node has
 * NCCL_STEPS (8) slots, and a step carries one chunk, whose size NCCL
 * chooses per algorithm and message size (src/enqueue.cc, calcCollChunking)
 * from its buffer sizes (src/init.cc, computeBuffSizes) and, for NVLS tree,
 * its NVLS tuning (src/transport/nvls.cc, ncclNvlsTuning).  All references
 * are to NVIDIA/nccl@5067397c (v2.30.7).
 *
 * The fill is the time for one full window of every connection leaving a
 * node, NCCL_STEPS steps at the message's chunk, to cross the node's NICs.
 * It is a form, not a derivation: the one that the published two-node
 * nccl-tests curves of InfiniBand follow (validate/nccl_cases.csv), with no
 * figure fitted to them: NCCL_STEPS, the chunks and the connections are
 * NCCL's.  It is why mid-size collectives across nodes run at half the
 * bandwidth of large ones while their latency alone is already small: the
 * chunk grows with the message, and so does the fill, until the chunk
 * reaches its ceiling.
 */
#include "nccl.h"

#include <math.h>

#define NCCL_STEPS 8
/* Buffers a connection has per protocol (src/init.cc, src/include/device.h):
 * LL 8 lines x 512 threads x 8 steps x 16 B, LL128 120 elements x 640
 * threads x 8 steps x 8 B, Simple 4 MiB (NCCL_BUFFSIZE). */
#define LL_BUFF (8.0 * 512 * NCCL_STEPS * 16)
#define LL128_BUFF (120.0 * 640 * NCCL_STEPS * 8)
#define SIMPLE_BUFF (4.0 * 1024 * 1024)
/* Simple rings move a chunk of CHUNKSTEPS steps (src/include/collectives.h:
 * ALLREDUCE_, ALLGATHER_, REDUCESCATTER_CHUNKSTEPS, NCCL_STEPS / 2). */
#define RING_CHUNKSTEPS 4
#define KIB 1024.0

/* A step's payload under protocol p: LL carries half its lines, LL128 120
 * of each 128 bytes. */
static double step_data(const struct nccl_shape *sh, int p)
{
    if (p == NCCL_LL)
        return LL_BUFF / NCCL_STEPS / 2;
    if (p == NCCL_LL128)
        return LL128_BUFF / NCCL_STEPS * 120 / 128;
    return (sh->buff_bytes > 0 ? sh->buff_bytes : SIMPLE_BUFF) / NCCL_STEPS;
}

/* NVLS's chunk ceiling and the channels it runs (ncclNvlsTuning and, on
 * Blackwell across nodes, ncclNvlsTreeSm100Tuning): 16 channels on Hopper,
 * 24 on one Blackwell node, 32 across Blackwell nodes; across nodes NVLS
 * tree's ceiling.  A GPU's path to its NIC is taken as through a PCIe
 * switch (PXB or nearer), as on the HGX boards the catalog lists. */
static void nvls_tuning(const struct nccl_shape *sh, double *chunk, int *nch)
{
    double nic = sh->net_Bps / 1e9 / (sh->nics > 0 ? sh->nics : 1), tree_max = 0;
    int ppn = sh->ppn;

    *chunk = 128 * KIB;
    *nch = sh->cc < 100 ? 16 : sh->nodes > 1 ? 32 : 24;
    if (sh->cc >= 100 && sh->nodes > 1) {
        if (sh->nodes == 2 && nic >= 48) {
            *nch = 32;
            tree_max = 128 * KIB;
            if (ppn <= 4)
                *chunk = tree_max = 256 * KIB;
            else if (ppn >= 16 || nic < 96)
                tree_max = 64 * KIB;
        } else if (nic >= 96) {
            *nch = ppn <= 8 ? 24 : 32;
            if (ppn <= 8)
                *chunk = tree_max = 256 * KIB;
            else
                tree_max = ppn < 32 ? 128 * KIB : 64 * KIB;
        } else if (nic >= 48) {
            *nch = 24;
            tree_max = 64 * KIB;
        }
    }
    if (sh->nvls_chunk_bytes > 0)
        *chunk = sh->nvls_chunk_bytes;
    if (sh->nodes < 2)
        return;     /* NVLS on one node: no tree, no tree ceiling */
    if (sh->nvls_tree_max_bytes > 0)
        tree_max = sh->nvls_tree_max_bytes;
    else if (tree_max == 0)
        tree_max = sh->nodes >= 4 ? 64 * KIB : *chunk;
    *chunk = fmin(*chunk, tree_max);
}

/* NCCL's NVLS chunk steps (calcCollChunking): under mult x ops x chunk
 * bytes, the chunk at most cap; in order, ending at a zero row. */
struct chunk_step {
    double mult, cap;
};
static const struct chunk_step nvls_tree_steps[] = {
    {32, 262144}, {16, 131072}, {4, 65536}, {1, 32768}, {0, 0}};
static const struct chunk_step nvls_node_steps[] = {{64, 65536}, {8, 32768}, {2, 16384}, {0, 0}};

/* The chunk of ops concurrent operations on `bytes`, from a ceiling of
 * chunk, by the steps st. */
static double nvls_chunk(double bytes, double ops, double chunk, const struct chunk_step *st)
{
    for (; st->mult > 0; st++)
        if (bytes < st->mult * ops * chunk && chunk > st->cap)
            chunk = st->cap;
    return chunk;
}

/* The bytes one step carries and the connections leaving a node, for pair
 * (a, p) on `bytes`; 0 when the pair has no network pipeline. */
static double step_bytes(const struct nccl_model *m, int a, int p, double bytes, double *conns)
{
    const struct nccl_shape *sh = &m->sh;
    int k = sh->nodes * sh->ppn, nch = m->nch[a] > 0 ? m->nch[a] : 1;
    double step = step_data(sh, p);

    *conns = nch;
    if (a == NCCL_RING) {
        /* one loop carries nch x k chunks; a smaller message, smaller chunks */
        double piece = bytes / ((double)nch * k);
        return p == NCCL_SIMPLE ? fmin(step, piece / RING_CHUNKSTEPS) : fmin(step, piece);
    }
    if (a == NCCL_TREE) {
        double chunk = step;
        if (p == NCCL_LL128) {
            double ppn = sh->ppn, nsteps = 1 + nccl_log2i(sh->nodes) + 0.1 * ppn;
            while (floor(bytes / (nch * chunk)) < nsteps * 64 / ppn && chunk > 131072)
                chunk /= 2;
            while (floor(bytes / (nch * chunk)) < nsteps * 16 / ppn && chunk > 32768)
                chunk /= 2;
        }
        return fmin(chunk, bytes / nch);
    }
    if (a == NCCL_NVLS_TREE) {
        double chunk, ops;
        int nvls_nch;
        nvls_tuning(sh, &chunk, &nvls_nch);
        ops = (double)nvls_nch * sh->ppn;
        chunk = nvls_chunk(bytes, ops, chunk, nvls_tree_steps);
        /* every head of every channel has its own tree across nodes */
        *conns = (double)nch * sh->ppn;
        return chunk;
    }
    return 0;   /* NVLS stays in the node; PAT is left out */
}

/* nccl.h: a channel's chunks, ceil(bytes / (channels x chunk)), and
 * 2 log2(nodes) levels. */
double nccl_tree_msgs(const struct nccl_model *m, enum nccl_proto p, double bytes)
{
    double conns, step;

    if (m->sh.nodes < 2 || !(bytes > 0))
        return 0;
    step = step_bytes(m, NCCL_TREE, p, bytes, &conns);
    return ceil(bytes / (conns * step)) + 2.0 * nccl_log2i(m->sh.nodes);
}

/*
 * A ring's latency behind its own transfer.  Step s of a ring on a rank
 * waits for step s - 1 of its left neighbour, and a step moves one chunk a
 * channel, RING_CHUNKSTEPS slots, which the rank downstream takes and
 * forwards a slice (SLICESTEPS, half the chunk) at a time (src/device/
 * prims_simple.h: SlicePerChunk; src/include/collectives.h: ALLREDUCE_
 * SLICESTEPS).  A step then takes the longer of its chunk's crossing and
 * its latency plus half a chunk: the latency is hidden where half a chunk
 * crosses a channel in longer than a step's latency, as at large messages
 * (a 2 MiB chunk at 48 GB/s a channel: 22 us against a few), and each step
 * pays the difference where it does not.  NCCL's model charges the steps'
 * latency once whatever the message; a loop of the ring (a message over
 * channels x ranks x chunk) pays the difference again, at most NCCL's
 * charge.  Simple only: LL and LL128 forward each line as it lands, and
 * run at the small sizes whose steps are latency.
 */
double nccl_ring_exposed_s(const struct nccl_model *m, enum nccl_proto p, double bytes,
                           double step_lat_s, double algbw_Bps)
{
    int k = m->sh.nodes * m->sh.ppn, nch = m->nch[NCCL_RING] > 0 ? m->nch[NCCL_RING] : 1;
    double nst = nccl_ring_steps(m->coll, k), conns, chunk, loops, rate;

    if (p != NCCL_SIMPLE || !(bytes > 0) || !(algbw_Bps > 0) || k <= 1)
        return nst * step_lat_s;
    chunk = step_bytes(m, NCCL_RING, p, bytes, &conns) * RING_CHUNKSTEPS;
    loops = fmax(1, ceil(bytes / ((double)nch * k * chunk)));
    rate = algbw_Bps * nst / k / nch;       /* a channel's rate on its link */
    return fmin(nst * step_lat_s, nst * loops * fmax(0, step_lat_s - chunk / rate / 2));
}

/*
 * NVLS on one node (an all-reduce: the heads reduce with multimem loads and
 * store the sum to every GPU through the switch).  Each of its channels x
 * heads concurrent operations moves one chunk at a time, the chunk set by
 * the message (src/enqueue.cc, calcCollChunking: NCCL_NVLS_CHUNKSIZE,
 * 128 KiB, then 64, 32 and 16 KiB under 64, 8 and 2 times channels x heads
 * x chunk; src/transport/nvls.cc: 16 channels on Hopper, 24 on one
 * Blackwell node).  The pipeline starts NVLS_FILL_ROUNDS rounds of every
 * operation's chunk at the collective's rate before it runs at that rate.
 * The rounds are a figure fitted, to one curve: Azure's 8 x H100 (NCCL
 * 2.18.5, validate/published/nccl_cases.csv marks its points as the input),
 * 13 to 111 us past NCCL's model from 1 MiB to 1 GiB where two rounds give
 * 15 to 122.
 */
#define NVLS_FILL_ROUNDS 2

static double nvls_node_fill_s(const struct nccl_model *m, double bytes)
{
    double chunk, ops, rate = m->run_bw[NCCL_NVLS][NCCL_SIMPLE];
    int nch;

    if (!(rate > 0))
        return 0;
    nvls_tuning(&m->sh, &chunk, &nch);
    ops = (double)nch * m->sh.ppn;
    chunk = nvls_chunk(bytes, ops, chunk, nvls_node_steps);
    return NVLS_FILL_ROUNDS * ops * chunk / rate;
}

double nccl_fill_s(const struct nccl_model *m, enum nccl_algo a, enum nccl_proto p, double bytes)
{
    double conns, step;

    if (a == NCCL_NVLS && m->sh.nodes == 1 && m->coll == NCCL_ALLREDUCE && bytes > 0)
        return nvls_node_fill_s(m, bytes);
    if (m->sh.nodes < 2 || !(m->sh.net_Bps > 0) || !(bytes > 0))
        return 0;
    step = step_bytes(m, a, p, bytes, &conns);
    return NCCL_STEPS * step * conns / m->sh.net_Bps;
}
