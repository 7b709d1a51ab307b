/*
 * report_goodput.c - what failures, checkpoints and restarts cost each
 * cluster (report.h report_goodput_lines;
 * docs/output.md "Goodput"), from planner/goodput.c's figures.
 */
#include "report.h"

#include <math.h>
#include <stdio.h>

#include "../base/numfmt.h"
#include "../planner/goodput.h"

void report_goodput_lines(FILE *f, const struct plan_report *rep)
{
    for (int i = 0; i < rep->nclusters; i++) {
        const struct plan_cluster *pc = &rep->clusters[i];
        const struct plan_goodput *g = &pc->goodput;
        char iv[32], rs[32], wr[32], t[32], t0[32];
        if (!g->on)
            continue;
        numfmt_duration(rs, sizeof rs, g->restart_s, NUMFMT_OWN);
        numfmt_duration(wr, sizeof wr, g->checkpoint_write_s, NUMFMT_OWN);
        fprintf(f, "Goodput: %s: %.1f%% of the time trains (ETTR); %.3g interruptions a day, "
                "%.0f%% odds of one in 30 days; ", pc->cl ? pc->cl->name : "", 100 * g->ettr,
                g->interruptions_per_day, 100 * g->p_interrupt_30d);
        if (isfinite(g->spot_per_day)) {
            char why[160];
            goodput_spot_basis(g, why, sizeof why);
            fprintf(f, "%.3g preemptions a spot node a day (%s)", g->spot_per_day, why);
            if (isfinite(g->spot_saved_per_day))
                fprintf(f, ", %.3g a day saved at their notice", g->spot_saved_per_day);
            fprintf(f, "; ");
        }
        if (isfinite(g->checkpoint_interval_s)) {
            numfmt_duration(iv, sizeof iv, g->checkpoint_interval_s, NUMFMT_OWN);
            fprintf(f, "a checkpoint of %.3g GB every %s (%s to write), ", g->checkpoint_bytes / 1e9,
                    iv, wr);
        } else {
            fprintf(f, "no checkpoint needed (no interruptions), ");
        }
        fprintf(f, "a restart %s", rs);
        if (!isfinite(pc->train_s) && !isnan(pc->train_s) && !isnan(g->train_nofail_s)) {
            numfmt_duration(t0, sizeof t0, g->train_nofail_s, NUMFMT_OWN);
            fprintf(f, "; never trained: its restarts take the whole day (%s and $%.0f without "
                    "failures)", t0, g->cost_nofail_usd);
        } else if (!isnan(pc->train_s) && !isnan(g->train_nofail_s)) {
            numfmt_duration(t, sizeof t, pc->train_s, NUMFMT_OWN);
            numfmt_duration(t0, sizeof t0, g->train_nofail_s, NUMFMT_OWN);
            fprintf(f, "; %s and $%.0f to train (%s and $%.0f without failures)", t,
                    pc->cost_to_train_usd, t0, g->cost_nofail_usd);
            if (isfinite(pc->train_band_lo_s) && isfinite(pc->train_band_hi_s)) {
                numfmt_duration(t, sizeof t, pc->train_band_lo_s, NUMFMT_OWN);
                numfmt_duration(t0, sizeof t0, pc->train_band_hi_s, NUMFMT_OWN);
                fprintf(f, ", %s to %s over the step's band", t, t0);
            }
        }
        if (isfinite(g->train_p10_s) && isfinite(g->train_p90_s)) {
            numfmt_duration(t, sizeof t, g->train_p10_s, NUMFMT_OWN);
            numfmt_duration(t0, sizeof t0, g->train_p90_s, NUMFMT_OWN);
            fprintf(f, "; %s to %s to train, the 10th to the 90th percentile of %d sampled runs",
                    t, t0, rep->sc ? rep->sc->goodput.samples : 0);
        }
        fprintf(f, "\n");
    }
}
