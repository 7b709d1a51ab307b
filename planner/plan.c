/*
 * plan.c - the listed clusters of a scenario: solve for the scenario's
 * unknown input when it gives a measured step time (plan_solve.c), so that
 * the measured cluster reproduces the measurement, then evaluate every
 * cluster from it (plan_cluster.c) and recommend one (plan_advice.c).
 */
#include "planner.h"

#include <math.h>
#include <string.h>

#include "plan_int.h"

int plan_run(const struct scenario *sc, const struct plan_opts *o, struct plan_report *rep,
             struct dt_err *e)
{
    struct plan_eval_opts eo;

    plan_eval_defaults(&eo);
    memset(rep, 0, sizeof *rep);
    rep->sc = sc;
    rep->solved_value = NAN;
    rep->best = -1;
    if (sc->measured_cluster >= 0 && sc->solve_for != SC_SOLVE_NONE && plan_solve(sc, rep, &eo, e))
        return -1;
    rep->nclusters = sc->nclusters;
    rep->clusters = x_calloc((size_t)sc->nclusters, sizeof *rep->clusters);
    if (o && o->trace)
        rep->traces = x_calloc((size_t)sc->nclusters, sizeof *rep->traces);
    for (int i = 0; i < sc->nclusters; i++) {
        if (rep->traces) {
            rep->traces[i].max_records = o->trace_max_records;
            eo.trace = &rep->traces[i];
        }
        if (plan_cluster_eval(sc, &sc->clusters[i], &eo, &rep->clusters[i], e)) {
            plan_report_free(rep);
            return plan_cluster_err(e, &sc->clusters[i]);
        }
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
}
