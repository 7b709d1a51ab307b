/*
 * sim_check.c - what a struct sim_config must satisfy before it runs
 * (sim.h).  The core asserts its invariants; this turns them into one
 * error line for a caller that built a config by hand.  The planner's
 * configs pass it by construction.  Each parallel dimension checks its
 * own fields (dim.h).
 */
#include "sim_int.h"

#include <math.h>

int sim_check(const struct sim_config *cfg, struct dt_err *e)
{
    int ntrain = 0, nps = 0, ndata = 0;
    /* what the in-turn and first-pull models describe */
    int sync_dedicated = cfg->c.strategy == SIM_PS_SYNC && cfg->c.ps_dedicated;

    if (cfg->ngroups < 1 || cfg->ngroups > SIM_MAX_GROUPS)
        return dt_errf(e, "sim: %d groups, expected 1 to %d", cfg->ngroups, SIM_MAX_GROUPS);
    for (int i = 0; i < cfg->ngroups; i++) {
        const struct sim_group *g = &cfg->groups[i];
        if (g->count < 1)
            return dt_errf(e, "sim: group %d has %d nodes, expected at least 1", i, g->count);
        if (g->gpus < 0 || sim_bad_num(g->vcpus) || sim_bad_num(g->loader_vcpus) ||
            !(g->core_speed > 0) || sim_bad_num(g->nic_Bps) || sim_bad_num(g->intra_Bps) ||
            sim_bad_num(g->pcie_Bps) || sim_bad_num(g->net_alpha_s) || sim_bad_num(g->intra_alpha_s) ||
            sim_bad_num(g->fwd_s) || sim_bad_num(g->bwd_s) || sim_bad_num(g->opt_s) || sim_bad_num(g->price_usd_h) ||
            sim_bad_num(g->comm_slowdown))
            return dt_errf(e, "sim: group %d has a negative, infinite or unknown number", i);
        if (g->role == SIM_TRAIN) {
            ntrain++;
            if (g->gpus > 1 && !(g->intra_Bps > 0))
                return dt_errf(e, "sim: group %d has %d GPUs but no GPU-to-GPU bandwidth", i, g->gpus);
            if (g->gpus > 0 && cfg->w.prep_bytes > 0 && !(g->pcie_Bps > 0))
                return dt_errf(e, "sim: group %d has no host-to-device bandwidth", i);
        } else if (g->role == SIM_PS) {
            nps++;
        } else {
            ndata++;
            if (!(g->loader_vcpus > 0))
                return dt_errf(e, "sim: data group %d has no vCPUs for preprocessing", i);
        }
        if ((g->count > 1 || g->role != SIM_TRAIN || cfg->ngroups > 1) && !(g->nic_Bps > 0))
            return dt_errf(e, "sim: group %d talks over the network but its NIC bandwidth is unknown", i);
    }
    if (ntrain == 0)
        return dt_errf(e, "sim: no train group");
    if (cfg->c.strategy >= SIM_NSTRATEGY)
        return dt_errf(e, "sim: unknown strategy %d", (int)cfg->c.strategy);
    if (sim_is_ps(cfg->c.strategy) && cfg->c.ps_dedicated) {
        if (nps != 1)
            return dt_errf(e, "sim: a dedicated parameter server needs exactly one ps group, found %d", nps);
        if (cfg->c.ps_servers < 1)
            return dt_errf(e, "sim: %d parameter servers, expected at least 1", cfg->c.ps_servers);
    } else if (nps > 0) {
        return dt_errf(e, "sim: a ps group needs strategy ps_sync or ps_async with dedicated servers");
    }
    if (cfg->c.ps_in_turn && !sync_dedicated)
        return dt_errf(e, "sim: servers that take pushes in turn are modelled for ps_sync with dedicated servers only");
    if (!(cfg->c.lat_scale >= 0 && cfg->c.lat_scale <= 1e3))
        return dt_errf(e, "sim: latency scale %g, expected 0 (none) to 1000", cfg->c.lat_scale);
    if (!(cfg->c.cycle_s >= 0 && cfg->c.cycle_s <= 10) ||
        (cfg->c.cycle_s > 0 && sim_is_ps(cfg->c.strategy)))
        return dt_errf(e, "sim: background cycle of %g s, expected 0, or up to 10 s with an "
                       "all-reduce strategy", cfg->c.cycle_s);
    if (!(cfg->c.ps_first_pull >= 0 && cfg->c.ps_first_pull <= 1) ||
        (cfg->c.ps_first_pull > 0 && !sync_dedicated))
        return dt_errf(e, "sim: first pull at %g of the pull, expected 0, or a fraction in (0, 1] "
                       "with ps_sync and dedicated servers", cfg->c.ps_first_pull);
    if (!(cfg->w.batch > 0) || sim_bad_num(cfg->w.grad_bytes) || sim_bad_num(cfg->w.cpu_s_per_sample) ||
        sim_bad_num(cfg->w.prep_bytes) || sim_bad_num(cfg->w.ps_reduce_s_per_byte) ||
        sim_bad_num(cfg->w.send_cpu_s_per_byte) || sim_bad_num(cfg->w.recv_cpu_s_per_byte) ||
        sim_bad_num(cfg->w.step_overhead_s))
        return dt_errf(e, "sim: workload has a non-positive, infinite or unknown number");
    if (cfg->w.loader_workers < 1 || cfg->w.prefetch < 0)
        return dt_errf(e, "sim: loader workers %d (expected >= 1), prefetch %d (expected >= 0)",
                       cfg->w.loader_workers, cfg->w.prefetch);
    if (cfg->c.nbucket_list < 0 || (cfg->c.nbucket_list > 0 && !cfg->c.bucket_list))
        return dt_errf(e, "sim: %d listed buckets without their sizes", cfg->c.nbucket_list);
    for (int b = 0; b < cfg->c.nbucket_list; b++)
        if (!(cfg->c.bucket_list[b] > 0) || !isfinite(cfg->c.bucket_list[b]))
            return dt_errf(e, "sim: listed bucket %d of %g bytes, expected a positive size", b,
                           cfg->c.bucket_list[b]);
    if (!(cfg->c.bucket_bytes > 0) || !isfinite(cfg->c.bucket_bytes))
        return dt_errf(e, "sim: bucket size must be positive");
    if (!(cfg->w.grad_bytes / cfg->c.bucket_bytes <= SIM_MAX_BUCKETS))
        return dt_errf(e, "sim: %.0f gradient buckets per step, expected at most %d",
                       cfg->w.grad_bytes / cfg->c.bucket_bytes, SIM_MAX_BUCKETS);
    /* each parallel dimension's fields (dim.c's table) */
    if (sim_dims_check(cfg, e))
        return -1;
    if (cfg->steps < 1 || cfg->warmup < 0)
        return dt_errf(e, "sim: steps %d (expected >= 1), warmup %d (expected >= 0)", cfg->steps, cfg->warmup);
    if (!(cfg->fabric_oversub >= 1) || !isfinite(cfg->fabric_oversub))
        return dt_errf(e, "sim: fabric oversubscription must be at least 1");
    if (sim_bad_num(cfg->jitter_cv) || cfg->jitter_cv > 1)
        return dt_errf(e, "sim: jitter cv must be in [0, 1]");
    for (int i = 0; i < cfg->ngroups; i++) {
        const struct sim_group *g = &cfg->groups[i];
        int local = g->role == SIM_TRAIN && g->loader_vcpus > 0 && (ndata == 0 || cfg->w.local_with_data_nodes);
        if (g->role == SIM_TRAIN && !local && ndata == 0 && cfg->w.cpu_s_per_sample > 0)
            return dt_errf(e, "sim: train group %d has no vCPU for its input pipeline and there are no data nodes", i);
    }
    return 0;
}
