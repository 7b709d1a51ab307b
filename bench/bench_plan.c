/*
 * bench_plan.c - how fast the catalog search evaluates candidates, and what
 * two MPI ranks gain.
 *
 * 1. In process, one core: enumerate the search of a ResNet-50 scenario over
 *    the whole us-east-1 catalog (1 to 64 train nodes, 0 to 8 data nodes,
 *    ring, hierarchical, tree and parameter servers, two bucket sizes), then
 *    simulate every candidate at the scenario's settings (20 steps after 3
 *    warm-up) and print configurations per second and the time 10,000 take.
 *    Target: 10,000 in under 10 s.
 * 2. End to end: "dtplan plan" on the same scenario as one process and under
 *    "mpirun --bind-to none -np 2" (Open MPI binds both ranks to one core otherwise
 *    when oversubscribing), wall clock of each and the speed-up (process start, MPI
 *    start-up and the serial finish included).  Skipped when mpirun is absent.
 * 3. In process, one core: the search of a Llama-3 8B scenario with
 *    gradients.sharding and batch_per_gpu auto (every candidate cluster
 *    chooses among up to 5 sharding stages x its micro-batches, planner/
 *    layout.c) over the GPU types of us-east-1, 1 to 32 nodes; candidates
 *    per second and the time 10,000 take.  Target: 10,000 in under 10 s.
 * 4. In process, one core: the 3D layout search of Llama-3 70B (tp, pp,
 *    interleave, recompute, sharding and micro-batch all auto, planner/
 *    layout.c) on p4d and p5 clusters of 8 to 256 nodes; layouts simulated
 *    per second and the time 10,000 take.  Target: 10,000 in under 10 s.
 * 5. In process, one core: DeepSeek-V3 on 2,048 p5 nodes (16,384 GPUs) with
 *    pp 16, expert parallelism 64 and context parallelism 2, one cluster
 *    evaluated (resolved and its steps simulated); the time a simulated
 *    step takes.  Target: under 100 ms a step.  And Qwen3-30B-A3B on the
 *    same GPUs with ep 16 and cp 2 and no pipeline, where the all-to-alls
 *    run as flows in the layer-by-layer step (sim/ep.c).  Same target.
 * Prints figures; it does not pass or fail (tests check behaviour).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../catalog/catalog.h"
#include "../cli/ld_scenario.h"
#include "../planner/search.h"
#include "../planner/planner.h"

static const char scenario_text[] =
    "name: bench-plan\n"
    "workload: {model: resnet50, batch_per_gpu: 128, precision: fp16}\n"
    "input: {cpu_s_per_sample: 0.006, prep_bytes: 602112, dataset_samples: 1281167, epochs: 90}\n"
    "gradients: {precision: fp16}\n"
    "objective: {minimize: cost_to_train}\n"
    "plan:\n"
    "  regions: [us-east-1]\n"
    "  max_nodes: 64\n"
    "  max_data_nodes: 8\n"
    "  max_ps: 2\n"
    "  strategies: [auto, ring, hierarchical, ps_sync]\n"
    "  bucket_mb: [25, 100]\n"
    "  deadline_h: 24\n"
    "simulation: {seed: 1, steps: 20, warmup: 3}\n";

static const char llm_text[] =
    "name: bench-plan-llm\n"
    "workload: {model: llama3-8b, batch_per_gpu: auto, precision: bf16, recompute: full,\n"
    "           global_batch: 512}\n"
    "input: {cpu_s_per_sample: 0, dataset_samples: 122070313, epochs: 1}\n"
    "gradients: {sharding: auto, precision: fp32}\n"
    "objective: {minimize: cost_to_train}\n"
    "plan: {regions: [us-east-1], max_nodes: 32, max_data_nodes: 0}\n"
    "simulation: {seed: 1, steps: 4, warmup: 1}\n";

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Wall seconds of a shell command, NAN if it failed. */
static double timed(const char *cmd)
{
    double t0 = now_s();
    int rc = system(cmd);
    return rc == 0 ? now_s() - t0 : NAN;
}

static const char layout_text[] =
    "name: bench-plan-3d\n"
    "workload: {model: llama3-70b, batch_per_gpu: auto, precision: bf16, recompute: auto,\n"
    "           global_batch: 1024}\n"
    "input: {cpu_s_per_sample: 0}\n"
    "gradients: {sharding: auto, precision: fp32}\n"
    "parallel: {tp: auto, pp: auto}\n"
    "clusters:\n"
    "  - {name: p5-8, groups: [{role: train, instance: p5.48xlarge, count: 8}]}\n"
    "  - {name: p5-32, groups: [{role: train, instance: p5.48xlarge, count: 32}]}\n"
    "  - {name: p5-128, groups: [{role: train, instance: p5.48xlarge, count: 128}]}\n"
    "  - {name: p5-256, groups: [{role: train, instance: p5.48xlarge, count: 256}]}\n"
    "  - {name: p4d-8, groups: [{role: train, instance: p4d.24xlarge, count: 8}]}\n"
    "  - {name: p4d-32, groups: [{role: train, instance: p4d.24xlarge, count: 32}]}\n"
    "  - {name: p4d-128, groups: [{role: train, instance: p4d.24xlarge, count: 128}]}\n"
    "simulation: {seed: 1, steps: 4, warmup: 1}\n";

static const char moe_text[] =
    "name: bench-plan-moe\n"
    "workload: {model: deepseek-v3, batch_per_gpu: 1, precision: fp8, fp8_recipe: current,\n"
    "           seq_len: 4096, attention: cudnn, kernels: fused, global_batch: 8192}\n"
    "input: {cpu_s_per_sample: 0}\n"
    "gradients: {sharding: zero1, precision: bf16}\n"
    "parallel: {tp: 1, pp: 16, ep: 64, cp: 2}\n"
    "clusters:\n"
    "  - {name: p5-2048, groups: [{role: train, instance: p5.48xlarge, count: 2048}]}\n"
    "simulation: {seed: 1, steps: 4, warmup: 1}\n";

static const char moe_flow_text[] =
    "name: bench-plan-moe-flows\n"
    "workload: {model: qwen3-30b-a3b, batch_per_gpu: 1, precision: bf16, seq_len: 8192,\n"
    "           attention: cudnn, kernels: fused, global_batch: 16384}\n"
    "input: {cpu_s_per_sample: 0}\n"
    "gradients: {sharding: zero1, precision: bf16}\n"
    "parallel: {tp: 1, ep: 16, cp: 2}\n"
    "clusters:\n"
    "  - {name: p5-2048, groups: [{role: train, instance: p5.48xlarge, count: 2048}]}\n"
    "simulation: {seed: 1, steps: 4, warmup: 1}\n";

/* Part 4: the 3D layout search of the listed clusters; part 5 (moe 1): one
 * cluster with expert and context parallelism, per simulated step. */
static int layout_search(struct catalog *cat, const char *text, int moe)
{
    char path[] = "/tmp/bench_plan_3d_XXXXXX";
    struct scenario sc;
    struct plan_eval_opts o;
    struct plan_cluster *pc;
    struct dt_err e;
    double t0, t1, sims = 0;
    int fd;
    FILE *f;

    fd = mkstemp(path);
    if (fd < 0 || !(f = fdopen(fd, "w"))) {
        fprintf(stderr, "bench_plan: cannot write a temporary scenario\n");
        return 1;
    }
    fputs(text, f);
    fclose(f);
    if (ld_scenario_load(&sc, path, cat, &e)) {
        fprintf(stderr, "bench_plan: %s\n", e.msg);
        unlink(path);
        return 1;
    }
    plan_eval_defaults(&o);
    pc = x_calloc(1, sizeof *pc);
    t0 = now_s();
    for (int i = 0; i < sc.nclusters; i++) {
        if (plan_cluster_eval(&sc, &sc.clusters[i], &o, pc, &e)) {
            fprintf(stderr, "bench_plan: %s: %s\n", sc.clusters[i].name, e.msg);
            break;
        }
        sims += pc->nsim;
    }
    t1 = now_s();
    if (moe) {
        int steps = sc.simulation.steps + sc.simulation.warmup;
        printf(moe == 1 ? "bench_plan: deepseek-v3 on 16,384 H100, pp 16 x ep 64 x cp 2\n"
                        : "bench_plan: qwen3-30b-a3b on 16,384 H100, ep 16 x cp 2, no pipeline "
                          "(the all-to-alls as flows)\n");
        printf("  one cluster resolved and %d steps simulated in %.3f ms: %.3f ms a step "
               "(target < 100 ms)\n", steps, 1e3 * (t1 - t0), 1e3 * (t1 - t0) / steps);
        x_free(pc);
        scenario_free(&sc);
        unlink(path);
        return 0;
    }
    printf("bench_plan: llama3-70b, tp, pp, interleave, recompute, sharding and batch_per_gpu "
           "auto, %d clusters of p4d and p5 from 8 to 256 nodes\n", sc.nclusters);
    printf("  %.0f layouts simulated in %.3f s on one core: %.0f us each\n", sims, t1 - t0,
           1e6 * (t1 - t0) / sims);
    printf("  a layout search over 10,000 candidates: %.2f s (target < 10 s)\n",
           1e4 * (t1 - t0) / sims);
    x_free(pc);
    scenario_free(&sc);
    unlink(path);
    return 0;
}

/* Part 3: the sharded LLM search; with goodput (issue 40's target: its
 * terms add at most 10% to a search's time), the same with a goodput:
 * section, and the ratio of the two times.  *secs: the search's time; quiet: print
 * nothing (a repeat). */
static int llm_search(struct catalog *cat, int goodput, int quiet, double *secs)
{
    char path[] = "/tmp/bench_plan_llm_XXXXXX";
    struct scenario sc;
    struct search_list l;
    struct search_eval *ev;
    struct dt_err e;
    double t0, t1, per_s;
    int fd, ok = 0;
    double sims = 0;
    FILE *f;

    fd = mkstemp(path);
    if (fd < 0 || !(f = fdopen(fd, "w"))) {
        fprintf(stderr, "bench_plan: cannot write a temporary scenario\n");
        return 1;
    }
    fputs(llm_text, f);
    if (goodput)
        fputs("goodput: {}\n", f);
    fclose(f);
    if (ld_scenario_load(&sc, path, cat, &e) || search_enumerate(&sc, &l, &e)) {
        fprintf(stderr, "bench_plan: %s\n", e.msg);
        unlink(path);
        return 1;
    }
    ev = x_calloc((size_t)l.n + 1, sizeof *ev);
    t0 = now_s();
    search_eval(&sc, &l, 0, 1, ev, NULL, &e);
    t1 = now_s();
    for (int i = 0; i < l.n; i++) {
        ok += ev[i].ok != 0;
        sims += ev[i].sims;
    }
    per_s = sims / (t1 - t0);
    *secs = t1 - t0;
    if (goodput || quiet) {
        x_free(ev);
        search_list_free(&l);
        scenario_free(&sc);
        unlink(path);
        return 0;
    }
    printf("bench_plan: llama3-8b, sharding and batch_per_gpu auto, us-east-1 GPU types, 1-32 "
           "nodes; layouts ranked on 1 step after 1 warm-up, the chosen one simulated on %d "
           "after %d\n", sc.plan.search_steps > 0 ? sc.plan.search_steps : sc.simulation.steps,
           sc.plan.search_warmup >= 0 ? sc.plan.search_warmup : sc.simulation.warmup);
    printf("  evaluated  %d candidate clusters (%d simulated), each choosing its sharding stage "
           "and micro-batch, in %.3f s on one core: %.2f ms a cluster\n", l.n, ok, t1 - t0,
           1e3 * (t1 - t0) / l.n);
    printf("  %.0f configurations (cluster x stage x micro-batch) simulated: %.0f us each\n",
           sims, 1e6 / per_s);
    printf("  10,000 configurations including sharding: %.2f s (target < 10 s)\n", 10000 / per_s);
    x_free(ev);
    search_list_free(&l);
    scenario_free(&sc);
    unlink(path);
    return 0;
}

int main(void)
{
    char path[] = "/tmp/bench_plan_XXXXXX";
    struct catalog cat;
    struct scenario sc;
    struct search_list l;
    struct search_eval *ev;
    struct dt_err e;
    double t0, t1, per_s, one, two;
    long events = 0;
    char cmd[512];
    int fd, rc = 1;
    FILE *f;

    fd = mkstemp(path);
    if (fd < 0 || !(f = fdopen(fd, "w"))) {
        fprintf(stderr, "bench_plan: cannot write a temporary scenario\n");
        return 1;
    }
    fputs(scenario_text, f);
    fclose(f);
    if (catalog_load(&cat, "catalog", &e) || ld_scenario_load(&sc, path, &cat, &e)) {
        fprintf(stderr, "bench_plan: %s\n", e.msg);
        goto out;
    }
    t0 = now_s();
    if (search_enumerate(&sc, &l, &e)) {
        fprintf(stderr, "bench_plan: %s\n", e.msg);
        goto out_sc;
    }
    t1 = now_s();
    ev = x_calloc((size_t)l.n + 1, sizeof *ev);
    printf("bench_plan: resnet50 over the us-east-1 catalog, 1-64 train nodes, 0-8 data nodes, "
           "4 strategies, 2 bucket sizes; %d steps after %d warm-up per candidate\n",
           sc.simulation.steps, sc.simulation.warmup);
    printf("  enumerated %d candidates in %.3f s\n", l.n, t1 - t0);
    t0 = now_s();
    search_eval(&sc, &l, 0, 1, ev, NULL, &e);
    t1 = now_s();
    for (int i = 0; i < l.n; i++)
        events += ev[i].ok != 0;
    per_s = l.n / (t1 - t0);
    printf("  evaluated  %d candidates (%ld simulated) in %.3f s on one core: %.0f "
           "configurations/s, %.1f us each\n", l.n, events, t1 - t0, per_s, 1e6 / per_s);
    printf("  10,000 configurations: %.2f s (target < 10 s)\n", 10000 / per_s);
    x_free(ev);
    search_list_free(&l);

    {
        /* the fastest of three runs each, taken in turn: one run of a second
         * or so moves by 20% with what else the machine does */
        double plain = INFINITY, with = INFINITY, t;
        for (int k = 0; k < 3; k++) {
            if (llm_search(&cat, 0, k > 0, &t))
                goto out_sc;
            plain = fmin(plain, t);
            if (llm_search(&cat, 1, 1, &t))
                goto out_sc;
            with = fmin(with, t);
        }
        printf("  the same search with a goodput: section: %.3f s against %.3f s, %+.1f%% "
               "(the fastest of 3 each; target: at most +10%%)\n", with, plain,
               100 * (with / plain - 1));
    }
    if (layout_search(&cat, layout_text, 0) || layout_search(&cat, moe_text, 1) ||
        layout_search(&cat, moe_flow_text, 2))
        goto out_sc;

    snprintf(cmd, sizeof cmd, "build/dtplan plan -q %s > /dev/null", path);
    one = timed(cmd);
    if (system("command -v mpirun > /dev/null 2>&1") == 0) {
        snprintf(cmd, sizeof cmd,
                 "mpirun --allow-run-as-root --oversubscribe --bind-to none -np 2 build/dtplan plan -q %s "
                 "> /dev/null 2>&1", path);
        two = timed(cmd);
        printf("  dtplan plan end to end: %.2f s as one process, %.2f s under mpirun -np 2: "
               "speed-up %.2f at 2 ranks (launch and serial finish included)\n", one, two,
               one / two);
    } else {
        printf("  dtplan plan end to end: %.2f s as one process; mpirun not found, no 2-rank "
               "figure\n", one);
    }
    rc = 0;
out_sc:
    scenario_free(&sc);
    catalog_free(&cat);
out:
    unlink(path);
    return rc;
}
