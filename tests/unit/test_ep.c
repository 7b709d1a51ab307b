/*
 * test_ep.c - expert parallelism's all-to-alls in the simulator (sim/ep.c)
 * against hand-computed answers: alone, each takes the slower of its
 * NVLink share and its node's NIC share, and the layers wait for them;
 * beside the data-parallel reductions on the same NICs they take longer;
 * under overlap only the planner's exposed share is waited for, unless the
 * network holds them back; after a layer's tensor-parallel collectives, in
 * turn; and bad configs.
 */
#include "t.h"

#include <math.h>
#include <string.h>

#include "../../sim/sim.h"
#include "t_sim.h"

#define BI 1e11    /* GPU link bytes/s a GPU */
#define BN 1e10    /* NIC bytes/s a node */
#define NV 2e7     /* one all-to-all's bytes a GPU over NVLink */
#define NN 5e6     /* and to other nodes */
#define L 8        /* layers */

/* nodes x gpus, ring collectives, L layers, fwd 0.3 s and bwd 0.6 s a GPU,
 * unsharded, m micro-batches, grad bytes g; ep over every GPU, one
 * all-to-all a layer's forward and two its backward, all waited for. */
static void moe(struct sim_config *c, int nodes, int gpus, int m, double g)
{
    memset(c, 0, sizeof *c);
    c->ngroups = 1;
    c->groups[0] = (struct sim_group){
        .role = SIM_TRAIN, .count = nodes, .gpus = gpus, .vcpus = 8, .loader_vcpus = 8,
        .core_speed = 1, .nic_Bps = BN, .net_alpha_s = 0, .intra_Bps = BI,
        .intra_alpha_s = 0, .pcie_Bps = 1e10, .fwd_s = 0.3, .bwd_s = 0.6, .opt_s = 0.01};
    c->w = (struct sim_workload){.batch = m, .accum = m, .grad_bytes = g, .loader_workers = 1,
                                 .prefetch = 1};
    c->c = (struct sim_comm){.strategy = SIM_RING, .bucket_bytes = 25e6, .overlap = 1,
                             .units = L, .micro_batches = m, .all_micro_batches = 1,
                             .ep = nodes * gpus, .ep_nvl_bytes = NV, .ep_net_bytes = NN,
                             .ep_fwd = 1, .ep_bwd = 2, .ep_exposed = 1};
    c->fabric_oversub = 1;
    c->steps = 3;
    c->warmup = 1;
    c->seed = 1;
}

/* One all-to-all alone on nodes of gpus: NVLink's share or the node's NICs'. */
static double one(int gpus)
{
    return fmax(NV / BI, gpus * NN / BN);
}

static void layers_wait_for_their_all_to_alls(void)
{
    struct sim_config c;
    struct sim_result r;
    double all;

    moe(&c, 2, 8, 2, 8);
    if (run(&c, &r)) {
        T_CHECK(0, "ep 16 over two nodes runs");
        return;
    }
    /* 8 x 5 MB of a node's GPUs over 10 GB/s: 4 ms, against 0.2 ms of NVLink */
    all = 2 * L * 3 * one(8);
    T_NEAR(r.ep_comm_s, all, 1e-9, "two micro-batches of 8 layers, 3 all-to-alls each at "
           "%.4f s: %.4f s a step", one(8), all);
    T_NEAR(r.step_mean_s - r.exposed_comm_s, 0.3 + 0.6 + 0.01, 1e-6,
           "the rest of the step is compute and the optimizer");
    T_CHECK(r.g[0].nic_tx_util > 0 && r.g[0].intra_util > 0, "they load the NICs and the GPU "
            "links (%.3f, %.3f)", r.g[0].nic_tx_util, r.g[0].intra_util);
    /* inside one node: NVLink alone */
    moe(&c, 1, 8, 2, 8);
    c.c.ep_net_bytes = 0;
    if (run(&c, &r) == 0)
        T_NEAR(r.ep_comm_s, 2 * L * 3 * NV / BI, 1e-9, "ep 8 in a node: NVLink's share alone");
}

static void beside_the_reductions_they_take_longer(void)
{
    struct sim_config c;
    struct sim_result r0, r1;

    moe(&c, 2, 8, 1, 8);
    if (run(&c, &r0))
        return;
    /* 16 GB of gradients, all-reduced a layer at a time after each layer's
     * backward (2 GB: longer than the next layer's backward), on the same
     * NICs as the backward's all-to-alls */
    moe(&c, 2, 8, 1, 1.6e10);
    if (run(&c, &r1)) {
        T_CHECK(0, "ep with data-parallel gradients runs");
        return;
    }
    T_CHECK(r1.ep_comm_s > 1.05 * r0.ep_comm_s, "the all-to-alls beside the reductions: %.4f s "
            "against %.4f s alone", r1.ep_comm_s, r0.ep_comm_s);
}

static void overlap_waits_for_the_exposed_share(void)
{
    struct sim_config c;
    struct sim_result r;
    double a = one(8);

    moe(&c, 2, 8, 2, 8);
    c.c.ep_overlap = 1;
    c.c.ep_exposed = 0.4;
    if (run(&c, &r)) {
        T_CHECK(0, "ep overlap runs");
        return;
    }
    /* each use's all-to-alls run under its compute (37.5 ms and 75 ms
     * against 4 ms and 8 ms): only the exposed share is waited for */
    T_NEAR(r.ep_comm_s, 0.4 * 2 * L * 3 * a, 1e-9, "0.4 of their time alone: %.5f s",
           0.4 * 2 * L * 3 * a);
    /* a compute shorter than them (1 ms a use): the flows outlast the hold */
    c.groups[0].fwd_s = c.groups[0].bwd_s = 1e-3 * L * 2;
    c.c.ep_exposed = 0.1;
    if (run(&c, &r) == 0) {
        double f = fmax(a - 1e-3, 0.1 * a), b = fmax(2 * a - 1e-3, 0.2 * a);
        T_NEAR(r.ep_comm_s, 2 * L * (f + b), 1e-8, "what outlasts a 1 ms use is waited for: "
               "%.5f s", 2 * L * (f + b));
    }
}

static void after_the_tensor_parallel_collectives(void)
{
    struct sim_config c;
    struct sim_result r, r0;
    int tp = 2;
    double A = 1e7, ar = 2.0 * (tp - 1) * (A / (tp * BI));

    moe(&c, 2, 8, 1, 8);
    c.c.tp = tp;
    c.c.tp_bytes = A;
    if (run(&c, &r)) {
        T_CHECK(0, "tp 2 with ep 16 runs");
        return;
    }
    T_NEAR(r.tp_comm_s, 2 * L * 2 * ar, 1e-9, "the layers' all-reduces as tp alone (%.6f s)",
           2 * L * 2 * ar);
    T_NEAR(r.ep_comm_s, L * 3 * one(8), 1e-9, "then the all-to-alls, each use's in turn");
    c.c.ep = 0;
    c.c.ep_nvl_bytes = c.c.ep_net_bytes = 0;
    if (run(&c, &r0) == 0)
        T_NEAR(r.step_mean_s - r0.step_mean_s, r.ep_comm_s, 1e-9,
               "the step grows by the all-to-alls");
}

static void bad_configs_are_refused(void)
{
    struct sim_config c;
    struct sim_result r;
    struct dt_err e;

    moe(&c, 2, 8, 1, 8);
    c.c.ep_exposed = 0;
    T_CHECK(sim_run(&c, &r, &e) != 0 && strstr(e.msg, "exposed"), "no exposed share: %s",
            e.msg);
    moe(&c, 2, 8, 1, 8);
    c.c.ep_net_bytes = NAN;
    T_CHECK(sim_run(&c, &r, &e) != 0 && strstr(e.msg, "all-to-alls"), "NaN bytes: %s", e.msg);
    moe(&c, 2, 8, 1, 8);
    c.c.ep_fwd = -1;
    T_CHECK(sim_run(&c, &r, &e) != 0, "a negative count refused");
    moe(&c, 2, 8, 1, 8);
    c.c.strategy = SIM_PS_SYNC;
    T_CHECK(sim_run(&c, &r, &e) != 0 && strstr(e.msg, "expert"), "under a parameter server: %s",
            e.msg);
}

int main(void)
{
    T_RUN(layers_wait_for_their_all_to_alls);
    T_RUN(beside_the_reductions_they_take_longer);
    T_RUN(overlap_waits_for_the_exposed_share);
    T_RUN(after_the_tensor_parallel_collectives);
    T_RUN(bad_configs_are_refused);
    return T_DONE();
}
