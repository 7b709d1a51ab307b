/*
 * plan_solve.c - the scenario's one unknown input from a measured step time
 * (workload.measured_step): the CPU cost per sample, or a scale on compute
 * time, such that the simulation of the measured cluster reproduces the
 * measurement.  GSL's Brent root finder on step(x) - measured, after
 * bracketing the root by doubling.  Each evaluation is one simulation of
 * that cluster.
 */
#include "planner.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>

#include "plan_int.h"
#include "resolve.h"

int plan_cluster_err(struct dt_err *e, const struct sc_cluster *cl)
{
    char msg[sizeof e->msg];
    snprintf(msg, sizeof msg, "%s", e->msg);
    return dt_errf(e, "cluster %s: %s", cl->name, msg);
}

struct solve_ctx {
    const struct scenario *sc;
    const struct sc_cluster *cl;
    enum sc_solve what;
    double target;
    int failed;
    struct dt_err *e;
};

static double solve_f(double x, void *arg)
{
    struct solve_ctx *c = arg;
    struct resolve_opts o = {NAN, 1.0, 0};
    struct sim_config cfg;
    struct sim_result r;

    if (c->what == SC_SOLVE_CPU) {
        o.cpu_s_per_sample = x;
    } else {
        o.compute_scale = x;
        o.unit_flops = isnan(scenario_fwd_gflops(c->sc));
    }
    if (resolve_cluster(c->sc, c->cl, &o, &cfg, c->e) || sim_run(&cfg, &r, c->e)) {
        c->failed = 1;
        return 0;
    }
    return r.step_mean_s - c->target;
}

int plan_solve(const struct scenario *sc, struct plan_report *rep, struct plan_eval_opts *o,
               struct dt_err *e)
{
    struct solve_ctx c = {sc, &sc->clusters[sc->measured_cluster], sc->solve_for,
                          sc->measured_step_s, 0, e};
    gsl_function F = {solve_f, &c};
    gsl_root_fsolver *s;
    double lo = 0, hi = 1e-3, flo, fhi, x = NAN;
    int status, iter = 0;

    flo = solve_f(lo, &c);
    if (c.failed)
        return plan_cluster_err(e, c.cl);
    if (flo >= 0)
        return dt_errf(e, "measured_step: %.4g s on cluster %s is not above what the cluster "
                       "takes with no %s (%.4g s); it cannot be explained by %s",
                       sc->measured_step_s, c.cl->name,
                       c.what == SC_SOLVE_CPU ? "preprocessing" : "compute",
                       flo + sc->measured_step_s,
                       c.what == SC_SOLVE_CPU ? "the input pipeline" : "compute");
    if (c.what == SC_SOLVE_COMPUTE)
        hi = 1.0;
    for (fhi = solve_f(hi, &c); !c.failed && fhi < 0 && hi < 1e12; fhi = solve_f(hi, &c))
        hi *= 2;
    if (c.failed)
        return plan_cluster_err(e, c.cl);
    if (fhi < 0)
        return dt_errf(e, "measured_step: no input reproduces %.4g s on cluster %s",
                       sc->measured_step_s, c.cl->name);
    gsl_set_error_handler_off();
    s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    gsl_root_fsolver_set(s, &F, lo, hi);
    do {
        iter++;
        status = gsl_root_fsolver_iterate(s);
        if (c.failed || status)
            break;
        x = gsl_root_fsolver_root(s);
        status = gsl_root_test_interval(gsl_root_fsolver_x_lower(s), gsl_root_fsolver_x_upper(s),
                                        0, 1e-9);
    } while (status == GSL_CONTINUE && iter < 200);
    gsl_root_fsolver_free(s);
    if (c.failed)
        return plan_cluster_err(e, c.cl);
    if (status != GSL_SUCCESS)
        return dt_errf(e, "measured_step: the solver did not converge (%s)", gsl_strerror(status));
    if (c.what == SC_SOLVE_CPU) {
        o->cpu_s_per_sample = x;
        rep->solved_value = x;
        snprintf(rep->solved_what, sizeof rep->solved_what, "cpu_s_per_sample");
    } else {
        struct resolve_opts ro = {o->cpu_s_per_sample, x, isnan(scenario_fwd_gflops(sc))};
        struct sim_config cfg;
        o->compute_scale = x;
        o->unit_flops = ro.unit_flops;
        if (resolve_cluster(sc, c.cl, &ro, &cfg, e))
            return plan_cluster_err(e, c.cl);
        for (int i = 0; i < cfg.ngroups; i++)
            if (cfg.groups[i].role == SIM_TRAIN) {
                rep->solved_value = cfg.groups[i].fwd_s + cfg.groups[i].bwd_s;
                break;
            }
        snprintf(rep->solved_what, sizeof rep->solved_what, "compute_s_per_step");
    }
    return 0;
}

