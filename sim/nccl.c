/*
 * nccl.c - NCCL's cost model of an all-reduce (nccl.h).
 *
 * Two parts, both from NCCL 2.30.7 (NVIDIA/nccl@5067397c, the v2.30.7-1
 * release; docs/collectives.md "How NCCL chooses"):
 *
 * graph_of: what NCCL's topology search (src/graph/search.cc,
 *   ncclTopoCompute) finds for a ring, tree or NVLS graph, reduced to a
 *   cluster shape.  It walks the same speed arrays: the first speed no
 *   faster than one path (a GPU's links inside a node; one NIC across
 *   nodes), as many channels of it as the GPU's links and the node's NICs
 *   carry, channels doubled at half speed when fast (ncclTopoDupChannels),
 *   then a second pass that raises the speed at that channel count (rings)
 *   or the intra-node speed to at most twice the network's (trees on two
 *   nodes), and NVLS's network speed to at most twice its intra-node one.
 *   The search's path-by-path placement is not repeated: every GPU of a
 *   node is taken to reach every other at its full link rate (NVSwitch;
 *   for point-to-point NVLink and PCIe an assumption, docs/collectives.md).
 *
 * model_init: src/graph/tuning.cc, ncclTopoTuneModel, for the collective:
 *   per (algorithm, protocol) a bus bandwidth from the graph and the
 *   per-generation caps, turned into an algorithm bandwidth, and a latency
 *   from the base and per-hop latencies.  nccl_on adds
 *   ncclTopoGetAlgoTime's corrections (the tree's per-size factor, the
 *   ring's plateau).
 *
 * Bandwidths are GB/s (1e9 B/s) and latencies microseconds inside, as in
 * NCCL; the interface is bytes/s and seconds.
 */
#include "nccl.h"

#include <math.h>
#include <string.h>

/* ---- constants of tuning.cc (v2.30.7) ---------------------------------- */

enum { HW_NVLINK, HW_PCI, HW_NET };
enum { GEN_VOLTA, GEN_AMPERE, GEN_HOPPER, GEN_BLACKWELL, NGEN };

/* baseLatencies[algo][proto], us (Tree, Ring, NVLS, NVLSTree, PAT,
 * CollNetDirect, CollNetChain). */
static const double base_lat[NCCL_NALGO][NCCL_NPROTO] = {
    {6.8, 14.0, 8.4}, {6.6, 14.0, 8.4}, {0, 0, 0}, {0, 0, 0}, {8.0, 8.0, 8.0}, {0, 0, 0},
    {0, 0, 0}};
/* hwLatencies[hw][algo][proto], us. */
static const double hw_lat[3][NCCL_NALGO][NCCL_NPROTO] = {
    {{0.6, 1.25, 4.0}, {0.6, 1.9, 3.4}, {0, 0, 25}, {0, 0, 25}, {0, 0, 4.0}, {0, 0, 3.7},
     {0, 0, 2.8}},
    {{1.0, 1.9, 4.0}, {1.0, 2.5, 5.7}, {0, 0, 0}, {0, 0, 0}, {0, 0, 4.0}, {0, 0, 3.7},
     {0, 0, 2.8}},
    {{5.0, 8.5, 14}, {2.7, 4.0, 14.0}, {0, 0, 18}, {0, 0, 20.9}, {0, 0, 14}, {0, 0, 31},
     {0, 0, 30}}};
/* llMaxBws[index1][index2]: index1 the generation on one node, else 0 for
 * Intel and 1 for AMD hosts; index2 1, 2, or 3 and more nodes. */
static const double ll_max_bw[NGEN][3] = {
    {39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {141.0, 45.0, 35.0}, {282.0, 90.0, 70.0}};
static const double ring_ll128_bw[NGEN][3] = {
    {20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 36.7}, {40.0, 40.0, 40.0}};
static const double tree_ll128_bw[NGEN][3] = {
    {20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 29.0}, {55.6, 31.67, 20.0}};
static const double tree_bw[NGEN][3] = {
    {26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {70.0, 42.8, 24.0}};
static const double nvls_tree_bw[NGEN][3] = {
    {26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {0.0, 57.7, 45.5}, {0.0, 96.0, 80.0}};
static const double nvls_eff[NGEN] = {0, 0, 0.85, 0.74};
/* treeCorrectionFactor[proto][log2(bytes / 64)], all-reduce on trees. */
static const double tree_corr[NCCL_NPROTO][24] = {
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9}};

/* ---- constants of the topology search (search.cc, topo.h) -------------- */

static const double speed_intra[] = {40, 30, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3};
static const double speed_inter[] = {48, 30, 28, 24, 20, 18, 15, 12, 10, 9,
                                     7, 6, 5, 4, 3, 2.4, 1.2, 0.24, 0.12};
static const double sm90_intra[] = {60, 50, 40, 30, 24, 20, 15, 12, 11, 6, 3};
static const double sm90_inter[] = {48, 45, 42, 40, 30, 24, 22, 20, 17.5,
                                    15, 12, 6, 3, 2.4, 1.2, 0.24, 0.12};
static const double sm100_intra[] = {90, 80, 70, 60, 50, 45, 40, 30, 24, 20, 19, 18};
static const double sm100_inter[] = {96, 86, 80, 48, 45.1, 42, 40, 30, 24, 22,
                                     20, 17.5, 15, 12, 6, 3, 2.4, 1.2, 0.24, 0.12};
/* Channels a search may find (MAXCHANNELS 64, searched up to half). */
#define MAX_CHANNELS 32
/* NVLS heads: one per GPU of the node, at most NCCL_MAX_NVLS_ARITY; a node
 * of more GPUs runs no NVLS here, where NCCL 2.30 runs it for all-reduce
 * (enqueue.cc; docs/collectives.md "NVLink domains across trays": a known
 * gap, not adopted). */
#define MAX_NVLS_ARITY 32

struct speeds {
    const double *v;
    int n;
};

static struct speeds speeds_of(int cc, int inter)
{
    struct speeds s;
#define PICK(a) (s.v = (a), s.n = (int)(sizeof(a) / sizeof *(a)))
    if (cc >= 100)
        inter ? PICK(sm100_inter) : PICK(sm100_intra);
    else if (cc >= 90)
        inter ? PICK(sm90_inter) : PICK(sm90_intra);
    else
        inter ? PICK(speed_inter) : PICK(speed_intra);
#undef PICK
    return s;
}

double nccl_link_eff(int cc)
{
    if (cc >= 100)
        return 40.1 / 50;
    if (cc >= 90)
        return 20.6 / 25;
    if (cc == 86 || cc == 87)
        return 12.0 / 14.0625;
    if (cc >= 60 && cc < 70)
        return 18.0 / 20;
    return 20.0 / 25;
}

double nccl_link_run(int cc)
{
    return cc >= 100 ? 0.923 : 1;
}

static int gen_of(int cc)
{
    return cc >= 100 ? GEN_BLACKWELL : cc >= 90 ? GEN_HOPPER : cc >= 80 || cc == 0 ? GEN_AMPERE
                                                                                     : GEN_VOLTA;
}

/* ---- the graphs --------------------------------------------------------- */

struct graph {
    int nch;
    double bw_intra, bw_inter;  /* per channel, GB/s */
};

enum pattern { PAT_RING, PAT_TREE, PAT_NVLS };

/* Channels of speed s the links carry: each channel takes s on every GPU's
 * links and, across nodes, s on one NIC, where it enters and leaves the node
 * over PCIe: each GPU's links then carry (ppn - 1) of every ppn channels. */
static int channels_at(const struct nccl_shape *sh, double intra, double nic, double s, int cap)
{
    double gpu = sh->nodes > 1 && sh->ppn > 1 ? intra * sh->ppn / (sh->ppn - 1) : intra;
    int n = gpu / s < cap ? (int)floor(gpu / s + 1e-9) : cap;

    if (sh->nodes > 1) {
        int per_nic = nic / s < cap ? (int)floor(nic / s + 1e-9) : cap;
        if (per_nic * sh->nics < n)
            n = per_nic * sh->nics;
    }
    return n < cap ? n : cap;
}

static void graph_of(const struct nccl_shape *sh, enum pattern pat, struct graph *g)
{
    int inter = sh->nodes > 1, i = 0, want = pat == PAT_NVLS ? sh->ppn : 1;
    int cap = pat == PAT_NVLS ? (sh->ppn < MAX_NVLS_ARITY ? sh->ppn : MAX_NVLS_ARITY) : MAX_CHANNELS;
    int rails = sh->nics < sh->ppn ? sh->nics : sh->ppn;
    struct speeds sp = speeds_of(sh->cc, inter);
    double intra = sh->intra_Bps / 1e9, nic = sh->net_Bps / 1e9 / (rails > 0 ? rails : 1);
    /* one path's rate, a hair over so that a NIC of exactly a listed speed takes it */
    double path = (inter && nic < intra ? nic : intra) * (1 + 1e-9);
    struct nccl_shape rs = *sh;

    rs.nics = rails > 0 ? rails : 1;
    memset(g, 0, sizeof *g);
    /* pass 1: the fastest speed one path carries with the channels the
     * pattern needs (NVLS: one head per GPU) */
    while (i < sp.n - 1 && (sp.v[i] > path || channels_at(&rs, intra, nic, sp.v[i], cap) < want))
        i++;
    g->nch = channels_at(&rs, intra, nic, sp.v[i], cap);
    if (g->nch < want)
        g->nch = pat == PAT_NVLS ? 0 : 1;
    g->bw_intra = g->bw_inter = sp.v[i];
    if (pat != PAT_NVLS && g->bw_intra >= 25.0 &&
        !(sh->cc > 80 && g->bw_intra < 50.0 && g->nch > 4)) {
        int dup = 2 * g->nch < MAX_CHANNELS ? 2 * g->nch : MAX_CHANNELS;
        int div = (dup + g->nch - 1) / g->nch;
        g->bw_intra /= div;
        g->bw_inter /= div;
        g->nch = dup;
    }
    /* pass 2: faster at the same channel count (rings), the intra-node
     * speed up to twice the network's (trees on two nodes), the network
     * speed up to twice the intra-node one (NVLS) */
    for (int j = 0; j < sp.n && g->nch > 0; j++) {
        double s = sp.v[j];
        if (pat == PAT_RING && s > g->bw_intra && s <= path &&
            channels_at(&rs, intra, nic, s, MAX_CHANNELS) >= g->nch) {
            g->bw_intra = g->bw_inter = s;
            break;
        }
        if (pat == PAT_TREE && sh->nodes == 2 && s > g->bw_intra && s <= 2 * g->bw_inter &&
            g->nch * s <= intra + 1e-9) {
            g->bw_intra = s;
            break;
        }
        if (pat == PAT_NVLS && s > g->bw_inter && s <= 2 * g->bw_intra &&
            (!inter || channels_at(&rs, INFINITY, nic, s, MAX_CHANNELS) >= g->nch)) {
            g->bw_inter = s;
            break;
        }
    }
}

/* ---- the model ---------------------------------------------------------- */

/*
 * What NVLS on one node runs at, bytes/s of algorithm bandwidth: NCCL's
 * per-head efficiency (nvlsEfficiency x (nCh - 1) / nCh, nCh the GPUs) at
 * the GPU's full link rate.  NCCL's own figure, nCh x bwIntra x
 * nvlsEfficiency, takes the search's speed rounded down to its list (8 x 40
 * of an H100's 370.8 GB/s), which fits 8 GPUs and undervalues fewer.
 */
static double nvls_run_bw(const struct nccl_shape *sh, int gen)
{
    return sh->intra_Bps * nvls_eff[gen] * (sh->ppn - 1) / sh->ppn;
}

/*
 * What NVLS tree on two nodes runs at: each GPU's reduced share, S / ppn,
 * crosses its NIC once each way (NCCL's model doubles the network's speed
 * on two nodes for it), so the collective runs at the slower of the node's
 * NVLS rate and its NICs' whole rate.  NCCL's own figure rounds both
 * through the search's speed lists and its per-channel cap: 263 GB/s on
 * two 8 x B200 nodes of 8 x 400G, where Lambda's and GCP's A4 ran 371 and
 * 365 at 2 and 8 GiB (dstackai/dstack@511c318c mkdocs/docs/examples/
 * clusters/lambda.md, gcp.md).
 */
static double nvls_tree2_run_bw(const struct nccl_shape *sh, int gen)
{
    return fmin(nvls_run_bw(sh, gen), sh->net_Bps);
}

/* The algorithms the network's switches reduce in (nccl_collnet.c). */
static int collnet(int a)
{
    return a == NCCL_COLLNET_DIRECT || a == NCCL_COLLNET_CHAIN;
}

/*
 * What a tree across Blackwell nodes runs at: NCCL's price without the
 * plain TREE pattern's 0.85.  NCCL's Blackwell caps a channel of a tree
 * (perChMaxTreeBws 42.8 GB/s on two nodes, 24.0 on more) and then takes
 * 0.85 of the result for the pattern its search settles on; B200 trees
 * forced across 2 to 64 nodes run at the caps whole: 8 channels x 24 GB/s
 * is 96 GB/s of algorithm bandwidth, 186 to 192 of bus bandwidth, where
 * Together AI's two B200 InfiniBand clusters ran 190.7 to 195.9 from 4 to
 * 64 nodes and 335.2 to 338.6 on 2 (320.7 without the factor, 272.6 with
 * it; validate/published/nccl_cases.csv).  NCCL's choice keeps its own
 * price.  Hopper keeps the factor: no forced Hopper tree across nodes is
 * published to say otherwise.
 */
static double tree_run_bw(const struct nccl_shape *sh, double bw)
{
    return sh->nodes > 1 && sh->cc >= 100 ? bw / 0.85 : bw;
}

/*
 * A ring across nodes as it runs over a network with a step overhead
 * (net_step_s): every one of its steps, NVLink's too, waits for the
 * network's, since a step of the ring is one message on each of its links
 * and the ring moves at its slowest link's message rate; the overhead
 * overlaps the step's own transfer, in quadrature, so the ring takes
 * hypot(steps x overhead, bytes / bandwidth) past the latency of its
 * crossings.  Its steps times that overhead, s; 0 where the network has no
 * such figure (NCCL's netOverhead, added to the steps, stands) or the ring
 * stays in a node.
 */
static double ring_step_s(const struct nccl_shape *sh, enum nccl_coll c, int p)
{
    int k = sh->nodes * sh->ppn;
    double step = sh->net_step_s[p == NCCL_SIMPLE ? 1 : 0];

    if (sh->nodes <= 1 || !(step > 0))
        return 0;
    return nccl_ring_steps(c, k) * step;
}

/* tuning.cc's latency of pair (a, p) for collective c, us, with the
 * network plugin's latency net_us per network hop (twice for Simple: its
 * "flush extra latency").  run: a network hop as the fabric runs it (its
 * own hop latency, when known, in place of NCCL's), for the time. */
static double latency_us(const struct nccl_shape *sh, enum nccl_coll c, int a, int p,
                         double net_us, int run)
{
    int n = sh->nodes, k = n * sh->ppn, ih = sh->link != NCCL_LINK_PCI ? HW_NVLINK : HW_PCI;
    double nsteps = nccl_ring_steps(c, k);
    double lat = base_lat[a][p], il = hw_lat[ih][a][p];
    double hop = run && sh->net_hop_s > 0
                     ? (sh->net_hop_s + (p == NCCL_SIMPLE ? sh->net_simple_s : 0)) * 1e6
                     : hw_lat[HW_NET][sh->ppn == 1 ? NCCL_TREE : a][p];
    double nl = hop + net_us * (p == NCCL_SIMPLE ? 2 : 1);

    if (a == NCCL_RING) {
        double inter_steps = n == 1 ? 0 : c == NCCL_ALLREDUCE ? 2.0 * (n - 1) : n - 1.0, h = il;
        if (n > 1)
            h = fmax(il, (sh->amd_cpu ? 2.0 : 1.0) * (p == NCCL_SIMPLE ? 3 : 1));
        if (run && ring_step_s(sh, c, p) > 0)
            h = 0;      /* the steps run at the network's step overhead (ring_step_s) */
        return lat + (nsteps - inter_steps) * h + inter_steps * nl;
    }
    if (a == NCCL_TREE)
        return lat + 2 * ((sh->ppn - 1) * il + nccl_log2i(n) * nl);
    if (a == NCCL_NVLS)
        return il + (n > 1 ? nl : 0);
    if (a == NCCL_PAT)
        return lat + nccl_log2i(n) * (nl / 3.5) + k * 2.8;
    if (collnet(a))
        return lat + nccl_collnet_lat_us(sh, (enum nccl_algo)a, il, nl);
    return lat + il + 2 * nccl_log2i(n) * nl;
}

/* Whether NCCL runs pair (a, p) for collective c on shape sh with graph g
 * (tuning.cc's skips and its enable rules). */
static int pair_ok(const struct nccl_shape *sh, enum nccl_coll c, int a, int p,
                   const struct graph *g)
{
    int n = sh->nodes, nvls = a == NCCL_NVLS || a == NCCL_NVLS_TREE;
    int nvls_ok = sh->cc >= 90 && sh->link == NCCL_LINK_NVSWITCH;

    if (a == NCCL_ALLPAIRS)
        return 0;   /* RCCL's only (rccl.c) */
    if (collnet(a) && !nccl_collnet_ok(sh, c, (enum nccl_algo)a, p, g->nch))
        return 0;
    if (c == NCCL_ALLREDUCE ? a == NCCL_PAT : (a == NCCL_TREE || a == NCCL_NVLS_TREE))
        return 0;
    if (a == NCCL_PAT && (p != NCCL_SIMPLE || sh->ppn != 1 || (sh->cc > 0 && sh->cc < 60)))
        return 0;   /* PAT: one GPU per node */
    if ((a == NCCL_NVLS && (!nvls_ok || n > 1)) || (a == NCCL_NVLS_TREE && (!nvls_ok || n == 1)))
        return 0;   /* NVLS across nodes needs CollNet (not modelled) */
    if (g->nch < 1 || (nvls && (g->nch < 2 || p != NCCL_SIMPLE)))
        return 0;
    /* LL128 by default only over NVLink (PATH_NVB) and a GPU-near NIC */
    if (p == NCCL_LL128 && (sh->link == NCCL_LINK_PCI || (sh->cc > 0 && sh->cc < 70)))
        return 0;
    if (sh->ring_only && a != NCCL_RING)
        return 0;
    return !(n > 1 && sh->protos && !(sh->protos & (1 << p)));
}

/* tuning.cc's algorithm bandwidth of pair (a, p) for collective c, GB/s. */
static double alg_bw(const struct nccl_shape *sh, enum nccl_coll c, int a, int p,
                     const struct graph *g)
{
    int n = sh->nodes, k = n * sh->ppn, gen = gen_of(sh->cc);
    int i1 = n == 1 ? gen : sh->amd_cpu ? 1 : 0, i2 = n <= 2 ? n - 1 : 2;
    double nsteps = nccl_ring_steps(c, k);
    double bw = n <= 2 ? g->bw_intra : g->bw_inter, bus;

    if (collnet(a))
        return nccl_collnet_bw(sh, c, (enum nccl_algo)a, g->nch, g->bw_intra, g->bw_inter);

    if (a == NCCL_NVLS || a == NCCL_NVLS_TREE) {
        double ib = g->bw_intra * nvls_eff[gen] * (g->nch - 1) / g->nch *
                    (c == NCCL_ALLREDUCE ? 2.0 : (sh->ppn - 1.0) / sh->ppn);
        double nb = g->bw_inter * (n <= 2 && a == NCCL_NVLS_TREE ? 2 : 1);
        bw = fmin(ib, nb);
        if (a == NCCL_NVLS_TREE)
            bw = fmin(bw, nvls_tree_bw[gen][i2]);
    }
    bus = g->nch * bw;
    if (a == NCCL_RING && p == NCCL_LL)
        bus = fmin(ll_max_bw[i1][i2], bus * 0.5);
    if (a == NCCL_RING && p == NCCL_LL128)
        bus = fmin(bus * 0.92, g->nch * ring_ll128_bw[gen][i2]);
    if (a == NCCL_TREE)
        bus = fmin(bus * 0.92, g->nch * tree_bw[gen][i2]);
    if (a == NCCL_TREE && p == NCCL_LL)
        bus = fmin(bus / 3.8, ll_max_bw[i1][i2]);
    if (a == NCCL_TREE && p == NCCL_LL128)
        bus = fmin(bus * (n == 1 ? 7.0 / 9.0 : 120.0 / 128.0), g->nch * tree_ll128_bw[gen][i2]);
    /* Hopper and later across nodes: the search settles on the plain TREE
     * pattern, which tuning.cc takes at 0.85 (search.cc run on a DGX H100
     * topology) */
    if (a == NCCL_TREE && n > 1 && sh->cc >= 90)
        bus *= 0.85;
    if (a == NCCL_PAT)
        bus *= 0.75;
    /* bus to algorithm bandwidth; all-gather and reduce-scatter convert
     * on rings only */
    if (a == NCCL_TREE)
        return bus * 0.5;
    if (c == NCCL_ALLREDUCE || a == NCCL_RING)
        return bus * k / nsteps;
    return bus;
}

void nccl_model_init(struct nccl_model *m, const struct nccl_shape *sh, enum nccl_coll c)
{
    int k = sh->nodes * sh->ppn, gen = gen_of(sh->cc);
    struct graph gr[NCCL_NALGO];

    memset(m, 0, sizeof *m);
    m->sh = *sh;
    m->coll = c;
    if (k <= 1)
        return;
    memset(gr, 0, sizeof gr);   /* CollNet's where the switches do not reduce, all-pairs' */
    graph_of(sh, PAT_TREE, &gr[NCCL_TREE]);
    graph_of(sh, PAT_RING, &gr[NCCL_RING]);
    graph_of(sh, PAT_NVLS, &gr[NCCL_NVLS]);
    gr[NCCL_NVLS_TREE] = gr[NCCL_NVLS];
    gr[NCCL_PAT] = gr[NCCL_RING];
    if (sh->collnet && sh->nodes > 1) {
        struct speeds sp = speeds_of(sh->cc, 1);
        for (int a = NCCL_COLLNET_DIRECT; a <= NCCL_COLLNET_CHAIN; a++)
            nccl_collnet_graph(sh, (enum nccl_algo)a, sp.v, sp.n, gr[NCCL_RING].nch, &gr[a].nch,
                               &gr[a].bw_intra, &gr[a].bw_inter);
    }
    for (int a = 0; a < NCCL_NALGO; a++) {
        m->nch[a] = gr[a].nch;
        for (int p = 0; p < NCCL_NPROTO; p++) {
            if (!pair_ok(sh, c, a, p, &gr[a]))
                continue;
            m->bw[a][p] = m->run_bw[a][p] = alg_bw(sh, c, a, p, &gr[a]) * 1e9;
            if (a == NCCL_RING && sh->nodes == 1 && !sh->rccl)
                m->run_bw[a][p] *= nccl_link_run(sh->cc);
            if (a == NCCL_NVLS && c == NCCL_ALLREDUCE)
                m->run_bw[a][p] = nvls_run_bw(sh, gen);
            if (a == NCCL_NVLS_TREE && c == NCCL_ALLREDUCE && sh->nodes == 2)
                m->run_bw[a][p] = nvls_tree2_run_bw(sh, gen);
            if (collnet(a))
                m->run_bw[a][p] = nccl_collnet_run_bw(sh, c, m->bw[a][p]);
            if (a == NCCL_TREE)
                m->run_bw[a][p] = tree_run_bw(sh, m->bw[a][p]);
            m->lat[a][p] = latency_us(sh, c, a, p, sh->net_lat_s * 1e6, 0) * 1e-6;
            m->run_lat[a][p] = latency_us(sh, c, a, p, 0, 1) * 1e-6;
            m->run_step[a][p] = a == NCCL_RING ? ring_step_s(sh, c, p) : 0;
        }
    }
    if (sh->rccl)
        rccl_model_init(m, sh, c);
}

/* nccl_on, the pipeline's fill left out when fill is 0 (NCCL's choice does
 * not weigh it: nccl_pick adds it to the winner only). */
static int pair_on(const struct nccl_model *m, enum nccl_algo a, enum nccl_proto p, double bytes,
                   struct nccl_choice *c, int fill)
{
    int k = m->sh.nodes * m->sh.ppn;
    double bw, run, lat, run_lat, steps, corr = 1, choice_corr;

    if ((unsigned)a >= NCCL_NALGO || (unsigned)p >= NCCL_NPROTO || !(m->bw[a][p] > 0) || k <= 1)
        return -1;
    bw = m->bw[a][p];
    run = m->run_bw[a][p];
    lat = m->lat[a][p];
    run_lat = m->run_lat[a][p];
    if (a == NCCL_TREE && m->coll == NCCL_ALLREDUCE && bytes >= 64) {
        int l = nccl_log2i((int)fmin(bytes / 64, 1 << 30));
        if (l < 23)
            corr = tree_corr[p][l];
    }
    /* RCCL's own factors for its choice; on one node its tables time the
     * run too (rccl.c) */
    choice_corr = m->sh.rccl ? rccl_corr(m, a, p, bytes) : corr;
    if (m->sh.rccl && m->sh.nodes == 1)
        corr = choice_corr;
    /* the ring's plateau (ncclTopoGetAlgoTime): comm->nChannels is the
     * ring's channel count; RCCL's choice has none */
    if (a == NCCL_RING && p == NCCL_SIMPLE && m->sh.nodes > 1 && m->coll == NCCL_ALLREDUCE &&
        bytes / ((double)m->nch[NCCL_RING] * k) >= 64)
    {
        double plateau = m->sh.cc > 0 && m->sh.cc < 80 ? 1.9 : 1.4;
        if (!m->sh.rccl)
            lat *= plateau;
        run_lat *= plateau;
    }
    memset(c, 0, sizeof *c);
    c->algo = a;
    c->proto = p;
    c->channels = a == NCCL_ALLPAIRS ? rccl_allpairs_channels(bytes) : m->nch[a];
    c->lat_s = run_lat;
    c->algbw_Bps = run * corr;
    /* the network's step overhead (ring_step_s), a ring's steps or the
     * tree's messages on a channel, in quadrature with the transfer */
    steps = a == NCCL_TREE ? nccl_tree_msgs(m, p, bytes) * m->sh.net_step_s[p == NCCL_SIMPLE]
                           : m->run_step[a][p];
    if (steps > 0 && bytes > 0)
        c->algbw_Bps = bytes / hypot(steps, bytes / c->algbw_Bps);
    c->fill_s = fill ? nccl_fill_s(m, a, p, bytes) : 0;
    /* a ring without the network's step overhead: its steps' latency
     * behind its own transfer (nccl_fill.c) */
    if (a == NCCL_RING && m->sh.nodes > 1 && !(steps > 0) && bytes > 0) {
        double nst = nccl_ring_steps(m->coll, k), base = fmin(run_lat, base_lat[a][p] * 1e-6);
        run_lat = base + nccl_ring_exposed_s(m, p, bytes, (run_lat - base) / nst, c->algbw_Bps);
        c->lat_s = run_lat;
    }
    c->time_s = run_lat + c->fill_s + bytes / c->algbw_Bps;
    c->nccl_time_s = lat + bytes / (bw * choice_corr);
    if (m->coll == NCCL_ALLREDUCE && m->sh.meas_beta_s > 0 && m->sh.meas_nodes == m->sh.nodes &&
        m->sh.meas_ppn == m->sh.ppn) {
        /* the shape a calibration measured: its own time, whatever the pair */
        c->lat_s = m->sh.meas_alpha_s;
        c->fill_s = 0;
        c->algbw_Bps = 1 / m->sh.meas_beta_s;
        c->time_s = c->lat_s + bytes * m->sh.meas_beta_s;
    }
    c->busbw_Bps = bytes / c->time_s * (m->coll == NCCL_ALLREDUCE ? 2.0 : 1.0) * (k - 1) / k;
    return 0;
}

int nccl_on(const struct nccl_model *m, enum nccl_algo a, enum nccl_proto p, double bytes,
            struct nccl_choice *c)
{
    return pair_on(m, a, p, bytes, c, 1);
}

int nccl_pick_only(const struct nccl_model *m, double bytes, int algo, int proto,
                   struct nccl_choice *c)
{
    int found = 0;
    enum nccl_algo ta;
    enum nccl_proto tp;

    /* the network plugin's tuner, where it names a pair (nccl_tuner.c) the
     * user's restriction allows, and RCCL's MSCCL algorithms, which take
     * the sizes their files cover */
    if (nccl_tuner_pick(m, bytes, &ta, &tp) == 0 && (algo < 0 || (int)ta == algo) &&
        (proto < 0 || (int)tp == proto)) {
        int rc = pair_on(m, ta, tp, bytes, c, 1);
        c->by_tuner = rc == 0;
        return rc;
    }
    if (m->sh.rccl && (algo < 0 || algo == NCCL_ALLPAIRS) && rccl_msccl_pick(m, bytes, &tp) == 0 &&
        (proto < 0 || (int)tp == proto))
        return pair_on(m, NCCL_ALLPAIRS, tp, bytes, c, 1);

    for (int a = 0; a < NCCL_NALGO; a++)
        for (int p = 0; p < NCCL_NPROTO; p++) {
            struct nccl_choice t;
            if ((algo >= 0 && a != algo) || (proto >= 0 && p != proto) ||
                pair_on(m, (enum nccl_algo)a, (enum nccl_proto)p, bytes, &t, 0) != 0)
                continue;
            if (!found || t.nccl_time_s < c->nccl_time_s) {
                *c = t;
                found = 1;
            }
        }
    /* the winner's time with its fill (the choice does not weigh it) */
    return found ? pair_on(m, c->algo, c->proto, bytes, c, 1) : -1;
}

int nccl_pick(const struct nccl_model *m, double bytes, struct nccl_choice *c)
{
    return nccl_pick_only(m, bytes, -1, -1, c);
}

const char *nccl_algo_name(int a)
{
    static const char *const names[NCCL_NALGO] = {
        "tree", "ring", "nvls", "nvls_tree", "pat", "collnet_direct", "collnet_chain", "allpairs"};
    return a >= 0 && a < NCCL_NALGO ? names[a] : NULL;
}

const char *nccl_proto_name(int p)
{
    static const char *const names[NCCL_NPROTO] = {"LL", "LL128", "Simple"};
    return p >= 0 && p < NCCL_NPROTO ? names[p] : NULL;
}

const char *nccl_coll_name(int c)
{
    static const char *const names[NCCL_NCOLL] = {"all_reduce", "all_gather", "reduce_scatter"};
    return c >= 0 && c < NCCL_NCOLL ? names[c] : NULL;
}
