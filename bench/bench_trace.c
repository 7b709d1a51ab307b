/*
 * bench_trace.c - what the trace recorder (sim/trace.h) costs: the same
 * simulation (1.5B parameters, 25 MiB buckets, ring, 1024 GPUs, a data node
 * group, 20 steps) without a recorder and with one, and the size of the
 * recording.  Prints figures; it does not pass or fail (tests check that
 * results are identical either way).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../sim/sim.h"
#include "../sim/trace.h"
#include "../base/units.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double time_runs(struct sim_config *c, struct sim_result *r, int reps)
{
    struct dt_err e;
    double t0 = now_s();

    for (int k = 0; k < reps; k++)
        if (sim_run(c, r, &e)) {
            fprintf(stderr, "bench_trace: %s\n", e.msg);
            return -1;
        }
    return (now_s() - t0) / reps * 1e3;
}

int main(void)
{
    struct sim_config c;
    struct sim_result r0, r1;
    struct sim_trace tr;
    double off, on;
    int reps = 5;

    memset(&c, 0, sizeof c);
    c.ngroups = 2;
    c.groups[0] = (struct sim_group){
        .role = SIM_TRAIN, .count = 128, .gpus = 8, .vcpus = 96, .loader_vcpus = 96,
        .core_speed = 1, .nic_Bps = 48e9, .net_alpha_s = 14e-6, .intra_Bps = 240e9,
        .intra_alpha_s = 3.4e-6, .pcie_Bps = 24e9, .fwd_s = 0.1, .bwd_s = 0.2,
        .opt_s = 0.01, .price_usd_h = 32.77};
    c.groups[1] = (struct sim_group){
        .role = SIM_DATA, .count = 64, .vcpus = 72, .loader_vcpus = 72, .core_speed = 1,
        .nic_Bps = 3e9, .net_alpha_s = 14e-6, .price_usd_h = 3.06};
    c.w = (struct sim_workload){.batch = 8, .grad_bytes = 1.5e9 * 4, .cpu_s_per_sample = 0.01,
                                .prep_bytes = 150e3, .loader_workers = 4, .prefetch = 2,
                                .local_with_data_nodes = 1};
    c.c = (struct sim_comm){.strategy = SIM_RING, .bucket_bytes = 25.0 * DT_MIB, .overlap = 1};
    c.fabric_oversub = 1;
    c.steps = 17;
    c.warmup = 3;
    c.jitter_cv = 0.02;
    c.seed = 1;

    memset(&tr, 0, sizeof tr);
    off = time_runs(&c, &r0, reps);
    c.trace = &tr;
    on = time_runs(&c, &r1, reps);
    if (off < 0 || on < 0)
        return 1;
    printf("bench_trace: 1024 GPUs + 64 data nodes, 230 buckets, ring, 20 steps\n");
    printf("%-22s %10.2f ms per run\n", "no recorder", off);
    printf("%-22s %10.2f ms per run (%.2fx)\n", "recorder attached", on, on / off);
    printf("%-22s %10zu spans, %zu samples (%.1f MB)\n", "recording", tr.nspans, tr.nsamples,
           (tr.nspans * sizeof *tr.spans + tr.nsamples * sizeof *tr.samples) / 1e6);
    printf("%-22s %10s\n", "results identical", memcmp(&r0, &r1, sizeof r0) ? "NO" : "yes");
    sim_trace_free(&tr);
    return 0;
}
