/*
 * bench_sim.c - how long one simulated step takes, and how much memory,
 * as the cluster grows: a 1.5B-parameter model (fp32 gradients, 6 GB) in
 * 25 MiB buckets on ring all-reduce and on strategy auto (NCCL's choice per
 * bucket; backward slowed while collectives run), 8 GPUs per node, at 8 to
 * 16,384 GPUs.  Target: 16,384 GPUs in under 100 ms and 100 MB on one core.
 * Prints figures and ratios; it does not pass or fail (tests check
 * behaviour).
 *
 * Then one zero3 (FSDP) step of a 70B-parameter model on 1,024 GPUs (128
 * nodes of 8 H100, 80 layers gathered and reduced one by one, strategy
 * auto).  Target: under 5 ms.  And one step of the same model with tensor
 * parallelism 8 and zero1 on 16,384 GPUs (16 micro-batches).  Target: under
 * 100 ms.
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "../sim/sim.h"
#include "../base/units.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Wall milliseconds of one sim_run of c, over reps runs; -1 on error. */
static double ms_per_run(const struct sim_config *c, int reps, struct sim_result *r)
{
    struct dt_err e;
    double t0 = now_s();

    for (int k = 0; k < reps; k++)
        if (sim_run(c, r, &e)) {
            fprintf(stderr, "bench_sim: %s\n", e.msg);
            return -1;
        }
    return (now_s() - t0) / reps * 1e3;
}

static int table(enum sim_strategy st)
{
    int gpus[] = {8, 64, 1024, 16384};
    double base = 0;

    printf("bench_sim: 1.5e9 parameters, fp32 gradients, 25 MiB buckets, %s, 8 GPUs per node\n",
           sim_strategy_name(st));
    printf("%8s %8s %12s %12s %10s %10s\n", "GPUs", "buckets", "step_s", "wall_ms/step", "events", "vs 8 GPUs");
    for (int i = 0; i < 4; i++) {
        struct sim_config c;
        struct sim_result r;
        double per;
        int reps = 3;

        memset(&c, 0, sizeof c);
        c.ngroups = 1;
        c.groups[0] = (struct sim_group){
            .role = SIM_TRAIN, .count = gpus[i] / 8, .gpus = 8, .vcpus = 96, .loader_vcpus = 96,
            .core_speed = 1, .nic_Bps = 48e9, .net_alpha_s = 14e-6, .intra_Bps = 240e9,
            .intra_alpha_s = 3.4e-6, .pcie_Bps = 24e9, .fwd_s = 0.1, .bwd_s = 0.2,
            .opt_s = 0.01, .price_usd_h = 32.77, .gpu_cc = 80, .link = SIM_LINK_NVSWITCH,
            .nics = 4, .comm_slowdown = st == SIM_AUTO ? 1.08 : 1};
        c.w = (struct sim_workload){.batch = 8, .grad_bytes = 1.5e9 * 4, .cpu_s_per_sample = 0.01,
                                    .prep_bytes = 4096, .loader_workers = 4, .prefetch = 2};
        c.c = (struct sim_comm){.strategy = st, .bucket_bytes = 25.0 * DT_MIB, .overlap = 1};
        c.fabric_oversub = 1;
        c.steps = 1;
        c.warmup = 0;
        c.jitter_cv = 0.02;
        c.seed = 1;
        if ((per = ms_per_run(&c, reps, &r)) < 0)
            return 1;
        if (i == 0)
            base = per;
        printf("%8d %8.0f %12.4f %12.3f %10ld %9.2fx\n", gpus[i], 1.5e9 * 4 / c.c.bucket_bytes + 0.999,
               r.step_mean_s, per, r.events, per / base);
        if (gpus[i] == 16384)
            printf("one step at 16,384 GPUs: %.3f ms (target < 100 ms)\n", per);
    }
    return 0;
}

/* nodes of 8 H100 with NVSwitch and 8 x 400 Gbit/s, 12 s of compute a
 * step: a 70B model's; one measured step, no warm-up. */
static void h100_nodes(struct sim_config *c, int nodes)
{
    memset(c, 0, sizeof *c);
    c->ngroups = 1;
    c->groups[0] = (struct sim_group){
        .role = SIM_TRAIN, .count = nodes, .gpus = 8, .vcpus = 192, .loader_vcpus = 192,
        .core_speed = 1, .nic_Bps = 400e9, .net_alpha_s = 14e-6, .intra_Bps = 370e9,
        .intra_alpha_s = 3.4e-6, .pcie_Bps = 50e9, .fwd_s = 4, .bwd_s = 8, .opt_s = 0.05,
        .price_usd_h = 98.32, .gpu_cc = 90, .link = SIM_LINK_NVSWITCH, .nics = 8,
        .comm_slowdown = 1.1};
    c->fabric_oversub = 1;
    c->steps = 1;
    c->warmup = 0;
    c->seed = 1;
}

static int zero3_70b(void)
{
    struct sim_config c;
    struct sim_result r;
    double per;
    int reps = 20;

    h100_nodes(&c, 128);
    c.w = (struct sim_workload){.batch = 4, .grad_bytes = 70e9 * 4, .loader_workers = 4,
                                .prefetch = 2};
    c.c = (struct sim_comm){.strategy = SIM_AUTO, .bucket_bytes = 25.0 * DT_MIB, .overlap = 1,
                            .shard = SIM_SHARD_FULL, .param_bytes = 70e9 * 2, .units = 80,
                            .micro_batches = 1};
    if ((per = ms_per_run(&c, reps, &r)) < 0)
        return 1;
    printf("bench_sim: zero3, 70e9 parameters in 80 units, 1,024 H100 (128 x 8), auto: step %.3f s, "
           "exposed %.3f s, %ld events\n", r.step_mean_s, r.exposed_comm_s, r.events);
    printf("one zero3 step of a 70B model at 1,024 GPUs: %.3f ms (target < 5 ms)\n", per);
    return 0;
}

/* Tensor parallelism 8 with zero1 over the data-parallel ranks: a 70B model
 * on 16,384 H100 (2,048 x 8), 80 layers, 16 micro-batches a step. */
static int tp8_70b(void)
{
    struct sim_config c;
    struct sim_result r;
    double per;

    h100_nodes(&c, 2048);
    c.w = (struct sim_workload){.batch = 2, .grad_bytes = 70e9 * 4, .loader_workers = 4,
                                .prefetch = 2};
    c.c = (struct sim_comm){.strategy = SIM_AUTO, .bucket_bytes = 25.0 * DT_MIB, .overlap = 1,
                            .shard = SIM_SHARD_OPT, .param_bytes = 70e9 * 2, .units = 80,
                            .micro_batches = 16, .tp = 8, .tp_bytes = 8192.0 * 8192 * 2,
                            .tp_recompute = 1};
    if ((per = ms_per_run(&c, 20, &r)) < 0)
        return 1;
    printf("bench_sim: tp 8 + zero1, 70e9 parameters in 80 layers, 16 micro-batches, 16,384 H100 "
           "(2,048 x 8), auto: step %.3f s, tensor-parallel %.3f s, %ld events\n", r.step_mean_s,
           r.tp_comm_s, r.events);
    printf("one tp 8 + zero1 step of a 70B model at 16,384 GPUs: %.3f ms (target < 100 ms)\n",
           per);
    return 0;
}

/* 3D: tp 8 x pp 16 x dp 128 of a 405B model in 126 layers on 16,384 H100,
 * interleaved 1F1B of 2 chunks a stage, 16 micro-batches a step. */
static int three_d_405b(void)
{
    struct sim_config c;
    struct sim_result r;
    double per;

    h100_nodes(&c, 2048);
    c.groups[0].fwd_s = 16 * 1.2;
    c.groups[0].bwd_s = 16 * 2.4;
    c.w = (struct sim_workload){.batch = 1.0 / 128, .grad_bytes = 405e9 * 2,
                                .loader_workers = 4, .prefetch = 2};
    c.c = (struct sim_comm){.strategy = SIM_AUTO, .bucket_bytes = 25.0 * DT_MIB, .overlap = 1,
                            .units = 126, .micro_batches = 16, .tp = 8,
                            .tp_bytes = 8192.0 * 16384 * 2, .pp = 16, .pp_interleave = 2,
                            .pp_head_frac = 0.03, .pp_embed_frac = 0.005, .pp_out_frac = 0.005,
                            .pp_p2p_bytes = 8192.0 * 16384 * 2 / 8};
    if ((per = ms_per_run(&c, 20, &r)) < 0)
        return 1;
    printf("bench_sim: tp 8 x pp 16 (interleaved, 2 chunks) x dp 128, 405e9 parameters in 126 "
           "layers, 16 micro-batches, 16,384 H100 (2,048 x 8), auto: step %.3f s, bubble %.3f s, "
           "%ld events\n", r.step_mean_s, r.pp_bubble_s, r.events);
    printf("one 3D step (tp 8 x pp 16 x dp 128) of a 405B model at 16,384 GPUs: %.3f ms (target "
           "< 100 ms)\n", per);
    return 0;
}

int main(void)
{
    struct rusage ru;

    if (table(SIM_RING) || table(SIM_AUTO) || zero3_70b() || tp8_70b() || three_d_405b())
        return 1;
    getrusage(RUSAGE_SELF, &ru);
    printf("peak memory (max RSS): %.1f MB\n", ru.ru_maxrss / 1024.0);
    return 0;
}
