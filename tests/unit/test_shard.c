/*
 * test_shard.c - sharded data parallelism in the simulator (sim/shard.c)
 * against hand-computed answers: what stays exposed when the gathers hide
 * behind compute, the bytes each stage moves across a node's NIC, the
 * hybrid stage's traffic, compute slowed by collectives in flight, one rank
 * as no sharding, the collectives auto reports, and bad configs.
 */
#include "t.h"

#include <math.h>
#include <string.h>

#include "../../sim/sim.h"
#include "t_sim.h"

#define P 2e8   /* parameter bytes as gathered */
#define G 4e8   /* gradient bytes as reduced */
#define B 1e9   /* NIC bytes/s */
#define A 20e-6 /* network latency */

/* One train group of `nodes` x `gpus`, ring collectives, fwd 0.3 s, bwd 0.6 s. */
static void sharded(struct sim_config *c, enum sim_shard mode, int nodes, int gpus, int L, int mb)
{
    memset(c, 0, sizeof *c);
    c->ngroups = 1;
    c->groups[0] = (struct sim_group){
        .role = SIM_TRAIN, .count = nodes, .gpus = gpus, .vcpus = 8, .loader_vcpus = 8,
        .core_speed = 1, .nic_Bps = B, .net_alpha_s = A, .intra_Bps = 1e11,
        .intra_alpha_s = 2e-6, .pcie_Bps = 1e10, .fwd_s = 0.3, .bwd_s = 0.6, .opt_s = 0.01};
    c->w = (struct sim_workload){.batch = 1, .grad_bytes = G, .loader_workers = 1, .prefetch = 1};
    c->c = (struct sim_comm){.strategy = SIM_RING, .bucket_bytes = 25e6, .overlap = 1,
                             .shard = mode, .param_bytes = P, .units = L, .micro_batches = mb};
    c->fabric_oversub = 1;
    c->steps = 4;
    c->warmup = 1;
    c->seed = 1;
}

/* Bytes a node's NIC sends per step. */
static double nic_bytes(const struct sim_result *r)
{
    return r->g[0].nic_tx_util * r->step_mean_s * B;
}

static void gathers_hide_behind_compute_but_the_first_and_last(void)
{
    struct sim_config c;
    struct sim_result r;
    int k = 4, L = 10;
    /* a ring all-gather or reduce-scatter of S over k nodes: (k-1)(a + S/(kB)) */
    double ag = (k - 1) * (A + P / L / (k * B)), rs = (k - 1) * (A + G / L / (k * B));

    sharded(&c, SIM_SHARD_FULL, k, 1, L, 1);
    if (run(&c, &r))
        {
            T_CHECK(0, "zero3 runs");
            return;
        }
    /* a unit's forward (30 ms) outlasts its gather (15 ms), its backward
     * (60 ms) the gather and reduction together (45 MB at 1 GB/s): only the
     * first gather and the last reduction stay exposed */
    T_NEAR(r.exposed_comm_s, ag + rs, 1e-9, "exposed: the first gather and the last reduction");
    T_NEAR(r.step_mean_s, 0.3 + 0.6 + 0.01 + ag + rs, 1e-9, "step: compute, optimizer, the two");
    T_NEAR(r.compute_s, 0.9, 1e-9, "compute as given");
}

static void each_stage_moves_its_bytes(void)
{
    struct sim_config c;
    struct sim_result r;
    int k = 4;
    double f = (k - 1.0) / k;
    struct {
        enum sim_shard mode;
        int mb;
        double bytes;
        const char *what;
    } cases[] = {
        {SIM_SHARD_FULL, 1, f * (2 * P + G), "zero3: two gathers and a reduction"},
        {SIM_SHARD_FULL, 2, f * 2 * (2 * P + G), "zero3, 2 micro-batches: each its own"},
        {SIM_SHARD_OPT, 2, f * (P + G), "zero1, 2 micro-batches: one gather, one reduction"},
        {SIM_SHARD_OPT_GRAD, 2, f * (P + 2 * G), "zero2, 2 micro-batches: one gather, two reductions"},
    };

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sharded(&c, cases[i].mode, k, 1, 8, cases[i].mb);
        if (run(&c, &r))
            {
            T_CHECK(0, "%s runs", cases[i].what);
            return;
        }
        T_NEAR(nic_bytes(&r) / cases[i].bytes, 1, 1e-6, "%s: %.4g bytes a step (want %.4g)",
               cases[i].what, nic_bytes(&r), cases[i].bytes);
    }
}

static void hybrid_sends_only_the_node_shards_across(void)
{
    struct sim_config c;
    struct sim_result r;
    int nodes = 2, wpn = 4;

    sharded(&c, SIM_SHARD_HYBRID, nodes, wpn, 8, 1);
    if (run(&c, &r))
        {
            T_CHECK(0, "hsdp runs");
            return;
        }
    /* wpn rings of one rank a node all-reduce G / wpn each: 2(n-1)/n G a node */
    T_NEAR(nic_bytes(&r) / (2.0 * (nodes - 1) / nodes * G), 1, 1e-6,
           "hsdp: the NIC carries the node shards' all-reduce only (%.4g bytes)", nic_bytes(&r));
    sharded(&c, SIM_SHARD_FULL, nodes, wpn, 8, 1);
    if (run(&c, &r))
        {
            T_CHECK(0, "zero3 runs");
            return;
        }
    T_CHECK(nic_bytes(&r) > 1.2 * G, "zero3 over the same nodes sends more (%.4g bytes)",
            nic_bytes(&r));
}

static void collectives_in_flight_slow_compute(void)
{
    struct sim_config c;
    struct sim_result r0, r1;

    sharded(&c, SIM_SHARD_FULL, 4, 1, 10, 1);
    if (run(&c, &r0))
        {
            T_CHECK(0, "zero3 runs");
            return;
        }
    c.groups[0].comm_slowdown = 1.5;
    if (run(&c, &r1))
        {
            T_CHECK(0, "zero3 with a slowdown runs");
            return;
        }
    T_CHECK(r0.comm_interference_s == 0, "no slowdown, no time lost (%g)", r0.comm_interference_s);
    T_CHECK(r1.comm_interference_s > 0.05 && r1.step_mean_s > r0.step_mean_s + 0.05,
            "a 1.5x slowdown while gathers run costs time: %.4f s lost, step %.4f -> %.4f",
            r1.comm_interference_s, r0.step_mean_s, r1.step_mean_s);
    T_NEAR(r1.compute_s, r0.compute_s, 1e-9, "compute itself is unchanged");
}

static void one_rank_is_not_sharded(void)
{
    struct sim_config c;
    struct sim_result r0, r1;

    sharded(&c, SIM_SHARD_NONE, 1, 1, 10, 1);
    if (run(&c, &r0))
        {
            T_CHECK(0, "one rank runs");
            return;
        }
    c.c.shard = SIM_SHARD_FULL;
    if (run(&c, &r1))
        {
            T_CHECK(0, "one rank, zero3, runs");
            return;
        }
    T_NEAR(r1.step_mean_s, r0.step_mean_s, 1e-12, "one rank: the same step with or without");
}

static void auto_names_the_sharded_collectives(void)
{
    struct sim_config c;
    struct sim_coll_choice ch[8];
    int n;

    sharded(&c, SIM_SHARD_FULL, 4, 8, 10, 1);
    c.c.strategy = SIM_AUTO;
    c.groups[0].gpu_cc = 90;
    c.groups[0].link = SIM_LINK_NVSWITCH;
    c.groups[0].nics = 8;
    n = sim_collectives(&c, ch, 8);
    T_CHECK(n == 2 && strcmp(ch[0].collective, "all_gather") == 0 && ch[0].bytes == P / 10 &&
                strcmp(ch[1].collective, "reduce_scatter") == 0 && ch[1].bytes == G / 10,
            "zero3: a unit's all-gather and reduce-scatter (%d)", n);
    c.c.shard = SIM_SHARD_HYBRID;
    n = sim_collectives(&c, ch, 8);
    T_CHECK(n == 3 && strcmp(ch[2].collective, "all_reduce") == 0 && ch[2].bytes == G / 10 / 8,
            "hsdp: and the node shard's all-reduce across (%d)", n);
    c.c.shard = SIM_SHARD_NONE;
    n = sim_collectives(&c, ch, 8);
    T_CHECK(n >= 1 && strcmp(ch[0].collective, "all_reduce") == 0 && ch[0].bytes == 25e6,
            "unsharded: the buckets' all-reduce");
}

static void middle_micro_batches_repeat_exactly(void)
{
    enum sim_shard modes[] = {SIM_SHARD_OPT, SIM_SHARD_OPT_GRAD, SIM_SHARD_FULL, SIM_SHARD_HYBRID};
    const char *names[] = {"zero1", "zero2", "zero3", "hsdp"};

    for (int i = 0; i < 4; i++) {
        struct sim_config c;
        struct sim_result all, some;
        /* 7 micro-batches, a network slow enough that communication
         * bounds the step, with jitter and a slowdown */
        sharded(&c, modes[i], 2, 4, 6, 7);
        c.groups[0].nic_Bps = 2e8;
        c.groups[0].comm_slowdown = 1.3;
        c.jitter_cv = 0.05;
        c.c.all_micro_batches = 1;
        if (run(&c, &all)) {
            T_CHECK(0, "%s, every micro-batch, runs", names[i]);
            return;
        }
        c.c.all_micro_batches = 0;
        if (run(&c, &some)) {
            T_CHECK(0, "%s, three micro-batches, runs", names[i]);
            return;
        }
        /* zero1 and zero2 come out exact; zero3 and hsdp, whose gathers and
         * reductions share the NIC while it is the bottleneck, within 3e-5 */
        T_NEAR(some.step_mean_s / all.step_mean_s, 1, 1e-4, "%s: step %.6f s as simulated in full",
               names[i], all.step_mean_s);
        T_NEAR(some.exposed_comm_s / all.step_mean_s, all.exposed_comm_s / all.step_mean_s, 1e-4,
               "%s: exposed the same", names[i]);
        T_NEAR(some.comm_interference_s / all.step_mean_s,
               all.comm_interference_s / all.step_mean_s, 1e-4, "%s: slowdown the same", names[i]);
        T_NEAR(some.g[0].nic_tx_util, all.g[0].nic_tx_util, 1e-4, "%s: NIC load the same",
               names[i]);
    }
}

static void bad_sharded_configs_are_rejected(void)
{
    struct sim_config c;
    struct sim_result r;
    struct dt_err e;

    sharded(&c, SIM_SHARD_FULL, 4, 1, 0, 1);
    T_CHECK(sim_run(&c, &r, &e) != 0 && strstr(e.msg, "units"), "0 units: %s", e.msg);
    sharded(&c, SIM_SHARD_FULL, 4, 1, 1000, 10000);
    T_CHECK(sim_run(&c, &r, &e) != 0, "1e7 unit passes a step refused");
    sharded(&c, SIM_SHARD_FULL, 4, 1, 10, 1);
    c.c.param_bytes = NAN;
    T_CHECK(sim_run(&c, &r, &e) != 0, "unknown parameter bytes refused");
    sharded(&c, SIM_SHARD_FULL, 4, 1, 10, 1);
    c.c.strategy = SIM_PS_SYNC;
    T_CHECK(sim_run(&c, &r, &e) != 0 && strstr(e.msg, "sharding"), "sharded PS refused: %s",
            e.msg);
}

int main(void)
{
    T_RUN(gathers_hide_behind_compute_but_the_first_and_last);
    T_RUN(each_stage_moves_its_bytes);
    T_RUN(hybrid_sends_only_the_node_shards_across);
    T_RUN(collectives_in_flight_slow_compute);
    T_RUN(one_rank_is_not_sharded);
    T_RUN(auto_names_the_sharded_collectives);
    T_RUN(middle_micro_batches_repeat_exactly);
    T_RUN(bad_sharded_configs_are_rejected);
    return T_DONE();
}
