/*
 * rccl.c - RCCL's choice of algorithm and protocol on AMD Instinct nodes,
 * and what the choice runs at (nccl.h; docs/collectives.md "RCCL on AMD
 * Instinct").
 *
 * RCCL is AMD's fork of NCCL.  It keeps NCCL's shape of model (a latency
 * and a bandwidth per algorithm and protocol, the cheapest wins) but its own
 * figures, one table per platform that its topology models name (src/graph/
 * rome_models.cc: the 8-GPU, 7-link MI300X boards take "tuning=5"), and it
 * runs what NCCL does not.  All references are to ROCm/rccl@0cbce2a7
 * (develop, 2024-10-24), whose src/graph/tuning.cc, rome_models.cc,
 * connect.cc and tools/msccl-algorithms are read here:
 *
 * - the figures: tuning_model_5's latencies per hop (xGMI as NVLink, PCIe,
 *   network), its bandwidth ratios by node count and its per-size
 *   correction factors (trees always, rings across nodes), over RCCL's own
 *   base latencies; the bus bandwidth before the ratios is the topology's
 *   total (a rome model's rings split system->totalBw between them), a
 *   GPU's 7 links at GFX94X_XGMI_WIDTH, 48 GB/s (topo.h);
 * - what is enabled: no LL128 (RCCL enables it on gfx90a only), no tree
 *   under Simple inside one gfx94x node, rings only for all-gather and
 *   reduce-scatter, no NVLS;
 * - MSCCL: on one node of 8 gfx94x GPUs (rome_model_79 sets
 *   mscclEnabled=1) the all-pairs all-reduce files take every size they
 *   cover before the model is asked: LL up to 512 KiB - 1, Simple from
 *   512 KiB to 16 MiB (out of place; in place stops at 11 MiB and resumes
 *   from 14 MiB + 1 to 16 MiB).
 *
 * What the choice runs at.  On one node, RCCL's tables are its time, with
 * two exceptions measured on 8 MI300X (ROCm/rocm-blogs@0e81c2ca blogs/
 * software-tools-optimization/mi300x-rccl-xgmi: TransferBench all-to-all
 * and all_reduce_perf with RCCL 2.22.3):
 * - a ring moves no faster than 7 links at the slowest link's rate: the
 *   slowest GPU's 7 x 45.1 = 315.7 GB/s, 70.5% of the 64 GB/s line rate,
 *   not RCCL's 48 (XGMI_RUN_CDNA3; CDNA 4 has no such measurement and
 *   runs at RCCL's count);
 * - all-pairs has no RCCL figure: its latency is RCCL's for two xGMI steps
 *   (base + 2 x the ring's per-hop latency: one hop scatters the shards,
 *   one gathers them), its bandwidth a share of the links' that one point
 *   of the blog's curve sets (ALLPAIRS_SHARE, 8 MiB: validate/published/
 *   nccl_cases.csv marks it as the input), LL at half of Simple's (a line
 *   carries 8 bytes of data and 8 of flags).
 * Across nodes, tuning_model_5's ratios and factors steer the choice (a ring
 * under Simple at a tenth of its bandwidth below 512 MiB, 320 us a network
 * hop) rather than time it: the chosen pair runs as NCCL's model times it on
 * the same shape (nccl.c), an assumption docs/collectives.md states, but a
 * ring no faster than its GPU links at the slowest link's rate (ring_cap),
 * which MI325X on 2 to 8 nodes and MI300X on 2 follow at large sizes.
 *
 * A group of fewer GPUs than the node (a tensor-parallel group of 4, the
 * data-parallel group at one of its positions) has only the mesh's links
 * among its own GPUs (group_links), for the choice and the run alike.
 *
 * CDNA 4 (MI350X, MI355X, gfx950) is not in this RCCL: its tables are taken
 * to be gfx94x's, and MSCCL's files (8 gfx94x GPUs) are not applied.
 */
#include "nccl.h"

#include <math.h>
#include <string.h>

enum { HW_XGMI, HW_PCI, HW_NET };

/* RCCL's baseLat[algo][proto], us: tree and ring alike. */
static const double base_lat[NCCL_NPROTO] = {12.0, 12.0, 17.0};
/* tuning_model_5.hwLat[hw][tree, ring][proto], us. */
static const double hw_lat[3][2][NCCL_NPROTO] = {
    {{0.9, 0.0, 2.3}, {0.8, 0.0, 2.1}},
    {{2.2, 2.2, 5.7}, {2.2, 2.2, 5.7}},
    {{10.5, 0.0, 25.0}, {9.5, 0.0, 320.0}}};
/* tuning_model_5.bwRatio[two nodes or fewer, more][tree, ring][proto]. */
static const double bw_ratio[2][2][NCCL_NPROTO] = {
    {{0.06, 0.0, 0.11}, {0.08, 0.0, 1.00}},
    {{0.06, 0.0, 0.59}, {0.08, 0.0, 1.00}}};
/* tuning_model_5's treeCorrectionFactor and ringCorrectionFactor
 * [proto][log2(bytes / 64)], the last entry for all larger sizes; LL128
 * rows are zero (disabled). */
#define NCORR 27
static const double tree_corr[NCCL_NPROTO][NCORR] = {
    {.1, .1, .1, .1, .1, .1, 1, 1, 1, 1, 1, .6, 1, .9, 1, 1, .1, .1, .1, .1, .1, .1, .1, .1, .1, .1, .1},
    {0},
    {.1, .1, .1, .1, .1, .1, .1, .1, .1, .1, .1, .1, .1, .1, .1, .7, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, .8}};
static const double ring_corr[NCCL_NPROTO][NCORR] = {
    {.1, .1, .1, .1, .1, .1, .1, .1, .1, .1, .1, 1, .2, 1, .4, .4, .1, .2, .2, .1, .1, .1, .1, .1, .1, .1, .1},
    {0},
    {.1, .1, .1, .1, .1, .1, .1, .1, .1, .1, .1, .1, .1, .1, .1, .1, .1, .1, .1, .1, .1, .1, .1, .8, 1, 1, 1}};

/* RCCL's share of an xGMI link's line rate (GFX94X_XGMI_WIDTH 48 of 64). */
#define XGMI_COUNTED (48.0 / 64.0)
/* What a ring's link runs at on CDNA 3: the blog's slowest GPU, 315.66 GB/s
 * over its 7 links of 64 GB/s.  CDNA 4 has no such measurement: RCCL's
 * count stands. */
#define XGMI_RUN_CDNA3 (315.66 / (7 * 64.0))
/* Rings of the 8-GPU MI300X rome model (28) as connect.cc doubles them. */
#define RING_CHANNELS 56
/* All-pairs: channels a file runs (nchannels="8"), GPUs it is written for,
 * the sizes MSCCL gives it (maxBytes of the out-of-place LL and Simple
 * files), and its share of the ring's run bandwidth, set from the blog's
 * 8 MiB point (83.68 us: 8 MiB / (83.68 - 21.2 us) = 134.3 GB/s of
 * algorithm bandwidth against the ring's 180.4). */
#define ALLPAIRS_CHANNELS 8
/* The LL file for the smallest sizes (allreduce-allpairs-8n-ll-32tb-op.xml,
 * maxBytes 65536) runs nchannels="4". */
#define ALLPAIRS_SMALL_MAX 65536.0
#define ALLPAIRS_SMALL_CHANNELS 4
#define ALLPAIRS_GPUS 8
#define ALLPAIRS_LL_MAX 524287.0
#define ALLPAIRS_SIMPLE_MAX 16777216.0
#define ALLPAIRS_SHARE 0.7443

double rccl_link_eff(int cdna)
{
    (void)cdna;     /* gfx950's width is not in this RCCL: gfx94x's */
    return XGMI_COUNTED;
}

/* Which of RCCL's pairs run collective c on shape sh (tuning.cc's skips and
 * protocol enables for gfx94x). */
static int pair_ok(const struct nccl_shape *sh, enum nccl_coll c, int a, int p)
{
    if (a != NCCL_TREE && a != NCCL_RING)
        return 0;
    if (p == NCCL_LL128)
        return 0;
    if (a == NCCL_TREE && (c != NCCL_ALLREDUCE || (p == NCCL_SIMPLE && sh->nodes == 1)))
        return 0;
    if (sh->ring_only && a != NCCL_RING)
        return 0;
    return !(sh->nodes > 1 && sh->protos && !(sh->protos & (1 << p)));
}

/* RCCL's latency of pair (a, p), us (tuning.cc), with the network plugin's
 * latency net_us (graph latencyInter) on each network hop. */
static double latency_us(const struct nccl_shape *sh, enum nccl_coll c, int a, int p,
                         double net_us)
{
    int n = sh->nodes, k = n * sh->ppn, ih = sh->link != NCCL_LINK_PCI ? HW_XGMI : HW_PCI;
    int t = a == NCCL_TREE ? 0 : 1;
    double il = hw_lat[ih][t][p], nl = net_us > 0 ? net_us : hw_lat[HW_NET][t][p], inter;

    if (p == NCCL_SIMPLE)
        nl += net_us;
    if (a == NCCL_TREE)
        return base_lat[p] + 2 * ((sh->ppn - 1) * il + nccl_log2i(n) * nl);
    inter = n == 1 ? 0 : c == NCCL_ALLREDUCE ? 2.0 * n : n - 1.0;
    if (n > 1)
        il = fmax(il, (sh->amd_cpu ? 2.0 : 1.0) * (p == NCCL_SIMPLE ? 3 : 1));
    return base_lat[p] + (nccl_ring_steps(c, k) - inter) * il + inter * nl;
}

/* RCCL's algorithm bandwidth of pair (a, p), bytes/s: the topology's total
 * (a GPU's links, sh->intra_Bps at RCCL's count; a node of one GPU has none,
 * and its NICs stand in) times the ratio, to algorithm bandwidth as NCCL
 * converts. */
static double alg_bw(const struct nccl_shape *sh, enum nccl_coll c, int a, int p)
{
    int k = sh->nodes * sh->ppn;
    double total = isfinite(sh->intra_Bps) ? sh->intra_Bps : sh->net_Bps;
    double bus = total * bw_ratio[sh->nodes <= 2 ? 0 : 1][a == NCCL_TREE ? 0 : 1][p];

    return a == NCCL_TREE ? bus * 0.5 : bus * k / nccl_ring_steps(c, k);
}

/*
 * The most a ring's GPU links carry, bytes/s of algorithm bandwidth: 7
 * links at the rate a ring runs them (XGMI_RUN_CDNA3), as bus bandwidth; across
 * nodes each GPU's links carry (ppn - 1) of every ppn channels (one leaves
 * the node by a NIC), as NCCL's search counts them (nccl.c channels_at),
 * so the bound rises by ppn / (ppn - 1).
 */
static double ring_cap(const struct nccl_shape *sh, enum nccl_coll c)
{
    int k = sh->nodes * sh->ppn;
    double bus = sh->intra_Bps * (sh->rccl == 3 ? XGMI_RUN_CDNA3 / XGMI_COUNTED : 1);

    if (sh->nodes > 1 && sh->ppn > 1)
        bus *= sh->ppn / (sh->ppn - 1.0);
    return bus * k / nccl_ring_steps(c, k);
}

/*
 * A group of fewer GPUs than the node's full mesh (a tensor-parallel group
 * of 4 on an 8-GPU board, the data-parallel group at one of its positions)
 * has only the links among its own GPUs: ppn - 1 of each GPU's node_gpus -
 * 1 (AMD's blog: with 2 or 4 GPUs "only a fraction of the available
 * bandwidth" is used).  sh with its links so counted.
 */
static struct nccl_shape group_links(const struct nccl_shape *sh)
{
    struct nccl_shape r = *sh;

    if (r.link == NCCL_LINK_NVLINK && r.ppn > 1 && r.node_gpus > r.ppn && isfinite(r.intra_Bps))
        r.intra_Bps *= (r.ppn - 1.0) / (r.node_gpus - 1.0);
    return r;
}

void rccl_model_init(struct nccl_model *m, const struct nccl_shape *shape, enum nccl_coll c)
{
    struct nccl_shape own = group_links(shape);
    const struct nccl_shape *sh = &own;
    int k = sh->nodes * sh->ppn, one = sh->nodes == 1;
    double run_cap = ring_cap(sh, c);

    if (k <= 1)
        return;
    for (int a = 0; a < NCCL_NALGO; a++)
        for (int p = 0; p < NCCL_NPROTO; p++) {
            double nccl_run = m->run_bw[a][p], nccl_lat = m->run_lat[a][p];
            m->bw[a][p] = m->run_bw[a][p] = m->lat[a][p] = m->run_lat[a][p] = 0;
            if (!pair_ok(sh, c, a, p))
                continue;
            m->bw[a][p] = alg_bw(sh, c, a, p);
            m->lat[a][p] = latency_us(sh, c, a, p, sh->net_lat_s * 1e6) * 1e-6;
            if (one) {
                m->run_bw[a][p] = a == NCCL_RING ? fmin(m->bw[a][p], run_cap) : m->bw[a][p];
                m->run_lat[a][p] = latency_us(sh, c, a, p, 0) * 1e-6;
            } else if (nccl_run > 0) {
                m->run_bw[a][p] = a == NCCL_RING ? fmin(nccl_run, run_cap) : nccl_run;
                m->run_lat[a][p] = nccl_lat;
            } else {
                m->bw[a][p] = 0;    /* no run to time it by */
            }
        }
    if (one)
        m->nch[NCCL_RING] = RING_CHANNELS;
    if (c == NCCL_ALLREDUCE && one && sh->ppn == ALLPAIRS_GPUS && sh->rccl == 3) {
        double simple = run_cap * ALLPAIRS_SHARE;   /* one node: the ring's run */
        for (int p = 0; p < NCCL_NPROTO; p++) {
            if (p == NCCL_LL128)
                continue;
            m->bw[NCCL_ALLPAIRS][p] = m->run_bw[NCCL_ALLPAIRS][p] =
                p == NCCL_LL ? simple / 2 : simple;
            m->lat[NCCL_ALLPAIRS][p] = m->run_lat[NCCL_ALLPAIRS][p] =
                (base_lat[p] + 2 * hw_lat[HW_XGMI][1][p]) * 1e-6;
        }
        m->nch[NCCL_ALLPAIRS] = ALLPAIRS_CHANNELS;
    }
}

double rccl_corr(const struct nccl_model *m, int a, int p, double bytes)
{
    int l;

    if ((a != NCCL_TREE && !(a == NCCL_RING && m->sh.nodes > 1)) || (unsigned)p >= NCCL_NPROTO)
        return 1;
    l = bytes >= 128 ? nccl_log2i((int)fmin(bytes / 64, 1 << 30)) : 0;
    if (l >= NCORR)
        l = NCORR - 1;
    return a == NCCL_TREE ? tree_corr[p][l] : ring_corr[p][l];
}

int rccl_allpairs_channels(double bytes)
{
    return bytes <= ALLPAIRS_SMALL_MAX ? ALLPAIRS_SMALL_CHANNELS : ALLPAIRS_CHANNELS;
}

int rccl_msccl_pick(const struct nccl_model *m, double bytes, enum nccl_proto *p)
{
    if (!(m->bw[NCCL_ALLPAIRS][NCCL_SIMPLE] > 0) || !(bytes <= ALLPAIRS_SIMPLE_MAX))
        return -1;
    *p = bytes <= ALLPAIRS_LL_MAX ? NCCL_LL : NCCL_SIMPLE;
    return 0;
}
