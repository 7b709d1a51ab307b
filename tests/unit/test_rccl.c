/*
 * test_rccl.c - RCCL's model on AMD Instinct nodes (sim/rccl.c) against
 * its own arithmetic (ROCm/rccl@0cbce2a7 src/graph/tuning.cc's
 * tuning_model_5, worked by hand in the comments): the pairs it disables,
 * MSCCL's all-pairs sizes, the ring's latency and bandwidth, the slowest
 * link's bound on the run, and NCCL's shapes left alone.  Links the sim
 * layer only (Makefile: LAYER_test_rccl).
 */
#include "t.h"

#include <math.h>
#include <string.h>

#include "../../sim/nccl.h"

#define MIB 1048576.0

/* One node of 8 MI300X: 7 xGMI links of 64 GB/s at RCCL's 48 = 336 GB/s. */
static struct nccl_shape mi300x(int nodes, int ppn)
{
    struct nccl_shape s;

    memset(&s, 0, sizeof s);
    s.nodes = nodes;
    s.ppn = ppn;
    s.link = NCCL_LINK_NVLINK;
    s.intra_Bps = 7 * 64e9 * rccl_link_eff(3);
    s.net_Bps = 8 * 50e9;
    s.nics = 8;
    s.rccl = 3;
    return s;
}

static void rccls_pairs_on_one_mi300x_node(void)
{
    struct nccl_shape s = mi300x(1, 8);
    struct nccl_model m;

    T_NEAR(s.intra_Bps / 1e9, 336.0, 1e-9, "7 links at GFX94X_XGMI_WIDTH 48 GB/s");
    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    T_CHECK(m.bw[NCCL_RING][NCCL_LL128] == 0 && m.bw[NCCL_TREE][NCCL_LL128] == 0,
            "no LL128 on gfx94x");
    T_CHECK(m.bw[NCCL_TREE][NCCL_SIMPLE] == 0, "no tree under Simple on one gfx94x node");
    T_CHECK(m.bw[NCCL_NVLS][NCCL_SIMPLE] == 0 && m.bw[NCCL_PAT][NCCL_SIMPLE] == 0,
            "no NVLS or PAT");
    /* ring Simple: 336 x ratio 1.00 x 8/14 = 192 GB/s; latency 17 + 14 x 2.1 = 46.4 us */
    T_NEAR(m.bw[NCCL_RING][NCCL_SIMPLE] / 1e9, 192.0, 1e-9, "ring Simple 336 x 8/14");
    T_NEAR(m.lat[NCCL_RING][NCCL_SIMPLE] * 1e6, 46.4, 1e-9, "ring Simple latency 46.4 us");
    /* ring LL: 336 x 0.08 x 8/14 = 15.36; 12 + 14 x 0.8 = 23.2 us */
    T_NEAR(m.bw[NCCL_RING][NCCL_LL] / 1e9, 15.36, 1e-9, "ring LL at ratio 0.08");
    T_NEAR(m.lat[NCCL_RING][NCCL_LL] * 1e6, 23.2, 1e-9, "ring LL latency 23.2 us");
    /* tree LL: 336 x 0.06 x 1/2 = 10.08; 12 + 2 x 7 x 0.9 = 24.6 us */
    T_NEAR(m.bw[NCCL_TREE][NCCL_LL] / 1e9, 10.08, 1e-9, "tree LL at ratio 0.06");
    T_NEAR(m.lat[NCCL_TREE][NCCL_LL] * 1e6, 24.6, 1e-9, "tree LL latency 24.6 us");
    /* the run: the slowest GPU's 315.66 GB/s of bus bandwidth, x 8/14 */
    T_NEAR(m.run_bw[NCCL_RING][NCCL_SIMPLE] / 1e9, 315.66 * 8 / 14, 1e-9,
           "the ring runs at the slowest link's rate");
    T_CHECK(m.nch[NCCL_RING] == 56, "28 rings doubled (%d)", m.nch[NCCL_RING]);
}

static void msccls_allpairs_takes_its_sizes(void)
{
    struct nccl_shape s = mi300x(1, 8);
    struct nccl_model m;
    struct nccl_choice c;

    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    /* the LL file up to 64 KiB runs 4 channels, the others 8 */
    T_CHECK(nccl_pick(&m, 64 * 1024, &c) == 0 && c.algo == NCCL_ALLPAIRS && c.channels == 4,
            "64 KiB: all-pairs on 4 channels (%d)", c.channels);
    T_CHECK(nccl_pick(&m, 64 * 1024 + 1, &c) == 0 && c.algo == NCCL_ALLPAIRS && c.channels == 8,
            "64 KiB + 1: all-pairs on 8 channels (%d)", c.channels);
    T_CHECK(nccl_pick(&m, 256 * 1024, &c) == 0 && c.algo == NCCL_ALLPAIRS && c.proto == NCCL_LL,
            "256 KiB: all-pairs LL (%s/%s)", nccl_algo_name(c.algo), nccl_proto_name(c.proto));
    T_CHECK(nccl_pick(&m, 512 * 1024, &c) == 0 && c.algo == NCCL_ALLPAIRS &&
            c.proto == NCCL_SIMPLE, "512 KiB: all-pairs Simple (%s/%s)", nccl_algo_name(c.algo),
            nccl_proto_name(c.proto));
    /* 21.2 us + 16 MiB / (315.66 x 8/14 x 0.7443 GB/s) */
    T_CHECK(nccl_pick(&m, 16 * MIB, &c) == 0 && c.algo == NCCL_ALLPAIRS, "16 MiB: all-pairs");
    T_NEAR(c.time_s * 1e6, 21.2 + 16 * MIB / (315.66e3 * 8 / 14 * 0.7443), 1e-9,
           "all-pairs: two xGMI steps, then the bytes (%.1f us)", c.time_s * 1e6);
    T_CHECK(nccl_pick(&m, 32 * MIB, &c) == 0 && c.algo == NCCL_RING && c.proto == NCCL_SIMPLE,
            "32 MiB: RCCL's ring Simple (%s/%s)", nccl_algo_name(c.algo),
            nccl_proto_name(c.proto));
    /* not on 4 GPUs, nor for a gather, nor across nodes, nor on CDNA 4 */
    s = mi300x(1, 4);
    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    T_CHECK(nccl_pick(&m, 4 * MIB, &c) == 0 && c.algo != NCCL_ALLPAIRS, "4 GPUs: no all-pairs");
    s = mi300x(1, 8);
    nccl_model_init(&m, &s, NCCL_ALLGATHER);
    T_CHECK(nccl_pick(&m, 4 * MIB, &c) == 0 && c.algo == NCCL_RING, "all-gather: a ring");
    s = mi300x(2, 8);
    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    T_CHECK(nccl_pick(&m, 4 * MIB, &c) == 0 && c.algo != NCCL_ALLPAIRS, "2 nodes: no all-pairs");
    s = mi300x(1, 8);
    s.rccl = 4;
    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    T_CHECK(nccl_pick(&m, 4 * MIB, &c) == 0 && c.algo == NCCL_RING, "CDNA 4: RCCL's ring");
}

static void a_group_of_four_has_three_links(void)
{
    /* 4 GPUs of an 8-GPU board reach each other over 3 of each GPU's 7
     * links: a ring's bus bandwidth 336 x 3/7 = 144 for the choice, 315.66
     * x 3/7 = 135.3 for the run */
    struct nccl_shape s = mi300x(1, 4);
    struct nccl_model m;

    s.node_gpus = 8;
    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    T_NEAR(m.bw[NCCL_RING][NCCL_SIMPLE] / 1e9, 144.0 * 4 / 6, 1e-9, "choice: 3 links of 48");
    T_NEAR(m.run_bw[NCCL_RING][NCCL_SIMPLE] / 1e9, 315.66 * 3 / 7 * 4 / 6, 1e-9,
           "run: 3 links at the slowest rate");
    s.node_gpus = 4;    /* a node of 4: its own mesh, every link */
    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    T_NEAR(m.bw[NCCL_RING][NCCL_SIMPLE] / 1e9, 336.0 * 4 / 6, 1e-9, "a node of 4: all links");
}

static void across_nodes_rccl_chooses_and_nccl_times(void)
{
    struct nccl_shape s = mi300x(4, 8), n;
    struct nccl_model m, nm;

    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    n = s;
    n.rccl = 0;
    nccl_model_init(&nm, &n, NCCL_ALLREDUCE);
    /* tree Simple on 4 nodes: 336 x 0.59 / 2 = 99.12 GB/s for the choice */
    T_NEAR(m.bw[NCCL_TREE][NCCL_SIMPLE] / 1e9, 99.12, 1e-9, "tree Simple at ratio 0.59");
    T_NEAR(m.run_bw[NCCL_TREE][NCCL_SIMPLE], nm.run_bw[NCCL_TREE][NCCL_SIMPLE], 1e-12,
           "its run as NCCL's model times it");
    /* the ring's run: no faster than its GPU links, which carry 7 of every 8
     * channels: 315.66 x 8/7 of bus bandwidth, x 32/62 */
    T_NEAR(m.run_bw[NCCL_RING][NCCL_SIMPLE] / 1e9,
           fmin(nm.run_bw[NCCL_RING][NCCL_SIMPLE] / 1e9, 315.66 * 8 / 7 * 32 / 62), 1e-9,
           "the ring across nodes bound by the links' run rate");
    T_CHECK(m.run_bw[NCCL_RING][NCCL_SIMPLE] < nm.run_bw[NCCL_RING][NCCL_SIMPLE],
            "below NCCL's run on 8 x 400G");
    /* the ring's correction below 512 MiB: 0.1 (log2(256 MiB / 64) = 22) */
    T_NEAR(rccl_corr(&m, NCCL_RING, NCCL_SIMPLE, 256 * MIB), 0.1, 1e-12, "ring factor 0.1");
    T_NEAR(rccl_corr(&m, NCCL_RING, NCCL_SIMPLE, 1024 * MIB), 1.0, 1e-12, "1 at 1 GiB");
    T_NEAR(rccl_corr(&m, NCCL_TREE, NCCL_SIMPLE, 64.0 * (1 << 15)), 0.7, 1e-12,
           "tree factor 0.7 at 2 MiB");
    /* one GPU a node: the NICs stand for the links, and 1 GiB rides a ring
     * under Simple, not the tree under LL a latency-only choice would take */
    {
        struct nccl_shape one = mi300x(4, 1);
        struct nccl_choice c;
        one.intra_Bps = INFINITY;
        one.net_Bps = 50e9;
        one.nics = 1;
        nccl_model_init(&m, &one, NCCL_ALLREDUCE);
        T_CHECK(isfinite(m.bw[NCCL_TREE][NCCL_LL]) && m.bw[NCCL_TREE][NCCL_LL] > 0,
                "a finite bandwidth for the choice");
        T_CHECK(nccl_pick(&m, 1024 * MIB, &c) == 0 && c.proto == NCCL_SIMPLE,
                "1 GiB under Simple (%s/%s)", nccl_algo_name(c.algo), nccl_proto_name(c.proto));
    }
    /* NCCL's shapes keep NCCL's model: no all-pairs, LL128 where NVLink allows */
    T_CHECK(nm.bw[NCCL_ALLPAIRS][NCCL_SIMPLE] == 0, "NCCL: no all-pairs");
    T_CHECK(strcmp(nccl_algo_name(NCCL_ALLPAIRS), "allpairs") == 0, "named allpairs");
}

int main(void)
{
    T_RUN(rccls_pairs_on_one_mi300x_node);
    T_RUN(msccls_allpairs_takes_its_sizes);
    T_RUN(a_group_of_four_has_three_links);
    T_RUN(across_nodes_rccl_chooses_and_nccl_times);
    return T_DONE();
}
