/*
 * test_scenario.c - the scenario loader: every field and default of the
 * files in tests/data/scenario_ok/, the exact error line of every file in
 * tests/bad/ (the same lines tests/suite_bad.sh expects from the binary), and
 * the catalog rules (inline definitions, unknown prices).  Run from the
 * repository root: it loads the real catalog from catalog/.
 */
#include "../../base/names.h"
#include "../../base/units.h"
#include "../../catalog/shape.h"
#include "../../cli/ld_scenario.h"
#include "t.h"

#include <glob.h>
#include <stdlib.h>
#include <unistd.h>

#define MIB DT_MIB
#define TOL 1e-12 /* every value below is read from text, so only rounding differs */

static int load_catalog(struct catalog *cat)
{
    struct dt_err e;

    if (catalog_load(cat, "catalog", &e) != 0) {
        T_CHECK(0, "the catalog loads (%s)", e.msg);
        return -1;
    }
    return 0;
}

/* Load path into sc with a fresh catalog in cat; on failure report and return -1. */
static int load_ok(const char *path, struct scenario *sc, struct catalog *cat)
{
    struct dt_err e;

    if (load_catalog(cat))
        return -1;
    if (ld_scenario_load(sc, path, cat, &e) != 0) {
        T_CHECK(0, "%s loads (%s)", path, e.msg);
        catalog_free(cat);
        return -1;
    }
    T_CHECK(1, "%s loads", path);
    return 0;
}

/* The whole file as a string without its trailing newline; NULL if unreadable. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    size_t n;

    if (!f)
        return NULL;
    buf = calloc(1, 4096);
    n = fread(buf, 1, 4095, f);
    fclose(f);
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
        buf[--n] = '\0';
    return buf;
}

/* Write text to a new file under /tmp; path receives its name. */
static int write_temp(char *path, size_t cap, const char *text)
{
    int fd;
    FILE *f;

    snprintf(path, cap, "/tmp/dtplan-test-scenario-XXXXXX");
    fd = mkstemp(path);
    if (fd < 0)
        return -1;
    f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        return -1;
    }
    fputs(text, f);
    fclose(f);
    return 0;
}

static void the_full_scenario_sets_every_field(void)
{
    const char *path = "tests/data/scenario_ok/full.yaml";
    struct catalog cat;
    struct scenario sc;
    const struct cat_instance *my, *c5;
    const struct sc_cluster *c;

    if (load_ok(path, &sc, &cat))
        return;
    T_CHECK(strcmp(sc.name, "s1-hetero") == 0, "name is given (%s)", sc.name);
    T_CHECK(sc.catalog == &cat, "the scenario points at the catalog it was resolved against");

    /* inline definitions are in the catalog, the same-name one replaced */
    my = catalog_find_instance(&cat, "my.node");
    T_CHECK(my != NULL, "inline instance my.node is added to the catalog");
    if (my) {
        T_CHECK(my->vcpus == 32 && my->gpu_count == 4, "my.node has 32 vCPUs and 4 GPUs");
        T_NEAR(my->mem_gib, 128, TOL, "my.node memory_gib");
        T_CHECK(strcmp(my->gpu_model, "A100") == 0 && my->gpu == catalog_find_gpu(&cat, "A100"),
                "my.node's GPU model resolves to the catalog's A100");
        T_NEAR(my->gpu_mem_gib, 40, TOL, "my.node gpu_mem_gib");
        T_CHECK(strcmp(my->intra_link_text, "NVLink") == 0 && my->link == CAT_LINK_NVLINK,
                "my.node's intra-node link is NVLink");
        T_NEAR(my->net_gbps, 100, TOL, "my.node network_gbps");
        T_CHECK(my->efa == 1, "my.node has EFA");
        T_NEAR(my->price_usd_h, 12.0, TOL, "my.node price_usd_h");
        T_NEAR(my->spot_usd_h, 4.0, TOL, "my.node spot_usd_h");
        T_NEAR(my->cpu_speed, 1.5, TOL, "my.node cpu_speed");
        T_CHECK(strcmp(my->cloud, "onprem") == 0 && strcmp(my->region, "x") == 0 &&
                    strcmp(my->source, "lab rack 3") == 0,
                "my.node keeps cloud, region and source");
    }
    c5 = catalog_find_instance(&cat, "c5.9xlarge");
    T_CHECK(c5 != NULL, "c5.9xlarge is still in the catalog");
    if (c5) {
        T_NEAR(c5->price_usd_h, 1.0, TOL, "the inline c5.9xlarge replaces the catalog's price");
        T_NEAR(c5->spot_usd_h, 0.25, TOL, "the inline c5.9xlarge replaces the spot price");
        T_CHECK(c5->vcpus == 36 && c5->gpu_count == 0 && c5->gpu == NULL &&
                    c5->gpu_model[0] == '\0',
                "an inline CPU instance has no GPU");
        T_NEAR(c5->net_gbps, 12, TOL, "the inline c5.9xlarge network_gbps");
        T_CHECK(strcmp(c5->cloud, "custom") == 0 && c5->region[0] == '\0',
                "an inline instance's cloud defaults to custom and region to empty");
        T_CHECK(c5->link == CAT_LINK_NONE && strcmp(c5->intra_link_text, "") == 0,
                "an inline instance without GPUs has no GPU link");
        T_CHECK(strcmp(c5->source, "defined inline in tests/data/scenario_ok/full.yaml") == 0,
                "an inline instance's source defaults to the scenario file (%s)", c5->source);
    }

    T_CHECK(sc.workload.model == catalog_find_model(&cat, "mynet"), "the model is the inline mynet");
    if (sc.workload.model) {
        T_NEAR(sc.workload.model->params, 25.6e6, TOL, "mynet params (25.6e6 in exponent notation)");
        T_NEAR(sc.workload.model->fwd_gflops, 8.2, TOL, "mynet fwd_gflops");
        T_CHECK(strcmp(sc.workload.model->family, "cnn") == 0 && strcmp(sc.workload.model->input, "224x224x3") == 0 &&
                    strcmp(sc.workload.model->source, "paper") == 0,
                "mynet keeps family, input and source");
    }
    T_CHECK(sc.parallel.micro_batch == 64, "batch_per_gpu");
    T_CHECK(sc.workload.precision == CAT_FP16, "precision fp16");
    T_CHECK(sc.workload.grad_accum == 2, "grad_accum");
    T_NEAR(sc.workload.mfu, 0.35, TOL, "mfu");
    T_NEAR(sc.workload.optimizer_bytes_per_param, 16, TOL, "optimizer_bytes_per_param");
    T_CHECK(sc.workload.measured_gpu == catalog_find_gpu(&cat, "T4"), "measured_compute.gpu is T4");
    T_NEAR(sc.workload.measured_compute_s, 1.12, TOL, "measured_compute.step_s");
    T_CHECK(sc.workload.measured_batch == 32, "measured_compute.batch");
    T_CHECK(sc.workload.measured_cluster == 1, "measured_step.cluster hetero is clusters[1]");
    T_NEAR(sc.workload.measured_step_s, 2.5, TOL, "measured_step.step_s");
    T_CHECK(sc.workload.solve_for == SC_SOLVE_CPU, "solve_for cpu_cost");
    T_CHECK(isnan(sc.input.cpu_s_per_sample), "cpu_s_per_sample is NAN when solved for");
    T_NEAR(sc.input.raw_bytes, 110000, TOL, "raw_bytes");
    T_NEAR(sc.input.prep_bytes, 602112, TOL, "prep_bytes");
    T_CHECK(sc.input.loader_workers == 6, "loader_workers");
    T_CHECK(sc.input.prefetch == 4, "prefetch");
    T_CHECK(sc.input.reserved_vcpus_per_gpu == 1, "reserved_vcpus_per_gpu");
    T_CHECK(sc.input.data_workers == 16, "data_workers");
    T_CHECK(sc.input.local_with_data_nodes == 0, "local_with_data_nodes false");
    T_NEAR(sc.input.service_send_cpu_s_per_byte, 4.0e-9, TOL, "service_send_cpu_s_per_byte");
    T_NEAR(sc.input.service_recv_cpu_s_per_byte, 2.0e-9, TOL, "service_recv_cpu_s_per_byte");
    T_NEAR(sc.input.dataset_samples, 1281167, TOL, "dataset_samples");
    T_NEAR(sc.input.epochs, 90, TOL, "epochs");
    T_CHECK(sc.gradients.strategy == SIM_PS_SYNC, "strategy ps_sync");
    T_NEAR(sc.gradients.bucket_bytes, 50 * MIB, TOL, "bucket_bytes = 50 MiB = 50 * 2^20 bytes");
    T_CHECK(sc.gradients.overlap == 0, "overlap: no reads as false");
    T_CHECK(sc.gradients.precision == CAT_BF16, "gradient precision bf16");
    T_CHECK(sc.gradients.ps_count == 2 && sc.gradients.ps_place == SC_PS_DEDICATED, "ps count 2, dedicated");

    T_CHECK(sc.nclusters == 3, "three clusters");
    if (sc.nclusters == 3) {
        c = &sc.clusters[0];
        T_CHECK(strcmp(c->name, "homogeneous") == 0 && c->ngroups == 2 && c->gradients.strategy == -1,
                "clusters[0] uses the scenario's strategy");
        T_CHECK(c->groups[0].role == SIM_TRAIN && c->groups[0].count == 2 && !c->groups[0].spot &&
                    c->groups[0].inst == catalog_find_instance(&cat, "p3.8xlarge"),
                "clusters[0].groups[0]: 2 x p3.8xlarge train, on demand");
        T_CHECK(c->groups[1].role == SIM_PS && c->groups[1].count == 1 &&
                    c->groups[1].inst == c5,
                "clusters[0].groups[1]: a ps group on the replaced c5.9xlarge, count 1");
        c = &sc.clusters[1];
        T_CHECK(strcmp(c->name, "hetero") == 0 && c->ngroups == 3 && c->gradients.strategy == -1,
                "clusters[1]");
        T_CHECK(c->groups[0].role == SIM_TRAIN && c->groups[0].inst == my &&
                    c->groups[0].count == 1 && c->groups[0].spot == 1,
                "clusters[1].groups[0]: role defaults to train, the inline my.node, spot");
        T_CHECK(c->groups[1].role == SIM_DATA && c->groups[1].count == 4 && c->groups[1].spot == 1 &&
                    c->groups[1].inst == catalog_find_instance(&cat, "c5.18xlarge"),
                "clusters[1].groups[1]: 4 spot data nodes (spot: yes)");
        T_CHECK(c->groups[2].role == SIM_PS && c->groups[2].count == 2 &&
                    c->groups[2].inst == catalog_find_instance(&cat, "ml.c5.9xlarge"),
                "clusters[1].groups[2]: 2 ps nodes");
        c = &sc.clusters[2];
        T_CHECK(strcmp(c->name, "allreduce") == 0 && c->gradients.strategy == SIM_HIERARCHICAL &&
                    c->ngroups == 1 && c->groups[0].count == 2,
                "clusters[2] has its own strategy and needs no ps group");
    }
    T_NEAR(sc.fabric.oversubscription, 2.5, TOL, "fabric oversubscription");
    T_CHECK(sc.objective.minimize == SC_OBJ_COST_TRAIN, "minimize cost_to_train");
    T_NEAR(sc.objective.deadline_h, 24, TOL, "deadline_h");
    T_NEAR(sc.objective.budget_usd_h, 100, TOL, "budget_usd_h");
    T_CHECK(sc.objective.max_data_channels == 20, "max_data_channels");
    T_CHECK(sc.simulation.seed == 7 && sc.simulation.steps == 50 && sc.simulation.warmup == 5, "seed, steps, warmup");
    T_NEAR(sc.simulation.jitter_cv, 0.05, TOL, "jitter_cv");

    scenario_free(&sc);
    T_CHECK(sc.clusters == NULL && sc.nclusters == 0, "scenario_free empties the clusters");
    scenario_free(&sc);
    T_CHECK(1, "scenario_free twice is harmless");
    catalog_free(&cat);
}

static void auto_worker_counts_are_accepted(void)
{
    struct catalog cat;
    struct scenario sc;

    if (load_ok("tests/data/scenario_ok/data_workers_auto.yaml", &sc, &cat))
        return;
    T_CHECK(sc.input.loader_workers == -1 && sc.input.data_workers == -1,
            "loader_workers: auto and data_workers: auto load as -1 (got %d, %d)", sc.input.loader_workers,
            sc.input.data_workers);
    scenario_free(&sc);
    catalog_free(&cat);
}

static void the_minimal_scenario_takes_every_default(void)
{
    struct catalog cat;
    struct scenario sc;

    if (load_ok("tests/data/scenario_ok/minimal.yaml", &sc, &cat))
        return;
    T_CHECK(strcmp(sc.name, "minimal") == 0, "name defaults to the file name without extension");
    T_CHECK(sc.catalog == &cat, "the scenario points at the catalog");
    T_CHECK(sc.workload.model == catalog_find_model(&cat, "resnet50"), "model resnet50 from the catalog");
    T_CHECK(sc.parallel.micro_batch == 32, "batch_per_gpu");
    T_CHECK(sc.workload.precision == CAT_FP32, "precision defaults to fp32");
    T_CHECK(sc.workload.grad_accum == 1, "grad_accum defaults to 1");
    T_CHECK(isnan(sc.workload.mfu) && isnan(sc.workload.optimizer_bytes_per_param),
            "mfu and optimizer_bytes_per_param default to NAN");
    T_CHECK(sc.workload.measured_gpu == NULL && isnan(sc.workload.measured_compute_s) && sc.workload.measured_batch == 0,
            "no measured compute: NULL GPU, NAN time, batch 0");
    T_CHECK(sc.workload.measured_cluster == -1 && isnan(sc.workload.measured_step_s) &&
                sc.workload.solve_for == SC_SOLVE_NONE,
            "no measured step: cluster -1, NAN time, solve for nothing");
    T_NEAR(sc.input.cpu_s_per_sample, 0.002, TOL, "cpu_s_per_sample");
    T_CHECK(sc.input.raw_bytes == 0 && sc.input.prep_bytes == 0, "raw and prep bytes default to 0");
    T_CHECK(sc.input.loader_workers == -1, "loader_workers defaults to auto (-1)");
    T_CHECK(sc.input.prefetch == 2, "prefetch defaults to 2");
    T_CHECK(sc.input.reserved_vcpus_per_gpu == 0, "reserved_vcpus_per_gpu defaults to 0");
    T_CHECK(sc.input.data_workers == -1, "data_workers defaults to auto (-1)");
    T_CHECK(sc.input.local_with_data_nodes == 1, "local_with_data_nodes defaults to true");
    T_CHECK(sc.input.service_send_cpu_s_per_byte == 0 && sc.input.service_recv_cpu_s_per_byte == 0,
            "data-service CPU costs default to 0");
    T_CHECK(isnan(sc.input.dataset_samples), "dataset_samples defaults to NAN");
    T_NEAR(sc.input.epochs, 1, TOL, "epochs defaults to 1");
    T_CHECK(sc.gradients.strategy == SIM_AUTO, "strategy defaults to auto");
    T_NEAR(sc.gradients.bucket_bytes, 25 * MIB, TOL, "bucket defaults to 25 MiB = 26214400 bytes");
    T_CHECK(sc.gradients.overlap == 1, "overlap defaults to true");
    T_CHECK(sc.gradients.precision == CAT_FP32, "gradient precision defaults to fp32");
    T_CHECK(sc.gradients.ps_count == 1 && sc.gradients.ps_place == SC_PS_COLOCATED,
            "ps defaults to one colocated server");
    T_CHECK(sc.nclusters == 1 && strcmp(sc.clusters[0].name, "one") == 0 &&
                sc.clusters[0].ngroups == 1 && sc.clusters[0].gradients.strategy == -1,
            "one cluster of one group, with the scenario's strategy");
    T_CHECK(sc.clusters[0].groups[0].role == SIM_TRAIN && sc.clusters[0].groups[0].count == 1 &&
                sc.clusters[0].groups[0].spot == 0 &&
                sc.clusters[0].groups[0].inst == catalog_find_instance(&cat, "p3.2xlarge"),
            "a group defaults to one on-demand train node");
    T_NEAR(sc.fabric.oversubscription, 1, TOL, "fabric defaults to non-blocking");
    T_CHECK(sc.objective.minimize == SC_OBJ_TIME, "objective defaults to step_time");
    T_CHECK(isnan(sc.objective.deadline_h) && isnan(sc.objective.budget_usd_h), "no deadline, no budget");
    T_CHECK(sc.objective.max_data_channels == -1, "no limit on data channels (-1)");
    T_CHECK(sc.simulation.seed == 1 && sc.simulation.steps == 20 && sc.simulation.warmup == 3,
            "simulation defaults: seed 1, 20 steps, 3 warm-up");
    T_NEAR(sc.simulation.jitter_cv, 0.02, TOL, "jitter_cv defaults to 0.02");
    scenario_free(&sc);
    catalog_free(&cat);
}

static void cpu_training_can_solve_for_compute(void)
{
    struct catalog cat;
    struct scenario sc;

    if (load_ok("tests/data/scenario_ok/cpu_solve_compute.yaml", &sc, &cat))
        return;
    T_CHECK(strcmp(sc.name, "cpu-only") == 0, "name");
    T_CHECK(sc.workload.model == catalog_find_model(&cat, "deepfm"), "model deepfm");
    T_CHECK(sc.workload.solve_for == SC_SOLVE_COMPUTE && sc.workload.measured_cluster == 0,
            "solve for compute from clusters[0]");
    T_NEAR(sc.workload.measured_step_s, 0.5, TOL, "measured step_s");
    T_NEAR(sc.input.cpu_s_per_sample, 1e-4, TOL, "cpu_s_per_sample given as 1e-4");
    T_CHECK(sc.input.loader_workers == -1, "loader_workers: auto is -1");
    T_CHECK(sc.gradients.strategy == SIM_HIERARCHICAL, "strategy hierarchical");
    T_CHECK(sc.nclusters == 2 && sc.clusters[0].groups[0].inst->gpu_count == 0 &&
                sc.clusters[0].groups[0].count == 4,
            "a CPU-only instance may train");
    scenario_free(&sc);
    catalog_free(&cat);
}

static void every_bad_file_gives_its_error_line(void)
{
    struct catalog cat;
    struct scenario sc;
    struct dt_err e;
    glob_t g;
    size_t i;
    int ninst, nmodels;
    double c5_price;

    if (load_catalog(&cat))
        return;
    ninst = cat.ninstances;
    nmodels = cat.nmodels;
    c5_price = catalog_find_instance(&cat, "c5.9xlarge")->price_usd_h;
    if (glob("tests/bad/*.yaml", 0, NULL, &g) != 0) {
        T_CHECK(0, "tests/bad/*.yaml exist (run from the repository root)");
        catalog_free(&cat);
        return;
    }
    T_CHECK(g.gl_pathc >= 19, "at least 19 bad-input files (%zu)", g.gl_pathc);
    for (i = 0; i < g.gl_pathc; i++) {
        const char *path = g.gl_pathv[i];
        char errpath[512], *want;
        int rc;

        snprintf(errpath, sizeof errpath, "%.*s.err", (int)(strlen(path) - 5), path);
        want = read_text(errpath);
        memset(&e, 0, sizeof e);
        rc = ld_scenario_load(&sc, path, &cat, &e);
        T_CHECK(rc == -1, "%s is rejected", path);
        T_CHECK(want && strcmp(e.msg, want) == 0, "%s gives its error line", path);
        if (!want || strcmp(e.msg, want) != 0)
            printf("#   want: %s\n#   got:  %s\n", want ? want : "(no .err file)", e.msg);
        T_CHECK(strchr(e.msg, '\n') == NULL, "%s: the message is one line", path);
        T_CHECK(sc.clusters == NULL && sc.nclusters == 0, "%s: a failed load holds no clusters",
                path);
        scenario_free(&sc);
        free(want);
    }
    T_CHECK(cat.ninstances == ninst && cat.nmodels == nmodels &&
                catalog_find_instance(&cat, "my.node") == NULL,
            "failed loads add nothing to the catalog");
    T_NEAR(catalog_find_instance(&cat, "c5.9xlarge")->price_usd_h, c5_price, TOL,
           "failed loads replace nothing in the catalog");
    globfree(&g);
    catalog_free(&cat);
}

/* A catalog row with an empty price column: usable only once defined inline. */
static void an_unknown_price_is_an_error_only_where_used(void)
{
    static const char used[] =
        "workload: {model: resnet50, batch_per_gpu: 8}\n"
        "input: {cpu_s_per_sample: 0.001}\n"
        "clusters:\n"
        "  - name: a\n"
        "    groups: [{instance: p3.2xlarge}, {role: data, instance: noprice.x}]\n";
    static const char unused[] =
        "workload: {model: resnet50, batch_per_gpu: 8}\n"
        "input: {cpu_s_per_sample: 0.001}\n"
        "clusters: [{name: a, groups: [{instance: p3.2xlarge}]}]\n";
    /* One node: the bandwidth it does not define is not needed. */
    static const char defined[] =
        "catalog: {instances: [{name: noprice.x, vcpus: 16, price_usd_h: 0.5}]}\n"
        "workload: {model: resnet50, batch_per_gpu: 8}\n"
        "input: {cpu_s_per_sample: 0.001}\n"
        "clusters:\n"
        "  - name: a\n"
        "    groups: [{instance: noprice.x}]\n";
    struct catalog cat;
    struct cat_instance in;
    struct scenario sc;
    struct dt_err e;
    char path[64], want[1024];

    if (load_catalog(&cat))
        return;
    memset(&in, 0, sizeof in);
    snprintf(in.cloud, sizeof in.cloud, "aws");
    snprintf(in.name, sizeof in.name, "noprice.x");
    in.vcpus = 16;
    in.mem_gib = NAN;
    in.gpu_mem_gib = NAN;
    in.intra_link_text = x_strdup("");
    in.net_gbps = 10;
    in.efa = -1;
    in.price_usd_h = NAN;
    in.spot_usd_h = NAN;
    in.source = x_strdup("test");
    catalog_put_instance(&cat, &in);

    if (write_temp(path, sizeof path, used) == 0) {
        snprintf(want, sizeof want,
                 "%s:5:61: clusters[0].groups[1].instance: on-demand price of \"noprice.x\" is "
                 "unknown in the catalog, define it under catalog.instances with price_usd_h",
                 path);
        int rc = ld_scenario_load(&sc, path, &cat, &e);
        T_CHECK(rc == -1 && strcmp(e.msg, want) == 0,
                "a cluster using an instance without a price is rejected");
        if (strcmp(e.msg, want) != 0)
            printf("#   want: %s\n#   got:  %s\n", want, e.msg);
        scenario_free(&sc);
        unlink(path);
    }
    if (write_temp(path, sizeof path, unused) == 0) {
        T_CHECK(ld_scenario_load(&sc, path, &cat, &e) == 0,
                "an instance without a price that no cluster uses is fine");
        scenario_free(&sc);
        unlink(path);
    }
    if (write_temp(path, sizeof path, defined) == 0) {
        int rc = ld_scenario_load(&sc, path, &cat, &e);
        T_CHECK(rc == 0, "defining the price inline makes the instance usable");
        if (rc == 0) {
            const struct cat_instance *np = sc.clusters[0].groups[0].inst;
            T_NEAR(np->price_usd_h, 0.5, TOL, "the inline price");
            T_CHECK(isnan(np->mem_gib) && isnan(np->net_gbps) && isnan(np->spot_usd_h) &&
                        isnan(np->cpu_speed) && np->efa == 0 && np->gpu_count == 0,
                    "an inline instance's unset memory, NIC, spot price and CPU speed are "
                    "unknown, EFA defaults to no and GPUs to none");
        }
        scenario_free(&sc);
        unlink(path);
    }
    catalog_free(&cat);
}

static void a_missing_file_is_an_error(void)
{
    struct catalog cat;
    struct scenario sc;
    struct dt_err e;

    if (load_catalog(&cat))
        return;
    T_CHECK(ld_scenario_load(&sc, "tests/data/no-such-file.yaml", &cat, &e) == -1 &&
                strcmp(e.msg, "tests/data/no-such-file.yaml: cannot open: No such file or "
                              "directory") == 0,
            "a missing file names the path and the reason (%s)", e.msg);
    T_CHECK(ld_scenario_load(&sc, "tests/data", &cat, &e) == -1 &&
                strcmp(e.msg, "tests/data: cannot open: is a directory") == 0,
            "a directory is not a scenario (%s)", e.msg);
    scenario_free(&sc);
    catalog_free(&cat);
}

static void the_same_file_loads_twice_into_one_catalog(void)
{
    struct catalog cat;
    struct scenario sc;
    struct dt_err e;
    int n;

    if (load_ok("tests/data/scenario_ok/full.yaml", &sc, &cat))
        return;
    n = cat.ninstances;
    scenario_free(&sc);
    T_CHECK(ld_scenario_load(&sc, "tests/data/scenario_ok/full.yaml", &cat, &e) == 0,
            "loading again replaces the inline entries");
    T_CHECK(cat.ninstances == n, "no duplicate catalog entries (%d, want %d)", cat.ninstances, n);
    scenario_free(&sc);
    catalog_free(&cat);
}

static void enum_names_match_the_file_format(void)
{
    T_CHECK(strcmp(sim_strategy_name(SIM_RING), "ring") == 0 &&
                strcmp(sim_strategy_name(SIM_HALVING_DOUBLING), "halving_doubling") == 0 &&
                strcmp(sim_strategy_name(SIM_PS_ASYNC), "ps_async") == 0,
            "strategy names");
    T_CHECK(strcmp(sim_role_name(SIM_TRAIN), "train") == 0 &&
                strcmp(sim_role_name(SIM_DATA), "data") == 0 &&
                strcmp(sim_role_name(SIM_PS), "ps") == 0,
            "role names");
    T_CHECK(strcmp(scenario_objective_name(SC_OBJ_TIME), "step_time") == 0 &&
                strcmp(scenario_objective_name(SC_OBJ_COST_STEP), "cost_per_step") == 0 &&
                strcmp(scenario_objective_name(SC_OBJ_COST_TRAIN), "cost_to_train") == 0,
            "objective names");
    T_CHECK(sim_strategy_name(99) == NULL && sim_strategy_name(-1) == NULL &&
                sim_role_name(SIM_PS + 1) == NULL && scenario_objective_name(3) == NULL,
            "a value past the end of a set has no name (the sets are iterated to it)");
    T_CHECK(sim_is_ps(SIM_PS_SYNC) && sim_is_ps(SIM_PS_ASYNC) && !sim_is_ps(SIM_RING) &&
                !sim_is_ps(SIM_HIERARCHICAL) && !sim_is_ps(SIM_NSTRATEGY),
            "the strategy table marks exactly the parameter-server strategies");
    T_CHECK(sim_strategy_parse("hierarchical") == SIM_HIERARCHICAL &&
                sim_strategy_parse("ps") == -1 && sim_role_parse("data") == SIM_DATA &&
                scenario_ps_receive_parse("in_turn") == SC_PS_IN_TURN &&
                catalog_prec_parse("bf16") == CAT_BF16 && catalog_family_parse("ctr") == 2 &&
                scenario_grad_prec_parse("tf32") == -1 &&
                scenario_objective_parse("cost_to_train") == SC_OBJ_COST_TRAIN,
            "a name parses to its value, and a name outside the set to -1");
}

/* A transformer given by its shape: FLOPs per sample follow the workload's
 * seq_len; an inline shaped model needs no parameter count. */
static void a_shaped_transformer_takes_its_sequence_length(void)
{
    struct catalog cat;
    struct scenario sc;
    const struct cat_model *tiny;

    if (load_ok("tests/data/scenario_ok/transformer_shape.yaml", &sc, &cat))
        return;
    T_CHECK(sc.workload.seq_len == 4096 && shape_known(sc.workload.model), "seq_len 4096 for llama3-8b");
    T_NEAR(scenario_fwd_gflops(&sc), shape_fwd_flops(sc.workload.model, 4096) / 1e9, 1e-12,
           "forward GFLOP per sample at the workload's 4096 tokens");
    T_CHECK(scenario_fwd_gflops(&sc) < sc.workload.model->fwd_gflops / 2,
            "half the tokens of the model's 8192 cost less than half the FLOPs (attention)");
    tiny = catalog_find_model(&cat, "tiny-gqa");
    /* 2 x (256 x (256 + 2 x 64) + 256^2 + 3 x 256 x 688) + 2 x 1000 x 256 */
    T_NEAR(tiny ? tiny->params : NAN, 2 * (256.0 * 384 + 65536 + 3 * 256.0 * 688) + 512000,
           1e-12, "an inline shaped model's parameters follow from its shape");
    T_CHECK(tiny && tiny->lm_head == 1 && tiny->dropout == 0,
            "an inline shaped model is a language model without dropout unless told, as models.csv");
    tiny = catalog_find_model(&cat, "tiny-span");
    T_CHECK(tiny && tiny->lm_head == 0 && fabs(tiny->dropout - 0.1) < 1e-12,
            "lm_head: false and dropout: 0.1 are read");
    sc.workload.seq_len = 0;
    T_NEAR(scenario_fwd_gflops(&sc), sc.workload.model->fwd_gflops, 1e-12,
           "without seq_len, the catalog's fwd_gflops (at the model's own 8192)");
    scenario_free(&sc);
    catalog_free(&cat);
}

/* An inline shape as users write it: kv_heads left out is heads, seq_len
 * left out is workload.seq_len; the same model as the one that says both. */
static void an_inline_shape_takes_its_defaults(void)
{
    static const char rest[] =
        "workload: {model: gpt, batch_per_gpu: 8, seq_len: 1024}\n"
        "input: {cpu_s_per_sample: 0.001}\n"
        "clusters:\n"
        "  - name: one\n"
        "    groups:\n"
        "      - instance: p3.2xlarge\n";
    static const char *const model[] = {
        "catalog:\n  models:\n"
        "    - {name: gpt, layers: 12, hidden: 768, heads: 12, ffn_hidden: 3072, vocab: 50257}\n",
        "catalog:\n  models:\n"
        "    - {name: gpt, layers: 12, hidden: 768, heads: 12, kv_heads: 12, ffn_hidden: 3072,\n"
        "       vocab: 50257, seq_len: 1024}\n",
    };
    double params[2] = {NAN, NAN}, gflops[2] = {NAN, NAN};
    char path[64], text[1024];

    for (int i = 0; i < 2; i++) {
        struct catalog cat;
        struct scenario sc;
        const struct cat_model *m;

        snprintf(text, sizeof text, "%s%s", model[i], rest);
        if (write_temp(path, sizeof path, text)) {
            T_CHECK(0, "a temporary scenario is written");
            return;
        }
        if (load_ok(path, &sc, &cat) == 0) {
            m = catalog_find_model(&cat, "gpt");
            T_CHECK(m && m->kv_heads == 12 && m->seq_len == 1024,
                    "%s: kv_heads 12 and seq_len 1024", i ? "said" : "defaulted");
            params[i] = m ? m->params : NAN;
            gflops[i] = m ? m->fwd_gflops : NAN;
            scenario_free(&sc);
            catalog_free(&cat);
        }
        unlink(path);
    }
    /* 12 x (768 x (768 + 2 x 768) + 768^2 + 2 x 768 x 3072) + 2 x 50257 x 768 */
    T_NEAR(params[0], 12 * (768.0 * 2304 + 589824 + 2 * 768.0 * 3072) + 2 * 50257.0 * 768,
           1e-12, "the defaulted shape's parameters count full-width K and V");
    T_CHECK(params[0] == params[1] && gflops[0] == gflops[1] && !isnan(gflops[0]),
            "the defaulted shape gives the parameters and FLOPs of the one that says both");
}

/* The default imbalance under expert parallelism: dropless routing's 1.66
 * (scenario.c), 1 without ep or experts, the model's capacity factor where
 * it drops tokens past it, a given value as given. */
static void moe_imbalance_defaults_to_dropless_routing(void)
{
    struct catalog cat;
    struct scenario sc;
    struct cat_model moe;
    const struct cat_model *m;

    if (load_ok("tests/data/scenario_ok/transformer_shape.yaml", &sc, &cat))
        return;
    m = catalog_find_model(&cat, "qwen3-30b-a3b");
    if (!m) {
        T_CHECK(0, "qwen3-30b-a3b in the catalog");
        scenario_free(&sc);
        catalog_free(&cat);
        return;
    }
    T_NEAR(scenario_moe_imbalance(&sc), 1, 0, "a dense model: 1");
    moe = *m;
    sc.workload.model = &moe;
    sc.workload.moe_imbalance = NAN;
    sc.parallel.ep = 1;
    T_NEAR(scenario_moe_imbalance(&sc), 1, 0, "experts without ep: 1");
    sc.parallel.ep = 8;
    T_NEAR(scenario_moe_imbalance(&sc), SC_MOE_IMBALANCE, 0, "ep 8, dropless: %.2f",
           SC_MOE_IMBALANCE);
    moe.capacity_factor = 1.25;
    T_NEAR(scenario_moe_imbalance(&sc), 1.25, 0, "capacity factor 1.25: the busiest rank at it");
    sc.workload.moe_imbalance = 1;
    T_NEAR(scenario_moe_imbalance(&sc), 1, 0, "given: as given");
    sc.workload.model = m;
    scenario_free(&sc);
    catalog_free(&cat);
}

/* gradients.buckets megatron: Megatron-Core's max(40M, 1M x dp) parameters */
static void megatron_buckets_grow_with_the_replicas(void)
{
    struct scenario sc;

    memset(&sc, 0, sizeof sc);
    sc.parallel.tp = 4;
    sc.parallel.pp = 8;
    sc.parallel.cp = 1;
    sc.gradients.precision = CAT_BF16;
    sc.gradients.bucket_rule = SC_BUCKETS_FIXED;
    T_NEAR(scenario_bucket_bytes(&sc, 25 * 1048576.0, 512), 25 * 1048576.0, 0,
           "fixed: bucket_mb's size");
    sc.gradients.bucket_rule = SC_BUCKETS_MEGATRON;
    T_NEAR(scenario_bucket_bytes(&sc, 25 * 1048576.0, 512), 80e6, 0,
           "16 replicas: the 40M-parameter floor, 2 bytes each");
    sc.parallel.pp = 6;
    T_NEAR(scenario_bucket_bytes(&sc, 25 * 1048576.0, 10752), 896e6, 0,
           "448 replicas (tp 4 x pp 6 on 10,752 GPUs): 448M parameters");
    sc.parallel.cp = 2;
    T_NEAR(scenario_bucket_bytes(&sc, 25 * 1048576.0, 10752), 448e6, 0,
           "cp 2 halves the replicas: 224M parameters");
    sc.gradients.precision = CAT_FP32;
    T_NEAR(scenario_bucket_bytes(&sc, 25 * 1048576.0, 10752), 896e6, 0,
           "fp32 gradients: 4 bytes a parameter");
    T_NEAR(scenario_bucket_bytes(&sc, 25 * 1048576.0, 8), 160e6, 0,
           "fewer GPUs than a replica: one replica, the floor");
}

int main(void)
{
    T_RUN(the_full_scenario_sets_every_field);
    T_RUN(the_minimal_scenario_takes_every_default);
    T_RUN(a_shaped_transformer_takes_its_sequence_length);
    T_RUN(an_inline_shape_takes_its_defaults);
    T_RUN(auto_worker_counts_are_accepted);
    T_RUN(cpu_training_can_solve_for_compute);
    T_RUN(every_bad_file_gives_its_error_line);
    T_RUN(an_unknown_price_is_an_error_only_where_used);
    T_RUN(a_missing_file_is_an_error);
    T_RUN(the_same_file_loads_twice_into_one_catalog);
    T_RUN(enum_names_match_the_file_format);
    T_RUN(moe_imbalance_defaults_to_dropless_routing);
    T_RUN(megatron_buckets_grow_with_the_replicas);
    return T_DONE();
}
