/*
 * test_tp.c - tensor parallelism in the simulator (sim/tp.c) against
 * hand-computed answers: the layers' all-reduces on the GPU links, waited
 * for and counted as tensor-parallel time; twice after a backward that
 * recomputes; sequence parallelism's same volume; data parallelism over the
 * ranks at one tensor-parallel position, sharing the NICs; and bad configs.
 */
#include "t.h"

#include <math.h>
#include <string.h>

#include "../../sim/sim.h"
#include "t_sim.h"

#define G 4e8      /* gradient bytes of the whole model */
#define A 1e7      /* one layer's activation all-reduce */
#define BI 1e11    /* GPU link bytes/s */
#define AI 2e-6    /* GPU link latency */

/* nodes x gpus, ring collectives, L layers, fwd 0.3 s and bwd 0.6 s a GPU. */
static void layered(struct sim_config *c, int nodes, int gpus, int tp, int L)
{
    memset(c, 0, sizeof *c);
    c->ngroups = 1;
    c->groups[0] = (struct sim_group){
        .role = SIM_TRAIN, .count = nodes, .gpus = gpus, .vcpus = 8, .loader_vcpus = 8,
        .core_speed = 1, .nic_Bps = 1e9, .net_alpha_s = 20e-6, .intra_Bps = BI,
        .intra_alpha_s = AI, .pcie_Bps = 1e10, .fwd_s = 0.3, .bwd_s = 0.6, .opt_s = 0.01};
    c->w = (struct sim_workload){.batch = 1, .grad_bytes = G, .loader_workers = 1, .prefetch = 1};
    c->c = (struct sim_comm){.strategy = SIM_RING, .bucket_bytes = 25e6, .overlap = 1,
                             .param_bytes = G / 2, .units = L, .micro_batches = 1, .tp = tp,
                             .tp_bytes = A};
    c->fabric_oversub = 1;
    c->steps = 3;
    c->warmup = 1;
    c->seed = 1;
}

static void layers_wait_for_their_all_reduces(void)
{
    struct sim_config c;
    struct sim_result r;
    int tp = 4, L = 6;
    /* a ring all-reduce of A over 4 GPUs of a node: 2(k-1)(a + A/(k B)) */
    double ar = 2.0 * (tp - 1) * (AI + A / (tp * BI)), all;

    layered(&c, 1, 4, tp, L);
    if (run(&c, &r)) {
        T_CHECK(0, "tp 4 on one node runs");
        return;
    }
    all = 2 * L * 2 * ar;   /* forward and backward uses, two all-reduces each */
    T_NEAR(r.tp_comm_s, all, 1e-9, "tp 4: the layers wait %.6f s a step", all);
    T_NEAR(r.exposed_comm_s, all, 1e-9, "and nothing else is exposed (one replica)");
    T_NEAR(r.step_mean_s, 0.3 + 0.6 + 0.01 + all, 1e-9, "step: compute, optimizer, the waits");
    c.c.tp_recompute = SIM_TP_REDO_ALL;
    if (run(&c, &r)) {
        T_CHECK(0, "tp 4 with recompute runs");
        return;
    }
    T_NEAR(r.tp_comm_s, L * 2 * ar + L * 4 * ar, 1e-9,
           "full recompute: the backward redoes the forward's two");
    c.c.tp_redo_skip = 0.5;     /* workload.recompute_layers: half the layers */
    if (run(&c, &r)) {
        T_CHECK(0, "tp 4 with half the layers recomputing runs");
        return;
    }
    T_NEAR(r.tp_comm_s, L * 2 * ar + L * 3 * ar, 1e-9,
           "half the layers recompute: the backward redoes half the forward's two");
    c.c.tp_redo_skip = 0;
    c.c.tp_recompute = SIM_TP_REDO_GATHERS;
    if (run(&c, &r)) {
        T_CHECK(0, "tp 4 with per-operator recompute runs");
        return;
    }
    T_NEAR(r.tp_comm_s, L * 2 * ar + L * 3 * ar, 1e-9,
           "per-operator recompute, unsplit: the backward redoes the projection's all-reduce");
    c.c.tp_recompute = SIM_TP_REDO_NONE;
    c.c.tp_sp = 1;
    if (run(&c, &r)) {
        T_CHECK(0, "tp 4 sequence parallel runs");
        return;
    }
    /* a reduce-scatter and an all-gather: each half a ring all-reduce */
    T_NEAR(r.tp_comm_s, all, 1e-9, "sequence parallel: the same volume and time on a ring");
    c.c.tp_recompute = SIM_TP_REDO_GATHERS;
    if (run(&c, &r)) {
        T_CHECK(0, "tp 4 sequence parallel with per-operator recompute runs");
        return;
    }
    T_NEAR(r.tp_comm_s, all + L * 2 * (ar / 2), 1e-9,
           "sequence parallel, per-operator recompute: the backward redoes the two all-gathers");
    /* a mixture of experts without shared experts in half the layers: those
     * run the attention's pair alone (their experts gather over etp, the
     * planner's), so the feed-forward pair's bytes and latency count half */
    c.c.tp_recompute = SIM_TP_REDO_NONE;
    c.c.tp_moe_share = 0.5;
    if (run(&c, &r)) {
        T_CHECK(0, "tp 4 with MoE layers runs");
        return;
    }
    T_NEAR(r.tp_comm_s, all * 0.75, 1e-9, "half the layers MoE: three quarters of the waits");
    c.c.tp_moe_share = 1;
    if (run(&c, &r)) {
        T_CHECK(0, "tp 4, every layer MoE, runs");
        return;
    }
    T_NEAR(r.tp_comm_s, all / 2, 1e-9, "every layer MoE: the attention's pair alone");
}

/* tp_overlap: a layer's collectives run beside its compute.  Shorter than
 * the compute, they are hidden; with a comm_slowdown the compute beside them
 * runs slower for as long as they run; longer than the compute, the layer
 * takes what they take. */
static void overlapped_collectives_hide_behind_compute(void)
{
    struct sim_config c;
    struct sim_result r;
    int tp = 4, L = 6;
    double ar = 2.0 * (tp - 1) * (AI + A / (tp * BI)), per, f = 1.5, use;

    layered(&c, 1, 4, tp, L);
    c.c.tp_overlap = 1;
    if (run(&c, &r)) {
        T_CHECK(0, "tp 4 overlapped runs");
        return;
    }
    T_NEAR(r.tp_comm_s, 0, 1e-9, "overlapped: %.6f s of collectives a step all hidden", 4 * L * ar);
    T_NEAR(r.step_mean_s, 0.3 + 0.6 + 0.01, 1e-9, "the step is compute and optimizer alone");
    /* slowed: each use computes at 1/f while its 2 ar run, at full speed after */
    c.groups[0].comm_slowdown = f;
    if (run(&c, &r)) {
        T_CHECK(0, "tp 4 overlapped with a slowdown runs");
        return;
    }
    T_NEAR(r.step_mean_s, 0.3 + 0.6 + 0.01 + 2 * L * 2 * ar * (1 - 1 / f), 1e-9,
           "with comm_slowdown %.1f each use pays (1 - 1/f) of its collectives' time", f);
    /* collectives longer than the compute: each use takes them */
    c.groups[0].comm_slowdown = 0;
    c.groups[0].intra_Bps = BI / 1000;
    per = 2.0 * (tp - 1) * (AI + A / (tp * BI / 1000)) * 2;
    use = 0.3 / L;
    if (run(&c, &r)) {
        T_CHECK(0, "tp 4 overlapped on a slow link runs");
        return;
    }
    T_CHECK(per > 0.6 / L, "the collectives (%.4f s a use) outlast the compute (%.4f s)", per,
            0.6 / L);
    T_NEAR(r.step_mean_s, 2 * L * per + 0.01, 1e-9,
           "each use takes its collectives' %.4f s, not %.4f s more", per, use);
}

static void data_parallelism_runs_over_one_position(void)
{
    struct sim_config c;
    struct sim_result r;
    int nodes = 2, gpus = 4;

    /* tp 4, two replicas a node apart: 4 rings of 2 ranks share each NIC,
     * each all-reducing a quarter of the gradients: G in all a node */
    layered(&c, nodes, gpus, 4, 6);
    if (run(&c, &r)) {
        T_CHECK(0, "tp 4 x dp 2 runs");
        return;
    }
    T_NEAR(r.g[0].nic_tx_util * r.step_mean_s * 1e9 / G, 1, 1e-6,
           "tp 4 x dp 2: the NIC sends G a step (%.4g bytes)",
           r.g[0].nic_tx_util * r.step_mean_s * 1e9);
    /* zero3 under tp 2: dp 4 (2 a node), 2 groups share a NIC; each rank
     * moves 3/4 of its half's two gathers and reduction */
    layered(&c, nodes, gpus, 2, 6);
    c.c.shard = SIM_SHARD_FULL;
    if (run(&c, &r)) {
        T_CHECK(0, "zero3 under tp 2 runs");
        return;
    }
    T_NEAR(r.g[0].nic_tx_util * r.step_mean_s * 1e9 / (0.75 * (2 * G / 2 + G)), 1, 1e-6,
           "zero3 x tp 2: the NIC sends 3/4 (2P + G) a step");
    /* hsdp under tp 2 on 2 nodes of 8: each of a node's 8 GPUs all-reduces
     * across the nodes its G / 2 / 4 shard, 2 (n-1) / n of it: G a node */
    layered(&c, nodes, 8, 2, 6);
    c.c.shard = SIM_SHARD_HYBRID;
    if (run(&c, &r)) {
        T_CHECK(0, "hsdp under tp 2 runs");
        return;
    }
    T_NEAR(r.g[0].nic_tx_util * r.step_mean_s * 1e9 / G, 1, 1e-6,
           "hsdp x tp 2: only the shards' all-reduce crosses, G a node (%.4g bytes)",
           r.g[0].nic_tx_util * r.step_mean_s * 1e9);
}

static void tensor_parallel_groups_may_span_nodes(void)
{
    struct sim_config c;
    struct sim_result r1, r2;

    layered(&c, 2, 4, 4, 6);
    if (run(&c, &r1)) {
        T_CHECK(0, "tp 4 in a node runs");
        return;
    }
    layered(&c, 2, 4, 8, 6);
    if (run(&c, &r2)) {
        T_CHECK(0, "tp 8 over two nodes runs");
        return;
    }
    T_CHECK(r2.tp_comm_s > 20 * r1.tp_comm_s && r2.g[0].nic_tx_util > 0,
            "tp 8 over two 4-GPU nodes crosses the NIC: %.4f s against %.4f s in a node",
            r2.tp_comm_s, r1.tp_comm_s);
}

static void bad_layouts_are_rejected(void)
{
    struct sim_config c;
    struct sim_result r;
    struct dt_err e;

    layered(&c, 2, 8, 3, 6);
    T_CHECK(sim_run(&c, &r, &e) != 0 && strstr(e.msg, "tensor parallelism"),
            "tp 3 on 8-GPU nodes: %s", e.msg);
    layered(&c, 3, 8, 16, 6);
    T_CHECK(sim_run(&c, &r, &e) != 0, "tp 16 over 3 nodes of 8 refused");
    layered(&c, 2, 8, 8, 6);
    c.c.tp_bytes = NAN;
    T_CHECK(sim_run(&c, &r, &e) != 0, "unknown activation bytes refused");
    layered(&c, 2, 8, 8, 6);
    c.c.tp_moe_share = 1.5;
    T_CHECK(sim_run(&c, &r, &e) != 0 && strstr(e.msg, "MoE layers' share"),
            "a MoE share past 1 refused: %s", e.msg);
}

int main(void)
{
    T_RUN(layers_wait_for_their_all_reduces);
    T_RUN(overlapped_collectives_hide_behind_compute);
    T_RUN(data_parallelism_runs_over_one_position);
    T_RUN(tensor_parallel_groups_may_span_nodes);
    T_RUN(bad_layouts_are_rejected);
    return T_DONE();
}
