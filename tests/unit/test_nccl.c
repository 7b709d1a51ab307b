/*
 * test_nccl.c - NCCL's cost model (sim/nccl.c) against its own arithmetic
 * (src/graph/tuning.cc and search.cc of NCCL 2.30.7, worked by hand in the
 * comments) and the choices it makes: NVLS for large messages on an H100
 * node, LL for small ones, the tree across many nodes, and the pairs NCCL
 * disables.  Links the sim layer only (Makefile: LAYER_test_nccl).
 */
#include "t.h"

#include <math.h>
#include <string.h>

#include "../../sim/nccl.h"

#define GIB 1073741824.0
#define MIB 1048576.0

static struct nccl_shape node(int nodes, int ppn, int cc, enum nccl_link link, double intra_GBps,
                              double net_GBps, int nics)
{
    struct nccl_shape s;

    memset(&s, 0, sizeof s);
    s.nodes = nodes;
    s.ppn = ppn;
    s.cc = cc;
    s.link = link;
    s.intra_Bps = intra_GBps * 1e9;
    s.net_Bps = net_GBps * 1e9;
    s.nics = nics;
    return s;
}

static void a_ring_on_one_a100_node_is_nccls_arithmetic(void)
{
    /* 12 NVLinks x 20 GB/s = 240: the search takes 6 channels of 40 and
     * doubles them to 12 of 20; ring Simple busBw 12 x 20, algorithm
     * bandwidth x 8/14; latency 8.4 + 14 steps x 3.4 us */
    struct nccl_shape s = node(1, 8, 80, NCCL_LINK_NVSWITCH, 240, 0, 1);
    struct nccl_model m;
    struct nccl_choice c;

    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    T_CHECK(m.nch[NCCL_RING] == 12, "12 ring channels (%d)", m.nch[NCCL_RING]);
    T_NEAR(m.bw[NCCL_RING][NCCL_SIMPLE], 240e9 * 8 / 14, 1e-9, "ring Simple: 240 GB/s x 8/14");
    T_NEAR(m.lat[NCCL_RING][NCCL_SIMPLE] * 1e6, 56.0, 1e-9, "ring Simple latency 56 us");
    /* LL: min(llMaxBw Ampere 1 node 87.7, busBw / 2) */
    T_NEAR(m.bw[NCCL_RING][NCCL_LL], 87.7e9 * 8 / 14, 1e-9, "ring LL capped at 87.7 GB/s busBw");
    T_CHECK(nccl_pick(&m, GIB, &c) == 0 && c.algo == NCCL_RING && c.proto == NCCL_SIMPLE,
            "1 GiB: ring Simple (%s/%s)", nccl_algo_name(c.algo), nccl_proto_name(c.proto));
    T_NEAR(c.busbw_Bps / 1e9, 238.3, 0.001, "1 GiB at busbw 238.3 GB/s (%.1f)", c.busbw_Bps / 1e9);
    T_CHECK(nccl_pick(&m, 8, &c) == 0 && c.proto == NCCL_LL,
            "8 B: LL (%s/%s)", nccl_algo_name(c.algo), nccl_proto_name(c.proto));
    T_CHECK(m.bw[NCCL_NVLS][NCCL_SIMPLE] == 0, "no NVLS before Hopper");
}

static void nvls_on_an_h100_node_runs_at_its_link_rate(void)
{
    /* 18 x 20.6 = 370.8 GB/s; NVLS: 8 heads of 40, network speed raised
     * to 60; NCCL's bandwidth 8 x min(40 x 0.85 x 7/8 x 2, 60) = 476 busBw;
     * it runs at 370.8 x 0.85 x 7/8 of algorithm bandwidth */
    struct nccl_shape s = node(1, 8, 90, NCCL_LINK_NVSWITCH, 370.8, 0, 1);
    struct nccl_model m;
    struct nccl_choice c;

    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    T_CHECK(m.nch[NCCL_NVLS] == 8, "8 NVLS heads (%d)", m.nch[NCCL_NVLS]);
    T_NEAR(m.bw[NCCL_NVLS][NCCL_SIMPLE], 476e9 * 8 / 14, 1e-9, "NCCL's NVLS: 476 GB/s busBw");
    T_NEAR(m.run_bw[NCCL_NVLS][NCCL_SIMPLE], 370.8e9 * 0.85 * 7 / 8, 1e-9,
           "NVLS runs at 370.8 x 0.85 x 7/8 GB/s");
    T_CHECK(nccl_pick(&m, GIB, &c) == 0 && c.algo == NCCL_NVLS,
            "1 GiB: NVLS (%s)", nccl_algo_name(c.algo));
    T_NEAR(c.lat_s * 1e6, 25.0, 1e-9, "NVLS latency 25 us");
    T_CHECK(m.bw[NCCL_NVLS_TREE][NCCL_SIMPLE] == 0, "NVLS tree is off on one node");
    T_CHECK(m.bw[NCCL_NVLS][NCCL_LL] == 0 && m.bw[NCCL_NVLS][NCCL_LL128] == 0,
            "NVLS runs Simple only");
}

static void pcie_and_efa_disable_protocols(void)
{
    struct nccl_shape s = node(1, 4, 86, NCCL_LINK_PCI, 24, 0, 1);
    struct nccl_model m;

    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    T_CHECK(m.bw[NCCL_RING][NCCL_LL128] == 0 && m.bw[NCCL_TREE][NCCL_LL128] == 0,
            "no LL128 over PCIe");
    T_CHECK(m.bw[NCCL_RING][NCCL_SIMPLE] > 0 && m.nch[NCCL_RING] == 1,
            "one ring channel of 20 GB/s on a 24 GB/s PCIe link (%d)", m.nch[NCCL_RING]);
    s = node(2, 8, 80, NCCL_LINK_NVSWITCH, 240, 48, 4);
    s.protos = 1 << NCCL_SIMPLE;
    s.net_lat_s = 75e-6;
    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    T_CHECK(m.bw[NCCL_RING][NCCL_LL] == 0 && m.bw[NCCL_TREE][NCCL_LL128] == 0 &&
                m.bw[NCCL_RING][NCCL_SIMPLE] > 0, "EFA across nodes: Simple only");
    /* ring Simple, 16 ranks on 2 nodes: 8.4 + 28 intra steps x max(3.4,
     * 3 x 1) + 2 network steps x (14 + 2 x 75) us */
    T_NEAR(m.lat[NCCL_RING][NCCL_SIMPLE] * 1e6, 8.4 + 28 * 3.4 + 2 * 164, 1e-9,
           "the plugin's 75 us counted twice for Simple");
}

/* A fabric with its own hop latency (AWS's model tuner's 18 us and 3 us
 * under Simple on p5en and p6) times a hop with it; NCCL still chooses
 * with its own constants and the plugin's 35 us.  p6-b200's 8-byte
 * all-reduce on 2 nodes of 8: tree LL, 6.8 + 2 (7 x 0.6 + 18) = 51.2 us
 * (50.6 us published, dstackai/dstack#3961). */
static void a_fabric_times_its_own_hops(void)
{
    struct nccl_shape s = node(2, 8, 100, NCCL_LINK_NVSWITCH, 720, 400, 8);
    struct nccl_model m;
    struct nccl_choice c;

    s.net_lat_s = 35e-6;
    s.net_hop_s = 18e-6;
    s.net_simple_s = 3e-6;
    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    nccl_pick(&m, 8, &c);
    T_CHECK(c.algo == NCCL_TREE && c.proto == NCCL_LL, "8 B: tree LL (%s/%s)",
            nccl_algo_name(c.algo), nccl_proto_name(c.proto));
    T_NEAR(c.time_s * 1e6, 6.8 + 2 * (7 * 0.6 + 18), 1e-3, "its time: 51.2 us (%.2f)",
           c.time_s * 1e6);
    T_NEAR(m.lat[NCCL_TREE][NCCL_LL] * 1e6, 6.8 + 2 * (7 * 0.6 + 5.0 + 35), 1e-9,
           "its choice: NCCL's 5 us and the plugin's 35");
    nccl_on(&m, NCCL_RING, NCCL_SIMPLE, 8, &c);
    T_NEAR(c.lat_s * 1e6, 8.4 + 28 * 3.4 + 2 * (18 + 3), 1e-4,
           "ring Simple: two network hops of 18 + 3 us");
    s.ring_only = 1;
    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    nccl_pick(&m, 8, &c);
    T_CHECK(c.algo == NCCL_RING, "NCCL_ALGO=Ring pins the ring (%s)", nccl_algo_name(c.algo));
}

/* A ring across nodes over a network with a step overhead P: its steps
 * run at P, overlapped with the transfer in quadrature, past the crossings'
 * latency: time = lat(no intra steps) + fill + hypot(steps x P, S / bw).
 * 32 nodes of 8 GPUs, an all-gather (255 steps) at P = 8 us: 2.04 ms of
 * step overhead, which a 32 MiB gather's transfer barely lengthens and a
 * 2 GiB one's hides; in a node, and without P, the sum of NCCL's model. */
static void a_rings_steps_run_at_the_networks_pace(void)
{
    struct nccl_shape s = node(32, 8, 90, NCCL_LINK_NVSWITCH, 370, 400, 32);
    struct nccl_model m, m0;
    struct nccl_choice c, c0;
    double S[2] = {32 * 1048576.0, 2 * GIB};

    s.net_hop_s = 20e-6;
    s.net_step_s[0] = 8e-6;
    s.net_step_s[1] = 55e-6;
    nccl_model_init(&m, &s, NCCL_ALLGATHER);
    s.net_step_s[0] = s.net_step_s[1] = 0;
    nccl_model_init(&m0, &s, NCCL_ALLGATHER);
    T_NEAR(m.run_step[NCCL_RING][NCCL_LL128], 255 * 8e-6, 1e-15, "255 steps of 8 us");
    T_NEAR(m.run_step[NCCL_RING][NCCL_SIMPLE], 255 * 55e-6, 1e-15, "Simple: 55 us a step");
    T_CHECK(m.run_step[NCCL_TREE][NCCL_LL128] == 0 && m0.run_step[NCCL_RING][NCCL_LL128] == 0,
            "no step overhead for a tree, or for a network without the figure");
    T_NEAR(m.run_lat[NCCL_RING][NCCL_LL128] * 1e6,
           m0.run_lat[NCCL_RING][NCCL_LL128] * 1e6 - 224 * 1.9, 1e-9,
           "the 224 steps inside the nodes leave NCCL's latency (1.9 us each, LL128 over NVLink)");
    for (int i = 0; i < 2; i++) {
        nccl_on(&m, NCCL_RING, NCCL_LL128, S[i], &c);
        nccl_on(&m0, NCCL_RING, NCCL_LL128, S[i], &c0);
        T_NEAR(c.time_s, c.lat_s + c.fill_s + hypot(255 * 8e-6, S[i] / c0.algbw_Bps), 1e-12,
               "%.0f MiB: the transfer and the steps in quadrature (%.3f ms)", S[i] / 1048576,
               c.time_s * 1e3);
    }
    T_CHECK(c.time_s - c0.time_s < 0.1 * c0.time_s, "2 GiB: the transfer hides most of the steps "
            "(%.2f against %.2f ms)", c.time_s * 1e3, c0.time_s * 1e3);
    /* a tree's messages on a channel, each at the step overhead: NCCL's
     * LL128 tree chunks of the message, and its depth up and down */
    s.net_step_s[0] = 8e-6;
    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    s.net_step_s[0] = 0;
    nccl_model_init(&m0, &s, NCCL_ALLREDUCE);
    nccl_on(&m, NCCL_TREE, NCCL_LL128, S[0], &c);
    nccl_on(&m0, NCCL_TREE, NCCL_LL128, S[0], &c0);
    T_CHECK(nccl_tree_msgs(&m, NCCL_LL128, S[0]) > 2 * 5, "the tree's messages: its chunks and "
            "2 x 5 levels (%.0f)", nccl_tree_msgs(&m, NCCL_LL128, S[0]));
    T_NEAR(c.time_s - c.lat_s - c.fill_s,
           hypot(nccl_tree_msgs(&m, NCCL_LL128, S[0]) * 8e-6, S[0] / c0.algbw_Bps), 1e-12,
           "tree, 32 MiB: its messages and the transfer in quadrature (%.3f against %.3f ms)",
           c.time_s * 1e3, c0.time_s * 1e3);
    s.nodes = 1;
    s.net_step_s[0] = 8e-6;
    nccl_model_init(&m, &s, NCCL_ALLGATHER);
    T_CHECK(m.run_step[NCCL_RING][NCCL_LL128] == 0, "a ring inside one node: NCCL's own steps");
}

static void two_node_trees_take_twice_the_network(void)
{
    /* 4 NICs of 12 GB/s: ring and tree take one channel of 12 a NIC; the
     * tree's intra-node speed rises to 24 on two nodes, not on three */
    struct nccl_shape s = node(2, 8, 80, NCCL_LINK_NVSWITCH, 240, 48, 4);
    struct nccl_model m2, m3;

    nccl_model_init(&m2, &s, NCCL_ALLREDUCE);
    s.nodes = 3;
    nccl_model_init(&m3, &s, NCCL_ALLREDUCE);
    T_CHECK(m2.nch[NCCL_RING] == 4 && m2.nch[NCCL_TREE] == 4, "4 channels, one a NIC");
    /* tree Simple: min(0.92 x 4 x 24, 4 x 23.6) x 0.5 */
    T_NEAR(m2.bw[NCCL_TREE][NCCL_SIMPLE], 0.92 * 96 * 0.5e9, 1e-9, "2 nodes: tree at 0.92 x 96 / 2");
    T_NEAR(m3.bw[NCCL_TREE][NCCL_SIMPLE], 0.92 * 48 * 0.5e9, 1e-9, "3 nodes: tree at 0.92 x 48 / 2");
    T_NEAR(m2.bw[NCCL_RING][NCCL_SIMPLE], 48e9 * 16 / 30, 1e-9, "ring: 48 GB/s busBw");
}

static void many_nodes_pick_trees_for_small_messages(void)
{
    struct nccl_shape s = node(64, 8, 90, NCCL_LINK_NVSWITCH, 370.8, 384, 8);
    struct nccl_model m;
    struct nccl_choice small, big, ring_small, ring_big;

    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    nccl_pick(&m, 65536, &small);
    nccl_pick(&m, GIB, &big);
    T_CHECK(small.algo == NCCL_TREE, "64 KiB on 512 GPUs: a tree (%s/%s)",
            nccl_algo_name(small.algo), nccl_proto_name(small.proto));
    T_CHECK(big.algo == NCCL_NVLS_TREE || big.algo == NCCL_RING,
            "1 GiB: NVLS tree or ring (%s/%s)", nccl_algo_name(big.algo), nccl_proto_name(big.proto));
    /* the ring's plateau: its Simple latency x 1.4 once each rank's share
     * of a channel reaches 64 bytes (at 1 MiB, 128 bytes: steps too short
     * to hide their latency, a_rings_latency_hides_behind_its_transfer) */
    nccl_on(&m, NCCL_RING, NCCL_SIMPLE, 8, &ring_small);
    nccl_on(&m, NCCL_RING, NCCL_SIMPLE, MIB, &ring_big);
    T_NEAR(ring_big.lat_s / ring_small.lat_s, 1.4, 1e-3, "ring plateau x1.4 on Hopper (%.5f)",
           ring_big.lat_s / ring_small.lat_s);
    T_CHECK(small.time_s < ring_small.time_s * 100, "the tree's latency is logarithmic");
}

static void the_tree_correction_applies_by_size(void)
{
    /* 1 MiB: log2(2^20 / 64) = 14, Simple factor 0.5 */
    struct nccl_shape s = node(4, 8, 80, NCCL_LINK_NVSWITCH, 240, 96, 4);
    struct nccl_model m;
    struct nccl_choice c;

    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    nccl_on(&m, NCCL_TREE, NCCL_SIMPLE, 1048576, &c);
    T_NEAR(c.algbw_Bps, 0.5 * m.bw[NCCL_TREE][NCCL_SIMPLE], 1e-12, "tree Simple at 1 MiB: x0.5");
    T_CHECK(nccl_on(&m, NCCL_NVLS, NCCL_SIMPLE, 1048576, &c) == -1,
            "a disabled pair is refused");
    s = node(1, 1, 80, NCCL_LINK_NVSWITCH, 240, 0, 1);
    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    T_CHECK(nccl_pick(&m, 1048576, &c) == -1, "one rank: nothing to pick");
}

/* All-gather and reduce-scatter: k-1 ring steps, no tree, NVLS with the
 * (ppn-1)/ppn factor and no conversion to algorithm bandwidth, PAT for one
 * GPU per node (tuning.cc). */
static void gathers_and_scatters_follow_their_own_rules(void)
{
    struct nccl_shape s = node(1, 8, 90, NCCL_LINK_NVSWITCH, 370.8, 0, 1);
    struct nccl_model m;
    struct nccl_choice c;

    nccl_model_init(&m, &s, NCCL_ALLGATHER);
    T_CHECK(m.bw[NCCL_TREE][NCCL_SIMPLE] == 0 && m.bw[NCCL_PAT][NCCL_SIMPLE] == 0,
            "all-gather on one node: no tree, no PAT");
    T_NEAR(m.bw[NCCL_RING][NCCL_SIMPLE], 360e9 * 8 / 7, 1e-9, "ring: 12 x 30 GB/s x k/(k-1)");
    T_NEAR(m.lat[NCCL_RING][NCCL_SIMPLE] * 1e6, 8.4 + 7 * 3.4, 1e-9, "ring latency: 7 steps");
    T_NEAR(m.bw[NCCL_NVLS][NCCL_SIMPLE], 8 * 40 * 0.85 * 7 / 8 * 7 / 8 * 1e9, 1e-9,
           "NVLS: 8 heads x 40 x 0.85 x 7/8 x (ppn-1)/ppn, as bus bandwidth");
    nccl_pick(&m, GIB, &c);
    T_NEAR(c.busbw_Bps / 1e9 / (GIB / c.time_s / 1e9), 7.0 / 8, 1e-12, "busbw = algbw x (k-1)/k");
    s = node(16, 1, 90, NCCL_LINK_NVSWITCH, 370.8, 48, 1);
    nccl_model_init(&m, &s, NCCL_REDUCESCATTER);
    nccl_pick(&m, 8, &c);
    T_CHECK(c.algo == NCCL_PAT, "reduce-scatter of 8 B on 16 nodes of one GPU: PAT (%s)",
            nccl_algo_name(c.algo));
    T_NEAR(c.lat_s * 1e6, 8 + 4 * 14 / 3.5 + 16 * 2.8, 1e-9, "PAT latency: log2 N x net / 3.5 + 2.8 k");
}

/* The pipeline's start across nodes (sim/nccl_fill.c): NCCL_STEPS steps of
 * NCCL's chunk for the size, of every connection leaving a node, through the
 * node's NICs; in the time, not in the choice. */
static void the_pipeline_fill_follows_nccls_chunks(void)
{
    struct nccl_shape s = node(2, 8, 90, NCCL_LINK_NVSWITCH, 370.8, 400, 8);
    struct nccl_model m;
    struct nccl_choice c;
    double mib = 1048576, conns, nvls_tree_fill[4];
    double sizes[4] = {4 * mib, 32 * mib, 128 * mib, 1024 * mib};

    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    /* NVLS tree: 16 channels x 8 heads = 128 concurrent ops; the chunk is
     * 128 KiB, 64 KiB under 4 x 128 x 128 KiB = 64 MiB, then 32 KiB under
     * 128 x 64 KiB = 8 MiB (enqueue.cc, each rule on the last's chunk); each head of each of the graph's channels has its own
     * connection across nodes */
    conns = m.nch[NCCL_NVLS_TREE] * 8.0;
    for (int i = 0; i < 4; i++)
        nvls_tree_fill[i] = nccl_fill_s(&m, NCCL_NVLS_TREE, NCCL_SIMPLE, sizes[i]);
    T_NEAR(nvls_tree_fill[0], 8 * 32768 * conns / 400e9, 1e-15, "4 MiB: 32 KiB chunks (%.1f us)",
           nvls_tree_fill[0] * 1e6);
    T_NEAR(nvls_tree_fill[1], 8 * 65536 * conns / 400e9, 1e-15, "32 MiB: 64 KiB chunks");
    T_NEAR(nvls_tree_fill[2], 8 * 131072 * conns / 400e9, 1e-15, "128 MiB: 128 KiB chunks");
    T_NEAR(nvls_tree_fill[3], nvls_tree_fill[2], 1e-15, "1 GiB: the ceiling, NCCL_NVLS_CHUNKSIZE");
    /* a ring's step: a quarter of the loop's chunk (CHUNKSTEPS 4) up to
     * BUFFSIZE / NCCL_STEPS, 512 KiB */
    T_NEAR(nccl_fill_s(&m, NCCL_RING, NCCL_SIMPLE, 1024 * mib),
           8 * 524288.0 * m.nch[NCCL_RING] / 400e9, 1e-15, "ring, 1 GiB: 512 KiB steps");
    T_NEAR(nccl_fill_s(&m, NCCL_RING, NCCL_SIMPLE, 4 * mib),
           8 * (4 * mib / (m.nch[NCCL_RING] * 16.0) / 4) * m.nch[NCCL_RING] / 400e9, 1e-15,
           "ring, 4 MiB: the loop's chunk over 4 steps");
    nccl_on(&m, NCCL_NVLS_TREE, NCCL_SIMPLE, 128 * mib, &c);
    T_NEAR(c.time_s, c.lat_s + nvls_tree_fill[2] + 128 * mib / c.algbw_Bps, 1e-15,
           "the time counts it");
    T_NEAR(c.nccl_time_s, m.lat[NCCL_NVLS_TREE][NCCL_SIMPLE] +
           128 * mib / m.bw[NCCL_NVLS_TREE][NCCL_SIMPLE], 1e-15, "NCCL's choice does not");
    /* the environment's chunk: aws-ofi-nccl's 512 KiB, halved under 32 x 128 x 512 KiB */
    s.nvls_chunk_bytes = s.nvls_tree_max_bytes = 524288;
    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    T_NEAR(nccl_fill_s(&m, NCCL_NVLS_TREE, NCCL_SIMPLE, 1024 * mib), 2 * nvls_tree_fill[3], 1e-15,
           "NCCL_NVLS_CHUNKSIZE=512K: 256 KiB chunks at 1 GiB");
    s.nodes = 1;
    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    T_CHECK(nccl_fill_s(&m, NCCL_RING, NCCL_SIMPLE, 1024 * mib) == 0, "one node: none");
}

/* NVLS's fill on one node (sim/nccl_fill.c): two rounds of 16 channels x 8
 * heads of NCCL's chunk for the size (16, 32, 64 and 128 KiB from 8 MiB, 64
 * MiB and 1 GiB up) at NVLS's rate, in the time and not in the choice;
 * none for a ring on one node; 24 channels on one Blackwell node. */
static void nvls_on_one_node_fills_two_rounds_of_its_chunk(void)
{
    struct nccl_shape s = node(1, 8, 90, NCCL_LINK_NVSWITCH, 370.8, 0, 1);
    struct nccl_model m;
    struct nccl_choice c;
    const double sizes[] = {4 * MIB, 16 * MIB, 256 * MIB, GIB}, chunk[] = {16384, 32768, 65536,
                                                                            131072};
    double rate;

    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    rate = m.run_bw[NCCL_NVLS][NCCL_SIMPLE];
    for (int i = 0; i < 4; i++)
        T_NEAR(nccl_fill_s(&m, NCCL_NVLS, NCCL_SIMPLE, sizes[i]), 2 * 128 * chunk[i] / rate, 1e-15,
               "%.0f MiB: %.0f KiB chunks, %.1f us", sizes[i] / MIB, chunk[i] / 1024,
               2 * 128 * chunk[i] / rate * 1e6);
    T_CHECK(nccl_fill_s(&m, NCCL_RING, NCCL_SIMPLE, GIB) == 0, "a ring on one node: none");
    T_CHECK(nccl_pick_only(&m, 16 * MIB, NCCL_NVLS, NCCL_SIMPLE, &c) == 0 &&
                fabs(c.time_s - (c.lat_s + 2 * 128 * 32768 / rate + 16 * MIB / c.algbw_Bps)) < 1e-15,
            "the time counts it (%.1f us at 16 MiB)", c.time_s * 1e6);
    T_NEAR(c.nccl_time_s, m.lat[NCCL_NVLS][NCCL_SIMPLE] + 16 * MIB / m.bw[NCCL_NVLS][NCCL_SIMPLE],
           1e-15, "NCCL's choice does not");
    s = node(1, 8, 100, NCCL_LINK_NVSWITCH, 720, 0, 1);
    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    T_NEAR(nccl_fill_s(&m, NCCL_NVLS, NCCL_SIMPLE, GIB),
           2 * 192 * 65536 / m.run_bw[NCCL_NVLS][NCCL_SIMPLE], 1e-15,
           "Blackwell: 24 channels, so 1 GiB is under 64 x 192 x 128 KiB: 64 KiB chunks");
}

/* NVLink 5's run rate (nccl_link_run): a ring on one Blackwell node runs at
 * 0.923 of NCCL's rate for it, NCCL's own figure and NVLS untouched, and an
 * all-to-all's NVLink term likewise; Hopper's ring at NCCL's rate. */
static void nvlink5_rings_run_under_nccls_count(void)
{
    struct nccl_shape b = node(1, 4, 100, NCCL_LINK_NVSWITCH, 721.8, 0, 1);
    struct nccl_shape h = node(1, 8, 90, NCCL_LINK_NVSWITCH, 370.8, 0, 1);
    struct nccl_model m;

    nccl_model_init(&m, &b, NCCL_ALLREDUCE);
    T_NEAR(m.run_bw[NCCL_RING][NCCL_SIMPLE], 0.923 * m.bw[NCCL_RING][NCCL_SIMPLE], 1e-6,
           "Blackwell, one node: the ring runs at 0.923 of NCCL's rate (%.1f of %.1f GB/s)",
           m.run_bw[NCCL_RING][NCCL_SIMPLE] / 1e9, m.bw[NCCL_RING][NCCL_SIMPLE] / 1e9);
    T_NEAR(nccl_alltoall_s(&b, GIB), GIB * 3 / 4 / (721.8e9 * 0.923), 1e-12,
           "its all-to-all's NVLink term too");
    nccl_model_init(&m, &h, NCCL_ALLREDUCE);
    T_NEAR(m.run_bw[NCCL_RING][NCCL_SIMPLE], m.bw[NCCL_RING][NCCL_SIMPLE], 1e-6,
           "Hopper: at NCCL's rate");
    T_CHECK(nccl_link_run(90) == 1 && nccl_link_run(100) == 0.923, "the share by generation");
}

/* NCCL's pick for an all-reduce of `bytes` on s with nodes x ppn ranks. */
static struct nccl_choice pick_on(struct nccl_shape *s, int nodes, int ppn, double bytes)
{
    struct nccl_model m;
    struct nccl_choice c;

    s->nodes = nodes;
    s->ppn = ppn;
    nccl_model_init(&m, s, NCCL_ALLREDUCE);
    nccl_pick(&m, bytes, &c);
    return c;
}

/* aws-ofi-nccl's region tuner for p5 (sim/nccl_tuner.c): the pair its map
 * names runs above two nodes with 8 ranks a node; elsewhere NCCL's model. */
static void a_plugins_tuner_names_the_pair(void)
{
    struct nccl_shape s = node(4, 8, 90, NCCL_LINK_NVSWITCH, 370, 400, 32);
    struct nccl_choice c;

    s.net_lat_s = 75e-6;
    c = pick_on(&s, 4, 8, 128 << 20);
    T_CHECK(c.algo == NCCL_NVLS_TREE && !c.by_tuner, "no tuner, 4 nodes, 128 MiB: NCCL's "
            "model picks NVLS tree (%s/%s)", nccl_algo_name(c.algo), nccl_proto_name(c.proto));
    s.tuner = NCCL_TUNER_AWS_P5;
    c = pick_on(&s, 4, 8, 128 << 20);
    T_CHECK(c.algo == NCCL_RING && c.proto == NCCL_LL128 && c.by_tuner,
            "the p5 map: ring/LL128 at 32 ranks and 128 MiB (%s/%s)", nccl_algo_name(c.algo),
            nccl_proto_name(c.proto));
    c = pick_on(&s, 32, 8, 128 << 20);
    T_CHECK(c.algo == NCCL_TREE && c.proto == NCCL_LL128 && c.by_tuner,
            "256 ranks, 128 MiB: tree/LL128 (%s/%s)", nccl_algo_name(c.algo),
            nccl_proto_name(c.proto));
    c = pick_on(&s, 8, 8, 2 * GIB);
    T_CHECK(c.algo == NCCL_RING && c.proto == NCCL_LL128 && c.by_tuner,
            "a vertex counts: (2 GiB, 64 ranks) is ring/LL128's (%s/%s)",
            nccl_algo_name(c.algo), nccl_proto_name(c.proto));
    c = pick_on(&s, 2, 8, 128 << 20);
    T_CHECK(!c.by_tuner, "two nodes: NCCL's own choice (%s/%s)", nccl_algo_name(c.algo),
            nccl_proto_name(c.proto));
    c = pick_on(&s, 8, 4, 128 << 20);
    T_CHECK(!c.by_tuner, "4 ranks a node: no map, NCCL's choice");
    s.protos = 1 << NCCL_SIMPLE;
    c = pick_on(&s, 32, 8, 128 << 20);
    T_CHECK(c.proto == NCCL_SIMPLE && !c.by_tuner,
            "a pair the shape disables is passed over: NCCL's choice (%s/%s)",
            nccl_algo_name(c.algo), nccl_proto_name(c.proto));
    T_CHECK(nccl_tuner_by_name("aws-p6-b300") == NCCL_TUNER_AWS_P6_B300 &&
            nccl_tuner_by_name("aws-p7") == -1 && nccl_tuner_by_name(NULL) == -1 &&
            strcmp(nccl_tuner_name(NCCL_TUNER_AWS_P5EN), "aws-p5en") == 0 &&
            nccl_tuner_name(NCCL_TUNER_NONE) == NULL, "tuners by name");
}

/* A ring's latency behind its own transfer (nccl_fill.c): 8 GiB over B200
 * nodes of 8 x 400 Gbit/s InfiniBand keeps its bus bandwidth from 2 to 32
 * nodes, as Together's flapping-airplanes cluster ran it (388.8 to 386.8
 * GB/s, validate/published/nccl_cases.csv), where NCCL's model charges 32
 * nodes 3.4 ms of steps (about 7%): a 2 MiB chunk takes 44 us a channel,
 * its half longer than a step's few us.  At 8 MiB a step's chunk is 4 KiB
 * and the steps' latency stands whole; NCCL's own choice is untouched. */
static void a_rings_latency_hides_behind_its_transfer(void)
{
    struct nccl_model m;
    struct nccl_choice c;
    double bus2 = 0, lat32 = 0;

    for (int n = 2; n <= 32; n *= 2) {
        struct nccl_shape s = node(n, 8, 100, NCCL_LINK_NVSWITCH, 720, 400, 8);
        nccl_model_init(&m, &s, NCCL_ALLREDUCE);
        T_CHECK(nccl_on(&m, NCCL_RING, NCCL_SIMPLE, 8 * GIB, &c) == 0, "%d nodes: a ring", n);
        if (n == 2)
            bus2 = c.busbw_Bps;
        T_NEAR(c.busbw_Bps, bus2, 0.005, "%d nodes, 8 GiB: %.1f GB/s, as 2 nodes' %.1f", n,
               c.busbw_Bps / 1e9, bus2 / 1e9);
        T_CHECK(c.lat_s < 10e-6, "its steps' latency hidden (%.1f us exposed of NCCL's %.0f)",
                c.lat_s * 1e6, m.run_lat[NCCL_RING][NCCL_SIMPLE] * 1.4e6);
        lat32 = m.lat[NCCL_RING][NCCL_SIMPLE];
    }
    T_CHECK(lat32 > 2e-3, "NCCL's choice still weighs 32 nodes' steps (%.2f ms)", lat32 * 1e3);
    nccl_on(&m, NCCL_RING, NCCL_SIMPLE, 8 * MIB, &c);
    T_NEAR(c.lat_s / (m.run_lat[NCCL_RING][NCCL_SIMPLE] * 1.4), 1, 0.01,
           "8 MiB over 32 nodes: the steps' latency (x 1.4, the plateau) all but half a "
           "chunk's crossing a step (%.2f ms)", c.lat_s * 1e3);
    /* the rule itself: a step waits for its latency past half a chunk */
    T_NEAR(nccl_ring_exposed_s(&m, NCCL_SIMPLE, 8 * MIB, 5e-6, 300e9) / (510 * 5e-6), 1, 0.01,
           "a 2 KiB chunk: each of 510 steps waits about its 5 us");
    T_CHECK(nccl_ring_exposed_s(&m, NCCL_SIMPLE, 8 * GIB, 5e-6, 300e9) == 0,
            "a 2 MiB chunk: none");
    {
        double ch = 256 * MIB / (m.nch[NCCL_RING] * 256.0), r = 300e9 * 510 / 256 / m.nch[NCCL_RING];
        T_NEAR(nccl_ring_exposed_s(&m, NCCL_SIMPLE, 256 * MIB, 3e-6, 300e9),
               510 * (3e-6 - ch / r / 2), 1e-12,
               "256 MiB: each step waits 3 us less half its chunk's %.2f us", ch / r * 1e6);
    }
    T_CHECK(nccl_ring_exposed_s(&m, NCCL_LL128, 8 * GIB, 5e-6, 300e9) == 510 * 5e-6,
            "LL128: the steps' latency whole");
}

/*
 * CollNet (sim/nccl_collnet.c), worked by hand from search.cc and
 * tuning.cc: 4 nodes of 8 B200 (NVLink 5 counted 721.8 GB/s) with 8 NICs of
 * 48 GB/s.  Direct: a head a NIC, 8 channels at 48 across, the intra-node
 * speed raised to 96 (2 x 48; a GPU's links carry 2 x 96); Chain: the
 * ring's 8 channels, raised to 96 too (7/8 of 8 x 96 = 672 under 721.8).
 */
static void collnet_runs_only_where_the_switches_reduce(void)
{
    struct nccl_shape s = node(4, 8, 100, NCCL_LINK_NVSWITCH, 721.8, 384, 8);
    struct nccl_model m, ag;
    struct nccl_choice c;

    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    T_CHECK(m.bw[NCCL_COLLNET_DIRECT][NCCL_SIMPLE] == 0 && m.bw[NCCL_COLLNET_CHAIN][NCCL_SIMPLE] == 0,
            "plain InfiniBand: no CollNet");
    s.collnet = 1;
    s.collnet_eff = 0.7452;
    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    T_CHECK(m.nch[NCCL_COLLNET_DIRECT] == 8 && m.nch[NCCL_COLLNET_CHAIN] == 8, "8 heads, 8 chains");
    /* Direct: 8 x 96, GPU:NIC factor 1, x 0.85 on Blackwell, halved */
    T_NEAR(m.bw[NCCL_COLLNET_DIRECT][NCCL_SIMPLE], 8 * 96 * 0.85 * 0.5e9, 1e-9, "Direct 326.4 GB/s");
    T_NEAR(m.bw[NCCL_COLLNET_CHAIN][NCCL_SIMPLE], 8 * 96 * 0.5e9, 1e-9, "Chain 384 GB/s");
    T_CHECK(m.bw[NCCL_COLLNET_DIRECT][NCCL_LL] == 0 && m.bw[NCCL_COLLNET_CHAIN][NCCL_LL128] == 0,
            "Simple only");
    /* base 0; Direct 2 (3.7 + 7 x 0.4) + 31, Chain 2 x 7 x 2.8 + 30 */
    T_NEAR(m.lat[NCCL_COLLNET_DIRECT][NCCL_SIMPLE], 44e-6, 1e-9, "Direct latency 44 us");
    T_NEAR(m.lat[NCCL_COLLNET_CHAIN][NCCL_SIMPLE], 69.2e-6, 1e-9, "Chain latency 69.2 us");
    /* NCCL's choice at 8 GiB, run at the switches' share of the NICs */
    T_CHECK(nccl_pick(&m, 8 * GIB, &c) == 0 && c.algo == NCCL_COLLNET_CHAIN, "8 GiB: Chain (%s)",
            nccl_algo_name(c.algo));
    T_NEAR(c.algbw_Bps, 384e9 * 0.7452, 1e-9, "runs at 0.7452 of the NICs");
    /* all-gather: Direct only, 8 x min(96, 0.9 x 48), with a head a GPU */
    nccl_model_init(&ag, &s, NCCL_ALLGATHER);
    T_NEAR(ag.bw[NCCL_COLLNET_DIRECT][NCCL_SIMPLE], 8 * 43.2e9, 1e-9, "all-gather Direct 345.6 GB/s");
    T_CHECK(ag.bw[NCCL_COLLNET_CHAIN][NCCL_SIMPLE] == 0, "no all-gather Chain");
    T_NEAR(ag.run_bw[NCCL_COLLNET_DIRECT][NCCL_SIMPLE], 8 * 43.2e9, 1e-9, "uncapped: no reduction");
    /* one node, or no NVSwitch for Direct: none */
    s.nodes = 1;
    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    T_CHECK(m.bw[NCCL_COLLNET_CHAIN][NCCL_SIMPLE] == 0, "one node: none");
    s.nodes = 4;
    s.link = NCCL_LINK_NVLINK;
    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    T_CHECK(m.bw[NCCL_COLLNET_DIRECT][NCCL_SIMPLE] == 0 && m.bw[NCCL_COLLNET_CHAIN][NCCL_SIMPLE] > 0,
            "no NVSwitch: Chain only");
    /* a 72-GPU NVLink domain: more than 8 local GPUs, no CollNet */
    s = node(4, 72, 100, NCCL_LINK_NVSWITCH, 721.8, 3456, 72);
    s.collnet = 1;
    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    T_CHECK(m.bw[NCCL_COLLNET_DIRECT][NCCL_SIMPLE] == 0 && m.bw[NCCL_COLLNET_CHAIN][NCCL_SIMPLE] == 0,
            "NVL72 racks: no CollNet");
    /* 4 NICs: 4 heads at 48, doubled to 8 at 24, raised to 48 */
    s = node(4, 8, 100, NCCL_LINK_NVSWITCH, 721.8, 192, 4);
    s.collnet = 1;
    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    T_CHECK(m.nch[NCCL_COLLNET_DIRECT] == 8, "4 NICs: heads doubled to 8 (%d)",
            m.nch[NCCL_COLLNET_DIRECT]);
    T_NEAR(m.bw[NCCL_COLLNET_DIRECT][NCCL_SIMPLE], 8 * 48 * 0.85 * 0.5e9, 1e-9,
           "4 NICs: 8 x 48 x 0.85 / 2");
    /* Hopper's list tops at 48: nothing to raise */
    s = node(8, 8, 90, NCCL_LINK_NVSWITCH, 370.8, 384, 8);
    s.collnet = 1;
    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    T_NEAR(m.bw[NCCL_COLLNET_CHAIN][NCCL_SIMPLE], 8 * 48 * 0.5e9, 1e-9, "H100 Chain 192 GB/s");
    T_CHECK(strcmp(nccl_algo_name(NCCL_COLLNET_DIRECT), "collnet_direct") == 0 &&
                strcmp(nccl_algo_name(NCCL_COLLNET_CHAIN), "collnet_chain") == 0,
            "named for --algo");
}

/* Trees across Blackwell nodes run at NCCL's per-channel cap without the
 * TREE pattern's 0.85 (sim/nccl.c tree_run_bw): 8 channels x 24 GB/s on 4
 * B200 nodes, 96 GB/s of algorithm bandwidth, where NCCL prices 81.6 and
 * chooses by it; Hopper's keep NCCL's price. */
static void blackwell_trees_run_at_their_channel_cap(void)
{
    struct nccl_shape s = node(4, 8, 100, NCCL_LINK_NVSWITCH, 721.8, 384, 8);
    struct nccl_model m;

    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    T_NEAR(m.bw[NCCL_TREE][NCCL_SIMPLE], 8 * 24 * 0.85 * 0.5e9, 1e-9, "NCCL's price 81.6 GB/s");
    T_NEAR(m.run_bw[NCCL_TREE][NCCL_SIMPLE], 8 * 24 * 0.5e9, 1e-9, "runs at 96 GB/s");
    s.nodes = 1;
    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    T_CHECK(m.run_bw[NCCL_TREE][NCCL_SIMPLE] == m.bw[NCCL_TREE][NCCL_SIMPLE], "one node: the price");
    s = node(4, 8, 90, NCCL_LINK_NVSWITCH, 370.8, 384, 8);
    nccl_model_init(&m, &s, NCCL_ALLREDUCE);
    T_CHECK(m.run_bw[NCCL_TREE][NCCL_SIMPLE] == m.bw[NCCL_TREE][NCCL_SIMPLE], "Hopper: the price");
}

int main(void)
{
    T_RUN(blackwell_trees_run_at_their_channel_cap);
    T_RUN(collnet_runs_only_where_the_switches_reduce);
    T_RUN(a_rings_latency_hides_behind_its_transfer);
    T_RUN(a_plugins_tuner_names_the_pair);
    T_RUN(the_pipeline_fill_follows_nccls_chunks);
    T_RUN(nvls_on_one_node_fills_two_rounds_of_its_chunk);
    T_RUN(nvlink5_rings_run_under_nccls_count);
    T_RUN(a_fabric_times_its_own_hops);
    T_RUN(a_rings_steps_run_at_the_networks_pace);
    T_RUN(a_ring_on_one_a100_node_is_nccls_arithmetic);
    T_RUN(nvls_on_an_h100_node_runs_at_its_link_rate);
    T_RUN(pcie_and_efa_disable_protocols);
    T_RUN(two_node_trees_take_twice_the_network);
    T_RUN(many_nodes_pick_trees_for_small_messages);
    T_RUN(the_tree_correction_applies_by_size);
    T_RUN(gathers_and_scatters_follow_their_own_rules);
    return T_DONE();
}
