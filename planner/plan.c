/*
 * plan.c - simulate every cluster of a scenario, derive costs, name each
 * cluster's bottleneck and recommend one.
 *
 * When the scenario gives a measured step time on one of its clusters, the
 * one unknown input it names (CPU cost per sample, or compute time) is solved
 * first with GSL's Brent root finder so that the simulation of that cluster
 * reproduces the measurement; the other clusters are then predicted from it.
 * The recommendation follows the reasoning of docs/model.md (seed case S3):
 * check what bounds the current cluster; for an input-bound job scale up
 * within the family when a larger CPU:GPU ratio exists, add CPU nodes when
 * none does; more nodes of the same type keep the ratio and do not help.
 */
#include "planner.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>

#include "plan_int.h"
#include "resolve.h"

const char *plan_action_name(enum plan_action a)
{
    static const char *n[] = {"keep", "scale_up", "scale_out", "heterogeneous", "cpu_only"};
    return (a >= PLAN_KEEP && a <= PLAN_CPU_ONLY) ? n[a] : "?";
}

const char *plan_bound_name(enum plan_bound b)
{
    static const char *n[] = {"compute", "cpu", "input_network", "pcie", "network", "gpu_link",
                              "parameter_server"};
    return (b >= PLAN_BOUND_COMPUTE && b <= PLAN_BOUND_PS) ? n[b] : "?";
}

/* ---- solving for the unknown input ------------------------------------- */

/* Name the cluster in front of an error of resolve_cluster or sim_run; -1. */
static int cluster_err(struct dt_err *e, const struct sc_cluster *cl)
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
    struct resolve_opts o = {NAN, 1.0};
    struct sim_config cfg;
    struct sim_result r;

    if (c->what == SC_SOLVE_CPU)
        o.cpu_s_per_sample = x;
    else
        o.compute_scale = x;
    if (resolve_cluster(c->sc, c->cl, &o, &cfg, c->e) || sim_run(&cfg, &r, c->e)) {
        c->failed = 1;
        return 0;
    }
    return r.step_mean_s - c->target;
}

static int solve(const struct scenario *sc, struct plan_report *rep, struct resolve_opts *o,
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
        return cluster_err(e, c.cl);
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
        return cluster_err(e, c.cl);
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
        return cluster_err(e, c.cl);
    if (status != GSL_SUCCESS)
        return dt_errf(e, "measured_step: the solver did not converge (%s)", gsl_strerror(status));
    if (c.what == SC_SOLVE_CPU) {
        o->cpu_s_per_sample = x;
        rep->solved_value = x;
        snprintf(rep->solved_what, sizeof rep->solved_what, "cpu_s_per_sample");
    } else {
        struct sim_config cfg;
        o->compute_scale = x;
        if (resolve_cluster(sc, c.cl, o, &cfg, e))
            return cluster_err(e, c.cl);
        for (int i = 0; i < cfg.ngroups; i++)
            if (cfg.groups[i].role == SIM_TRAIN) {
                rep->solved_value = cfg.groups[i].fwd_s + cfg.groups[i].bwd_s;
                break;
            }
        snprintf(rep->solved_what, sizeof rep->solved_what, "compute_s_per_step");
    }
    return 0;
}

/* ---- bottleneck -------------------------------------------------------- */

const struct sc_group *plan_first_train(const struct sc_cluster *cl)
{
    for (int i = 0; i < cl->ngroups; i++)
        if (cl->groups[i].role == SIM_TRAIN)
            return &cl->groups[i];
    return NULL;
}

int plan_has_role(const struct sc_cluster *cl, enum sim_role r)
{
    for (int i = 0; i < cl->ngroups; i++)
        if (cl->groups[i].role == r)
            return 1;
    return 0;
}

static double cluster_vcpus(const struct sc_cluster *cl, enum sim_role r)
{
    double v = 0;
    for (int i = 0; i < cl->ngroups; i++)
        if (cl->groups[i].role == r)
            v += (double)cl->groups[i].count * cl->groups[i].inst->vcpus;
    return v;
}

/* vCPUs of the train instance (at its speed in reference cores) one worker's
 * input needs to keep its compute busy. */
static double vcpu_needed_per_worker(const struct sim_config *cfg)
{
    for (int i = 0; i < cfg->ngroups; i++)
        if (cfg->groups[i].role == SIM_TRAIN) {
            double busy = cfg->groups[i].fwd_s + cfg->groups[i].bwd_s + cfg->groups[i].opt_s;
            return busy > 0 ? cfg->w.batch * cfg->w.cpu_s_per_sample /
                                  (busy * cfg->groups[i].core_speed)
                            : INFINITY;
        }
    return NAN;
}

static void name_bound(struct plan_cluster *pc)
{
    const struct sim_result *r = &pc->res;
    const struct sc_group *tg = plan_first_train(pc->cl);
    const struct cat_instance *in = tg->inst;
    int gpus = in->gpu_count;
    double busy = r->g[tg - pc->cl->groups].gpu_util; /* compute share of the step */
    char what[96];

    if (gpus > 0)
        snprintf(what, sizeof what, "%d %s", tg->count * gpus, in->gpu_model);
    else
        snprintf(what, sizeof what, "%d x %d vCPU", tg->count, in->vcpus);
    /* The step is bound by what the workers wait for: input or exposed
     * communication when either takes more than 5% of the step, else compute. */
    if (r->data_stall_s > 0.05 * r->step_mean_s && r->data_stall_s >= r->exposed_comm_s) {
        int bi = 0;
        double worst = 0;
        for (int i = 0; i < pc->cfg.ngroups; i++) {
            const struct sim_group_stats *g = &r->g[i];
            double u = g->cpu_util;
            if (u > worst) { worst = u; bi = 0; }
            if (g->nic_tx_util > worst) { worst = g->nic_tx_util; bi = 1; }
            if (g->nic_rx_util > worst) { worst = g->nic_rx_util; bi = 1; }
            if (g->pcie_util > worst) { worst = g->pcie_util; bi = 2; }
        }
        if (bi == 1) {
            pc->bound = PLAN_BOUND_INPUT_NET;
            snprintf(pc->bound_text, sizeof pc->bound_text,
                     "input-network-bound: sending preprocessed batches keeps a NIC %.0f%% busy; "
                     "%s busy %.0f%%", 100 * worst, what, 100 * busy);
        } else if (bi == 2) {
            pc->bound = PLAN_BOUND_PCIE;
            snprintf(pc->bound_text, sizeof pc->bound_text,
                     "PCIe-bound: host-to-device copies keep PCIe %.0f%% busy; %s busy %.0f%%",
                     100 * worst, what, 100 * busy);
        } else {
            double v = cluster_vcpus(pc->cl, SIM_TRAIN) + cluster_vcpus(pc->cl, SIM_DATA);
            double need = vcpu_needed_per_worker(&pc->cfg);
            pc->bound = PLAN_BOUND_CPU;
            snprintf(pc->bound_text, sizeof pc->bound_text,
                     "CPU-bound: %.0f vCPU (%.1f per worker) keep %s busy %.0f%%; the input "
                     "pipeline needs about %.1f vCPU per worker", v, v / r->workers, what,
                     100 * busy, need);
        }
    } else if (r->exposed_comm_s > 0.05 * r->step_mean_s) {
        int ps = sim_is_ps(pc->cfg.c.strategy);
        int nodes = 0;
        for (int i = 0; i < pc->cl->ngroups; i++)
            if (pc->cl->groups[i].role == SIM_TRAIN)
                nodes += pc->cl->groups[i].count;
        pc->bound = ps ? PLAN_BOUND_PS : nodes > 1 ? PLAN_BOUND_NETWORK : PLAN_BOUND_GPU_LINK;
        const char *kind = ps ? "parameter-server" : nodes > 1 ? "network" : "GPU-link";
        char cyc[64] = "";
        if (pc->cfg.c.cycle_s > 0)
            snprintf(cyc, sizeof cyc, ", started on the ticks of a %.3g ms background cycle",
                     1e3 * pc->cfg.c.cycle_s);
        snprintf(pc->bound_text, sizeof pc->bound_text,
                 "%s-bound: %.1f ms of each %.1f ms step is exposed gradient communication%.63s "
                 "(busiest NIC %.0f%%); %.60s busy %.0f%%", kind, 1e3 * r->exposed_comm_s,
                 1e3 * r->step_mean_s, cyc, 100 * r->util_nic, what, 100 * busy);
    } else {
        pc->bound = PLAN_BOUND_COMPUTE;
        snprintf(pc->bound_text, sizeof pc->bound_text, "compute-bound: %s busy %.0f%%", what,
                 100 * busy);
    }
}

/* ---- costs and ranking ------------------------------------------------- */

static void costs(const struct scenario *sc, struct plan_cluster *pc)
{
    const struct sim_result *r = &pc->res;
    const struct sim_config *cfg = &pc->cfg;
    double one = NAN;

    pc->price_usd_h = 0;
    for (int i = 0; i < cfg->ngroups; i++)
        pc->price_usd_h += cfg->groups[i].count * cfg->groups[i].price_usd_h;
    pc->cost_per_step_usd = pc->price_usd_h * r->step_mean_s / 3600;
    if (!isnan(sc->dataset_samples)) {
        pc->steps_per_epoch = ceil(sc->dataset_samples / (r->workers * cfg->w.batch) - 1e-9);
        pc->epoch_s = pc->steps_per_epoch * r->step_mean_s;
        pc->cost_per_epoch_usd = pc->price_usd_h * pc->epoch_s / 3600;
        pc->train_s = pc->epoch_s * sc->epochs;
        pc->cost_to_train_usd = pc->price_usd_h * pc->train_s / 3600;
    } else {
        pc->steps_per_epoch = pc->epoch_s = pc->cost_per_epoch_usd = NAN;
        pc->train_s = pc->cost_to_train_usd = NAN;
    }
    /* One worker alone: compute and optimizer only. */
    for (int i = 0; i < cfg->ngroups; i++)
        if (cfg->groups[i].role == SIM_TRAIN) {
            const struct sim_group *g = &cfg->groups[i];
            one = cfg->w.batch / (g->fwd_s + g->bwd_s + g->opt_s);
            break;
        }
    pc->scaling_eff = one > 0 ? r->samples_per_s / (r->workers * one) : NAN;
    pc->feasible = 1;
    pc->infeasible_why[0] = 0;
    if (!isnan(sc->budget_usd_h) && pc->price_usd_h > sc->budget_usd_h) {
        pc->feasible = 0;
        snprintf(pc->infeasible_why, sizeof pc->infeasible_why, "$%.2f/h is over the budget of $%.2f/h",
                 pc->price_usd_h, sc->budget_usd_h);
    } else if (sc->max_data_channels > 0 && r->workers > sc->max_data_channels) {
        pc->feasible = 0;
        snprintf(pc->infeasible_why, sizeof pc->infeasible_why,
                 "%.0f workers need %.0f data channels, more than the %d allowed per job",
                 r->workers, r->workers, sc->max_data_channels);
    } else if (!isnan(sc->deadline_h) && !isnan(pc->train_s) && pc->train_s > sc->deadline_h * 3600) {
        pc->feasible = 0;
        snprintf(pc->infeasible_why, sizeof pc->infeasible_why, "%.1f h to train misses the %.1f h deadline",
                 pc->train_s / 3600, sc->deadline_h);
    }
}

static double objective_value(const struct scenario *sc, const struct plan_cluster *pc)
{
    switch (sc->objective) {
    case SC_OBJ_TIME:
        /* Clusters with other worker counts take other numbers of steps:
         * rank by time to train, or by time per sample without a dataset. */
        return !isnan(pc->train_s) ? pc->train_s : 1.0 / pc->res.samples_per_s;
    case SC_OBJ_COST_STEP: return pc->cost_per_step_usd;
    case SC_OBJ_COST_TRAIN:
        /* Without a dataset size cost per sample ranks the same way. */
        return !isnan(pc->cost_to_train_usd) ? pc->cost_to_train_usd
                                             : pc->cost_per_step_usd / pc->res.samples_per_s;
    }
    return pc->res.step_mean_s;
}

/* ---- recommendation ---------------------------------------------------- */

double plan_vcpu_per_gpu(const struct cat_instance *in)
{
    return in->gpu_count > 0 ? (double)in->vcpus / in->gpu_count : in->vcpus;
}

const struct cat_instance *plan_bigger_ratio(const struct catalog *cat,
                                             const struct cat_instance *in, int same_count)
{
    const struct cat_instance *best = NULL;
    size_t fl = catalog_family_len(in->name);

    if (!cat)
        return NULL;
    for (int i = 0; i < cat->ninstances; i++) {
        const struct cat_instance *c = &cat->instances[i];
        if (catalog_family_len(c->name) != fl || strncmp(c->name, in->name, fl) != 0 ||
            strcmp(c->gpu_model, in->gpu_model) != 0)
            continue;
        if (same_count ? c->gpu_count != in->gpu_count : c->gpu_count < 1)
            continue;
        if (plan_vcpu_per_gpu(c) <= plan_vcpu_per_gpu(in))
            continue;
        if (!best || plan_vcpu_per_gpu(c) < plan_vcpu_per_gpu(best))
            best = c;
    }
    return best;
}

int plan_train_nodes(const struct sc_cluster *cl)
{
    int n = 0;
    for (int i = 0; i < cl->ngroups; i++)
        if (cl->groups[i].role == SIM_TRAIN)
            n += cl->groups[i].count;
    return n;
}

static void recommend(const struct scenario *sc, const struct catalog *cat, struct plan_report *rep)
{
    const struct plan_cluster *cur = &rep->clusters[0], *best;
    const struct sc_group *ct, *bt;
    char *p = rep->reason;
    size_t left = sizeof rep->reason;
    int n;

    rep->best = -1;
    for (int i = 0; i < rep->nclusters; i++) {
        if (!rep->clusters[i].feasible)
            continue;
        if (rep->best < 0 ||
            objective_value(sc, &rep->clusters[i]) < objective_value(sc, &rep->clusters[rep->best]))
            rep->best = i;
    }
    if (rep->best < 0) {
        rep->action = PLAN_KEEP;
        snprintf(rep->reason, sizeof rep->reason,
                 "no cluster meets the constraints (deadline or budget); relax them or add candidates");
        return;
    }
    best = &rep->clusters[rep->best];
    ct = plan_first_train(cur->cl);
    bt = plan_first_train(best->cl);
    if (rep->best == 0)
        rep->action = PLAN_KEEP;
    else if (bt->inst->gpu_count == 0 && ct->inst->gpu_count > 0)
        rep->action = PLAN_CPU_ONLY;
    else if (plan_has_role(best->cl, SIM_DATA) && !plan_has_role(cur->cl, SIM_DATA))
        rep->action = PLAN_HETEROGENEOUS;
    else if (plan_train_nodes(best->cl) > plan_train_nodes(cur->cl))
        rep->action = PLAN_SCALE_OUT;
    else
        rep->action = PLAN_SCALE_UP;

#define ADD(...) do { n = snprintf(p, left, __VA_ARGS__); if (n > 0 && (size_t)n < left) { p += n; left -= (size_t)n; } } while (0)
    ADD("%s is %s.", cur->cl->name, cur->bound_text);
    if (rep->best != 0) {
        ADD(" %s: step %.1f ms -> %.1f ms, $%.3g -> $%.3g per step (%+.0f%%)", best->cl->name,
            1e3 * cur->res.step_mean_s, 1e3 * best->res.step_mean_s, cur->cost_per_step_usd,
            best->cost_per_step_usd, 100 * (best->cost_per_step_usd / cur->cost_per_step_usd - 1));
        if (!isnan(best->train_s) && !isnan(cur->train_s))
            ADD(", %.2f h and $%.2f to train instead of %.2f h and $%.2f", best->train_s / 3600,
                best->cost_to_train_usd, cur->train_s / 3600, cur->cost_to_train_usd);
        ADD("; it is %s.", best->bound_text);
    } else {
        ADD(" It is the best of the %d clusters for %s.", rep->nclusters,
            scenario_objective_name(sc->objective));
    }
    if (cur->bound == PLAN_BOUND_CPU && ct->inst->gpu_count > 0) {
        const struct cat_instance *up = plan_bigger_ratio(cat, ct->inst, 1);
        ADD(" %s has %.0f vCPU per GPU; another %s keeps that ratio and does not help.",
            ct->inst->name, plan_vcpu_per_gpu(ct->inst), ct->inst->name);
        if (up)
            ADD(" First scale up within the family: %s has %.0f vCPU per GPU.", up->name, plan_vcpu_per_gpu(up));
        else
            ADD(" No instance of the family has a larger CPU:GPU ratio, so add CPU nodes for "
                "preprocessing (heterogeneous).");
    } else if (cur->bound == PLAN_BOUND_NETWORK || cur->bound == PLAN_BOUND_PS) {
        ADD(" Fewer, larger nodes with a faster intra-node link, fp16 gradients or overlapping "
            "communication with backward cut the exposed communication.");
    } else if (cur->bound == PLAN_BOUND_COMPUTE && rep->best == 0) {
        ADD(" Check utilisation before scaling: first scale up, then out.");
    }
#undef ADD
}

/* ---- entry ------------------------------------------------------------- */

int plan_run(const struct scenario *sc, struct plan_report *rep, struct dt_err *e)
{
    struct resolve_opts o = {NAN, 1.0};

    memset(rep, 0, sizeof *rep);
    rep->sc = sc;
    rep->solved_value = NAN;
    rep->best = -1;
    if (sc->measured_cluster >= 0 && sc->solve_for != SC_SOLVE_NONE && solve(sc, rep, &o, e))
        return -1;
    rep->nclusters = sc->nclusters;
    rep->clusters = x_calloc((size_t)sc->nclusters, sizeof *rep->clusters);
    for (int i = 0; i < sc->nclusters; i++) {
        struct plan_cluster *pc = &rep->clusters[i];
        pc->cl = &sc->clusters[i];
        if (resolve_cluster(sc, pc->cl, &o, &pc->cfg, e) || sim_run(&pc->cfg, &pc->res, e)) {
            plan_report_free(rep);
            return cluster_err(e, &sc->clusters[i]);
        }
        costs(sc, pc);
        name_bound(pc);
    }
    recommend(sc, sc->catalog, rep);
    return 0;
}

void plan_report_free(struct plan_report *rep)
{
    x_free(rep->clusters);
    rep->clusters = NULL;
    rep->nclusters = 0;
}
