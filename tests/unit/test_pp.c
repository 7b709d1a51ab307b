/*
 * test_pp.c - pipeline parallelism in the simulator (sim/pp.c) against
 * hand-computed answers: 1F1B's bubble of (pp - 1) stage times, the
 * interleaved schedule's (pp - 1) / v, the activations' trips, the last
 * chunk's output layer, the layers' split (Llama 3's), the data-parallel
 * reduction of one stage's gradients over its replicas, the fits rule, a
 * cost flat in the replicas, and bad configs; then issue 36's scenario
 * through the planner (planner/resolve_pp.c): Llama 2 13B on 2 p5 nodes,
 * tp 1 and 2, pp 4, 1 to 10 chunks a stage.
 */
#include "t.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../base/memo.h"
#include "../../catalog/catalog.h"
#include "../../cli/ld_scenario.h"
#include "../../planner/planner.h"
#include "../../sim/sim.h"
#include "t_sim.h"

/* nodes x 8 GPUs, ring collectives, L layers; a micro-batch's forward of
 * the whole model 10 ms and backward 20 ms a GPU; m micro-batches. */
static void piped(struct sim_config *c, int nodes, int pp, int v, int L, int m)
{
    memset(c, 0, sizeof *c);
    c->ngroups = 1;
    c->groups[0] = (struct sim_group){
        .role = SIM_TRAIN, .count = nodes, .gpus = 8, .vcpus = 64, .loader_vcpus = 64,
        .core_speed = 1, .nic_Bps = 1e11, .net_alpha_s = 0, .intra_Bps = 1e12,
        .intra_alpha_s = 0, .pcie_Bps = 1e10, .fwd_s = 0.010 * m, .bwd_s = 0.020 * m,
        .opt_s = 0};
    c->w = (struct sim_workload){.batch = 1, .grad_bytes = 0, .loader_workers = 1, .prefetch = 1};
    c->c = (struct sim_comm){.strategy = SIM_RING, .bucket_bytes = 25e6, .overlap = 0,
                             .units = L, .micro_batches = m, .tp = 8, .pp = pp,
                             .pp_interleave = v};
    c->fabric_oversub = 1;
    c->steps = 2;
    c->warmup = 1;
    c->seed = 1;
}

static void bubbles(void)
{
    struct sim_config c;
    struct sim_result r;
    int pp = 4, m = 8, L = 16;
    double t = 0.030 / pp;      /* a stage's forward and backward of a micro-batch */

    piped(&c, pp, pp, 1, L, m);
    if (run(&c, &r)) {
        T_CHECK(0, "1F1B runs");
        return;
    }
    T_NEAR(r.step_mean_s, (m + pp - 1) * t, 1e-9, "1F1B: (m + pp - 1) stage times, %.6f s",
           (m + pp - 1) * t);
    T_NEAR(r.compute_s, m * t, 1e-9, "a stage computes m of them");
    T_NEAR(r.pp_bubble_s, (pp - 1) * t, 1e-9, "and waits pp - 1");
    T_NEAR(r.workers, 8.0 * pp, 0, "every GPU counted");

    piped(&c, pp, pp, 2, L, m);
    if (run(&c, &r)) {
        T_CHECK(0, "interleaved 1F1B runs");
        return;
    }
    T_NEAR(r.step_mean_s, m * t + (pp - 1) * t / 2, 1e-9,
           "interleaved, 2 chunks: the bubble halves");
    piped(&c, pp, pp, 4, L, m);
    if (run(&c, &r) == 0)
        T_NEAR(r.step_mean_s, m * t + (pp - 1) * t / 4, 1e-9, "4 chunks: a quarter");
    piped(&c, pp, pp, 1, L, 2);
    if (run(&c, &r) == 0)
        T_NEAR(r.step_mean_s, (2 + pp - 1) * t, 1e-9, "fewer micro-batches than stages: "
               "(m + pp - 1) still");
}

/* DualPipe (the DeepSeek-V3 report's Table 2): a rank's two mirrored
 * stages, m / 2 micro-batches each way, m (F + B) of work, and a bubble of
 * (pp / 2 - 1) (F&B + B - 3 W) with F&B = F + B and W = B / 2: here F 2.5,
 * B 5 ms a stage, so 3 x 5 ms at pp 8 against 1F1B's 7 x 7.5 ms; an odd
 * pp, interleaving or too few micro-batches refused. */
static void dualpipe_bubble(void)
{
    struct sim_config c;
    struct sim_result r;
    struct dt_err e;
    int pp = 8, m = 16, L = 32;
    double f = 0.010 / pp, b = 0.020 / pp;

    piped(&c, pp, pp, 1, L, m);
    c.c.pp_dualpipe = 1;
    if (run(&c, &r)) {
        T_CHECK(0, "DualPipe runs");
        return;
    }
    T_NEAR(r.compute_s, m * (f + b), 1e-9, "a rank computes m (F + B)");
    T_NEAR(r.pp_bubble_s, (pp / 2 - 1) * (f + b + b - 3 * b / 2), 1e-9,
           "its bubble (pp / 2 - 1)(F&B + B - 3W): %.4f s against 1F1B's %.4f",
           (pp / 2 - 1) * (f + b / 2), (pp - 1) * (f + b));
    c.c.micro_batches = 6;
    T_CHECK(sim_check(&c, &e) != 0 && strstr(e.msg, "DualPipe"), "fewer micro-batches than "
            "stages refused (%s)", e.msg);
    c.c.micro_batches = m;
    c.c.pp_interleave = 2;
    T_CHECK(sim_check(&c, &e) != 0, "interleaved refused");
}

static void trips_and_output_layer(void)
{
    struct sim_config c;
    struct sim_result r, r0;
    int pp = 4, m = 8, L = 16;
    double d;

    piped(&c, pp, pp, 1, L, m);
    run(&c, &r0);
    /* 1e8 bytes a GPU over a NIC share of 1e11 / 8: 8 ms a trip */
    c.c.pp_p2p_bytes = 1e8;
    d = 1e8 / (1e11 / 8);
    if (run(&c, &r)) {
        T_CHECK(0, "1F1B with activations in transit runs");
        return;
    }
    T_CHECK(r.step_mean_s >= r0.step_mean_s + 2 * (pp - 1) * d - 1e-9,
            "the first forward and the last backward cross pp - 1 boundaries each way: "
            "at least %.4f s more (%.4f)", 2 * (pp - 1) * d, r.step_mean_s - r0.step_mean_s);
    T_NEAR(r.compute_s, r0.compute_s, 1e-12, "compute unchanged; the trips are waits");
    /* a stage within a node: the GPU link */
    piped(&c, 1, 2, 1, L, m);
    c.groups[0].gpus = 8;
    c.c.tp = 4;
    c.c.pp_p2p_bytes = 1e8;
    if (run(&c, &r) == 0) {
        /* the first forward's trip and the last backward's at least; at
         * most a trip a micro-batch more (the steady state's cycle through
         * both stages and back, two micro-batches in flight) */
        double t2 = 0.030 / 2, d2 = 1e8 / 1e12, x = r.step_mean_s - (m + 1) * t2;
        T_CHECK(x >= 2 * d2 - 1e-12 && x <= (m + 2) * d2 + 1e-12,
                "pp 2 in one node, 0.1 ms a trip over the GPU link: %.2f trips more, from 2 "
                "to %d", x / d2, m + 2);
    }
    /* the output layer on the last stage: half the model's time */
    piped(&c, pp, pp, 1, L, m);
    c.c.pp_head_frac = 0.5;
    if (run(&c, &r) == 0) {
        double mid = 0.5 * 0.030 / pp, last = mid + 0.5 * 0.030;
        /* the last stage sets the pace: its m micro-batches, and the others'
         * forward and backward on the way in and out */
        T_NEAR(r.step_mean_s, m * last + (pp - 1) * mid, 1e-9,
               "the slowest stage sets the pace: %.6f s", m * last + (pp - 1) * mid);
    }
}

/* The layers' waits beyond their compute (sim_group.layer_wait_s,
 * moe_wait_s): a MoE layer's all-to-alls belong to the chunks holding MoE
 * layers, and the output layer's share is of the compute alone.  pp 4, 16
 * layers; the compute 10 + 20 ms a micro-batch as piped gives it, plus 12
 * ms of the MoE layers' waits a micro-batch, all in stage 0's 4 layers. */
static void moe_waits(void)
{
    struct sim_config c;
    struct sim_result r;
    struct dt_err e;
    int pp = 4, m = 8, L = 16;
    double t = 0.030 / pp, w = 0.012;

    piped(&c, pp, pp, 1, L, m);
    c.groups[0].fwd_s += w / 3 * m;
    c.groups[0].bwd_s += 2 * w / 3 * m;
    c.groups[0].moe_wait_s = w * m;
    c.c.pp_moe_layers[0] = 4;
    if (run(&c, &r)) {
        T_CHECK(0, "a pipeline with MoE waits runs");
        return;
    }
    /* stage 0 takes all 12 ms: the slowest, it sets the pace.  It computes
     * m (t + w); after its pp - 1 warm-up forwards and one more (a third of
     * t + w each) it waits for micro-batch 0 to come back through the
     * others, one forward in and pp - 1 stages' t there and back */
    {
        double f0 = (t + w) / 3, x = m * (t + w) + (pp - 1) * t - (pp - 1) * f0;
        T_NEAR(r.step_mean_s, x, 1e-9, "the stage holding the MoE layers takes their waits: "
               "%.6f s", x);
    }
    /* spread over the 4 stages' MoE layers alike: each stage t + w / 4 */
    for (int i = 0; i < pp; i++)
        c.c.pp_moe_layers[i] = 4;
    if (run(&c, &r) == 0)
        T_NEAR(r.step_mean_s, (m + pp - 1) * (t + w / pp), 1e-9,
               "every stage's MoE layers alike: 1F1B's (m + pp - 1) stage times");
    /* half those waits the all-to-alls': the step the same, and of the
     * stage's m (t + w / pp) busy, m w / (2 pp) reported as theirs */
    {
        struct sim_result r0 = r;
        c.groups[0].ep_wait_s = w * m / 2;
        if (run(&c, &r) == 0) {
            T_NEAR(r.step_mean_s, r0.step_mean_s, 1e-12, "the all-to-alls' share of the "
                   "waits leaves the step as it is");
            T_NEAR(r.ep_comm_s, m * w / (2 * pp), 1e-9, "and is reported apart: %.6f s",
                   m * w / (2 * pp));
            T_NEAR(r.compute_s + r.ep_comm_s, r0.compute_s, 1e-9, "out of the compute");
            T_NEAR(r.exposed_comm_s - r0.exposed_comm_s, r.ep_comm_s, 1e-9,
                   "into the exposed communication");
        }
        c.groups[0].ep_wait_s = 0;
    }
    /* the output layer's half is of the compute, not of the waits: the last
     * stage's time is t / 2 of layers, 15 ms of head and its 3 ms of waits */
    c.c.pp_head_frac = 0.5;
    if (run(&c, &r) == 0) {
        double mid = 0.5 * t + w / pp, last = mid + 0.5 * 0.030;
        T_NEAR(r.step_mean_s, m * last + (pp - 1) * mid, 1e-9,
               "the head's share is of the compute: %.6f s, not %.6f",
               m * last + (pp - 1) * mid, m * (0.5 * (t + w / pp) + 0.5 * (0.030 + w)) +
               (pp - 1) * 0.5 * (t + w / pp));
    }
    c.c.pp_nlayers = pp;
    for (int i = 0; i < pp; i++)
        c.c.pp_layers[i] = L / pp;
    c.c.pp_moe_layers[0] = 5;
    T_CHECK(sim_check(&c, &e) != 0 && strstr(e.msg, "MoE"), "more MoE layers than a chunk's "
            "4 refused where the chunks are given (%s)", e.msg);
    c.c.pp_moe_layers[0] = 4;
    c.c.pp_moe_layers[pp] = 1;
    T_CHECK(sim_check(&c, &e) != 0, "MoE layers past the last chunk refused");
    c.c.pp_moe_layers[pp] = 0;
    c.groups[0].moe_wait_s = NAN;
    T_CHECK(sim_check(&c, &e) != 0 && strstr(e.msg, "waits"), "a NaN wait refused (%s)", e.msg);
}

/* Placement: pipeline before data parallelism (tp-pp-dp) keeps a replica's
 * stages together.  tp 2 x pp 4 on 4 nodes of 8: in Megatron's order a
 * stage's 8 ranks (tp 2 x dp 4) fill a node and every trip crosses the
 * NICs; in tp-pp-dp a replica's 8 ranks fill a node, every trip is on the
 * GPU link, and each stage's data-parallel ranks sit one a node. */
static void placement_orders(void)
{
    struct sim_config c;
    struct sim_result meg, rep;
    int m = 8, L = 16;
    double d_link = 1e8 / 1e12, d_nic = 1e8 / (1e11 / 8);

    piped(&c, 4, 4, 1, L, m);   /* 4 nodes, tp 8: a stage a node, its trips on the NICs */
    c.c.pp_p2p_bytes = 1e8;
    c.c.tp = 2;                 /* tp 2 x pp 4: a replica of 8 ranks, dp 4 */
    T_CHECK(sim_pp_fits_in(8, 4, 2, 4, SIM_ORDER_TP_PP_DP) && sim_pp_fits(8, 4, 2, 4),
            "tp 2 x pp 4 on 4 x 8 GPUs fits in either order");
    if (run(&c, &meg)) {
        T_CHECK(0, "Megatron's order runs");
        return;
    }
    c.c.pp_order = SIM_ORDER_TP_PP_DP;
    if (run(&c, &rep)) {
        T_CHECK(0, "tp-pp-dp runs");
        return;
    }
    /* Megatron: a stage is 8 ranks, a whole node: trips cross the NICs at
     * a GPU's share of them.  tp-pp-dp: a replica is a node: trips on the
     * GPU link, 125x faster here. */
    T_CHECK(meg.step_mean_s - rep.step_mean_s >= 2 * 3 * (d_nic - d_link) - 1e-9,
            "a replica in a node saves at least the first and last micro-batches' 6 trips' "
            "difference: %.4f s (Megatron %.4f s, tp-pp-dp %.4f s)",
            meg.step_mean_s - rep.step_mean_s, meg.step_mean_s, rep.step_mean_s);
    T_CHECK(!sim_pp_fits_in(8, 1, 2, 16, SIM_ORDER_TP_PP_DP),
            "tp 2 x pp 16 on one node of 8: does not fit");
    T_CHECK(sim_pp_fits_in(8, 2, 2, 8, SIM_ORDER_TP_PP_DP) &&
                !sim_pp_fits_in(8, 3, 2, 8, SIM_ORDER_TP_PP_DP),
            "a replica of 16 ranks needs whole nodes: 2 of 8 fit, 3 do not");
}

static void layer_split(void)
{
    int out[256], sum = 0;

    sim_pp_layers(126, 16, 1, 0, out);
    for (int i = 0; i < 16; i++)
        sum += out[i];
    T_CHECK(out[0] == 7 && out[15] == 7 && out[1] == 8 && out[14] == 8 && sum == 126,
            "Llama 3 405B, 126 layers on 16 stages: 7 on the first and last, 8 between");
    sim_pp_layers(80, 4, 2, 0, out);
    T_CHECK(out[0] == 10 && out[7] == 10, "80 layers in 8 chunks: 10 each");
    sim_pp_layers(70, 12, 1, 0, out);
    sum = 0;
    for (int i = 0; i < 12; i++)
        sum += out[i];
    T_CHECK(sum == 70 && out[0] == 5 && out[11] == 5 && out[5] == 6,
            "BLOOM, 70 layers on 12 stages: 5, 6 x 10, 5");
    /* the embedding and the loss as layers: 126 + 2 in 16 x 8 chunks of
     * one (Llama 3's schedule), the first and last chunk holding none */
    sim_pp_layers(126, 16, 8, 1, out);
    sum = 0;
    for (int i = 0; i < 128; i++)
        sum += out[i];
    T_CHECK(out[0] == 0 && out[127] == 0 && out[1] == 1 && out[126] == 1 && sum == 126,
            "126 layers with the embedding and the loss in 128 chunks: 0, 1 x 126, 0");
    /* 78 + 2 in 4 x 4 chunks of 5: the ends hold 4 layers and a table */
    sim_pp_layers(78, 4, 4, 1, out);
    sum = 0;
    for (int i = 1; i < 15; i++)
        sum += out[i] == 5;
    T_CHECK(sum == 14 && out[0] == 4 && out[15] == 4,
            "78 layers and the ends in 16 chunks: 4, 5 x 14, 4 (%d, %d of 5, %d)", out[0], sum, out[15]);
    /* 81 + 2 in 16: 83 = 6 x 16 - 13, the inner chunks give up first */
    sim_pp_layers(81, 4, 4, 1, out);
    sum = 0;
    for (int i = 0; i < 16; i++)
        sum += out[i];
    T_CHECK(sum == 81 && out[0] == 5 && out[15] == 5 && out[14] == 5 && out[1] == 5 && out[7] == 6,
            "81 layers and the ends in 16 chunks: %d in all, ends %d and %d", sum, out[0], out[15]);
}

/* Chunks' layers as given (parallel.pp_layers): the pipeline runs at its
 * busiest stage's pace.  16 layers on 4 stages, 8 micro-batches, no head:
 * [4, 4, 4, 4] is the even split; [2, 5, 5, 4] paces at 5 layers a
 * micro-batch; a list that does not add up is refused. */
static void given_layers(void)
{
    struct sim_config c;
    struct sim_result r0, r;
    int pp = 4, m = 8, L = 16;
    const int even[4] = {4, 4, 4, 4}, uneven[4] = {2, 5, 5, 4}, bad[4] = {4, 4, 4, 3};
    double layer = 0.030 / L;

    piped(&c, pp, pp, 1, L, m);
    c.c.pp_nlayers = 4;
    memcpy(c.c.pp_layers, even, sizeof even);
    if (run(&c, &r0)) {
        T_CHECK(0, "an even list runs");
        return;
    }
    piped(&c, pp, pp, 1, L, m);
    if (run(&c, &r) == 0)
        T_NEAR(r0.step_mean_s, r.step_mean_s, 1e-12, "the even list is the even split (%.6f s)",
               r0.step_mean_s);
    c.c.pp_nlayers = 4;
    memcpy(c.c.pp_layers, uneven, sizeof uneven);
    if (run(&c, &r) == 0)
        T_CHECK(r.step_mean_s >= m * 5 * layer - 1e-12 &&
                    r.step_mean_s <= (m - 1) * 5 * layer + 16 * layer + 1e-12,
                "[2, 5, 5, 4]: between its busiest stage's 8 micro-batches (%.6f s) and 7 of "
                "them plus every stage's one (%.6f): %.6f s", m * 5 * layer,
                (m - 1) * 5 * layer + 16 * layer, r.step_mean_s);
    T_CHECK(r.step_mean_s > r0.step_mean_s, "the busier stage paces the pipeline slower");
    memcpy(c.c.pp_layers, bad, sizeof bad);
    T_CHECK(run(&c, &r) != 0, "a list adding up to 15 of 16 layers is refused");
}

static void replicas(void)
{
    struct sim_config c;
    struct sim_result r1, r2;
    int pp = 4, m = 8, L = 16;
    double g = 8e9, t = 0.030 / pp, dp = 4, bytes, ar;

    /* 4 replicas: 16 nodes, a stage is 4 nodes; the ring of a position runs
     * over 4 nodes, its NIC share an eighth of the node's */
    piped(&c, 4 * pp, pp, 1, L, m);
    c.w.grad_bytes = g;
    if (run(&c, &r1)) {
        T_CHECK(0, "4 replicas of a 4-stage pipeline run");
        return;
    }
    bytes = g / 8 / pp;     /* a rank's share of a stage's gradients */
    ar = 2 * (dp - 1) / dp * bytes / (1e11 / 8);
    T_NEAR(r1.step_mean_s, (m + pp - 1) * t + ar, 1e-6,
           "after the flush, a stage's gradients all-reduced over 4 replicas: %.4f s", ar);
    T_NEAR(r1.exposed_comm_s, ar, 1e-6, "exposed, not overlapped");
    piped(&c, 64 * pp, pp, 1, L, m);
    c.w.grad_bytes = g;
    if (run(&c, &r2) == 0)
        T_CHECK(r2.events == r1.events, "64 replicas cost the events 4 do (%ld, %ld)",
                r2.events, r1.events);
}

static void fits_and_bad(void)
{
    struct sim_config c;
    struct sim_result r;

    T_CHECK(sim_pp_fits(8, 16, 8, 4), "tp 8 pp 4 on 16 x 8: a stage is 4 nodes");
    T_CHECK(sim_pp_fits(8, 1, 2, 2), "tp 2 pp 2 on one node of 8: a stage is half a node");
    T_CHECK(!sim_pp_fits(8, 3, 8, 2), "pp 2 on 3 nodes does not divide them");
    T_CHECK(!sim_pp_fits(8, 6, 8, 4), "6 nodes in 4 stages: a stage 1.5 nodes");
    piped(&c, 4, 4, 2, 16, 6);
    T_CHECK(run(&c, &r) != 0, "interleaved with micro-batches not a multiple of the stages: "
            "refused");
    piped(&c, 4, 4, 1, 3, 8);
    T_CHECK(run(&c, &r) != 0, "fewer layers than stages: refused");
    piped(&c, 4, 4, 1, 16, 8);
    c.c.shard = SIM_SHARD_FULL;
    T_CHECK(run(&c, &r) != 0, "zero3 under a pipeline: refused");
    piped(&c, 4, 4, 1, 16, 8);
    c.c.pp_head_frac = 1.5;
    T_CHECK(run(&c, &r) != 0, "a head share over 1: refused");
}

/* ---- issue 36: the tp 1 pipeline, through the planner ------------------ */

static struct catalog cat;

/* Issue 36's scenario at tensor parallelism tp and v chunks a stage,
 * resolved into *cfg and run into *r; 0, or -1 with a failed check. */
static int issue36(int tp, int v, struct sim_config *cfg, struct sim_result *r)
{
    char path[] = "/tmp/dtplan-test-pp.XXXXXX";
    int fd = mkstemp(path), rc = -1;
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    struct scenario sc;
    struct dt_err e;

    if (!f) {
        T_CHECK(0, "a temporary scenario can be written");
        return -1;
    }
    fprintf(f, "name: issue36\n"
            "workload: {model: llama2-13b, precision: fp8, seq_len: 4096, global_batch: 128, "
            "batch_per_gpu: 1}\n"
            "input: {cpu_s_per_sample: 0, dataset_samples: 1000000, epochs: 1}\n"
            "gradients: {sharding: zero1, precision: fp32}\n"
            "parallel: {tp: %d, pp: 4, interleave: %d}\n"
            "clusters:\n"
            "  - {name: 2x-p5, groups: [{role: train, instance: p5.48xlarge, count: 2}]}\n"
            "simulation: {seed: 1, steps: 2, warmup: 1, jitter_cv: 0}\n", tp, v);
    fclose(f);
    if (ld_scenario_load(&sc, path, &cat, &e)) {
        T_CHECK(0, "issue 36's scenario loads: %s", e.msg);
        unlink(path);
        return -1;
    }
    unlink(path);
    if (plan_resolve(&sc, &sc.clusters[0], cfg, &e))
        T_CHECK(0, "tp %d, pp 4, interleave %d resolves: %s", tp, v, e.msg);
    else if (run(cfg, r))
        T_CHECK(0, "tp %d, pp 4, interleave %d runs", tp, v);
    else
        rc = 0;
    scenario_free(&sc);
    return rc;
}

/*
 * Every stage holds 10 of the 40 layers; the last one also the output
 * layer and the loss, h of a micro-batch's pass T = (fwd + bwd) / m (the
 * compute model's, at tp).  A stage's micro-batch is then
 *   t = T (1 - h) / pp + its layers' tensor-parallel collectives,
 * the last stage's t + T h, and the pipeline takes the slowest stage's m
 * micro-batches plus the fill and drain, (pp - 1) / v of t (Narayanan et
 * al. 2021, section 2.2.2), plus the first micro-batch's trips through the
 * pp v chunks and back: each boundary v times a way, the wrap from the
 * last stage to the first v - 1 times.  A stage is tp x dp = 4 GPUs in
 * Megatron's order, so stages 0 and 1 share the first node, 2 and 3 the
 * second: boundaries 0-1 and 2-3 are on the GPU link, 1-2 and the wrap on
 * the NICs (every GPU of the node sending at once).  The head is the output
 * layer of 32,000 x 5,120 and the loss, about half a layer's work at any
 * tp (issue 36: the model without layers was costed as the whole model's
 * catalog FLOPs, 69% of the pass at tp 1, and 1.4 times it, so none, at
 * tp 2; the bubble was then 8 s and flat in v).
 */
static void tp1_bubble_follows_pp_minus_1_over_v(void)
{
    static const int vs[] = {1, 2, 5, 10};
    double bubble[2][4], share[2] = {0, 0}, norm[2][4], work[2] = {0, 0};

    for (int ti = 0; ti < 2; ti++)
        for (int i = 0; i < 4; i++) {
            struct sim_config c;
            struct sim_result r;
            const struct sim_group *g = &c.groups[0];
            int tp = ti + 1, v = vs[i], pp = 4, m;
            double T, h, t, head, over, link, nic, trips, want;

            if (issue36(tp, v, &c, &r))
                return;
            m = c.c.micro_batches;
            h = share[ti] = c.c.pp_head_frac;
            T = (g->fwd_s + g->bwd_s) / m;
            t = T * (1 - h) / pp + r.tp_comm_s / m;
            head = T * h;
            work[ti] = (T * (1 - h) / pp) * tp;
            link = g->intra_alpha_s + c.c.pp_p2p_bytes / g->intra_Bps;
            nic = g->net_alpha_s + c.c.pp_p2p_bytes / (g->nic_Bps / g->gpus);
            trips = 2 * (v * (2 * link + nic) + (v - 1) * nic);
            /* the simulated stage's schedule (its compute, collectives and
             * waits) beyond the slowest stage's work */
            over = r.compute_s + r.tp_comm_s + r.pp_bubble_s - m * (t + head);
            want = (pp - 1.0) / v * t + trips;
            bubble[ti][i] = r.pp_bubble_s;
            norm[ti][i] = (over - trips) / t;
            T_NEAR(over, want, 0.25 * want,
                   "tp %d, pp 4, interleave %2d, %d micro-batches: the pipeline takes %.4f s "
                   "beyond the slowest stage's micro-batches: (pp - 1) / v = %.2f of a stage's "
                   "%.4f s plus %.4f s of trips is %.4f s (bubble %.4f s, compute %.3f s)",
                   tp, v, m, over, (pp - 1.0) / v, t, trips, want, r.pp_bubble_s, r.compute_s);
        }
    for (int ti = 0; ti < 2; ti++) {
        T_CHECK(share[ti] > 0.005 && share[ti] < 0.05,
                "tp %d: the output layer and loss are %.2f%% of a micro-batch's pass, about "
                "half a layer's of 40", ti + 1, 100 * share[ti]);
        T_CHECK(bubble[ti][0] > bubble[ti][1] && bubble[ti][1] > bubble[ti][2] &&
                    bubble[ti][2] > bubble[ti][3],
                "tp %d: the bubble falls with the chunks: %.4f, %.4f, %.4f, %.4f s at 1, 2, 5, "
                "10", ti + 1, bubble[ti][0], bubble[ti][1], bubble[ti][2], bubble[ti][3]);
    }
    T_NEAR(share[0], share[1], 0.25 * share[1], "the head's share at tp 1 (%.4f) as at tp 2 "
           "(%.4f): tp divides the head as it does the layers", share[0], share[1]);
    T_NEAR(work[0], work[1], 0.25 * work[1], "a stage's layers compute %.4f s a micro-batch at "
           "tp 1, %.4f s over both GPUs at tp 2", work[0], work[1]);
    for (int i = 0; i < 4; i++)
        T_NEAR(norm[0][i], norm[1][i], 0.25 * norm[1][i],
               "interleave %2d: the fill and drain are %.3f stage times at tp 1, %.3f at tp 2 "
               "((pp - 1) / v = %.2f)", vs[i], norm[0][i], norm[1][i], 3.0 / vs[i]);
}

/* A memo (base/memo.h) runs a schedule once for the runs that share it:
 * the same results with and without it, the second run found in it, and a
 * schedule of other micro-batches or trips not taken for it. */
static void schedules_kept_in_a_memo(void)
{
    struct sim_config c;
    struct sim_result plain, first, again, other;
    struct memo *m = memo_new(1 << 20);
    long hits, n;

    piped(&c, 4, 4, 2, 16, 8);
    c.groups[0].net_alpha_s = 2e-5;     /* trips that count */
    if (run(&c, &plain)) {
        T_CHECK(0, "the interleaved schedule runs");
        memo_free(m);
        return;
    }
    c.memo = m;
    run(&c, &first);
    run(&c, &again);
    memo_stats(m, &hits, &n);
    T_CHECK(hits >= 1 && n >= 1, "the second run found its schedule (%ld found, %ld held)",
            hits, n);
    T_CHECK(first.step_mean_s == plain.step_mean_s && again.step_mean_s == plain.step_mean_s &&
            again.pp_bubble_s == plain.pp_bubble_s && again.compute_s == plain.compute_s,
            "and the step, the bubble and the compute are those of a run without it "
            "(%.9f, %.9f, %.9f s)", plain.step_mean_s, first.step_mean_s, again.step_mean_s);
    piped(&c, 4, 4, 2, 16, 12);
    c.groups[0].net_alpha_s = 2e-5;
    c.memo = m;
    run(&c, &other);
    T_CHECK(other.step_mean_s > plain.step_mean_s * 1.2,
            "12 micro-batches are not taken for 8 (%.6f against %.6f s)", other.step_mean_s,
            plain.step_mean_s);
    piped(&c, 4, 4, 2, 16, 8);
    c.groups[0].net_alpha_s = 4e-3;
    c.memo = m;
    run(&c, &other);
    T_CHECK(other.step_mean_s > plain.step_mean_s,
            "nor longer trips for shorter ones (%.6f against %.6f s)", other.step_mean_s,
            plain.step_mean_s);
    memo_free(m);
}

int main(void)
{
    struct dt_err e;

    T_RUN(bubbles);
    T_RUN(dualpipe_bubble);
    T_RUN(trips_and_output_layer);
    T_RUN(moe_waits);
    T_RUN(placement_orders);
    T_RUN(layer_split);
    T_RUN(given_layers);
    T_RUN(replicas);
    T_RUN(fits_and_bad);
    T_RUN(schedules_kept_in_a_memo);
    if (catalog_load(&cat, "catalog", &e)) {
        printf("FAIL - catalog loads: %s\n", e.msg);
        return 1;
    }
    T_RUN(tp1_bubble_follows_pp_minus_1_over_v);
    catalog_free(&cat);
    return T_DONE();
}
