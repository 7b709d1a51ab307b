/*
 * test_sim.c - the simulation core against hand-computed answers: event
 * order, max-min sharing, each collective's closed form on an uncontended
 * network, and the overlap of the input pipeline with compute.
 */
#include "t.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

#include "../../sim/coll.h"
#include "../../sim/evq.h"
#include "../../sim/maxmin.h"
#include "../../sim/nccl.h"
#include "../../sim/input.h"
#include "../../sim/sim.h"

static void events_pop_in_time_order_and_ties_in_push_order(void)
{
    struct evq q;
    struct evq_event ev;
    double want_t[] = {0.5, 1.0, 1.0, 1.0, 2.0, 3.0};
    int want_a[] = {4, 1, 2, 5, 0, 3};
    int ok = 1, i = 0;

    evq_init(&q);
    evq_push(&q, 2.0, 0, 0, 0, 0);
    evq_push(&q, 1.0, 0, 1, 0, 0);
    evq_push(&q, 1.0, 0, 2, 0, 0);
    evq_push(&q, 3.0, 0, 3, 0, 0);
    evq_push(&q, 0.5, 0, 4, 0, 0);
    evq_push(&q, 1.0, 0, 5, 0, 0);
    while (evq_pop(&q, &ev)) {
        if (i >= 6 || ev.t != want_t[i] || ev.a != want_a[i])
            ok = 0;
        i++;
    }
    T_CHECK(ok && i == 6, "six events come out by time, equal times in push order");
    T_CHECK(isinf(evq_peek_time(&q)), "an empty queue peeks at infinity");
    evq_free(&q);
}

static void events_survive_many_random_pushes(void)
{
    struct evq q;
    struct evq_event ev;
    double last = -1;
    int ok = 1, n = 0;
    unsigned x = 12345;

    evq_init(&q);
    for (int i = 0; i < 10000; i++) {
        x = x * 1103515245u + 12345u;
        evq_push(&q, (x >> 8) % 1000, 0, i, 0, 0);
    }
    while (evq_pop(&q, &ev)) {
        if (ev.t < last)
            ok = 0;
        last = ev.t;
        n++;
    }
    T_CHECK(ok && n == 10000, "10,000 random events pop in non-decreasing time");
    evq_free(&q);
}

static void two_flows_on_one_link_get_half_each(void)
{
    struct maxmin m;
    struct mm_use u;
    int r, a, b;

    mm_init(&m);
    r = mm_add_res(&m, 10);
    u.res = r;
    u.w = 1;
    a = mm_add_flow(&m, 100, INFINITY, &u, 1, 0, 0, 0, 0);
    b = mm_add_flow(&m, 100, INFINITY, &u, 1, 0, 0, 0, 0);
    mm_solve(&m);
    /* 10 shared by two: 5 each. */
    T_NEAR(m.flows[a].rate, 5, 1e-12, "flow a on a shared 10 B/s link");
    T_NEAR(m.flows[b].rate, 5, 1e-12, "flow b on a shared 10 B/s link");
    mm_free(&m);
}

static void a_flow_limited_elsewhere_leaves_the_rest_to_the_other(void)
{
    struct maxmin m;
    struct mm_use ua[1], ub[2];
    int r1, r2, a, b;

    mm_init(&m);
    r1 = mm_add_res(&m, 10);
    r2 = mm_add_res(&m, 2);
    ua[0] = (struct mm_use){r1, 1};
    ub[0] = (struct mm_use){r1, 1};
    ub[1] = (struct mm_use){r2, 1};
    a = mm_add_flow(&m, 1, INFINITY, ua, 1, 0, 0, 0, 0);
    b = mm_add_flow(&m, 1, INFINITY, ub, 2, 0, 0, 0, 0);
    mm_solve(&m);
    /* b saturates r2 at 2; a takes the remaining 10 - 2 = 8 of r1. */
    T_NEAR(m.flows[b].rate, 2, 1e-12, "flow b bottlenecked on the 2 B/s link");
    T_NEAR(m.flows[a].rate, 8, 1e-12, "flow a gets what b leaves on r1");
    T_NEAR(m.res[r1].load, 10, 1e-12, "r1 is saturated");
    mm_free(&m);
}

static void multiplicity_counts_identical_flow_instances(void)
{
    struct maxmin m;
    struct mm_use ua, ub;
    int r, a, b;

    mm_init(&m);
    r = mm_add_res(&m, 12);
    ua = (struct mm_use){r, 3};
    ub = (struct mm_use){r, 1};
    a = mm_add_flow(&m, 1, INFINITY, &ua, 1, 0, 0, 0, 0);
    b = mm_add_flow(&m, 1, INFINITY, &ub, 1, 0, 0, 0, 0);
    mm_solve(&m);
    /* Four instances (3 of a, 1 of b) share 12: 3L + L = 12, L = 3 each. */
    T_NEAR(m.flows[a].rate, 3, 1e-12, "each of a's three instances");
    T_NEAR(m.flows[b].rate, 3, 1e-12, "b's single instance");
    mm_free(&m);
}

static void a_bounded_flow_stops_at_its_bound(void)
{
    struct maxmin m;
    struct mm_use u;
    int r, a, b;

    mm_init(&m);
    r = mm_add_res(&m, 10);
    u = (struct mm_use){r, 1};
    a = mm_add_flow(&m, 1, 1.0, &u, 1, 0, 0, 0, 0);
    b = mm_add_flow(&m, 1, INFINITY, &u, 1, 0, 0, 0, 0);
    mm_solve(&m);
    T_NEAR(m.flows[a].rate, 1, 1e-12, "a bounded at 1");
    T_NEAR(m.flows[b].rate, 9, 1e-12, "b takes the other 9");
    mm_free(&m);
}

static void three_resources_classic_case(void)
{
    /* Links L1 = 1, L2 = 2; flows: f0 on L1+L2, f1 on L1, f2 on L2.
     * L1 saturates first at 0.5 each (f0, f1); f2 gets 2 - 0.5 = 1.5. */
    struct maxmin m;
    struct mm_use u0[2], u1[1], u2[1];
    int l1, l2, f0, f1, f2;

    mm_init(&m);
    l1 = mm_add_res(&m, 1);
    l2 = mm_add_res(&m, 2);
    u0[0] = (struct mm_use){l1, 1};
    u0[1] = (struct mm_use){l2, 1};
    u1[0] = (struct mm_use){l1, 1};
    u2[0] = (struct mm_use){l2, 1};
    f0 = mm_add_flow(&m, 1, INFINITY, u0, 2, 0, 0, 0, 0);
    f1 = mm_add_flow(&m, 1, INFINITY, u1, 1, 0, 0, 0, 0);
    f2 = mm_add_flow(&m, 1, INFINITY, u2, 1, 0, 0, 0, 0);
    mm_solve(&m);
    T_NEAR(m.flows[f0].rate, 0.5, 1e-12, "f0 shares L1");
    T_NEAR(m.flows[f1].rate, 0.5, 1e-12, "f1 shares L1");
    T_NEAR(m.flows[f2].rate, 1.5, 1e-12, "f2 takes the rest of L2");
    mm_free(&m);
}

/* A config whose step is only the collective of one bucket of S bytes. */
static void comm_only(struct sim_config *c, enum sim_strategy st, int nodes, int gpus, double S)
{
    memset(c, 0, sizeof *c);
    c->ngroups = 1;
    c->groups[0] = (struct sim_group){
        .role = SIM_TRAIN, .count = nodes, .gpus = gpus, .vcpus = 8, .loader_vcpus = 8,
        .core_speed = 1, .nic_Bps = 1e9, .net_alpha_s = 20e-6, .intra_Bps = 1e11,
        .intra_alpha_s = 2e-6, .pcie_Bps = 1e10};
    c->w = (struct sim_workload){.batch = 1, .grad_bytes = S, .loader_workers = 1, .prefetch = 1};
    c->c = (struct sim_comm){.strategy = st, .bucket_bytes = S, .overlap = 0};
    c->fabric_oversub = 1;
    c->steps = 4;
    c->warmup = 1;
    c->seed = 1;
}

/* comm_only with p dedicated parameter-server nodes of the workers' link. */
static void comm_only_ps(struct sim_config *c, enum sim_strategy st, int nodes, int p, double S)
{
    comm_only(c, st, nodes, 0, S);
    c->ngroups = 2;
    c->groups[1] = (struct sim_group){.role = SIM_PS, .count = p, .vcpus = 8, .loader_vcpus = 0,
                                      .core_speed = 1, .nic_Bps = c->groups[0].nic_Bps,
                                      .net_alpha_s = c->groups[0].net_alpha_s};
    c->c.ps_dedicated = 1;
    c->c.ps_servers = p;
}

static double step_of(const struct sim_config *c)
{
    struct sim_result r;
    struct dt_err e;
    if (sim_run(c, &r, &e)) {
        printf("# sim error: %s\n", e.msg);
        return NAN;
    }
    return r.step_mean_s;
}

static void ring_matches_its_closed_form(void)
{
    struct sim_config c;
    double S = 100e6, B = 1e9, a = 20e-6;
    int ks[] = {2, 4, 16, 1024};

    for (int i = 0; i < 4; i++) {
        int k = ks[i];
        comm_only(&c, SIM_RING, k, 0, S);
        /* 2(k-1)(a + S/(kB)) over k single-worker nodes. */
        T_NEAR(step_of(&c), 2.0 * (k - 1) * (a + S / (k * B)), 1e-9,
               "ring all-reduce over %d nodes", k);
    }
    comm_only(&c, SIM_RING, 1, 8, S);
    /* One node of 8 GPUs on a 1e11 B/s link, 2 us per hop. */
    T_NEAR(step_of(&c), 2.0 * 7 * (2e-6 + S / (8 * 1e11)), 1e-9, "ring inside one 8-GPU node");
}

static void flows_finish_after_a_very_long_compute(void)
{
    struct sim_config c;
    double S = 1e3, B = 1e9, a = 20e-6;

    /* A collective of 1 kB after 1e9 s of compute: at that clock 1e9 + 1e-6
     * rounds to 1e9, and the loop must still finish the flows. */
    comm_only(&c, SIM_RING, 2, 0, S);
    c.groups[0].fwd_s = 1e9 / 3;
    c.groups[0].bwd_s = 2e9 / 3;
    c.steps = 2;
    T_NEAR(step_of(&c), 1e9 + 2 * (a + S / (2 * B)), 1e-9, "a 1 kB ring after 1e9 s of compute");
}

/* Horovod's background loop: a bucket waits for the loop's next tick, so a
 * step shorter than the cycle lasts one cycle and one a little longer two. */
static void collectives_wait_for_the_next_tick(void)
{
    struct sim_config c;
    struct sim_result r;
    struct dt_err e;
    double S = 1e3, B = 1e9, a = 20e-6, cyc = 5e-3, comm = 2 * (a + S / (2 * B));

    comm_only(&c, SIM_RING, 2, 0, S);
    c.groups[0].fwd_s = 0.4e-3;
    c.groups[0].bwd_s = 0.6e-3;
    c.steps = 6;
    T_NEAR(step_of(&c), 1e-3 + comm, 1e-9, "no cycle: compute and the ring");
    c.c.cycle_s = cyc;
    /* Ready at 1 ms, started at the 5 ms tick; every later step likewise. */
    T_NEAR(step_of(&c), cyc, 1e-9, "1 ms of compute on a 5 ms cycle: one cycle per step");
    c.groups[0].fwd_s = 2.4e-3;
    c.groups[0].bwd_s = 3.6e-3;
    T_NEAR(step_of(&c), 2 * cyc, 1e-9, "6 ms of compute on a 5 ms cycle: two cycles per step");
    c.c.strategy = SIM_PS_ASYNC;
    T_CHECK(sim_run(&c, &r, &e) != 0 && strstr(e.msg, "cycle"),
            "a cycle with parameter servers is rejected: %s", e.msg);
    comm_only(&c, SIM_RING, 2, 0, S);
    c.c.cycle_s = -1;
    T_CHECK(sim_run(&c, &r, &e) != 0, "a negative cycle is rejected: %s", e.msg);
}

static void tree_and_halving_doubling_match_their_closed_forms(void)
{
    struct sim_config c;
    double S = 64e6, B = 1e9, a = 20e-6;

    comm_only(&c, SIM_TREE, 8, 0, S);
    /* 2 log2(8) a + 2(k-1)S/(kB) */
    T_NEAR(step_of(&c), 2 * 3 * a + 2.0 * 7 / 8 * S / B, 1e-9, "tree over 8 nodes");
    comm_only(&c, SIM_HALVING_DOUBLING, 16, 0, S);
    T_NEAR(step_of(&c), 2 * 4 * a + 2.0 * 15 / 16 * S / B, 1e-9, "halving-doubling over 16 nodes");
}

static void hierarchical_matches_its_closed_form(void)
{
    struct sim_config c;
    double S = 80e6, B = 1e9, a = 20e-6, Bi = 1e11, ai = 2e-6;
    int g = 8, n = 4;

    comm_only(&c, SIM_HIERARCHICAL, n, g, S);
    /* 2 (g-1)(ai + S/(g Bi)) + 2(n-1)(a + S/(n B)): the g ranks' shards of
     * S/g share the node NIC, so the inter-node phase moves S per node. */
    T_NEAR(step_of(&c), 2.0 * (g - 1) * (ai + S / (g * Bi)) + 2.0 * (n - 1) * a +
                            2.0 * (n - 1) / n * S / B,
           1e-9, "hierarchical over 4 nodes of 8 GPUs");
}

static void dedicated_parameter_servers_see_incast(void)
{
    struct sim_config c;
    double S = 100e6, B = 1e9, a = 20e-6;
    int n = 8, p = 2;

    comm_only_ps(&c, SIM_PS_SYNC, n, p, S);
    /* Push: each PS node receives n*S/p = 400 MB at 1 GB/s = 0.4 s (the
     * workers' S at 1 GB/s would take 0.1 s); pull the same; no summation
     * cost; push and pull of a single bucket are sequential. */
    T_NEAR(step_of(&c), 2 * (a + n * S / (p * B)), 1e-9, "sync PS, 8 workers, 2 servers");
    c.groups[1].count = 8;
    c.c.ps_servers = 8;
    /* k = n servers: max(S/B, nS/(kB)) = S/B each way (BytePS, non-colocated). */
    T_NEAR(step_of(&c), 2 * (a + S / B), 1e-9, "sync PS, 8 workers, 8 servers");
}

static void expected_max_load_matches_hand_counts(void)
{
    gsl_rng *r;
    double mean = 0, sq = 0;
    int trials = 20000, counts[64];

    T_NEAR(coll_expected_max_load(1, 8), 1, 0, "one ball");
    T_NEAR(coll_expected_max_load(5, 1), 5, 0, "one bin");
    T_NEAR(coll_expected_max_load(0, 4), 0, 0, "no balls");
    /* Two balls: together with probability 1/n. */
    T_NEAR(coll_expected_max_load(2, 2), 1.5, 1e-12, "2 balls, 2 bins");
    T_NEAR(coll_expected_max_load(2, 8), 1.125, 1e-12, "2 balls, 8 bins");
    /* 3 in 3: all apart 6/27 (1), all together 3/27 (3), else 2: 51/27. */
    T_NEAR(coll_expected_max_load(3, 3), 51.0 / 27, 1e-12, "3 balls, 3 bins");
    /* 4 in 2: split 2-2 with 6/16, 3-1 with 8/16, 4-0 with 2/16: 44/16. */
    T_NEAR(coll_expected_max_load(4, 2), 44.0 / 16, 1e-12, "4 balls, 2 bins");
    /* 64 in 64 against a seeded sample, within 4 standard errors. */
    r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    for (int t = 0; t < trials; t++) {
        int mx = 0;
        memset(counts, 0, sizeof counts);
        for (int b = 0; b < 64; b++) {
            int c = ++counts[gsl_rng_uniform_int(r, 64)];
            mx = c > mx ? c : mx;
        }
        mean += mx;
        sq += (double)mx * mx;
    }
    gsl_rng_free(r);
    mean /= trials;
    T_NEAR(coll_expected_max_load(64, 64), mean, 4 * sqrt((sq / trials - mean * mean) / trials),
           "64 balls, 64 bins against %d samples", trials);
}

static void servers_taking_pushes_in_turn_collide_on_worker_links(void)
{
    struct sim_config c;
    double S = 100e6, B = 1e9, a = 20e-6;
    int n = 2, p = 2;

    comm_only_ps(&c, SIM_PS_SYNC, n, p, S);
    c.c.ps_in_turn = 1;
    /* 2 workers, 2 servers: in each of the 2 rounds both servers take the
     * same worker with probability 1/2, and that worker sends two shards of
     * S/2 at once: push 2 x 1.5 x S/(2B) = 1.5 S/B; the pull (all at once)
     * S/B.  Taken together the push would be S/B. */
    T_NEAR(step_of(&c), 2 * a + 2.5 * S / B, 1e-9, "in turn, 2 workers, 2 servers");
    c.c.ps_in_turn = 0;
    T_NEAR(step_of(&c), 2 * (a + S / B), 1e-9, "together, 2 workers, 2 servers");
    /* 8 workers, 2 servers: collisions with probability 1/8 per round,
     * 8 x 1.125 x S/(2B) = 4.5 S/B against the servers' 8 S/(2B) = 4 S/B. */
    comm_only_ps(&c, SIM_PS_SYNC, 8, p, S);
    c.c.ps_in_turn = 1;
    T_NEAR(step_of(&c), 2 * a + 4.5 * S / B + 4 * S / B, 1e-9, "in turn, 8 workers, 2 servers");
    /* One server on a link 10x faster: taken in turn it receives at the
     * workers' rate, 8 S/B; taken together, 8 S/(10 B) < S/B, so S/B. */
    c.groups[1].count = 1;
    c.groups[1].nic_Bps = 10 * B;
    c.c.ps_servers = 1;
    T_NEAR(step_of(&c), 2 * a + 8 * S / B + S / B, 1e-9, "in turn, one fast server");
    c.c.ps_in_turn = 0;
    T_NEAR(step_of(&c), 2 * a + S / B + S / B, 1e-9, "together, one fast server");
}

static void a_step_waits_for_the_first_pull_only(void)
{
    struct sim_config c;
    struct sim_result r;
    struct dt_err e;
    double S = 100e6, B = 1e9, a = 20e-6;

    /* 2 workers, 1 server: push 2 S/B (the server's receive), pull 2 S/B
     * (its transmit); the first pull ends at 0.75 of it: 1.5 S/B. */
    comm_only_ps(&c, SIM_PS_SYNC, 2, 1, S);
    T_NEAR(step_of(&c), 2 * a + 4 * S / B, 1e-9, "pulls that end together");
    c.c.ps_first_pull = 0.75;
    T_NEAR(step_of(&c), 2 * a + 3.5 * S / B, 1e-9, "the first pull at 0.75");
    /* Never before 1/n: the last of 4 workers still pulls before its turn
     * to push comes, after the 3 others: 4 S/B push, 4 S/B x 1/4 pull. */
    comm_only_ps(&c, SIM_PS_SYNC, 4, 1, S);
    c.c.ps_first_pull = 0.1;
    T_NEAR(step_of(&c), 2 * a + 5 * S / B, 1e-9, "the first pull no earlier than 1/n");
    /* Synchronous dedicated servers only; a fraction in [0, 1]. */
    c.c.ps_first_pull = 1.5;
    T_CHECK(sim_run(&c, &r, &e) == -1 && strstr(e.msg, "first pull"), "above 1 rejected");
    c.c.ps_first_pull = 0.8;
    c.c.strategy = SIM_PS_ASYNC;
    T_CHECK(sim_run(&c, &r, &e) == -1 && strstr(e.msg, "ps_sync"), "asynchronous rejected");
}

static void listed_buckets_come_first(void)
{
    struct sim_config c;
    double S = 100e6, B = 1e9, a = 20e-6;
    double list[2] = {10e6, 20e6}, longer[3] = {60e6, 60e6, 60e6};
    struct sim_comm cc = {.bucket_bytes = 40e6};

    T_CHECK(sim_bucket_count(&cc, S) == 3, "100 MB in 40 MB buckets: 3 (got %d)", sim_bucket_count(&cc, S));
    cc.bucket_list = list;
    cc.nbucket_list = 2;
    /* 10 and 20 MB listed, then 40 MB and the last 30 MB. */
    T_CHECK(sim_bucket_count(&cc, S) == 4, "listed 10 + 20, then 40 + 30: 4 (got %d)", sim_bucket_count(&cc, S));
    T_CHECK(sim_bucket_count(&cc, 25e6) == 2, "25 MB ends in the second listed bucket (got %d)",
            sim_bucket_count(&cc, 25e6));
    cc.bucket_list = longer;
    cc.nbucket_list = 3;
    T_CHECK(sim_bucket_count(&cc, S) == 2, "a list longer than the gradient ends with it (got %d)",
            sim_bucket_count(&cc, S));

    /* Ring over 2 nodes without overlap, buckets in a row: each bucket b
     * takes 2(a + S_b/(2B)), so 4 buckets take 8a + S/B whatever the sizes. */
    comm_only(&c, SIM_RING, 2, 0, S);
    c.c.bucket_bytes = 40e6;
    c.c.bucket_list = list;
    c.c.nbucket_list = 2;
    T_NEAR(step_of(&c), 8 * a + S / B, 1e-9, "ring, 2 nodes, buckets 10, 20, 40, 30 MB");
    /* With overlap and a backward pass of 1 s releasing bytes in
     * proportion: the listed 10 MB bucket is out at 0.1 s, and everything
     * but the last 30 MB bucket is shared before backward ends, so the step
     * is 1 s + the last bucket, 2(a + 15 ms). */
    c.c.overlap = 1;
    c.groups[0].bwd_s = 1;
    T_NEAR(step_of(&c), 1 + 2 * (a + 30e6 / (2 * B)), 1e-9, "overlapped: only the last bucket is exposed");
    c.c.nbucket_list = -1;
    {
        struct sim_result r;
        struct dt_err e;
        T_CHECK(sim_run(&c, &r, &e) != 0, "a negative list length is refused");
    }
}

static void a_serial_ps_does_one_bucket_at_a_time(void)
{
    struct sim_config c;
    double S = 100e6, B = 1e9, a = 20e-6;
    int n = 2, p = 2, nb = 4;

    comm_only_ps(&c, SIM_PS_SYNC, n, p, S);
    c.c.bucket_bytes = S / nb;
    /* 2 workers, 2 servers, 4 buckets of 25 MB: a worker's push of one bucket
     * sends 25 MB at 1 GB/s (each server receives 2 x 12.5 MB: as fast), so
     * push and pull take a + 25 ms each.  Serial: 4 x 2 x (a + 25 ms). */
    c.c.ps_serial = 1;
    T_NEAR(step_of(&c), nb * 2 * (a + S / nb / B), 1e-9, "serial PS, 4 buckets: 8 phases in a row");
    /* Pipelined: bucket b+1's push runs beside bucket b's pull (full duplex),
     * so 5 phase times: push 0, then 3 x (push b+1 | pull b), then pull 3. */
    c.c.ps_serial = 0;
    T_NEAR(step_of(&c), (nb + 1) * (a + S / nb / B), 1e-9, "pipelined PS, 4 buckets: 5 phase times");
}

static void async_workers_drift_apart_at_the_server(void)
{
    struct sim_config c;
    double S = 100e6, B = 1e9, u = S / B, d;

    comm_only_ps(&c, SIM_PS_ASYNC, 2, 1, S);
    c.groups[0].net_alpha_s = c.groups[1].net_alpha_s = 0;
    /* Two async workers, one server, u = S/B.  A push meets the other
     * worker's push with probability d (its push time over its step), so
     * push and pull take (1 + d) u each.  No compute: d = 1/2 whatever the
     * contention, step = 2 (1 + 1/2) u = 3u (lockstep would be 4u). */
    T_NEAR(step_of(&c), 3 * u, 1e-3, "async PS, 2 workers, no compute: 3 S/B");
    /* Compute C = u: d (C + 2(1+d)u) = (1+d)u, so 2d^2 + 2d - 1 = 0,
     * d = (sqrt(3) - 1)/2, step = u + 2(1+d)u = (2 + sqrt(3)) u. */
    c.groups[0].fwd_s = u / 3;
    c.groups[0].bwd_s = 2 * u / 3;
    d = (sqrt(3) - 1) / 2;
    T_NEAR(step_of(&c), u + 2 * (1 + d) * u, 1e-3, "async PS, 2 workers, compute = S/B: (2+sqrt 3) S/B");
}

/* Compute-only step with an input pipeline. */
/*
 * The input pipelines as the event loop sees them: a GPU train group with a
 * data group, keeping its own loader, gets the local producer (CPU, then
 * PCIe) first and then one service producer (data CPU, network, receive
 * CPU, PCIe).  Batch 10 x 0.01 s = 0.1 core-s, 10 x 1000 B = 1e4 B; the
 * service adds 1e4 x 1e-6 = 0.01 s to send and 1e4 x 2e-6 = 0.02 s to
 * receive, which the local loader pays too (it is one more consumer).
 */
static void pipelines_build_their_stages(void)
{
    struct sim_config c;
    struct input_line lines[4];
    struct input_ctx ctx;
    int r_cpu[2] = {0, 1}, r_pcie[2] = {2, -1}, r_tx[2] = {3, 4}, r_rx[2] = {5, 6}, n;

    memset(&c, 0, sizeof c);
    memset(lines, 0, sizeof lines);
    c.ngroups = 2;
    c.groups[0].role = SIM_TRAIN;
    c.groups[0].count = 2;
    c.groups[0].gpus = 4;
    c.groups[0].core_speed = 1.5;
    c.groups[1].role = SIM_DATA;
    c.groups[1].count = 4;
    c.w.batch = 10;
    c.w.cpu_s_per_sample = 0.01;
    c.w.prep_bytes = 1000;
    c.w.loader_workers = 3;
    c.w.local_with_data_nodes = 1;
    c.w.send_cpu_s_per_byte = 1e-6;
    c.w.recv_cpu_s_per_byte = 2e-6;
    memset(&ctx, 0, sizeof ctx);
    ctx.cfg = &c;
    ctx.g = 0;
    ctx.ranks = 8;
    ctx.ndata = 1;
    ctx.r_cpu = r_cpu;
    ctx.r_pcie = r_pcie;
    ctx.r_tx = r_tx;
    ctx.r_rx = r_rx;
    ctx.r_fabric = -1;
    n = input_build_all(&ctx, lines, 4);
    T_CHECK(n == 2, "a local and a service producer (%d)", n);
    T_CHECK(lines[0].nst == 2 && fabs(lines[0].st[0].amount - 0.13) < 1e-12 &&
                fabs(lines[0].st[0].bound - 4.5) < 1e-12 && lines[0].st[0].use[0].res == 0 &&
                lines[0].st[0].use[0].w == 4 && lines[0].st[1].amount == 1e4 &&
                lines[0].st[1].use[0].res == 2,
            "local: 0.13 core-s on the train CPU (3 workers x 1.5 bound, 4 GPUs share it), "
            "then 1e4 B over PCIe");
    T_CHECK(lines[1].nst == 4 && fabs(lines[1].st[0].amount - 0.11) < 1e-12 &&
                lines[1].st[0].use[0].res == 1 && lines[1].st[0].use[0].w == 2 &&
                lines[1].st[1].nuse == 2 && lines[1].st[1].use[0].res == 4 &&
                lines[1].st[1].use[1].res == 5 && fabs(lines[1].st[2].amount - 0.02) < 1e-12 &&
                lines[1].st[3].use[0].res == 2,
            "service: 0.11 core-s on the data CPU (8 streams over 4 nodes), the data NIC "
            "out and the train NIC in, 0.02 s to receive, then PCIe");
    c.w.local_with_data_nodes = 0;
    n = input_build_all(&ctx, lines, 4);
    T_CHECK(n == 1 && lines[0].nst == 4, "without local_with_data_nodes only the service feeds");
}

static void pipeline(struct sim_config *c, int prefetch)
{
    memset(c, 0, sizeof *c);
    c->ngroups = 1;
    c->groups[0] = (struct sim_group){
        .role = SIM_TRAIN, .count = 1, .gpus = 1, .vcpus = 4, .loader_vcpus = 4,
        .core_speed = 1, .nic_Bps = 1e9, .intra_Bps = 0, .pcie_Bps = 1e12,
        .fwd_s = 0.1, .bwd_s = 0.2, .opt_s = 0};
    c->w = (struct sim_workload){.batch = 100, .grad_bytes = 1e6, .cpu_s_per_sample = 0.008,
                                 .prep_bytes = 0, .loader_workers = 4, .prefetch = prefetch};
    c->c = (struct sim_comm){.strategy = SIM_RING, .bucket_bytes = 25e6, .overlap = 1};
    c->fabric_oversub = 1;
    c->steps = 10;
    c->warmup = 3;
    c->seed = 7;
}

static void prefetch_overlaps_loading_with_compute(void)
{
    struct sim_config c;

    /* load = 100 x 0.008 / 4 workers = 0.2 s; compute = 0.3 s. */
    pipeline(&c, 2);
    T_NEAR(step_of(&c), 0.3, 1e-9, "compute-bound with prefetch: max(0.3, 0.2)");
    pipeline(&c, 0);
    T_NEAR(step_of(&c), 0.5, 1e-9, "no prefetch: 0.3 + 0.2");
    pipeline(&c, 2);
    c.w.cpu_s_per_sample = 0.02; /* load 0.5 s */
    T_NEAR(step_of(&c), 0.5, 1e-9, "input-bound with prefetch: max(0.3, 0.5)");
    c.groups[0].loader_vcpus = 2; /* 4 workers on 2 vCPUs: 1.0 s */
    T_NEAR(step_of(&c), 1.0, 1e-9, "workers beyond the vCPUs do not help");
}

static void identical_ranks_cost_the_same_to_simulate(void)
{
    struct sim_config c;
    struct sim_result r8, r1k;
    struct dt_err e;

    comm_only(&c, SIM_RING, 1, 8, 1.5e9);
    c.c.bucket_bytes = 25e6;
    c.c.overlap = 1;
    c.groups[0].fwd_s = 0.1;
    c.groups[0].bwd_s = 0.2;
    sim_run(&c, &r8, &e);
    c.groups[0].count = 128;
    sim_run(&c, &r1k, &e);
    T_CHECK(r1k.events <= r8.events * 2, "1,024 GPUs take %ld events, 8 GPUs %ld", r1k.events, r8.events);
}

static void same_seed_same_result_other_seed_other_jitter(void)
{
    struct sim_config c;
    struct sim_result a, b, d;
    struct dt_err e;

    pipeline(&c, 2);
    c.jitter_cv = 0.05;
    c.groups[0].count = 64;
    sim_run(&c, &a, &e);
    sim_run(&c, &b, &e);
    c.seed = 8;
    sim_run(&c, &d, &e);
    T_CHECK(memcmp(&a, &b, sizeof a) == 0, "the same seed gives a bit-identical result");
    T_CHECK(a.step_mean_s != d.step_mean_s, "another seed draws other jitter");
    T_CHECK(a.step_mean_s > 0.3, "the slowest of 64 jittered ranks is slower than the mean rank (%.4f s)", a.step_mean_s);
}

static void bad_configs_are_rejected(void)
{
    struct sim_config c;
    struct sim_result r;
    struct dt_err e;

    pipeline(&c, 2);
    c.groups[0].count = 0;
    T_CHECK(sim_run(&c, &r, &e) != 0, "zero nodes rejected: %s", e.msg);
    pipeline(&c, 2);
    c.groups[0].fwd_s = NAN;
    T_CHECK(sim_run(&c, &r, &e) != 0, "an unknown compute time rejected: %s", e.msg);
}

/* Strategy auto: a bucket alone on the cluster takes the time NCCL's model
 * gives the pair it picks, on one H100 node (NVLS) and across 4 nodes. */
static void auto_takes_the_time_of_nccls_pick(void)
{
    struct sim_config c;
    struct sim_coll_choice ch[4];
    struct nccl_shape sh;
    struct nccl_model m;
    struct nccl_choice want;
    double S = 64.0 * 1048576;
    int nodes[] = {1, 4};

    for (int i = 0; i < 2; i++) {
        comm_only(&c, SIM_AUTO, nodes[i], 8, S);
        c.groups[0].gpu_cc = 90;
        c.groups[0].link = SIM_LINK_NVSWITCH;
        c.groups[0].intra_Bps = 370.8e9;
        c.groups[0].nic_Bps = 384e9;
        c.groups[0].nics = 8;
        T_CHECK(sim_nccl_shape(&c, &sh) == 0 && sh.nodes == nodes[i] && sh.ppn == 8,
                "%d node(s): the shape of the train group", nodes[i]);
        nccl_model_init(&m, &sh, NCCL_ALLREDUCE);
        nccl_pick(&m, S, &want);
        T_NEAR(step_of(&c), want.time_s, 1e-9, "%d node(s): one 64 MiB bucket by %s/%s in %.3f ms",
               nodes[i], nccl_algo_name(want.algo), nccl_proto_name(want.proto), want.time_s * 1e3);
        T_CHECK(sim_collectives(&c, ch, 4) == 1 && ch[0].bytes == S &&
                    strcmp(ch[0].algorithm, nccl_algo_name(want.algo)) == 0 &&
                    ch[0].time_s == want.time_s,
                "%d node(s): the report names the same choice", nodes[i]);
    }
    comm_only(&c, SIM_RING, 2, 8, S);
    T_CHECK(sim_collectives(&c, ch, 4) == 0, "no choice to report for an explicit ring");
}

/* A collective in flight slows backward by comm_slowdown f: two buckets of
 * S, the first released half-way through a 100 ms backward; its ring takes
 * T = 2(k-1)(a + S/(kB)) and backward loses T(1 - 1/f) to it; the second
 * runs after backward, exposed. */
static void collectives_in_flight_slow_backward(void)
{
    struct sim_config c;
    struct sim_result r;
    struct dt_err e;
    double S = 100e6, k = 8, T = 2 * (k - 1) * (2e-6 + S / (k * 1e11)), f = 1.25;

    comm_only(&c, SIM_RING, 1, 8, 2 * S);
    c.c.bucket_bytes = S;
    c.c.overlap = 1;
    c.groups[0].fwd_s = 0.05;
    c.groups[0].bwd_s = 0.1;
    c.groups[0].comm_slowdown = f;
    T_CHECK(sim_run(&c, &r, &e) == 0, "runs");
    T_NEAR(r.comm_interference_s, T * (1 - 1 / f), 1e-9, "backward loses T(1 - 1/f) = %.3f ms",
           T * (1 - 1 / f) * 1e3);
    T_NEAR(r.compute_s, 0.15, 1e-9, "compute stays 150 ms of work");
    T_NEAR(r.step_mean_s, 0.15 + T * (1 - 1 / f) + T, 1e-9, "step: work, the loss, the last bucket");
    c.groups[0].comm_slowdown = 1;
    T_CHECK(sim_run(&c, &r, &e) == 0 && r.comm_interference_s == 0 &&
                fabs(r.step_mean_s - (0.15 + T)) < 1e-9, "no slowdown: no loss");
    c.groups[0].comm_slowdown = -1;
    T_CHECK(sim_run(&c, &r, &e) != 0, "a negative slowdown is refused: %s", e.msg);
}

/* |step - parts| over r's mean step: the parts of cli/report_parts.h,
 * compute + stall + exposed comm (data- and tensor-parallel) + bubble +
 * interference + optimizer. */
static double parts_off(const struct sim_result *r)
{
    double sum = r->compute_s + r->data_stall_s + r->exposed_comm_s + r->pp_bubble_s +
                 r->comm_interference_s + r->optimizer_s;
    return r->step_mean_s > 0 ? fabs(r->step_mean_s - sum) / r->step_mean_s : INFINITY;
}

/* The simulator splits each step of its slowest worker into the parts with
 * nothing left over, so they add up to the mean step to rounding (1e-9 of
 * it): an input-bound step, jittered ranks of two speeds after a warm-up,
 * collectives that slow backward, synchronous and asynchronous parameter
 * servers. */
static void the_parts_add_up_to_the_step(void)
{
    struct sim_config c;
    struct sim_result r;
    struct dt_err e;

    pipeline(&c, 0);
    c.jitter_cv = 0.2;
    T_CHECK(sim_run(&c, &r, &e) == 0 && r.data_stall_s > 0 && parts_off(&r) < 1e-9,
            "input-bound, jittered: off by %.3g of the step", parts_off(&r));

    comm_only(&c, SIM_RING, 2, 4, 4e8);
    c.c.bucket_bytes = 5e7;
    c.c.overlap = 1;
    c.groups[0].fwd_s = 0.05;
    c.groups[0].bwd_s = 0.1;
    c.groups[0].opt_s = 0.01;
    c.groups[0].comm_slowdown = 1.3;
    c.ngroups = 2;
    c.groups[1] = c.groups[0];
    c.groups[1].fwd_s = 0.07;
    c.groups[1].bwd_s = 0.12;
    c.groups[1].opt_s = 0.02;
    c.jitter_cv = 0.3;
    c.steps = 12;
    c.warmup = 3;
    T_CHECK(sim_run(&c, &r, &e) == 0 && r.comm_interference_s > 0 && parts_off(&r) < 1e-9,
            "ring over two groups of other speeds, jittered, slowed: off by %.3g", parts_off(&r));

    comm_only_ps(&c, SIM_PS_SYNC, 4, 2, 4e8);
    c.c.bucket_bytes = 5e7;
    c.groups[0].fwd_s = 0.05;
    c.groups[0].bwd_s = 0.1;
    c.groups[0].opt_s = 0.01;
    c.jitter_cv = 0.3;
    c.steps = 12;
    c.warmup = 3;
    T_CHECK(sim_run(&c, &r, &e) == 0 && r.exposed_comm_s > 0 && parts_off(&r) < 1e-9,
            "synchronous parameter servers, jittered: off by %.3g", parts_off(&r));
    c.c.strategy = SIM_PS_ASYNC;
    T_CHECK(sim_run(&c, &r, &e) == 0 && parts_off(&r) < 1e-9,
            "asynchronous parameter servers, jittered: off by %.3g", parts_off(&r));
}

/* Accumulation as DDP runs it (issue 37): the first micro-batches'
 * gradients stay local (no_sync), and the buckets fill during the last
 * micro-batch's backward only, so four micro-batches expose as much of
 * the reduction as one: the step grows by three micro-batches' compute and
 * nothing else.  Ring over 2 nodes, 100 MB in 25 MB buckets, 20 ms of
 * backward a micro-batch: each bucket takes 2(a + 12.5 ms). */
static void accumulation_overlaps_the_last_backward_only(void)
{
    struct sim_config c;
    double S = 100e6, B = 1e9, a = 20e-6, one, four;

    comm_only(&c, SIM_RING, 2, 0, S);
    c.c.bucket_bytes = 25e6;
    c.c.overlap = 1;
    c.groups[0].bwd_s = 0.020;
    one = step_of(&c);
    /* buckets out at 5, 10, 15 ms and at the end; one after another */
    T_NEAR(one, 0.005 + 4 * 2 * (a + 12.5e6 / B), 1e-9,
           "one micro-batch: the first bucket at 5 ms, then four in a row");
    c.w.accum = 4;
    c.w.batch = 4;
    c.groups[0].bwd_s = 4 * 0.020;
    four = step_of(&c);
    T_NEAR(four - one, 3 * 0.020, 1e-9,
           "four micro-batches: three more backward passes, the same exposed reduction "
           "(%.4f s against %.4f s)", four, one);
}

int main(void)
{
    T_RUN(events_pop_in_time_order_and_ties_in_push_order);
    T_RUN(events_survive_many_random_pushes);
    T_RUN(two_flows_on_one_link_get_half_each);
    T_RUN(a_flow_limited_elsewhere_leaves_the_rest_to_the_other);
    T_RUN(multiplicity_counts_identical_flow_instances);
    T_RUN(a_bounded_flow_stops_at_its_bound);
    T_RUN(three_resources_classic_case);
    T_RUN(ring_matches_its_closed_form);
    T_RUN(auto_takes_the_time_of_nccls_pick);
    T_RUN(collectives_in_flight_slow_backward);
    T_RUN(tree_and_halving_doubling_match_their_closed_forms);
    T_RUN(flows_finish_after_a_very_long_compute);
    T_RUN(collectives_wait_for_the_next_tick);
    T_RUN(hierarchical_matches_its_closed_form);
    T_RUN(dedicated_parameter_servers_see_incast);
    T_RUN(a_serial_ps_does_one_bucket_at_a_time);
    T_RUN(expected_max_load_matches_hand_counts);
    T_RUN(listed_buckets_come_first);
    T_RUN(pipelines_build_their_stages);
    T_RUN(servers_taking_pushes_in_turn_collide_on_worker_links);
    T_RUN(a_step_waits_for_the_first_pull_only);
    T_RUN(async_workers_drift_apart_at_the_server);
    T_RUN(prefetch_overlaps_loading_with_compute);
    T_RUN(identical_ranks_cost_the_same_to_simulate);
    T_RUN(same_seed_same_result_other_seed_other_jitter);
    T_RUN(bad_configs_are_rejected);
    T_RUN(the_parts_add_up_to_the_step);
    T_RUN(accumulation_overlaps_the_last_backward_only);
    return T_DONE();
}
