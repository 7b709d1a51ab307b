/*
 * band.c - a step time's uncertainty band and ties between clusters
 * (band.h; docs/model.md "Uncertainty").  O(1) per cluster.
 */
#include "band.h"
#include "cluster.h"
#include "resolve.h"

#include <math.h>

/*
 * The validated relative errors (mean absolute error) of each part:
 *   compute from the catalog alone: 20.1%, 58 published cases (54 on one GPU)
 *     (validate/published/compute_cases.csv, validate/compute.pl);
 *   compute carried from a measurement on another GPU: 12.2%, the same cases
 *     carried from an A100 80GB;
 *   anything measured or calibrated on the machine itself: 4.8%, the MAPE of
 *     the real-run validation loop with calibrated network and CPU
 *     (docs/validation.md, run 12);
 *   collectives from nominal link rates: 30.3%, the published NCCL all-reduce
 *     on 2 to 4 p4d.24xlarge (validate/published.pl);
 *   an input pipeline from catalog clocks: 15.6%, seed cases S1, S2 and S4.
 */
#define ERR_COMPUTE_CATALOG 0.201
#define ERR_COMPUTE_CARRIED 0.122
#define ERR_MEASURED 0.048
#define ERR_COMM_NOMINAL 0.303
#define ERR_INPUT_NOMINAL 0.156

static const struct cat_gpu *train_gpu(const struct sc_cluster *cl)
{
    const struct sc_group *g = cluster_first_train(cl);

    return g && g->inst->gpu_count > 0 ? g->inst->gpu : NULL;
}

void plan_errors_of(const struct scenario *sc, const struct plan_cluster *pc,
                    struct plan_errors *pe)
{
    const struct sc_group *tg = cluster_first_train(pc->cl);
    const struct cat_gpu *gpu = train_gpu(pc->cl);
    const struct prof_measured *m = tg ? resolve_profile_of(sc, tg->inst) : NULL;
    const struct cat_gpu *at = NULL;

    if (!isnan(sc->workload.measured_compute_s))
        at = sc->workload.measured_gpu;
    else if (sc->workload.solve_for == SC_SOLVE_COMPUTE && sc->workload.measured_cluster >= 0)
        at = train_gpu(&sc->clusters[sc->workload.measured_cluster]);
    pe->compute = ERR_COMPUTE_CATALOG;
    pe->compute_from = "catalog";
    if (at && gpu) {
        int same = at == gpu;
        pe->compute = same ? ERR_MEASURED : ERR_COMPUTE_CARRIED;
        pe->compute_from = same ? "measured" : "carried";
    } else if (m && gpu && m->gemm_tflops[sc->workload.precision] > 0) {
        pe->compute = ERR_COMPUTE_CARRIED;
        pe->compute_from = "profile";
    }
    pe->comm = m && (m->net_Bps > 0 || m->intra_Bps > 0) ? ERR_MEASURED : ERR_COMM_NOMINAL;
    pe->input = sc->workload.solve_for == SC_SOLVE_CPU || (m && m->cpu_cores > 0) ? ERR_MEASURED
                                                                          : ERR_INPUT_NOMINAL;
}

/*
 * First order in each part's error, by what bounds the step: an
 * input-bound step moves with the input pipeline alone; a communication-
 * bound one with compute and with the rest (communication); otherwise each
 * part of the breakdown with its own error.
 */
void plan_band_set(const struct scenario *sc, struct plan_cluster *pc)
{
    const struct sim_result *r = &pc->res;
    struct plan_errors pe;
    double step = r->step_mean_s, d;

    plan_errors_of(sc, pc, &pe);
    switch (pc->bound) {
    case PLAN_BOUND_CPU:
    case PLAN_BOUND_INPUT:
    case PLAN_BOUND_INPUT_NET:
        d = pe.input * step;
        break;
    case PLAN_BOUND_NETWORK:
    case PLAN_BOUND_GPU_LINK:
    case PLAN_BOUND_PS:
    case PLAN_BOUND_LATENCY:
    case PLAN_BOUND_CYCLE:
        d = pe.compute * r->compute_s + pe.comm * fmax(0, step - r->compute_s);
        break;
    default:
        d = pe.compute * (r->compute_s + r->optimizer_s) + pe.comm * r->exposed_comm_s +
            pe.input * r->data_stall_s;
        break;
    }
    pc->band_lo_s = fmax(0, step - d);
    pc->band_hi_s = step + d;
}

int plan_band_tie(const struct scenario *sc, const struct plan_cluster *a,
                  const struct plan_cluster *b, int per_sample)
{
    double oa = cluster_objective(sc, a, per_sample);
    double ob = cluster_objective(sc, b, per_sample);
    double sa = a->res.step_mean_s, sb = b->res.step_mean_s;

    if (!(sa > 0) || !(sb > 0) || !isfinite(oa) || !isfinite(ob))
        return 0;
    /* every objective is proportional to the step time of its cluster */
    return oa * a->band_lo_s / sa <= ob * b->band_hi_s / sb &&
           ob * b->band_lo_s / sb <= oa * a->band_hi_s / sa;
}

/* Time and cost on a scale every cluster shares: to train when the dataset
 * is known, else per sample. */
static double time_of(const struct plan_cluster *pc)
{
    return !isnan(pc->train_s) ? pc->train_s : 1.0 / pc->res.samples_per_s;
}

static double cost_of(const struct plan_cluster *pc)
{
    return !isnan(pc->cost_to_train_usd) ? pc->cost_to_train_usd
                                         : pc->cost_per_step_usd / pc->res.samples_per_s;
}

int plan_band_prefer(const struct scenario *sc, const struct plan_cluster *a,
                     const struct plan_cluster *b, const char **what)
{
    if (sc->objective.minimize == SC_OBJ_TIME) {
        *what = "cost";
        return cost_of(b) < cost_of(a);
    }
    *what = "time";
    return time_of(b) < time_of(a);
}
