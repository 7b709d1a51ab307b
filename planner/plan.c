/*
 * plan.c - the listed clusters of a scenario: solve for the scenario's
 * unknown input when it gives a measured step time (plan_solve.c), so that
 * the measured cluster reproduces the measurement, then evaluate every
 * cluster from it (plan_cluster.c) and recommend one (plan_advice.c).
 */
#include "planner.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plan_int.h"

/*
 * When the measured step only bounds the unknown, pc was evaluated at the
 * middle of its range: its band is widened to hold the predictions at both
 * ends as well, each with its own band.
 */
static void band_over_range(const struct scenario *sc, const struct sc_cluster *cl,
                            const struct plan_eval_opts *eo, const struct plan_solve_range *range,
                            struct plan_cluster *pc)
{
    const double ends[2] = {range->lo, range->hi};
    struct plan_eval_opts o = *eo;
    struct plan_cluster end;
    struct dt_err e;

    o.trace = NULL;
    o.whatif = 0;
    for (int i = 0; i < 2; i++) {
        if (sc->workload.solve_for == SC_SOLVE_CPU)
            o.cpu_s_per_sample = ends[i];
        else
            o.compute_scale = ends[i];
        if (plan_cluster_eval(sc, cl, &o, &end, &e))
            continue;
        pc->band_lo_s = fmin(pc->band_lo_s, end.band_lo_s);
        pc->band_hi_s = fmax(pc->band_hi_s, end.band_hi_s);
    }
}

int plan_run(const struct scenario *sc, const struct plan_opts *o, struct plan_report *rep,
             struct dt_err *e)
{
    struct plan_eval_opts eo;
    struct plan_solve_range range = {NAN, NAN};

    plan_eval_defaults(&eo);
    memset(rep, 0, sizeof *rep);
    rep->sc = sc;
    rep->solved_value = rep->solved_lo = rep->solved_hi = NAN;
    rep->best = -1;
    if (sc->workload.measured_cluster >= 0 && sc->workload.solve_for != SC_SOLVE_NONE &&
        plan_solve(sc, rep, &eo, &range, e))
        return -1;
    rep->nclusters = sc->nclusters;
    rep->clusters = x_calloc((size_t)sc->nclusters, sizeof *rep->clusters);
    if (o && o->trace)
        rep->traces = x_calloc((size_t)sc->nclusters, sizeof *rep->traces);
    rep->failed = x_calloc((size_t)sc->nclusters, sizeof *rep->failed);
    rep->nclusters = 0;
    for (int i = 0; i < sc->nclusters; i++) {
        int k = rep->nclusters;
        if (rep->traces) {
            rep->traces[k].max_records = o->trace_max_records;
            eo.trace = &rep->traces[k];
        }
        if (plan_cluster_eval(sc, &sc->clusters[i], &eo, &rep->clusters[k], e)) {
            /* not comparable: kept with its reason, the others still compared */
            struct plan_failed *f = &rep->failed[rep->nfailed++];
            snprintf(f->name, sizeof f->name, "%s", sc->clusters[i].name);
            snprintf(f->why, sizeof f->why, "%s", e->msg);
            if (rep->traces) {
                sim_trace_free(&rep->traces[k]);
                memset(&rep->traces[k], 0, sizeof rep->traces[k]);
            }
            continue;
        }
        plan_cluster_details(sc, &rep->clusters[k]);
        if (!isnan(range.hi))
            band_over_range(sc, &sc->clusters[i], &eo, &range, &rep->clusters[k]);
        rep->nclusters++;
    }
    if (rep->nclusters == 0) {
        char why[sizeof rep->failed[0].why];
        snprintf(why, sizeof why, "%s", rep->failed[0].why);
        rep->nclusters = sc->nclusters;     /* every trace slot freed */
        plan_report_free(rep);
        dt_errf(e, "%s", why);
        return plan_cluster_err(e, &sc->clusters[0]);
    }
    plan_advice_listed(sc, rep);
    return 0;
}

void plan_report_free(struct plan_report *rep)
{
    if (rep->traces)
        for (int i = 0; i < rep->nclusters; i++)
            sim_trace_free(&rep->traces[i]);
    x_free(rep->traces);
    rep->traces = NULL;
    x_free(rep->clusters);
    rep->clusters = NULL;
    rep->nclusters = 0;
    x_free(rep->failed);
    rep->failed = NULL;
    rep->nfailed = 0;
}
