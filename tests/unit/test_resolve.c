/*
 * test_resolve.c - from scenario clusters to simulator input: the gradient
 * bytes each strategy exchanges for a model with sparse embedding tables.
 */
#include "t.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "../../catalog/ops.h"
#include "../../catalog/profile.h"
#include "../../catalog/shape.h"
#include "../../sim/nccl.h"

#include <cJSON.h>
#include "../../catalog/catalog.h"
#include "../../cli/ld_scenario.h"
#include "../../planner/planner.h"
#include "../../planner/memory.h"
#include "../../planner/resolve.h"
#include "../../planner/whatif.h"

static struct catalog cat;

static const struct sc_cluster *find(const struct scenario *sc, const char *name)
{
    for (int i = 0; i < sc->nclusters; i++)
        if (strcmp(sc->clusters[i].name, name) == 0)
            return &sc->clusters[i];
    return NULL;
}

/* Load a scenario from text through a temporary file; 0 or -1 with e set. */
static int load_text(struct scenario *sc, const char *text, struct dt_err *e)
{
    char path[] = "/tmp/dtplan-test-resolve.XXXXXX";
    int fd = mkstemp(path), rc;
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

    if (!f) {
        snprintf(e->msg, sizeof e->msg, "cannot write a temporary scenario");
        return -1;
    }
    fputs(text, f);
    fclose(f);
    rc = ld_scenario_load(sc, path, &cat, e);
    unlink(path);
    return rc;
}

/* Load `fmt` with one value filled in (a %d or a %s) and resolve its first
 * cluster into *cfg; 0, or -1 with a failed check naming what. */
static int resolve_fmt(struct scenario *sc, struct sim_config *cfg, const char *what,
                       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int resolve_fmt(struct scenario *sc, struct sim_config *cfg, const char *what,
                       const char *fmt, ...)
{
    struct dt_err e = {""};
    char buf[600];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (load_text(sc, buf, &e) || plan_resolve(sc, &sc->clusters[0], cfg, &e)) {
        T_CHECK(0, "%s resolves: %s", what, e.msg);
        return -1;
    }
    return 0;
}

static void sparse_tables_send_only_touched_rows(void)
{
    struct scenario sc;
    struct sim_config cfg;
    struct dt_err e;
    const struct cat_model *m = catalog_find_model(&cat, "deepfm");
    double dense, touched;

    if (ld_scenario_load(&sc, "tests/data/deepfm-ps-sync.yaml", &cat, &e)) {
        T_CHECK(0, "deepfm-ps-sync loads: %s", e.msg);
        return;
    }
    T_CHECK(m && m->sparse_params == 11e6 && m->sparse_bytes_per_sample == 1716,
            "deepfm has 11e6 sparse parameters, 1716 B touched per sample");
    dense = m->params - m->sparse_params;      /* 477,602 */
    touched = 1024 * 1716 / 4.0;               /* 439,296 rows' values per batch of 1024 */

    /* Parameter servers: push the dense part and the touched rows, fp32. */
    T_CHECK(plan_resolve(&sc, find(&sc, "cpu-ps"), &cfg, &e) == 0, "cpu-ps resolves");
    T_NEAR(cfg.w.grad_bytes, 4 * (dense + touched), 1e-9,
           "PS: a worker exchanges 4 x (dense + touched) = %.0f B (got %.0f)", 4 * (dense + touched),
           cfg.w.grad_bytes);

    /* Ring over 4 GPUs: the rows are all-gathered, (k-1)T per worker, the
     * traffic of an all-reduce of kT/2 = 2T. */
    T_CHECK(plan_resolve(&sc, find(&sc, "gpu-horovod"), &cfg, &e) == 0, "gpu-horovod resolves");
    T_NEAR(cfg.w.grad_bytes, 4 * (dense + 2 * touched), 1e-9,
           "ring over 4: exchanges 4 x (dense + 4T/2) = %.0f B (got %.0f)", 4 * (dense + 2 * touched),
           cfg.w.grad_bytes);

    /* Never more than the dense table: at a batch where 4T/2 > 11e6. */
    sc.parallel.micro_batch = 16384;                  /* T = 7,028,736; 2T > 11e6 */
    T_CHECK(plan_resolve(&sc, find(&sc, "gpu-horovod"), &cfg, &e) == 0, "gpu-horovod resolves");
    T_NEAR(cfg.w.grad_bytes, 4 * m->params, 1e-9,
           "ring over 4 at batch 16384: capped at the dense size %.0f B (got %.0f)", 4 * m->params,
           cfg.w.grad_bytes);
    scenario_free(&sc);
}

static void dense_models_exchange_all_parameters(void)
{
    struct scenario sc;
    struct sim_config cfg;
    struct dt_err e;

    if (ld_scenario_load(&sc, "scenarios/seeds/s6-gradient-sharing.yaml", &cat, &e)) {
        T_CHECK(0, "s6 loads: %s", e.msg);
        return;
    }
    T_CHECK(plan_resolve(&sc, &sc.clusters[0], &cfg, &e) == 0, "s6 resolves");
    T_NEAR(cfg.w.grad_bytes, sc.workload.model->params * (sc.gradients.precision == CAT_FP32 ? 4 : 2), 1e-12,
           "%s: a dense model exchanges every parameter (%.0f B)", sc.workload.model->name, cfg.w.grad_bytes);
    scenario_free(&sc);
}

static void in_turn_servers_apply_to_sync_dedicated_only(void)
{
    struct scenario sc;
    struct sim_config cfg;
    struct dt_err e;
    struct sc_cluster async;

    if (ld_scenario_load(&sc, "tests/data/deepfm-ps-sync.yaml", &cat, &e)) {
        T_CHECK(0, "deepfm-ps-sync loads: %s", e.msg);
        return;
    }
    T_CHECK(plan_resolve(&sc, find(&sc, "cpu-ps"), &cfg, &e) == 0 && !cfg.c.ps_in_turn,
            "together by default");
    sc.gradients.ps_receive = SC_PS_IN_TURN;
    T_CHECK(plan_resolve(&sc, find(&sc, "cpu-ps"), &cfg, &e) == 0 && cfg.c.ps_in_turn,
            "in_turn reaches the simulator for sync PS on dedicated servers");
    T_CHECK(plan_resolve(&sc, find(&sc, "gpu-horovod"), &cfg, &e) == 0 && !cfg.c.ps_in_turn,
            "and not a ring cluster");
    async = *find(&sc, "cpu-ps");
    async.gradients.strategy = SIM_PS_ASYNC;
    T_CHECK(plan_resolve(&sc, &async, &cfg, &e) == 0 && !cfg.c.ps_in_turn,
            "nor an asynchronous candidate of a plan search");

    /* A profile of the servers' instance type with a pull overlap: the
     * synchronous step waits for the first pull; asynchronous, no. */
    {
        struct prof_measured m, *keep = sc.profiles;
        int nkeep = sc.nprofiles;
        memset(&m, 0, sizeof m);
        snprintf(m.instance, sizeof m.instance, "c5.18xlarge");
        m.cpu_lambda = m.net_Bps = m.net_ps_Bps = m.intra_Bps = NAN;
        for (int p = 0; p < CAT_NPREC; p++)
            m.gemm_tflops[p] = NAN;
        m.ps_first_pull_frac = 0.8;
        sc.profiles = &m;
        sc.nprofiles = 1;
        T_CHECK(plan_resolve(&sc, find(&sc, "cpu-ps"), &cfg, &e) == 0 && cfg.c.ps_first_pull == 0.8,
                "the calibrated first pull reaches a sync PS (%g)", cfg.c.ps_first_pull);
        T_CHECK(plan_resolve(&sc, &async, &cfg, &e) == 0 && cfg.c.ps_first_pull == 0,
                "not an asynchronous one (%g)", cfg.c.ps_first_pull);
        m.ps_first_pull_frac = NAN;
        T_CHECK(plan_resolve(&sc, find(&sc, "cpu-ps"), &cfg, &e) == 0 && cfg.c.ps_first_pull == 0,
                "not measured: the pulls end together");
        sc.profiles = keep;
        sc.nprofiles = nkeep;
    }
    scenario_free(&sc);

    /* A plan may say in_turn with the default (colocated) placement: its
     * search tries dedicated servers too. */
    e.msg[0] = 0;
    if (load_text(&sc, "workload: {model: resnet50, batch_per_gpu: 64}\n"
                       "input: {cpu_s_per_sample: 0.002}\n"
                       "gradients: {ps: {receive: in_turn}}\n"
                       "plan: {max_nodes: 2, max_ps: 1, strategies: [ring, ps_sync]}\n",
                  &e) == 0) {
        T_CHECK(sc.gradients.ps_receive == SC_PS_IN_TURN, "a plan with receive: in_turn loads");
        scenario_free(&sc);
    } else {
        T_CHECK(0, "a plan with receive: in_turn loads: %s", e.msg);
    }
}

/* Speed of a vCPU without a profile: cpu_speed, else the all-core clock over
 * the reference core's 2.6 GHz, else 1; input.cpu_measured_on converts the
 * scenario's cost from that instance's vCPUs to reference cores. */
static void vcpu_speed_follows_the_all_core_clock(void)
{
    struct scenario sc;
    struct sim_config cfg;
    struct dt_err e;
    struct resolve_opts o = {NAN, 1.0, 0};
    const struct sc_cluster *c;

    if (load_text(&sc,
                  "catalog:\n"
                  "  instances:\n"
                  "    - {name: fast.cpu, vcpus: 16, price_usd_h: 1, network_gbps: 25, cpu_ghz: 3.9}\n"
                  "    - {name: rated.cpu, vcpus: 16, price_usd_h: 1, network_gbps: 25, cpu_ghz: 3.9,"
                  " cpu_speed: 2}\n"
                  "workload: {model: mnist-cnn, batch_per_gpu: 1024}\n"
                  "input: {cpu_s_per_sample: 0.002, cpu_measured_on: p3.2xlarge, prep_bytes: 3136}\n"
                  "clusters:\n"
                  "  - name: hetero\n"
                  "    groups:\n"
                  "      - {role: train, instance: p3.2xlarge, count: 1}\n"
                  "      - {role: data, instance: c5.9xlarge, count: 1}\n",
                  &e)) {
        T_CHECK(0, "clock scenario loads: %s", e.msg);
        return;
    }
    T_NEAR(resolve_vcpu_speed(catalog_find_instance(sc.catalog, "fast.cpu")), 1.5, 1e-12,
           "inline cpu_ghz 3.9: 1.5 reference cores per vCPU");
    T_NEAR(resolve_vcpu_speed(catalog_find_instance(sc.catalog, "rated.cpu")), 2, 1e-12,
           "inline cpu_speed wins over cpu_ghz");
    T_NEAR(resolve_vcpu_speed(catalog_find_instance(sc.catalog, "g5.xlarge")), 1, 1e-12,
           "unknown clock: one reference core");
    T_CHECK(sc.input.cpu_measured_on && strcmp(sc.input.cpu_measured_on->name, "p3.2xlarge") == 0,
            "cpu_measured_on names p3.2xlarge");
    T_NEAR(resolve_cpu_s_per_sample(&sc, &o), 0.002 * 2.7 / 2.6, 1e-15,
           "0.002 s on a 2.7 GHz vCPU is %g s on the reference core",
           resolve_cpu_s_per_sample(&sc, &o));
    o.cpu_s_per_sample = 0.001;
    T_NEAR(resolve_cpu_s_per_sample(&sc, &o), 0.001, 0, "a solved value is already in reference cores");
    o.cpu_s_per_sample = NAN;
    c = find(&sc, "hetero");
    T_CHECK(c && plan_resolve(&sc, c, &cfg, &e) == 0, "hetero resolves");
    T_NEAR(cfg.groups[0].core_speed, 2.7 / 2.6, 1e-12, "p3.2xlarge vCPU %g", cfg.groups[0].core_speed);
    T_NEAR(cfg.groups[1].core_speed, 3.4 / 2.6, 1e-12, "c5.9xlarge vCPU %g", cfg.groups[1].core_speed);
    T_NEAR(cfg.w.cpu_s_per_sample, 0.002 * 2.7 / 2.6, 1e-15, "the simulator gets reference-core seconds");
    scenario_free(&sc);
}

/* Strategy auto is the default on GPU clusters, the ring on CPU ones; a GPU
 * node's backward loses the SMs NCCL's blocks hold: 2 per ring channel (24
 * on an A100 node), 16 under NVLS (an H100 node's large buckets); none
 * under a parameter server. */
static void gpu_clusters_run_auto_and_lose_sms_to_it(void)
{
    struct scenario sc;
    struct sim_config cfg;
    struct dt_err e;
    const struct sc_cluster *c;

    if (load_text(&sc,
                  "workload: {model: resnet50, batch_per_gpu: 64, precision: fp16}\n"
                  "input: {cpu_s_per_sample: 0}\n"
                  "clusters:\n"
                  "  - {name: a100, groups: [{role: train, instance: p4d.24xlarge}]}\n"
                  "  - {name: h100, groups: [{role: train, instance: p5.48xlarge}]}\n"
                  "  - {name: a100-ring, strategy: ring, groups: [{role: train, instance: p4d.24xlarge}]}\n"
                  "  - {name: ps, strategy: ps_sync, groups: [{role: train, instance: p4d.24xlarge, count: 2}]}\n"
                  "  - {name: cpu, groups: [{role: train, instance: c5.18xlarge, count: 2}]}\n",
                  &e)) {
        T_CHECK(0, "auto scenario loads: %s", e.msg);
        return;
    }
    c = find(&sc, "a100");
    T_CHECK(c && plan_resolve(&sc, c, &cfg, &e) == 0 && cfg.c.strategy == SIM_AUTO,
            "a GPU cluster runs auto by default");
    T_NEAR(cfg.groups[0].comm_slowdown, 108.0 / (108 - 24), 1e-12,
           "A100 node: 108 SMs less 24 blocks (%.3f)", cfg.groups[0].comm_slowdown);
    T_NEAR(cfg.groups[0].intra_Bps, 240e9, 1e-12, "A100 NVLink at NCCL's 12 x 20 GB/s");
    c = find(&sc, "h100");
    T_CHECK(c && plan_resolve(&sc, c, &cfg, &e) == 0, "h100 resolves");
    T_NEAR(cfg.groups[0].comm_slowdown, 132.0 / (132 - 16), 1e-12,
           "H100 node, 25 MiB buckets by NVLS: 16 blocks (%.3f)", cfg.groups[0].comm_slowdown);
    c = find(&sc, "a100-ring");
    T_CHECK(c && plan_resolve(&sc, c, &cfg, &e) == 0 && cfg.c.strategy == SIM_RING &&
                fabs(cfg.groups[0].comm_slowdown - 108.0 / 84) < 1e-12,
            "an explicit ring: the ring graph's blocks");
    c = find(&sc, "ps");
    T_CHECK(c && plan_resolve(&sc, c, &cfg, &e) == 0 && cfg.groups[0].comm_slowdown == 1,
            "a parameter server: no GPU collective, no slowdown");
    c = find(&sc, "cpu");
    T_CHECK(c && plan_resolve(&sc, c, &cfg, &e) == 0 && cfg.c.strategy == SIM_RING &&
                cfg.groups[0].comm_slowdown == 1, "a CPU cluster: auto is the ring");
    scenario_free(&sc);
}

/* workload.optimizer_loop: the optimizer's walk over the parameter tensors
 * costs each tensor what validate/step_overhead.py measured (fused 6.5 us,
 * foreach 19.8, per_tensor 310.7), scaled by a profile's launch time. */
static void optimizer_loops_cost_their_tensors(void)
{
    static const char *const loops[] = {"fused", "foreach", "per_tensor"};
    static const double per[] = {6.5e-6, 19.8e-6, 310.7e-6};
    const struct cat_model *bert = catalog_find_model(&cat, "bert-large-squad");
    const struct cat_instance *p3 = catalog_find_instance(&cat, "p3.2xlarge");
    struct ops_model o;
    double tensors, base = NAN;

    ops_build(bert, 0, 0, 1, 0, 0, &o);
    tensors = o.tensors;
    ops_free(&o);
    /* 24 layers of 16 (four attention and two feed-forward modules with
     * biases, two layer norms), embeddings, the last norm and the head */
    T_CHECK(tensors >= 385 && tensors <= 395, "BERT-large SQuAD: %g parameter tensors (393 as "
            "PyTorch holds it)", tensors);
    for (int i = 0; i < 3; i++) {
        struct scenario sc;
        struct sim_config cfg;
        struct dt_err e;
        char text[400];
        double extra;

        snprintf(text, sizeof text,
                 "workload: {model: bert-large-squad, batch_per_gpu: 8, precision: fp32, "
                 "optimizer_loop: %s}\n"
                 "input: {cpu_s_per_sample: 0}\n"
                 "clusters:\n  - {name: v, groups: [{role: train, instance: p3.2xlarge}]}\n",
                 loops[i]);
        if (load_text(&sc, text, &e) || plan_resolve(&sc, &sc.clusters[0], &cfg, &e)) {
            T_CHECK(0, "optimizer_loop %s resolves: %s", loops[i], e.msg);
            return;
        }
        extra = resolve_opt_loop_s(&sc, p3);
        T_NEAR(extra, tensors * per[i], 1e-9, "%s: %.1f ms a step beyond the update's bytes",
               loops[i], 1e3 * extra);
        if (i == 0)
            base = cfg.groups[0].opt_s - extra;
        T_NEAR(cfg.groups[0].opt_s, base + extra, 1e-9, "%s: in the optimizer's time", loops[i]);
        scenario_free(&sc);
    }
}

/* A calibration reproduces itself (issue 37): a user's collective measured
 * as 200 us + 1 ns/B over 8 ranks on 2 hosts of 4 GPUs gives its intercept
 * back when the same layout is predicted with a ring: the 12 host-link
 * hops at the GPU link's latency, the 2 network hops the rest.  (Dividing
 * the intercept over all 14 hops charged 57 us of the 200.) */
static void a_calibration_gives_its_own_layout_back(void)
{
    static const char *profile =
        "{\"instance\": \"quad\", \"collectives\": [{\"name\": \"allreduce\", "
        "\"transport\": \"cmd\", \"ranks\": 8, \"hosts\": 2, \"bus_factor\": 1.75, "
        "\"alpha_s\": 2e-4, \"beta_s_per_byte\": 1e-9, \"points\": []}]}";
    struct scenario sc;
    struct sim_config cfg;
    struct dt_err e = {""};
    struct prof_measured m;
    cJSON *root = cJSON_Parse(profile);
    const struct sim_group *g;
    double lat;

    if (!root || load_text(&sc,
                           "catalog:\n  instances:\n"
                           "    - {name: quad, vcpus: 32, gpu_model: A100, gpu_count: 4,\n"
                           "       intra_node_link: NVSwitch, network_gbps: 100, price_usd_h: 1,\n"
                           "       source: test}\n"
                           "workload: {model: resnet50, batch_per_gpu: 64}\n"
                           "input: {cpu_s_per_sample: 0}\n"
                           "gradients: {strategy: ring}\n"
                           "clusters:\n  - {name: two, groups: [{instance: quad, count: 2}]}\n",
                           &e)) {
        T_CHECK(0, "the scenario loads: %s", e.msg);
        cJSON_Delete(root);
        return;
    }
    profile_summarize(root, "test", &m);
    cJSON_Delete(root);
    sc.profiles = &m;
    sc.nprofiles = 1;
    T_CHECK(plan_resolve(&sc, &sc.clusters[0], &cfg, &e) == 0, "resolves: %s", e.msg);
    g = &cfg.groups[0];
    /* sim/coll_ring.c: 2 (k - N) host-link hops and 2 (N - 1) network hops */
    lat = 2.0 * (8 - 2) * g->intra_alpha_s + 2.0 * (2 - 1) * g->net_alpha_s;
    T_NEAR(lat, 2e-4, 1e-9, "the ring's latency on the layout measured is its intercept, "
           "200 us (%.1f us: network hop %.1f us, GPU link %.1f us)", lat * 1e6,
           g->net_alpha_s * 1e6, g->intra_alpha_s * 1e6);
    T_NEAR(g->nic_Bps, 1.75 / 1e-9, 1e-9, "the bus rate, its factor over beta: 1.75 GB/s");
    /* strategy auto: the shape measured runs its own time at every size;
     * another shape, NCCL's model */
    {
        struct nccl_shape sh;
        struct nccl_model nm;
        struct nccl_choice c;
        sim_nccl_shape(&cfg, &sh);
        nccl_model_init(&nm, &sh, NCCL_ALLREDUCE);
        for (double S = 8; S <= 1 << 30; S *= 64) {
            nccl_pick(&nm, S, &c);
            T_NEAR(c.time_s, 2e-4 + 1e-9 * S, 1e-9, "auto on the layout measured, %.0f B: "
                   "200 us + 1 ns/B (%.6g s)", S, c.time_s);
        }
        sh.nodes = 3;
        nccl_model_init(&nm, &sh, NCCL_ALLREDUCE);
        nccl_pick(&nm, 65536, &c);
        T_CHECK(fabs(c.time_s - (2e-4 + 65536e-9)) > 1e-6,
                "on 3 nodes, NCCL's model (%.1f us)", c.time_s * 1e6);
    }
    sc.profiles = NULL;
    sc.nprofiles = 0;
    scenario_free(&sc);
}

/* Context parallelism: a replica's batch spreads over tp x pp x cp GPUs
 * (16 sequences on 8 GPUs at cp 2: 4 replicas of 4 micro-batches, each GPU
 * 2 sequences' worth), the compute a GPU does is the same as without it
 * (half the tokens, twice the micro-batches), and the optimizer state
 * shards over every rank of the gradients' group. */
static void context_parallelism_spreads_each_sequence(void)
{
    static const char *text =
        "workload: {model: llama3-8b, batch_per_gpu: 1, seq_len: 8192, global_batch: 16}\n"
        "input: {cpu_s_per_sample: 0}\n"
        "gradients: {sharding: zero1}\n"
        "parallel: {cp: %d}\n"
        "clusters:\n  - {name: p5, groups: [{role: train, instance: p5.48xlarge}]}\n";
    struct sim_config cfg[2];
    double per_gpu[2];

    for (int i = 0; i < 2; i++) {
        struct scenario sc;
        if (resolve_fmt(&sc, &cfg[i], "a cp layout", text, i + 1))
            return;
        per_gpu[i] = cfg[i].groups[0].fwd_s + cfg[i].groups[0].bwd_s;
        scenario_free(&sc);
    }
    T_NEAR(cfg[0].w.batch * 8, 16, 1e-12, "cp 1: 16 sequences a step over 8 GPUs");
    T_NEAR(cfg[1].w.batch * 8, 16, 1e-12, "cp 2: 16 sequences a step over 8 GPUs (%.2f a GPU)",
           cfg[1].w.batch);
    T_CHECK(fabs(per_gpu[1] / per_gpu[0] - 1) < 0.05, "cp 2: a GPU computes what it did at "
            "cp 1, within 5%% (%.3f s against %.3f)", per_gpu[1], per_gpu[0]);
}

/* Expert parallelism: a rank's state covers experts / ep of the routed
 * experts; the MoE layers' all-to-alls are waits, nothing inside one
 * NVLink node of 8 at ep 8 past what NVLink takes, and across two nodes at
 * ep 16 half of each rank's copies cross its share of the NICs. */
static void expert_parallelism_splits_the_experts(void)
{
    static const char *text =
        "workload: {model: qwen3-30b-a3b, batch_per_gpu: 1, seq_len: 4096, precision: bf16, "
        "global_batch: 64, moe_imbalance: 1}\n"
        "input: {cpu_s_per_sample: 0}\n"
        "gradients: {sharding: zero1}\n"
        "parallel: {ep: %d}\n"
        "clusters:\n  - {name: p5, groups: [{role: train, instance: p5.48xlarge, count: 2}]}\n";
    const struct cat_model *m = catalog_find_model(&cat, "qwen3-30b-a3b");
    struct sim_config cfg[3];
    int eps[3] = {1, 8, 16};
    double held[3], f8 = 0;

    for (int i = 0; i < 3 && m; i++) {
        struct scenario sc;
        if (resolve_fmt(&sc, &cfg[i], "an ep layout", text, eps[i]))
            return;
        held[i] = resolve_state_params(&sc);
        if (i == 1)
            f8 = resolve_ep_grad_scale(&sc, &cfg[i], SIM_AUTO, 16,
                                       resolve_expert_state_params(&sc) *
                                       (sc.gradients.precision == CAT_FP32 ? 4 : 2));
        scenario_free(&sc);
    }
    if (!m)
        return;
    T_NEAR(held[1], m->params - shape_expert_params(m) * 7 / 8, 1, "ep 8: an eighth of the "
           "experts a rank (%.4g of %.4g parameters)", held[1], m->params);
    {
        /* the dense gradients reduce over 16 data-parallel ranks, 8 a
         * node; ep 8's experts over their 16 / 8 = 2 expert-data-parallel
         * ranks, one a node over one NIC: counted at their all-reduce's
         * time over the dense group's, more than a ring's 1/2 for 15/16;
         * ep 16's over one rank, none */
        double x8 = shape_expert_params(m) / 8, dense = held[1] - x8;
        T_CHECK(f8 > 0.5 / (15.0 / 16), "ep 8: the experts' group takes %.2fx the dense one's "
                "time, over a ring's share", f8);
        T_NEAR(cfg[1].w.grad_bytes / cfg[0].w.grad_bytes, (dense + x8 * f8) / held[0],
               1e-9, "ep 8: the experts' gradients over their 2 ranks at that weight");
        T_NEAR(cfg[2].w.grad_bytes / cfg[0].w.grad_bytes, (held[2] - shape_expert_params(m) / 16) / held[0],
               1e-9, "ep 16 of 16: each expert on one rank, its gradients not reduced");
    }
    {
        /* ep 16 over 2 nodes: a micro-batch's 4096 x 8 copies of 2048 x 2
         * bytes, 8 of 16 ranks on the other node, over a GPU's share of the
         * NICs (a p5's 3200 Gbit/s x 0.96 over 8) at EFA's all-to-all share
         * of their rate (catalog/fabric.c efa-p5, 0.872), after EFA's 280 us
         * a call and 2.58 us for each of the 8 remote ranks; ep 8: 7/8 over
         * NVLink */
        struct scenario sc;
        struct dt_err e = {""};
        char buf[400];
        double bytes = 4096.0 * 8 * 2048 * 2, nic = 3200e9 / 8 * 0.96 / 8 * 0.872;
        const struct cat_instance *p5 = catalog_find_instance(&cat, "p5.48xlarge");
        for (int i = 1; i < 3; i++) {
            double want = i == 2 ? bytes * 8 / 16 / nic + 280e-6 + 8 * 2.58e-6
                                 : bytes * 7 / 8 / cfg[1].groups[0].intra_Bps;
            snprintf(buf, sizeof buf, text, eps[i]);
            if (load_text(&sc, buf, &e)) {
                T_CHECK(0, "loads: %s", e.msg);
                return;
            }
            T_NEAR(resolve_ep_alltoall_s(&sc, p5, &cfg[i].groups[0]), want, 1e-12 * want + 1e-15,
                   "ep %d: an all-to-all of a micro-batch in %.3f ms (%s)", eps[i], want * 1e3,
                   i == 2 ? "half of it over the NICs" : "over NVLink");
            scenario_free(&sc);
        }
    }
}

/* The host's launches (workload.cuda_graphs): under none each MoE layer's
 * pass a micro-batch takes at least the host's time to issue it, where
 * graphs leave the GPU's time as it was; a pass longer than that floor and
 * a dense model do not move. */
static void eager_moe_layers_wait_for_the_host(void)
{
    static const char *text =
        "workload: {model: %s, batch_per_gpu: %d, seq_len: 4096, precision: bf16, "
        "global_batch: %d, moe_imbalance: 1, cuda_graphs: %s}\n"
        "input: {cpu_s_per_sample: 0}\n"
        "gradients: {sharding: zero1}\n"
        "parallel: {ep: %d}\n"
        "clusters:\n  - {name: p5, groups: [{role: train, instance: p5.48xlarge, count: 1}]}\n";
    static const char *const modes[] = {"full", "partial", "none"};
    const struct cat_model *m = catalog_find_model(&cat, "qwen3-30b-a3b");
    double busy[2][3], floor_s = 0;
    int n[2];

    if (!m)
        return;
    for (int b = 0; b < 2; b++)         /* micro-batch 1, then 16: a long pass */
        for (int i = 0; i < 3; i++) {
            struct scenario sc;
            struct sim_config cfg;
            if (resolve_fmt(&sc, &cfg, modes[i], text, "qwen3-30b-a3b", b ? 16 : 1, b ? 128 : 16,
                            modes[i], 8))
                return;
            /* a pass with its all-to-alls, which the simulator runs as flows */
            busy[b][i] = cfg.groups[0].fwd_s + cfg.groups[0].bwd_s + cfg.groups[0].ep_flow_s;
            n[b] = cfg.w.accum;
            if (i == 2)
                floor_s = resolve_host_moe_pass_s(&sc);
            scenario_free(&sc);
        }
    T_NEAR(floor_s, 9.0e-3, 1e-12, "cuda_graphs none: a MoE layer's pass takes the host 9.0 ms");
    for (int i = 0; i < 3; i += 2) {
        /* what 2x compute saves: the GPU's half under graphs, where the
         * host's floor holds every pass only the optimizer's share */
        struct scenario sc;
        struct sim_config cfg;
        struct sim_result r;
        struct whatif w;
        struct dt_err e = {""};
        if (resolve_fmt(&sc, &cfg, modes[i], text, "qwen3-30b-a3b", 1, 16, modes[i], 8))
            return;
        T_CHECK(sim_run(&cfg, &r, &e) == 0 && whatif_ask(&cfg, r.step_mean_s, &w, &e) == 0,
                "%s: the what-ifs run: %s", modes[i], e.msg);
        T_CHECK(i == 0 ? w.saved[WHATIF_COMPUTE] > 0.3 : fabs(w.saved[WHATIF_COMPUTE]) < 0.1,
                "%s graphs: 2x compute saves %.0f%% of the step", modes[i],
                100 * w.saved[WHATIF_COMPUTE]);
        scenario_free(&sc);
    }
    T_NEAR(busy[0][1], busy[0][0], 0, "partial graphs: the GPU's time, as full ones");
    {
        double pass = busy[0][0] / n[0] / m->layers;
        T_CHECK(pass < floor_s, "micro-batch 1: the GPU's pass (%.2f ms) is under the floor",
                pass * 1e3);
        T_NEAR(busy[0][2], n[0] * m->layers * floor_s, 1e-9 * busy[0][2],
               "none: each of the %d layers' passes of %d micro-batches takes the floor "
               "(%.3f s against %.3f)", m->layers, n[0], busy[0][2], busy[0][0]);
        pass = busy[1][0] / n[1] / m->layers;
        T_CHECK(pass > floor_s, "micro-batch 16: the GPU's pass (%.2f ms) is over the floor",
                pass * 1e3);
        T_NEAR(busy[1][2], busy[1][0], 0, "none: a pass over the floor does not move");
    }
    {
        /* a scenario's own figure: under scoped graphs too */
        static const char *own =
            "workload: {model: qwen3-30b-a3b, batch_per_gpu: 1, seq_len: 4096, precision: bf16, "
            "global_batch: 16, moe_imbalance: 1, cuda_graphs: partial, moe_host_pass_s: 0.012}\n"
            "input: {cpu_s_per_sample: 0}\n"
            "gradients: {sharding: zero1}\n"
            "parallel: {ep: 8}\n"
            "clusters:\n  - {name: p5, groups: [{role: train, instance: p5.48xlarge, count: 1}]}\n";
        struct scenario sc;
        struct sim_config cfg;
        if (resolve_fmt(&sc, &cfg, "moe_host_pass_s", "%s", own))
            return;
        T_NEAR(resolve_host_moe_pass_s(&sc), 0.012, 1e-15, "moe_host_pass_s 0.012 under partial");
        T_NEAR(cfg.groups[0].fwd_s + cfg.groups[0].bwd_s + cfg.groups[0].ep_flow_s,
               cfg.w.accum * m->layers * 0.012,
               1e-9 * cfg.groups[0].fwd_s, "each pass at the scenario's 12 ms");
        scenario_free(&sc);
    }
    {
        struct scenario sc;
        struct sim_config cfg[2];
        for (int i = 0; i < 2; i++) {
            if (resolve_fmt(&sc, &cfg[i], "a dense model", text, "llama3-8b", 1, 8,
                            modes[2 * i], 1))
                return;
            T_NEAR(resolve_host_moe_pass_s(&sc), 0, 0, "a dense model has no MoE floor");
            scenario_free(&sc);
        }
        T_NEAR(cfg[1].groups[0].fwd_s + cfg[1].groups[0].bwd_s,
               cfg[0].groups[0].fwd_s + cfg[0].groups[0].bwd_s, 0,
               "a dense model: none as full");
    }
}

/* A pipeline over FSDP (issue 38 item 4): torchtitan keeps a stage's
 * parameters gathered through the step under pipeline parallelism, so fsdp,
 * zero2, zero3 and hsdp run and hold what the distributed optimizer does. */
static void a_pipeline_over_fsdp_runs_as_its_stages_hold_it(void)
{
    static const char *text =
        "workload: {model: llama3-70b, batch_per_gpu: 1, global_batch: 64, precision: bf16}\n"
        "input: {cpu_s_per_sample: 0}\n"
        "gradients: {sharding: %s}\n"
        "parallel: {tp: 8, pp: 2}\n"
        "clusters:\n  - {name: four, groups: [{role: train, instance: p5.48xlarge, count: 4}]}\n";
    static const char *const stages[] = {"zero1", "fsdp", "zero3", "hsdp"};
    struct sim_config cfg[4];
    struct mem_use u[4];

    for (int i = 0; i < 4; i++) {
        struct scenario sc;
        if (resolve_fmt(&sc, &cfg[i], stages[i], text, stages[i]))
            return;
        memory_of(&sc, sc.parallel.sharding, sc.clusters[0].groups[0].inst, 32, 8, &u[i]);
        scenario_free(&sc);
    }
    for (int i = 1; i < 4; i++) {
        T_CHECK(cfg[i].c.shard == cfg[0].c.shard && cfg[i].c.pp == 2,
                "pp 2 with %s: one gather and one reduction a step, as zero1", stages[i]);
        T_NEAR(u[i].total, u[0].total, 1e-6 * u[0].total, "pp 2 with %s: %.1f GiB a GPU, as zero1",
               stages[i], u[i].total / 1073741824.0);
    }
}

/* The flex dispatchers send a token once to each rank that holds one or
 * more of its experts, and the combine sends one row back: at ep 8 on one
 * p5 node, Qwen3-30B-A3B's 8 of 128 experts (16 a rank) reach 8 x (1 -
 * C(112,8)/C(128,8)) = 5.3 ranks, not 8 copies as NCCL's all-to-all sends
 * them; DeepSeek-V3's group-limited routing (a token's 8 experts in 4 of
 * its 8 groups, a group a rank at ep 8) reaches 4 x (1 - C(96,8)/C(128,8))
 * = 3.6.  Across nodes the fan-out over NVLink is by rank too. */
static void flex_dispatchers_send_a_token_once_a_rank(void)
{
    static const char *text =
        "workload: {model: %s, batch_per_gpu: 1, seq_len: 4096, precision: bf16, "
        "global_batch: 64, moe_imbalance: 1}\n"
        "input: {cpu_s_per_sample: 0}\n"
        "gradients: {sharding: zero1, precision: bf16, bucket_mb: 100}\n"
        "parallel: {ep: 8%s}\n"
        "clusters:\n  - {name: p5, groups: [{role: train, instance: p5.48xlarge, count: 1}]}\n";
    static const char *const models[2] = {"qwen3-30b-a3b", "deepseek-v3"};
    static const char *const disp[3] = {"", ", ep_dispatch: hybridep", ", ep_dispatch: deepep"};
    const struct cat_instance *p5 = catalog_find_instance(&cat, "p5.48xlarge");
    const double hidden[2] = {2048, 7168}, rates[3] = {1, 0.871, 0.825};

    if (!p5) {
        T_CHECK(0, "p5.48xlarge in the catalog");
        return;
    }
    for (int k = 0; k < 2; k++) {
        double miss = 1, reached, t[3], token = 4096.0 * hidden[k] * 2;
        for (int i = 0; i < 8; i++)
            miss *= k == 0 ? (112.0 - i) / (128 - i) : (96.0 - i) / (128 - i);
        reached = (k == 0 ? 8 : 4) * (1 - miss);
        for (int d = 0; d < 3; d++) {
            struct sim_config cfg;
            struct scenario sc;
            double rate = rates[d];     /* the dispatcher's kernels on an H100 node */
            if (resolve_fmt(&sc, &cfg, "a dispatcher on one node", text, models[k], disp[d]))
                return;
            t[d] = resolve_ep_alltoall_s(&sc, p5, &cfg.groups[0]);
            T_NEAR(t[d], token * (d == 0 ? 8 : reached) * 7 / 8 / (cfg.groups[0].intra_Bps * rate),
                   1e-9 * t[d], "%s%s: %.2f sends a token to other ranks, %.3f ms", models[k],
                   disp[d], (d == 0 ? 8 : reached) * 7 / 8, t[d] * 1e3);
            T_NEAR(cfg.c.ep_nvl_bytes, token * (d == 0 ? 8 : reached) * 7 / 8 / rate, 1e-9 * token,
                   "%s%s: the flows hold the link as long", models[k], disp[d]);
            scenario_free(&sc);
        }
        T_CHECK(t[1] < t[0] * (k == 0 ? 0.78 : 0.53) && t[2] > t[1],
                "%s: the flex dispatchers %.2f and %.2f of the all-to-all's time", models[k],
                t[1] / t[0], t[2] / t[0]);
    }
}

/* Megatron-Core's allgather dispatcher gathers every rank's tokens to the
 * expert group's etp x ep ranks and reduce-scatters the outputs back, as
 * NCCL's rings: on one p5 node at ep 8 each rank takes the 7 other ranks'
 * tokens over NVLink whatever the routing (the all-to-all sends top_k
 * copies at the busiest rank's imbalance, here dropless routing's default);
 * on two nodes at ep 16 it takes 15 over NVLink and a node the other's 8
 * chunks once over its ranks' NICs, one chunk a GPU.  No etp gather
 * follows it. */
static void allgather_dispatcher_gathers_the_group(void)
{
    static const char *text =
        "workload: {model: qwen3-30b-a3b, batch_per_gpu: 1, seq_len: 4096, precision: bf16, "
        "global_batch: 64}\n"
        "input: {cpu_s_per_sample: 0}\n"
        "gradients: {sharding: zero1, precision: bf16, bucket_mb: 100}\n"
        "parallel: {ep: %d%s}\n"
        "clusters:\n  - {name: p5, groups: [{role: train, instance: p5.48xlarge, count: %d}]}\n";
    const struct cat_instance *p5 = catalog_find_instance(&cat, "p5.48xlarge");
    double chunk = 4096.0 * 2048 * 2, t[2];

    if (!p5) {
        T_CHECK(0, "p5.48xlarge in the catalog");
        return;
    }
    for (int d = 0; d < 2; d++) {
        struct sim_config cfg;
        struct scenario sc;
        if (resolve_fmt(&sc, &cfg, "a dispatcher on one node", text, 8,
                        d ? ", ep_dispatch: allgather" : "", 1))
            return;
        t[d] = resolve_ep_alltoall_s(&sc, p5, &cfg.groups[0]);
        if (d)
            T_NEAR(t[d], chunk * 7 / cfg.groups[0].intra_Bps, 1e-9 * t[d],
                   "allgather at ep 8: 7 ranks' tokens over NVLink, %.3f ms", t[d] * 1e3);
        else
            T_NEAR(t[d], chunk * SC_MOE_IMBALANCE * 8 * 7 / 8 / cfg.groups[0].intra_Bps,
                   1e-9 * t[d], "alltoall at ep 8: 8 copies, 7/8 of them out, at 1.66");
        scenario_free(&sc);
    }
    T_CHECK(t[1] < t[0], "at top 8 the gather moves less than the copies: %.2f of them",
            t[1] / t[0]);
    /* HybridEP's registered buffers (DeepEP's hybrid-ep docs, section 4.2):
     * ep 8 in a node, 8 ranks' 4,096 tokens of 2,048 16-bit values and
     * fp32 probabilities over the node's 128 experts; ep 16 over two nodes,
     * 16 ranks' over a node's 64, and the RDMA buffers of the other node's
     * 4,096 tokens */
    for (int n = 1; n <= 2; n++) {
        struct sim_config cfg;
        struct scenario sc;
        double want = n == 1 ? 4096.0 * 8 * (2048 * 2 + 128 * 4)
                             : 4096.0 * 16 * (2048 * 2 + 64 * 4) + 4096.0 * (2048 * 2 + 64 * 4);
        if (resolve_fmt(&sc, &cfg, "HybridEP's buffers", text, 8 * n, ", ep_dispatch: hybridep", n))
            return;
        T_NEAR(resolve_ep_registered_bytes(&sc, p5), want, 1e-9 * want,
               "HybridEP at ep %d: %.3f GB registered", 8 * n, want / 1e9);
        sc.parallel.ep_dispatch = SC_EP_ALLTOALL;
        T_NEAR(resolve_ep_registered_bytes(&sc, p5), 0, 1e-15, "NCCL's all-to-all: none");
        scenario_free(&sc);
    }
    /* DeepEP's normal kernels (its config.hpp size hints at the configs it
     * recommends for 64 ranks, 20 SMs: 10 channels): DeepSeek-V3 at ep 64
     * over 8 nodes, NVLink rings of 288 tokens for 8 peers and RDMA rings of
     * 128 for 8 nodes, 2 x 7,168 bytes a token and 2,056 of metadata */
    {
        static const char *dsv3 =
            "workload: {model: deepseek-v3, batch_per_gpu: 1, seq_len: 4096, precision: bf16, "
            "global_batch: 64}\n"
            "input: {cpu_s_per_sample: 0}\n"
            "gradients: {sharding: zero1, precision: bf16, bucket_mb: 100}\n"
            "parallel: {ep: 64, ep_dispatch: deepep}\n"
            "clusters:\n  - {name: p5, groups: [{role: train, instance: p5.48xlarge, count: 8}]}\n";
        struct sim_config cfg;
        struct scenario sc;
        double tok = 2 * 7168 + 2056.0;
        double want = 10 * 8 * 19 * 4 + 10 * 8 * 288 * tok + 10 * 8 * 18 * 2 * 4 +
                      10 * 8 * 128 * (2 * tok + 32);
        if (resolve_fmt(&sc, &cfg, "DeepEP's buffers", dsv3))
            return;
        T_NEAR(resolve_ep_registered_bytes(&sc, p5), want, 1e-9 * want,
               "DeepEP at ep 64: %.3f GB registered", want / 1e9);
        scenario_free(&sc);
    }
    {
        struct sim_config cfg;
        struct scenario sc;
        double nvl, net;
        if (resolve_fmt(&sc, &cfg, "allgather over two nodes", text, 16,
                        ", tp: 2, ep_dispatch: allgather", 4))
            return;
        /* tp 2 (etp 2) x ep 16 over 4 nodes: a node holds 4 of the group's
         * ep ranks and their etp pairs, 8 of 32; without sequence
         * parallelism a rank's chunk is its whole tokens */
        nvl = chunk * 31 / cfg.groups[0].intra_Bps;
        net = chunk * (32 - 8) / 8 / (cfg.groups[0].nic_Bps / 8);
        T_NEAR(resolve_ep_alltoall_s(&sc, p5, &cfg.groups[0]), fmax(nvl, net), 1e-9 * nvl,
               "allgather over 4 nodes: 31 ranks' tokens over NVLink, 3 a GPU over the NICs");
        T_NEAR(resolve_ep_etp_gather_s(&sc, p5, &cfg.groups[0]), 0, 1e-15,
               "no etp gather after the allgather");
        scenario_free(&sc);
    }
}

/* The flex dispatchers' kernels at NVIDIA's published rates, as shares of
 * NCCL's all-to-all's rate over NVLink: HybridEP on 64 GPUs of a GB200 rack
 * at 8, 16 and 32 ranks 0.985, 0.965 and 0.906 (its kernel-only table), at
 * 64 held at 36's 0.896; DeepEP within 8 ranks 0.825, across the rack at 16
 * and 32 ranks HybridEP's times 0.781 and 0.543 (its combine falls away);
 * NCCL's own 1 and an H100's HybridEP 0.871; an MI300X node's xGMI 1, which
 * no benchmark measured. */
static void flex_dispatchers_run_at_their_published_rates(void)
{
    static const char *text =
        "workload: {model: deepseek-v3, batch_per_gpu: 1, seq_len: 4096, precision: bf16, "
        "moe_imbalance: 1}\n"
        "input: {cpu_s_per_sample: 0}\n"
        "gradients: {sharding: zero1, precision: bf16}\n"
        "parallel: {ep: %d, ep_dispatch: %s}\n"
        "catalog:\n  instances:\n    - {name: rack, gpu_model: GB200, gpu_count: 64, vcpus: 2304, "
        "intra_node_link: NVSwitch, network_gbps: 25600, nics: 64, price_usd_h: 1}\n"
        "clusters:\n  - {name: r, groups: [{role: train, instance: %s, count: 1}]}\n";
    static const struct {
        const char *inst, *disp;
        int ep;
        double share;
    } c[] = {
        {"rack", "hybridep", 8, 0.985},   {"rack", "hybridep", 32, 0.906},
        {"rack", "hybridep", 16, 0.965},  {"rack", "deepep", 16, 0.965 * 0.781},
        {"rack", "hybridep", 64, 0.896},  {"rack", "deepep", 8, 0.825},
        {"rack", "deepep", 32, 0.906 * 0.543},
        {"rack", "alltoall", 32, 1},      {"p5.48xlarge", "hybridep", 8, 0.871},
        {"BM.GPU.MI300X.8", "deepep", 8, 1},
    };
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        struct sim_config cfg;
        struct scenario sc;
        if (resolve_fmt(&sc, &cfg, "a dispatcher's rate", text, c[i].ep, c[i].disp, c[i].inst))
            return;
        T_NEAR(resolve_ep_nvl_share(&sc, sc.clusters[0].groups[0].inst), c[i].share, 1e-9, "%s at ep %d on %s: %.3f of NCCL's rate",
               c[i].disp, c[i].ep, c[i].inst, c[i].share);
        scenario_free(&sc);
    }
}

/* The routed experts' gradients reduce over their expert-data-parallel
 * group, timed on its own ranks a node: at ep 8 on 4 p5 nodes the group is
 * one rank a node over one NIC (4 ranks), where the data-parallel group is
 * 8 ranks a node over the node's 8; so the experts count more than their
 * ring's (n - 1) / n share, by NCCL's own times of the two groups; at ep 32
 * over the 32 GPUs the group is one rank and nothing reduces; under a
 * fixed ring the old share stands. */
static void expert_gradients_reduce_on_their_own_group(void)
{
    static const char *text =
        "workload: {model: qwen3-30b-a3b, batch_per_gpu: 1, seq_len: 4096, precision: bf16, "
        "global_batch: 64, moe_imbalance: 1}\n"
        "input: {cpu_s_per_sample: 0}\n"
        "gradients: {sharding: zero1, precision: bf16%s}\n"
        "parallel: {ep: %d}\n"
        "clusters:\n  - {name: p5, groups: [{role: train, instance: p5.48xlarge, count: 4}]}\n";
    const struct cat_model *m = catalog_find_model(&cat, "qwen3-30b-a3b");
    struct sim_config cfg;
    struct scenario sc;
    double x, dense, f, share = (3.0 / 4) / (31.0 / 32);

    if (!m) {
        T_CHECK(0, "qwen3-30b-a3b in the catalog");
        return;
    }
    if (resolve_fmt(&sc, &cfg, "ep 8 on 4 p5", text, "", 8))
        return;
    x = resolve_expert_state_params(&sc);
    dense = resolve_state_params(&sc) - x;
    f = resolve_ep_grad_scale(&sc, &cfg, SIM_AUTO, 32, x * 2);
    T_CHECK(f > share * 2, "ep 8 on 4 p5: the experts' group (1 rank a node) takes %.2fx the "
            "data-parallel group's time (8 a node), over twice its ring share %.3f", f, share);
    T_NEAR(cfg.w.grad_bytes, (dense + x * f) * 2, 1e-6 * cfg.w.grad_bytes,
           "the step reduces the dense gradients and the experts' at that weight");
    scenario_free(&sc);
    if (resolve_fmt(&sc, &cfg, "ep 32 on 4 p5", text, "", 32))
        return;
    T_NEAR(resolve_ep_grad_scale(&sc, &cfg, SIM_AUTO, 32, 1e9), 0, 1e-12,
           "ep 32 over all 32 GPUs: one expert-data-parallel rank, nothing to reduce");
    scenario_free(&sc);
    if (resolve_fmt(&sc, &cfg, "ep 8 on 4 p5, ring", text, ", strategy: ring", 8))
        return;
    x = resolve_expert_state_params(&sc);
    dense = resolve_state_params(&sc) - x;
    T_NEAR(cfg.w.grad_bytes, (dense + x * share) * 2, 1e-6 * cfg.w.grad_bytes,
           "under a fixed ring the experts count at their ring's share, %.3f", share);
    scenario_free(&sc);
}

/* Dispatchers, overlap and expert tensor parallelism.  hybridep across two
 * p5 nodes at ep 16: a token crosses the NICs once if any of its 8 experts
 * is among the other node's 64 of 128 (1 - C(64,8)/C(128,8)), not 4 copies
 * (8 x 8 / 16) as NCCL's all-to-all sends them.  ep_overlap: of 4 micro-
 * batches' waits of 1 s beside 0.5 s of compute each, the first's whole and
 * of each other's what hiding RESOLVE_EP_HIDDEN of the 0.5 s leaves.  etp 1 under tp 2 at ep 32: a rank holds 1/32 of
 * the routed experts whole, a sixteenth of what it held split over tp; etp
 * 2 gathers its ranks' received tokens and reduce-scatters the experts'
 * outputs, etp 1 neither. */
static void dispatchers_overlap_and_expert_tp(void)
{
    static const char *text =
        "workload: {model: qwen3-30b-a3b, batch_per_gpu: 1, seq_len: 4096, precision: bf16, "
        "global_batch: 64, moe_imbalance: 1}\n"
        "input: {cpu_s_per_sample: 0}\n"
        "gradients: {sharding: zero1}\n"
        "parallel: {%s}\n"
        "clusters:\n  - {name: p5, groups: [{role: train, instance: p5.48xlarge, count: %d}]}\n";
    const struct cat_model *m = catalog_find_model(&cat, "qwen3-30b-a3b");
    const struct cat_instance *p5 = catalog_find_instance(&cat, "p5.48xlarge");
    struct sim_config cfg;
    struct scenario sc;
    double miss = 1, token = 4096.0 * 2048 * 2, t[2];
    const char *disp[2] = {"ep: 16", "ep: 16, ep_dispatch: hybridep"};

    if (!m || !p5) {
        T_CHECK(0, "qwen3-30b-a3b and p5.48xlarge in the catalog");
        return;
    }
    for (int i = 0; i < 8; i++)
        miss *= (64.0 - i) / (128 - i);
    for (int i = 0; i < 2; i++) {
        if (resolve_fmt(&sc, &cfg, "a dispatcher", text, disp[i], 2))
            return;
        t[i] = resolve_ep_alltoall_s(&sc, p5, &cfg.groups[0]);
        /* the flows (no pipeline): NCCL's all-to-all after EFA's cost a
         * call and a remote rank (280 us, 8 x 2.58 us; catalog/fabric.c
         * efa-p5), its NIC bytes stretched by EFA's all-to-all share; the
         * flex dispatcher neither */
        T_CHECK(cfg.c.ep == 16, "%s: the all-to-alls as flows (ep %d)", disp[i], cfg.c.ep);
        T_NEAR(cfg.c.ep_net_lat_s, i == 0 ? 280e-6 + 8 * 2.58e-6 : 0, 1e-12,
               "%s: %.0f us before a flow starts", disp[i], cfg.c.ep_net_lat_s * 1e6);
        if (i == 0)
            T_NEAR(cfg.c.ep_net_bytes, token * 8 * 8 / 16 / 0.872, 1e-6 * token,
                   "alltoall: half its copies leave the node, at 0.872 of the NICs' rate");
        if (i == 1) {
            double nic = cfg.groups[0].nic_Bps / 8, net = token * (1 - miss) / nic;
            double nvl = token * 8 * 7 / 8 / cfg.groups[0].intra_Bps;
            T_NEAR(t[1], fmax(net, nvl), 1e-9 * t[1], "hybridep: a token once to the other "
                   "node (%.3f of them), %.3f ms", 1 - miss, t[1] * 1e3);
        }
        T_NEAR(resolve_ep_exposed(&sc, 1, 0.5, 4), 4, 1e-12,
               "without ep_overlap every micro-batch waits");
        scenario_free(&sc);
    }
    T_CHECK(t[1] < t[0] / 2, "hybridep moves under half what the all-to-all does across "
            "nodes (%.3f against %.3f ms)", t[1] * 1e3, t[0] * 1e3);
    {
        /* DeepSeek-V3's group-limited routing at ep 64 over 8 nodes: a
         * token's 4 groups of 8, one a node, reach 7 x (1 - C(7,4)/C(8,4))
         * = 3.5 other nodes, not the 4.6 of 8 experts drawn freely */
        static const char *dsv3 =
            "workload: {model: deepseek-v3, batch_per_gpu: 1, seq_len: 4096, precision: bf16, "
            "global_batch: 512, moe_imbalance: 1}\n"
            "input: {cpu_s_per_sample: 0}\n"
            "gradients: {sharding: zero1, precision: bf16, bucket_mb: 100}\n"
            "parallel: {pp: 4, ep: 64, ep_dispatch: deepep}\n"
            "clusters:\n  - {name: p5, groups: [{role: train, instance: p5.48xlarge, count: 32}]}\n";
        double tok = 4096.0 * 7168 * 2, got, want;
        if (resolve_fmt(&sc, &cfg, "deepseek-v3 at ep 64", "%s", dsv3))
            return;
        got = resolve_ep_alltoall_s(&sc, p5, &cfg.groups[0]);
        want = fmax(tok * 3.5 / (cfg.groups[0].nic_Bps / 8),
                    tok * 8 * 7 / 8 / cfg.groups[0].intra_Bps);
        T_NEAR(got, want, 1e-9 * want, "deepseek-v3, ep 64 over 8 nodes: 3.5 other nodes a "
               "token, %.3f ms", got * 1e3);
        {
            double f16, b16, f8, b8;
            resolve_ep_waits(&sc, p5, &cfg.groups[0], &f16, &b16);
            sc.parallel.ep_fp8_dispatch = 1;
            resolve_ep_waits(&sc, p5, &cfg.groups[0], &f8, &b8);
            T_NEAR(f8 / f16, (1 + 1.03125 / 2) / 2, 1e-9, "ep_fp8_dispatch: the forward's "
                   "dispatch at 1 + 4/128 bytes a value of 2, its combine as it was");
            T_NEAR(b8, b16, 1e-12 * b16, "the backward's all-to-alls stay 16-bit");
        }
        scenario_free(&sc);
    }
    if (resolve_fmt(&sc, &cfg, "an overlap", text, "ep: 8, ep_overlap: true", 1))
        return;
    T_NEAR(resolve_ep_exposed(&sc, 1, 0.5, 4), 1 + 3 * (1 - RESOLVE_EP_HIDDEN * 0.5), 1e-12,
           "ep_overlap: 1 + 3 x (1 - %.2f x 0.5) s", RESOLVE_EP_HIDDEN);
    T_NEAR(resolve_ep_exposed(&sc, 1, 2, 4), 1 + 3 * (1 - RESOLVE_EP_HIDDEN), 1e-12,
           "ep_overlap under more compute: the first micro-batch's 1 s, and what the others' "
           "keep");
    scenario_free(&sc);
    /* DualPipe: its report's "fully hidden", ep_overlap or not */
    if (resolve_fmt(&sc, &cfg, "DualPipe", text, "pp: 2, pp_schedule: dualpipe, ep: 4", 1))
        return;
    T_NEAR(resolve_ep_hidden(&sc), 1, 1e-12, "dualpipe hides all of the shorter");
    T_NEAR(resolve_ep_exposed(&sc, 1, 2, 4), 1, 1e-12,
           "dualpipe under more compute: the first micro-batch's 1 s alone");
    T_NEAR(resolve_ep_exposed(&sc, 1, 0.5, 4), 1 + 3 * 0.5, 1e-12,
           "dualpipe under less compute: what outlasts it");
    scenario_free(&sc);
    {
        double held[2];
        const char *lay[2] = {"tp: 2, sequence_parallel: true, ep: 4",
                              "tp: 2, sequence_parallel: true, ep: 8, etp: 1"};
        for (int i = 0; i < 2; i++) {
            if (resolve_fmt(&sc, &cfg, "an etp layout", text, lay[i], 2))
                return;
            held[i] = resolve_state_params(&sc);
            scenario_free(&sc);
        }
        T_NEAR(held[0], m->params - shape_expert_params(m) * 3 / 4, 1,
               "etp tp's (2) at ep 4: a quarter of the experts before tp's split");
        T_NEAR(held[1], m->params - shape_expert_params(m) * (1 - 2.0 / 8), 1,
               "etp 1 at ep 8: an eighth of the experts whole, 2/8 before tp's split");
    }
    {
        /* expert tensor parallelism: etp 2 (tp's) gathers what 2 ranks
         * received, 8 copies of each of a rank's 4096 / 2 tokens of 2048
         * 16-bit values, a ring moving half of it over NVLink; two such a
         * MoE layer forward, two backward, beside the all-to-alls; etp 1
         * none */
        double g2, a2a, f, b, f1, b1;
        const double layers = 48;
        if (resolve_fmt(&sc, &cfg, "etp 2", text, "tp: 2, sequence_parallel: true, ep: 4", 1))
            return;
        g2 = resolve_ep_etp_gather_s(&sc, p5, &cfg.groups[0]);
        a2a = resolve_ep_alltoall_s(&sc, p5, &cfg.groups[0]);
        T_NEAR(g2, 2 * 2048.0 * 8 * 2048 * 2 / 2 / cfg.groups[0].intra_Bps, 1e-9 * g2,
               "etp 2: a gather of 2 ranks' received tokens, %.3f ms", g2 * 1e3);
        resolve_ep_waits(&sc, p5, &cfg.groups[0], &f, &b);
        T_NEAR(f, layers * (2 * a2a + 2 * g2), 1e-9 * f, "forward: dispatch, combine, a gather "
               "and a reduce-scatter a MoE layer");
        T_NEAR(b, layers * (2 * a2a + 2 * g2), 1e-9 * b, "backward the same");
        scenario_free(&sc);
        if (resolve_fmt(&sc, &cfg, "etp 1", text, "tp: 2, sequence_parallel: true, ep: 8, etp: 1",
                        2))
            return;
        T_CHECK(resolve_ep_etp_gather_s(&sc, p5, &cfg.groups[0]) == 0, "etp 1: no gather");
        resolve_ep_waits(&sc, p5, &cfg.groups[0], &f1, &b1);
        T_NEAR(f1, layers * 2 * resolve_ep_alltoall_s(&sc, p5, &cfg.groups[0]), 1e-9 * f1,
               "etp 1: the all-to-alls alone");
        scenario_free(&sc);
    }
}

/* text with its one %s filled by word, loaded into sc, and the context-
 * parallel waits of one group over NVLink at bw (400 GB/s of NICs) for
 * attention attn; -1 (a failed check) when it does not load. */
static int cp_waits(struct scenario *sc, struct sim_group *g, const char *text, const char *word,
                    const struct cat_instance *in, double bw, const double *attn, double *f,
                    double *b)
{
    struct dt_err e = {""};
    char buf[400];

    snprintf(buf, sizeof buf, text, word);
    if (load_text(sc, buf, &e)) {
        T_CHECK(0, "loads: %s", e.msg);
        return -1;
    }
    memset(g, 0, sizeof *g);
    g->intra_Bps = bw;
    g->nic_Bps = 400e9;
    resolve_cp_waits(sc, in, g, attn, f, b);
    return 0;
}

/* Context parallelism's three forms over one NVLink node at cp 2, Llama 3
 * 8B at 8,192 tokens (a rank 4,096 of them, 8 K-V heads and 32 query heads
 * of 128): the ring hides its transfers under a long attention; Ulysses'
 * all-to-alls move half of Q, K, V and the output each way, waited for;
 * the all-gather brings the other rank's K and V, its gradients back. */
/* The held SMs' factor (resolve_ep_sm_factor) against a lent H200's
 * measurement (validate/sm_share.py): a kernel holding k SMs beside 16-bit
 * products, causal attention and a cast to fp8, each op's time beside it
 * over its time alone; from 20 SMs up each within 16% of sms / (sms - k),
 * the mean within 3%; a plain copy keeps its rate. */
static void held_sms_slow_compute_as_measured(void)
{
    const char *files[2] = {"results/gpu-profiles/h200-sm-share.jsonl",
                            "results/gpu-profiles/h200-sm-share-2.jsonl"};
    char line[1024];
    int n = 0;
    double sum = 0, worst = 0, copy = 0;

    for (int i = 0; i < 2; i++) {
        FILE *f = fopen(files[i], "rb");
        T_CHECK(f != NULL, "%s opens", files[i]);
        if (!f)
            return;
        while (fgets(line, sizeof line, f)) {
            cJSON *j = cJSON_Parse(line);
            cJSON *op = j ? cJSON_GetObjectItem(j, "op") : NULL;
            int sms = j ? cJSON_GetObjectItem(j, "sms")->valueint : 0;
            int k = j ? cJSON_GetObjectItem(j, "held")->valueint : 0;
            double got = j ? cJSON_GetObjectItem(j, "slowdown")->valuedouble : 0, d;
            if (!op || !cJSON_IsString(op) || k < 20) {
                cJSON_Delete(j);
                continue;
            }
            d = got / resolve_ep_sm_factor(sms, k) - 1;
            if (strncmp(op->valuestring, "copy", 4) == 0)
                copy = fmax(copy, got);
            else {
                sum += d;
                worst = fmax(worst, fabs(d));
                n++;
            }
            cJSON_Delete(j);
        }
        fclose(f);
    }
    T_CHECK(n >= 20, "%d compute rows from 20 held SMs up", n);
    T_CHECK(worst <= 0.16, "each within 16%% of sms / (sms - k): the worst %.1f%%", 100 * worst);
    T_CHECK(n > 0 && fabs(sum / n) <= 0.03, "their mean within 3%%: %+.1f%%",
            n > 0 ? 100 * sum / n : 0.0);
    T_CHECK(copy > 0 && copy < 1.05, "a copy kernel keeps its rate beside them (%.3f at most)",
            copy);
}

static void context_parallelism_moves_keys_three_ways(void)
{
    static const char *text =
        "workload: {model: llama3-8b, batch_per_gpu: 1, seq_len: 8192, precision: bf16}\n"
        "input: {cpu_s_per_sample: 0}\n"
        "parallel: {cp: 2, cp_comm: %s}\n"
        "clusters:\n  - {name: p5, groups: [{role: train, instance: p5.48xlarge}]}\n";
    const char *forms[3] = {"p2p", "a2a", "allgather"};
    const struct cat_instance *p5 = catalog_find_instance(&cat, "p5.48xlarge");
    double kv = 4096.0 * 8 * 256 * 2, qo = 4096.0 * 32 * 256 * 2, bw = 300e9, attn[2] = {1, 2.5};
    double want[3] = {0, (qo + kv) / 2 / bw * 32, kv / bw * 32};

    for (int i = 0; i < 3 && p5; i++) {
        struct scenario sc;
        struct sim_group g;
        double f, b;
        if (cp_waits(&sc, &g, text, forms[i], p5, bw, attn, &f, &b))
            return;
        T_NEAR(f, want[i], 1e-9 * want[i] + 1e-15, "cp_comm %s: %.3f ms a micro-batch forward",
               forms[i], f * 1e3);
        T_NEAR(b, want[i], 1e-9 * want[i] + 1e-15, "and as much backward");
        scenario_free(&sc);
    }
}

/* PyTorch's form (cp_comm torch) at cp 4, Llama 3 8B at 16,384 tokens (a
 * rank 4,096 of them), keys and values of all 32 query heads (cp_kv_repeat,
 * 4 times the 8 K-V heads' bytes): the gather waits past the first step's
 * attention (1 / cp of a layer's), forward and backward; backward, the fp32
 * gradients' ring waits past each next step's attention, and the last
 * exchange whole.  A long attention hides all but that last exchange. */
static void context_parallelism_as_torch_runs_it(void)
{
    static const char *text =
        "workload: {model: llama3-8b, batch_per_gpu: 1, seq_len: 16384, precision: bf16}\n"
        "input: {cpu_s_per_sample: 0}\n"
        "parallel: {cp: 4, cp_comm: torch, cp_kv_repeat: %s}\n"
        "clusters:\n  - {name: p5, groups: [{role: train, instance: p5.48xlarge}]}\n";
    const struct cat_instance *p5 = catalog_find_instance(&cat, "p5.48xlarge");
    double bw = 300e9;
    struct { const char *repeat; double heads, attn[2]; } c[3] = {
        {"true", 32, {0.01, 0.025}}, {"true", 32, {1, 2.5}}, {"false", 8, {0.01, 0.025}}};

    for (int i = 0; i < 3 && p5; i++) {
        struct scenario sc;
        struct sim_group g;
        double f, b, kv = 4096.0 * c[i].heads * 256 * 2, ag = 3 * kv / bw, dkv = 2 * kv / bw;
        double af = c[i].attn[0] / 32 / 4, ab = c[i].attn[1] / 32 / 4;
        double wf = fmax(0, ag - af) * 32, wb = (fmax(0, ag - ab) + 3 * fmax(0, dkv - ab) + dkv) * 32;
        if (cp_waits(&sc, &g, text, c[i].repeat, p5, bw, c[i].attn, &f, &b))
            return;
        T_NEAR(f, wf, 1e-9 * wf + 1e-15, "torch, %.0f heads, attention %g s: %.3f ms forward",
               c[i].heads, c[i].attn[0], f * 1e3);
        T_NEAR(b, wb, 1e-9 * wb + 1e-15, "and %.3f ms backward", b * 1e3);
        scenario_free(&sc);
    }
}

/* Every fabric's tuner is one the simulator has, and the shape a type
 * resolves to carries it: p5 has aws-ofi-nccl's p5 map, p6e-gb200 none. */
static void fabrics_name_tuners_the_simulator_has(void)
{
    const struct cat_fabric *f;
    struct nccl_shape sh;
    struct dt_err e;
    int bad = 0;

    for (int i = 0; (f = catalog_fabric_at(i)) != NULL; i++)
        if (f->tuner && nccl_tuner_by_name(f->tuner) <= 0) {
            printf("# %s: tuner %s unknown\n", f->name, f->tuner);
            bad = 1;
        }
    T_CHECK(!bad, "every fabric's tuner is the simulator's");
    T_CHECK(plan_nccl_shape(catalog_find_instance(&cat, "p5.48xlarge"), 4, &sh, &e) == 0 &&
            sh.tuner == NCCL_TUNER_AWS_P5, "p5.48xlarge: the aws-p5 map (%d)", sh.tuner);
    T_CHECK(plan_nccl_shape(catalog_find_instance(&cat, "p6-b300.48xlarge"), 4, &sh, &e) == 0 &&
            sh.tuner == NCCL_TUNER_AWS_P6_B300, "p6-b300.48xlarge: its own map (%d)", sh.tuner);
    T_CHECK(plan_nccl_shape(catalog_find_instance(&cat, "rack"), 2, &sh, &e) == 0 &&
            sh.tuner == NCCL_TUNER_NONE, "u-p6e-gb200x72: no map (%d)", sh.tuner);
}

int main(void)
{
    struct dt_err e;

    if (catalog_load(&cat, "catalog", &e)) {
        printf("FAIL - catalog loads: %s\n", e.msg);
        return 1;
    }
    T_RUN(sparse_tables_send_only_touched_rows);
    T_RUN(dense_models_exchange_all_parameters);
    T_RUN(in_turn_servers_apply_to_sync_dedicated_only);
    T_RUN(vcpu_speed_follows_the_all_core_clock);
    T_RUN(gpu_clusters_run_auto_and_lose_sms_to_it);
    T_RUN(optimizer_loops_cost_their_tensors);
    T_RUN(a_calibration_gives_its_own_layout_back);
    T_RUN(context_parallelism_spreads_each_sequence);
    T_RUN(expert_parallelism_splits_the_experts);
    T_RUN(dispatchers_overlap_and_expert_tp);
    T_RUN(flex_dispatchers_send_a_token_once_a_rank);
    T_RUN(allgather_dispatcher_gathers_the_group);
    T_RUN(flex_dispatchers_run_at_their_published_rates);
    T_RUN(expert_gradients_reduce_on_their_own_group);
    T_RUN(eager_moe_layers_wait_for_the_host);
    T_RUN(held_sms_slow_compute_as_measured);
    T_RUN(context_parallelism_moves_keys_three_ways);
    T_RUN(context_parallelism_as_torch_runs_it);
    T_RUN(a_pipeline_over_fsdp_runs_as_its_stages_hold_it);
    T_RUN(fabrics_name_tuners_the_simulator_has);
    catalog_free(&cat);
    return T_DONE();
}
