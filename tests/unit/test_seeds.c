/*
 * test_seeds.c - the seed cases (scenarios/seeds/, shared seed_cases.md S1-S7):
 * each prediction against the published figure, printed, and failed past
 * the tolerance the case states.  A case the model is known to miss is
 * marked XFAIL with the reason: it prints its numbers as "xfail - ..." and
 * does not count as passed; if it starts to pass it fails as XPASS, so the
 * mark cannot outlive the gap.
 */
#include "t.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../catalog/catalog.h"
#include "../../cli/ld_scenario.h"
#include "../../planner/cluster.h"
#include "../../planner/planner.h"

static struct catalog cat;

static int load(const char *path, struct scenario *sc, struct plan_report *rep)
{
    struct dt_err e;
    if (ld_scenario_load(sc, path, &cat, &e)) {
        T_CHECK(0, "%s loads: %s", path, e.msg);
        return -1;
    }
    if (plan_run(sc, NULL, rep, &e)) {
        T_CHECK(0, "%s plans: %s", path, e.msg);
        scenario_free(sc);
        return -1;
    }
    return 0;
}

static const struct plan_cluster *cl(const struct plan_report *rep, const char *name)
{
    for (int i = 0; i < rep->nclusters; i++)
        if (strcmp(rep->clusters[i].cl->name, name) == 0)
            return &rep->clusters[i];
    return NULL;
}

static const char *best(const struct plan_report *rep)
{
    return rep->best >= 0 ? rep->clusters[rep->best].cl->name : "(none)";
}

/* A check on a case the model is known to miss. */
#define XFAIL(cond, why, ...)                                                  \
    do {                                                                       \
        if (cond) {                                                            \
            T_CHECK(0, "XPASS, remove the xfail mark (%s):", why);             \
            printf("#   ");                                                    \
            printf(__VA_ARGS__);                                               \
            printf("\n");                                                      \
        } else {                                                               \
            printf("xfail - ");                                                \
            printf(__VA_ARGS__);                                               \
            printf(" [known gap: %s]\n", why);                                 \
        }                                                                      \
    } while (0)

static double pct(double a, double b) { return 100 * (a / b - 1); }

static void s1_heterogeneous_tfdata_service(void)
{
    struct scenario sc;
    struct plan_report rep;
    const struct plan_cluster *ho, *he;
    double cut;

    if (load("scenarios/seeds/s1-hetero-tfdata-resnet50.yaml", &sc, &rep))
        return;
    ho = cl(&rep, "homogeneous");
    he = cl(&rep, "heterogeneous");
    cut = 100 * (1 - he->cost_per_step_usd / ho->cost_per_step_usd);
    printf("# S1 inputs: measured 192 ms on 1x ml.p4d.24xlarge -> cpu_s_per_sample %.6g s\n", rep.solved_value);
    T_CHECK(fabs(pct(he->res.step_mean_s, 0.086)) <= 15,
            "S1 heterogeneous step: predicted %.1f ms, published 86 ms (%+.1f%%, tolerance 15%%)",
            1e3 * he->res.step_mean_s, pct(he->res.step_mean_s, 0.086));
    T_CHECK(cut >= 40 && cut <= 52,
            "S1 cost per step falls %.1f%%, published 46%% (accepted 40-52%%)", cut);
    T_CHECK(he->res.util_gpu > ho->res.util_gpu,
            "S1 GPU utilisation rises: %.1f%% -> %.1f%%", 100 * ho->res.util_gpu, 100 * he->res.util_gpu);
    T_CHECK(strcmp(best(&rep), "heterogeneous") == 0 && rep.action == PLAN_HETEROGENEOUS,
            "S1 recommends the heterogeneous cluster (got %s, %s)", best(&rep), plan_action_name(rep.action));
    plan_report_free(&rep);
    scenario_free(&sc);
}

static void s2_heterogeneous_grpc_loader(void)
{
    struct scenario sc;
    struct plan_report rep;
    const struct plan_cluster *ho, *he;
    double cut;
    const char *why = "with the catalog's all-core clocks (2.7 GHz Broadwell on the GPU node, 3.4 GHz "
                      "Skylake on the data node) a data-node worker does 1.26x as much; 184 ms needs "
                      "1.62x, and IPC and SMT differences are not modelled";

    if (load("scenarios/seeds/s2-hetero-grpc-mnist.yaml", &sc, &rep))
        return;
    ho = cl(&rep, "homogeneous");
    he = cl(&rep, "heterogeneous");
    cut = 100 * (1 - he->cost_per_step_usd / ho->cost_per_step_usd);
    printf("# S2 inputs: measured 1193 ms on 1x ml.p3.2xlarge -> cpu_s_per_sample %.6g s\n", rep.solved_value);
    XFAIL(fabs(pct(he->res.step_mean_s, 0.184)) <= 15, why,
          "S2 heterogeneous step: predicted %.1f ms, published 184 ms (%+.1f%%, tolerance 15%%)",
          1e3 * he->res.step_mean_s, pct(he->res.step_mean_s, 0.184));
    T_CHECK(cut >= 70 && cut <= 84, "S2 cost per step falls %.1f%%, published 77%% (accepted 70-84%%)", cut);
    T_CHECK(strcmp(best(&rep), "heterogeneous") == 0,
            "S2 recommends the heterogeneous cluster (got %s)", best(&rep));
    plan_report_free(&rep);
    scenario_free(&sc);
}

static void s3_cpu_gpu_ratio(void)
{
    struct scenario sc;
    struct plan_report rep;

    if (load("scenarios/seeds/s3-cpu-gpu-ratio-p4d.yaml", &sc, &rep))
        return;
    /* 12 vCPU per GPU where 20 are needed: 12/20 = 60% busy. */
    T_NEAR(cl(&rep, "1x p4d")->res.util_gpu, 0.60, 1e-3,
           "S3 1x p4d GPUs busy %.2f%% (12 of the 20 vCPU per GPU needed: 60%%)",
           100 * cl(&rep, "1x p4d")->res.util_gpu);
    T_NEAR(cl(&rep, "2x p4d")->res.util_gpu, 0.60, 1e-3,
           "S3 2x p4d keeps the ratio: GPUs busy %.2f%%", 100 * cl(&rep, "2x p4d")->res.util_gpu);
    T_CHECK(cl(&rep, "1x p4d + 2x c5.18xlarge")->res.util_gpu > 0.95,
            "S3 two c5.18xlarge (30 vCPU per GPU) restore utilisation: %.1f%%",
            100 * cl(&rep, "1x p4d + 2x c5.18xlarge")->res.util_gpu);
    T_CHECK(rep.action == PLAN_HETEROGENEOUS && strstr(rep.reason, "does not help") &&
                strstr(rep.reason, "No instance of the family has a larger CPU:GPU ratio"),
            "S3 p4d: no larger ratio in the family, so heterogeneous: %s", rep.reason);
    plan_report_free(&rep);
    scenario_free(&sc);

    if (load("scenarios/seeds/s3-cpu-gpu-ratio-g5.yaml", &sc, &rep))
        return;
    T_CHECK(strcmp(best(&rep), "g5.16xlarge") == 0 && rep.action == PLAN_SCALE_UP &&
                strstr(rep.reason, "scale up within the family: g5.16xlarge"),
            "S3 g5: scale up within the family first (got %s, %s): %s", best(&rep),
            plan_action_name(rep.action), rep.reason);
    plan_report_free(&rep);
    scenario_free(&sc);
}

static void s4_cassava_two_t4(void)
{
    struct scenario sc;
    struct plan_report rep;
    const struct plan_cluster *two;

    if (load("scenarios/seeds/s4-cassava-t4.yaml", &sc, &rep))
        return;
    two = cl(&rep, "2x T4");
    printf("# S4 inputs: measured 1.1236 s per step on 1x T4 -> compute %.4f s per step\n", rep.solved_value);
    T_CHECK(two->steps_per_epoch == 45, "S4 2x T4 takes %.0f steps per epoch (published 45)", two->steps_per_epoch);
    T_CHECK(fabs(pct(two->epoch_s, 60)) <= 15,
            "S4 2x T4 epoch: predicted %.1f s, published about 60 s (%+.1f%%, tolerance 15%%)",
            two->epoch_s, pct(two->epoch_s, 60));
    T_CHECK(strcmp(best(&rep), "2x T4") == 0, "S4 recommends 2x T4 for time (got %s)", best(&rep));
    plan_report_free(&rep);
    scenario_free(&sc);
}

/* Plan S5 with the input pipeline costing c seconds per record and a
 * background cycle of cyc ms; 1 when the CPU cluster is recommended. */
static int s5_cpu_wins(struct scenario *sc, double c, double cyc)
{
    struct plan_report rep;
    struct dt_err e;
    int won;
    double keep = sc->input.cpu_s_per_sample, keep_cyc = sc->gradients.cycle_ms;

    sc->input.cpu_s_per_sample = c;
    sc->gradients.cycle_ms = cyc;
    if (plan_run(sc, NULL, &rep, &e)) {
        won = -1;
    } else {
        /* the ranking on the objective, before any tie within the bands */
        won = cluster_objective(sc, cl(&rep, "cpu-ps"), 0) <
              cluster_objective(sc, cl(&rep, "gpu-horovod"), 0);
        plan_report_free(&rep);
    }
    sc->input.cpu_s_per_sample = keep;
    sc->gradients.cycle_ms = keep_cyc;
    return won;
}

static void s5_ctr_on_cpus(void)
{
    struct scenario sc;
    struct plan_report rep;
    const struct plan_cluster *cpu, *gpu;
    double lo, hi;
    int at_lo, at_hi;

    if (load("scenarios/seeds/s5-deepfm-ctr.yaml", &sc, &rep))
        return;
    cpu = cl(&rep, "cpu-ps");
    gpu = cl(&rep, "gpu-horovod");
    printf("# S5 cost to train: cpu-ps $%.2f (%.0f samples/s), gpu-horovod $%.2f (%.0f samples/s, "
           "GPUs busy %.0f%%)\n", cpu->cost_to_train_usd, cpu->res.samples_per_s,
           gpu->cost_to_train_usd, gpu->res.samples_per_s, 100 * gpu->res.util_gpu);
    /* How far the ranking stands from its assumptions: the per-record input
     * cost where it flips (geometric bisection over 1/100x..100x of the
     * assumed one), and the ranking with Horovod's newer 1 ms cycle. */
    lo = sc.input.cpu_s_per_sample / 100;
    hi = sc.input.cpu_s_per_sample * 100;
    at_lo = s5_cpu_wins(&sc, lo, sc.gradients.cycle_ms);
    at_hi = s5_cpu_wins(&sc, hi, sc.gradients.cycle_ms);
    if (at_lo >= 0 && at_hi >= 0 && at_lo != at_hi) {
        for (int i = 0; i < 14; i++) {
            double mid = sqrt(lo * hi);
            if (s5_cpu_wins(&sc, mid, sc.gradients.cycle_ms) == at_lo)
                lo = mid;
            else
                hi = mid;
        }
        printf("# S5 the %s cluster wins below %.3g s of input per record, the %s one above "
               "(assumed: %.3g)\n", at_lo ? "CPU" : "GPU", hi, at_hi ? "CPU" : "GPU",
               sc.input.cpu_s_per_sample);
    } else {
        printf("# S5 the ranking holds from %.3g to %.3g s of input per record\n", lo, hi);
    }
    printf("# S5 with a 1 ms cycle (Horovod 0.21.0 and later) the %s cluster costs less\n",
           s5_cpu_wins(&sc, sc.input.cpu_s_per_sample, 1) == 1 ? "CPU" : "GPU");
    T_CHECK(cluster_objective(&sc, cpu, 0) < cluster_objective(&sc, gpu, 0),
            "S5 the CPU instances with parameter servers cost less to train, as the write-up "
            "has it ($%.2f against $%.2f)", cpu->cost_to_train_usd, gpu->cost_to_train_usd);
    /* 11% apart: past the 2% a tie may cost on the objective, so the
     * cheaper CPU cluster is recommended, as the write-up advises for CTR
     * models (issue 35: a cost objective became "fastest within 20%"). */
    T_CHECK(strcmp(best(&rep), "cpu-ps") == 0 && rep.tie.n == 0 &&
                !strstr(rep.reason, "ties on"),
            "S5 the cheaper CPU cluster is recommended, with no tie (got %s: %s)", best(&rep),
            rep.reason);
    /* Its step is split about evenly: 2.3 ms of compute and optimizer, 2.2 ms of
     * exposed exchange with the servers on the same nodes.  The label names
     * what saves most when made twice as fast, and the runner-up. */
    T_CHECK(cpu->bound == PLAN_BOUND_COMPUTE &&
                strstr(cpu->bound_text, "2x compute would cut the step") &&
                strstr(cpu->bound_text, ", 2x NIC bandwidth "),
            "S5 the CPU cluster's step is split between compute and the exchange with its "
            "colocated servers: compute first, the NICs next: %s", cpu->bound_text);
    plan_report_free(&rep);
    scenario_free(&sc);
}

static void s6_one_big_instance_beats_eight_small(void)
{
    struct scenario sc;
    struct plan_report rep;

    if (load("scenarios/seeds/s6-gradient-sharing.yaml", &sc, &rep))
        return;
    T_CHECK(strcmp(best(&rep), "1x p3.16xlarge") == 0 &&
                cl(&rep, "8x p3.2xlarge")->bound == PLAN_BOUND_NETWORK,
            "S6 8 GPUs in one instance beat 8 single-GPU instances (got %s; 8x p3.2xlarge: %s)",
            best(&rep), cl(&rep, "8x p3.2xlarge")->bound_text);
    plan_report_free(&rep);
    scenario_free(&sc);
}

static void s7_pipe_channels_cap_the_workers(void)
{
    struct scenario sc;
    struct plan_report rep;

    if (load("scenarios/seeds/s7-pipe-channels.yaml", &sc, &rep))
        return;
    T_CHECK(!cl(&rep, "3x p3.16xlarge")->feasible && strcmp(best(&rep), "2x p3.16xlarge") == 0,
            "S7 24 workers exceed 20 Pipe channels; 2x p3.16xlarge recommended (got %s)", best(&rep));
    plan_report_free(&rep);
    scenario_free(&sc);
}

int main(void)
{
    struct dt_err e;

    if (catalog_load(&cat, "catalog", &e)) {
        T_CHECK(0, "catalog loads: %s", e.msg);
        return 1;
    }
    T_RUN(s1_heterogeneous_tfdata_service);
    T_RUN(s2_heterogeneous_grpc_loader);
    T_RUN(s3_cpu_gpu_ratio);
    T_RUN(s4_cassava_two_t4);
    T_RUN(s5_ctr_on_cpus);
    T_RUN(s6_one_big_instance_beats_eight_small);
    T_RUN(s7_pipe_channels_cap_the_workers);
    catalog_free(&cat);
    return T_DONE();
}
