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

/*
 * How far below the step the cluster takes with no unknown a measured step
 * may lie and still count as that step: measurement noise.  The real-run
 * loop's calibrated parts are within 4.8% on average and 14.9% at worst
 * (docs/validation.md); 10% keeps a noisy loader-bound run valid while a
 * step twice too fast is still refused.
 */
#define SOLVE_NOISE 0.10
/* A step "shows" the unknown once it is this much above the step without it. */
#define SOLVE_SHOWS 1e-3

/* The root of step(x) = target in [lo, hi], hi doubled until it brackets
 * it; into *x.  0, or -1 with e set. */
static int solve_root(struct solve_ctx *c, double lo, double hi, double *x, struct dt_err *e)
{
    gsl_function F = {solve_f, c};
    gsl_root_fsolver *s;
    double fhi;
    int status, iter = 0;

    for (fhi = solve_f(hi, c); !c->failed && fhi < 0 && hi < 1e12; fhi = solve_f(hi, c))
        hi *= 2;
    if (c->failed)
        return plan_cluster_err(e, c->cl);
    if (fhi < 0)
        return dt_errf(e, "measured_step: no input reproduces %.4g s on cluster %s",
                       c->sc->workload.measured_step_s, c->cl->name);
    gsl_set_error_handler_off();
    s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    gsl_root_fsolver_set(s, &F, lo, hi);
    do {
        iter++;
        status = gsl_root_fsolver_iterate(s);
        if (c->failed || status)
            break;
        *x = gsl_root_fsolver_root(s);
        status = gsl_root_test_interval(gsl_root_fsolver_x_lower(s), gsl_root_fsolver_x_upper(s),
                                        0, 1e-9);
    } while (status == GSL_CONTINUE && iter < 200);
    gsl_root_fsolver_free(s);
    if (c->failed)
        return plan_cluster_err(e, c->cl);
    if (status != GSL_SUCCESS)
        return dt_errf(e, "measured_step: the solver did not converge (%s)", gsl_strerror(status));
    return 0;
}

/* The solved x as the report states it: cpu_s_per_sample itself, or the
 * train group's compute seconds per step that the scale x gives. */
static int solved_of(const struct scenario *sc, const struct sc_cluster *cl, double cpu_s,
                     double x, double *v, struct dt_err *e)
{
    struct resolve_opts ro = {cpu_s, x, isnan(scenario_fwd_gflops(sc))};
    struct sim_config cfg;

    if (sc->workload.solve_for == SC_SOLVE_CPU) {
        *v = x;
        return 0;
    }
    if (resolve_cluster(sc, cl, &ro, &cfg, e))
        return plan_cluster_err(e, cl);
    *v = NAN;
    for (int i = 0; i < cfg.ngroups; i++)
        if (cfg.groups[i].role == SIM_TRAIN) {
            *v = cfg.groups[i].fwd_s + cfg.groups[i].bwd_s;
            break;
        }
    return 0;
}

int plan_solve(const struct scenario *sc, struct plan_report *rep, struct plan_eval_opts *o,
               struct plan_solve_range *range, struct dt_err *e)
{
    struct solve_ctx c = {sc, &sc->clusters[sc->workload.measured_cluster], sc->workload.solve_for,
                          sc->workload.measured_step_s, 0, e};
    double lo = 0, hi = c.what == SC_SOLVE_COMPUTE ? 1.0 : 1e-3, flo, step0, x = NAN;
    int bounded = 0;

    range->lo = range->hi = NAN;
    flo = solve_f(lo, &c);
    if (c.failed)
        return plan_cluster_err(e, c.cl);
    step0 = flo + sc->workload.measured_step_s;
    if (flo >= 0 && step0 > sc->workload.measured_step_s * (1 + SOLVE_NOISE))
        return dt_errf(e, "measured_step: %.4g s on cluster %s is %.0f%% below what the cluster "
                       "takes with no %s (%.4g s), more than measurement noise (%.0f%%); it "
                       "cannot be explained by %s: check the measurement and %s",
                       sc->workload.measured_step_s, c.cl->name, 100 * (1 - sc->workload.measured_step_s / step0),
                       c.what == SC_SOLVE_CPU ? "preprocessing" : "compute", step0,
                       100 * SOLVE_NOISE,
                       c.what == SC_SOLVE_CPU ? "the input pipeline" : "compute",
                       c.what == SC_SOLVE_CPU ? "the cluster's other parts"
                                              : "input.cpu_s_per_sample");
    if (flo >= 0) {
        /* The step without the unknown already explains the measurement: the
         * unknown is hidden behind the rest and only bounded, by the most that
         * still does not show in the step. */
        bounded = 1;
        c.target = step0 * (1 + SOLVE_SHOWS);
    }
    if (solve_root(&c, lo, hi, &x, e))
        return -1;
    if (bounded) {
        range->lo = 0;
        range->hi = x;
        x /= 2;
    }
    if (c.what == SC_SOLVE_CPU) {
        o->cpu_s_per_sample = x;
        snprintf(rep->solved_what, sizeof rep->solved_what, "cpu_s_per_sample");
    } else {
        o->compute_scale = x;
        o->unit_flops = isnan(scenario_fwd_gflops(sc));
        snprintf(rep->solved_what, sizeof rep->solved_what, "compute_s_per_step");
    }
    if (solved_of(sc, c.cl, o->cpu_s_per_sample, x, &rep->solved_value, e))
        return -1;
    if (bounded && (solved_of(sc, c.cl, o->cpu_s_per_sample, range->lo, &rep->solved_lo, e) ||
                    solved_of(sc, c.cl, o->cpu_s_per_sample, range->hi, &rep->solved_hi, e)))
        return -1;
    return 0;
}
