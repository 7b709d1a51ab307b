/*
 * sim_stats.c - results of a finished run: step times (mean, p50, p95 over
 * the measured steps; a synchronous step ends with its slowest worker), the
 * breakdown of the slowest worker, and utilisation of every resource over
 * the measured window.  O(steps x workers + resources).
 */
#include "sim_int.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

void sim_collect(struct sim *s, struct sim_result *res)
{
    const struct sim_config *cfg = s->cfg;
    int n = cfg->steps, slow = 0;
    double *dt = x_calloc((size_t)n, sizeof *dt), T = s->t1 - s->t0;
    double busy_vcpu = 0, all_vcpu = 0, gpu_w = 0, gpu_sum = 0, rate = 0;
    double worst = -1;

    memset(res, 0, sizeof *res);
    /* Step times: synchronous steps end with the slowest worker; with
     * asynchronous PS each group runs on its own and the slowest is reported. */
    for (int i = 0; i < s->nw; i++) {
        double sum = 0;
        for (int k = cfg->warmup; k < s->total_steps; k++)
            sum += s->w[i].end[k] - (k ? s->w[i].end[k - 1] : 0);
        if (sum > worst) {
            worst = sum;
            slow = i;
        }
    }
    for (int k = 0; k < n; k++) {
        int step = cfg->warmup + k;
        double e1 = 0, e0 = 0;
        for (int i = 0; i < s->nw; i++) {
            const struct worker *w = sim_is_async(cfg) ? &s->w[slow] : &s->w[i];
            if (w->end[step] > e1)
                e1 = w->end[step];
            if (step > 0 && w->end[step - 1] > e0)
                e0 = w->end[step - 1];
        }
        dt[k] = e1 - e0;
    }
    res->step_mean_s = gsl_stats_mean(dt, 1, (size_t)n);
    gsl_sort(dt, 1, (size_t)n);
    res->step_p50_s = gsl_stats_quantile_from_sorted_data(dt, 1, (size_t)n, 0.5);
    res->step_p95_s = gsl_stats_quantile_from_sorted_data(dt, 1, (size_t)n, 0.95);
    x_free(dt);

    {
        const struct worker *w = &s->w[slow];
        res->compute_s = w->compute / n;
        res->data_stall_s = w->stall / n;
        res->exposed_comm_s = w->exposed / n;
        res->comm_interference_s = w->interf / n;
        res->optimizer_s = w->opt / n;
    }
    for (int i = 0; i < s->nw; i++) {
        const struct worker *w = &s->w[i];
        const struct sim_group *g = &cfg->groups[w->g];
        double step = sim_is_async(cfg) ? (w->end[s->total_steps - 1] -
                                       (cfg->warmup ? w->end[cfg->warmup - 1] : 0)) / n
                                    : res->step_mean_s;
        res->workers += w->ranks;
        rate += w->ranks * cfg->w.batch / step;
        res->g[w->g].gpu_util = step > 0 ? (w->compute / n) / step : 0;
        if (g->gpus > 0) {
            gpu_sum += res->g[w->g].gpu_util * w->ranks;
            gpu_w += w->ranks;
        }
    }
    res->samples_per_s = rate;
    res->util_gpu = gpu_w > 0 ? gpu_sum / gpu_w : 0;
    for (int i = 0; i < cfg->ngroups; i++) {
        const struct sim_group *g = &cfg->groups[i];
        struct sim_group_stats *st = &res->g[i];
#define UTIL(r) ((r) >= 0 && T > 0 ? (s->mm.res[r].busy - s->busy0[r]) / (s->mm.res[r].cap * T) : 0)
        st->nic_tx_util = UTIL(s->r_tx[i]);
        st->nic_rx_util = UTIL(s->r_rx[i]);
        st->intra_util = UTIL(s->r_intra[i]);
        st->pcie_util = UTIL(s->r_pcie[i]);
#undef UTIL
        if (T > 0) {
            double used = s->r_cpu[i] >= 0
                ? (s->mm.res[s->r_cpu[i]].busy - s->busy0[s->r_cpu[i]]) / g->core_speed : 0;
            /* A CPU train node computes on the vCPUs its loader does not use. */
            if (g->role == SIM_TRAIN && g->gpus == 0)
                used += st->gpu_util * T * (g->vcpus - g->loader_vcpus);
            st->cpu_util = g->vcpus > 0 ? used / (g->vcpus * T) : 0;
            busy_vcpu += used * g->count;
        }
        all_vcpu += g->vcpus * g->count * T;
        if (st->nic_tx_util > res->util_nic)
            res->util_nic = st->nic_tx_util;
        if (st->nic_rx_util > res->util_nic)
            res->util_nic = st->nic_rx_util;
    }
    res->util_cpu = all_vcpu > 0 ? busy_vcpu / all_vcpu : 0;
    res->events = s->events;
    for (int d = 0; sim_dims[d]; d++)
        if (s->dim[d] && sim_dims[d]->collect)
            sim_dims[d]->collect(s, s->dim[d], slow, res);
}
