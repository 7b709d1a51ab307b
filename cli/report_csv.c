/*
 * report_csv.c - a struct plan_report as CSV: one row a cluster, the
 * columns of docs/output.md "CSV", fields quoted as RFC 4180 wants
 * (catalog/csv.h's writer), numbers to 6 significant digits, empty when not
 * finite.
 */
#include "report.h"
#include "report_parts.h"
#include "../base/units.h"
#include "../catalog/csv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void csv_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.6g", v);
    fputc(',', f);
}

int report_csv(FILE *f, const struct plan_report *rep)
{
    static const char *head[] = {
        "cluster", "groups", "recommended", "feasible", "step_mean_s", "step_p50_s", "step_p95_s",
        "step_band_lo_s", "step_band_hi_s",
        "compute_s", "data_stall_s", "exposed_comm_s", "optimizer_s", "dp_comm_s", "tp_comm_s",
        "pipeline_bubble_s", "comm_interference_s", "util_gpu", "util_cpu",
        "util_nic", "samples_per_s", "workers", "scaling_efficiency", "price_usd_per_h",
        "cost_per_step_usd", "steps_per_epoch", "epoch_s", "cost_per_epoch_usd",
        "time_to_train_s", "cost_to_train_usd", "bottleneck", "bottleneck_detail",
        "infeasible_why", "sharding", "batch_per_gpu", "grad_accum", "memory_gib",
        "memory_capacity_gib", "tokens_per_s", "mfu", "ettr", "interruptions_per_day",
        "checkpoint_interval_s", "checkpoint_write_s", "restart_s",
        "time_to_train_without_failures_s", "cost_to_train_without_failures_usd",
        "time_to_train_band_lo_s", "time_to_train_band_hi_s", "layout_why", "ep_comm_s"};
    size_t nh = sizeof head / sizeof head[0];

    for (size_t c = 0; c < nh; c++)
        csv_write_field(f, head[c], c + 1 == nh);
    for (int i = 0; i < rep->nclusters; i++) {
        const struct plan_cluster *pc = &rep->clusters[i];
        const struct sim_result *r = &pc->res;
        char *groups = report_cell_groups(pc->cl);

        csv_write_field(f, report_cluster_name(pc), 0);
        csv_write_field(f, groups, 0);
        x_free(groups);
        csv_write_field(f, i == rep->best ? "yes" : "no", 0);
        csv_write_field(f, pc->feasible ? "yes" : "no", 0);
        csv_num(f, r->step_mean_s);
        csv_num(f, r->step_p50_s);
        csv_num(f, r->step_p95_s);
        csv_num(f, pc->band_lo_s);
        csv_num(f, pc->band_hi_s);
        csv_num(f, r->compute_s);
        csv_num(f, r->data_stall_s);
        csv_num(f, r->exposed_comm_s);
        csv_num(f, r->optimizer_s);
        csv_num(f, report_parts_dp_comm_s(r));
        csv_num(f, r->tp_comm_s);
        csv_num(f, r->pp_bubble_s);
        csv_num(f, r->comm_interference_s);
        csv_num(f, r->util_gpu);
        csv_num(f, r->util_cpu);
        csv_num(f, r->util_nic);
        csv_num(f, r->samples_per_s);
        csv_num(f, r->workers);
        csv_num(f, pc->scaling_eff);
        csv_num(f, pc->price_usd_h);
        csv_num(f, pc->cost_per_step_usd);
        csv_num(f, pc->steps_per_epoch);
        csv_num(f, pc->epoch_s);
        csv_num(f, pc->cost_per_epoch_usd);
        csv_num(f, pc->train_s);
        csv_num(f, pc->cost_to_train_usd);
        csv_write_field(f, plan_bound_name(pc->bound), 0);
        csv_write_field(f, pc->bound_text, 0);
        csv_write_field(f, pc->feasible ? "" : pc->infeasible_why, 0);
        csv_write_field(f, scenario_sharding_name(pc->sharding), 0);
        csv_num(f, pc->batch_per_gpu);
        csv_num(f, pc->grad_accum);
        csv_num(f, pc->mem.total / DT_GIB);
        csv_num(f, pc->mem.capacity / DT_GIB);
        csv_num(f, pc->tokens_per_s);
        csv_num(f, pc->mfu);
        {
            /* goodput: empty without a goodput: section */
            const struct plan_goodput *g = &pc->goodput;
            csv_num(f, g->on ? g->ettr : NAN);
            csv_num(f, g->on ? g->interruptions_per_day : NAN);
            csv_num(f, g->on ? g->checkpoint_interval_s : NAN);
            csv_num(f, g->on ? g->checkpoint_write_s : NAN);
            csv_num(f, g->on ? g->restart_s : NAN);
            csv_num(f, g->on ? g->train_nofail_s : NAN);
            csv_num(f, g->on ? g->cost_nofail_usd : NAN);
        }
        csv_num(f, pc->train_band_lo_s);
        csv_num(f, pc->train_band_hi_s);
        csv_write_field(f, pc->layout_why, 0);
        {
            char ep[32] = "";
            if (isfinite(r->ep_comm_s))
                snprintf(ep, sizeof ep, "%.6g", r->ep_comm_s);
            csv_write_field(f, ep, 1);
        }
    }
    return ferror(f) ? -1 : 0;
}
