/*
 * band.c - a step time's uncertainty band and ties between clusters
 * (band.h; docs/model.md "Uncertainty").  O(1) per cluster.
 */
#include "band.h"
#include "cluster.h"
#include "resolve.h"
#include "../catalog/shape.h"

#include <math.h>
#include <string.h>

/*
 * The validated relative errors (mean absolute error) of each part:
 *   compute from the catalog alone: 14.7%, 58 published cases (54 on one GPU)
 *     (validate/published/compute_cases.csv, validate/compute.pl);
 *   compute carried from a measurement on another GPU: 10.5%, the same cases
 *     carried from an A100 80GB;
 *   anything measured or calibrated on the machine itself: 4.8%, the MAPE of
 *     the real-run validation loop with calibrated network and CPU
 *     (docs/validation.md, run 12);
 *   collectives from nominal link rates: 30.3%, the published NCCL all-reduce
 *     on 2 to 4 p4d.24xlarge (validate/published.pl);
 *   an input pipeline from catalog clocks: 15.6%, seed cases S1, S2 and S4.
 */
#define ERR_COMPUTE_CATALOG 0.147
/*
 * Transformers given by their shape, from the catalog alone: the mean
 * absolute error of the published LLM training runs (validate/llm_runs.pl,
 * validate/published/llm_runs.csv; whole steps, which their compute
 * bounds), by GPU generation, precision, context (long: context
 * parallelism or a sequence over 16K) and kind (dense, or a mixture of
 * experts), where a cell has five cases or more:
 *   dense, short: Hopper 16-bit 8.1% (37 runs: MosaicML's 21 FSDP rows, their
 *     unchecked 512-GPU and micro-batch-2 rows 23% to 28% fast), Hopper fp8 6.6% (50),
 *     Ampere 16-bit 8.0% (25: torchtitan's eight 2024 rows within 4%, MosaicML's 14 within 7%
 *     but one, MT-NLG's three DeepSpeed rows of 2021 28% to 33% too fast), Blackwell fp8 6.5%
 *     (38);
 *   dense, long: Hopper 16-bit 5.5% (7), Hopper fp8 12.7% (24), Blackwell fp8 9.4% (33: the MLPerf 405B rows and
 *     the 70B and 405B rows of NeMo's 2025 tables run cp 2, MLPerf's LoRA rows cp 2 and 8);
 *   mixtures of experts: Hopper 16-bit 13.6% (28), Blackwell fp8 18.0% (39),
 *     any other 27.8%, the whole set's (102: DGX Cloud's April-2025 DeepSeek-V3 rows on
 *     GB200, 2.9x too fast, and Megatron-Bridge 26.02's Qwen3-30B rows at micro-batch 1,
 *     2.8x and 3.4x, weigh on it).
 * Other dense cells take ERR_COMPUTE_CATALOG.
 */
enum { LLM_ANY = -1 };
static const struct {
    int cc_lo, cc_hi, fp8, lng, moe;
    double err;
} llm_err[] = {
    {90, 99, 0, 0, 0, 0.081},  {90, 99, 1, 0, 0, 0.066},  {80, 89, 0, 0, 0, 0.080},
    {100, 199, 1, 0, 0, 0.065}, {90, 99, 0, 1, 0, 0.055}, {90, 99, 1, 1, 0, 0.127},
    {100, 199, 1, 1, 0, 0.094},
    {90, 99, 0, LLM_ANY, 1, 0.136}, {100, 199, 1, LLM_ANY, 1, 0.180},
};
#define ERR_COMPUTE_MOE 0.278
#define ERR_COMPUTE_CARRIED 0.105
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
    if (gpu && shape_known(sc->workload.model)) {
        int moe = sc->workload.model->experts > 0;
        int lng = pc->cp > 1 || scenario_seq_len(sc) > 16384;

        if (moe)
            pe->compute = ERR_COMPUTE_MOE;
        for (size_t i = 0; i < sizeof llm_err / sizeof llm_err[0]; i++)
            if (gpu->cc >= llm_err[i].cc_lo && gpu->cc <= llm_err[i].cc_hi &&
                llm_err[i].fp8 == (sc->workload.precision == CAT_FP8) &&
                llm_err[i].moe == moe && (llm_err[i].lng == LLM_ANY || llm_err[i].lng == lng))
                pe->compute = llm_err[i].err;
    }
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
 * The times of pc's step that move with each part's error, by what bounds
 * the step: t[0] with compute, t[1] with communication (and what waits on
 * it), t[2] with the input pipeline.  An input-bound step moves with the
 * input pipeline alone; a communication-bound one with its compute and with
 * the rest; otherwise each part of the breakdown with its own error.
 */
static void parts_of(const struct plan_cluster *pc, double t[3])
{
    const struct sim_result *r = &pc->res;
    double step = r->step_mean_s;

    t[0] = t[1] = t[2] = 0;
    switch (pc->bound) {
    case PLAN_BOUND_CPU:
    case PLAN_BOUND_INPUT:
    case PLAN_BOUND_INPUT_NET:
        t[2] = step;
        break;
    case PLAN_BOUND_NETWORK:
    case PLAN_BOUND_GPU_LINK:
    case PLAN_BOUND_PS:
    case PLAN_BOUND_LATENCY:
    case PLAN_BOUND_CYCLE:
        t[0] = r->compute_s;
        t[1] = fmax(0, step - r->compute_s);
        break;
    default:
        t[0] = r->compute_s + r->optimizer_s;
        t[1] = r->exposed_comm_s;
        t[2] = r->data_stall_s;
        break;
    }
}

/* First order in each part's error (parts_of). */
void plan_band_set(const struct scenario *sc, struct plan_cluster *pc)
{
    struct plan_errors pe;
    double step = pc->res.step_mean_s, t[3], d;

    plan_errors_of(sc, pc, &pe);
    parts_of(pc, t);
    d = pe.compute * t[0] + pe.comm * t[1] + pe.input * t[2];
    pc->band_lo_s = fmax(0, step - d);
    pc->band_hi_s = step + d;
}

/* The instance type of cl's data nodes, NULL when it has none. */
static const struct cat_instance *data_inst(const struct sc_cluster *cl)
{
    for (int i = 0; i < cl->ngroups; i++)
        if (cl->groups[i].role == SIM_DATA)
            return cl->groups[i].inst;
    return NULL;
}

/*
 * Which parts' errors a and b share: compute on the same GPU from the same
 * source; communication over the same instance type, both within one node
 * or both across nodes; the input pipeline on the same train and data
 * instance types.
 */
static void shared_parts(const struct scenario *sc, const struct plan_cluster *a,
                         const struct plan_cluster *b, int same[3])
{
    const struct sc_group *ta = cluster_first_train(a->cl), *tb = cluster_first_train(b->cl);
    struct plan_errors ea, eb;

    plan_errors_of(sc, a, &ea);
    plan_errors_of(sc, b, &eb);
    same[0] = train_gpu(a->cl) == train_gpu(b->cl) && strcmp(ea.compute_from, eb.compute_from) == 0;
    same[1] = ta->inst == tb->inst && ea.comm == eb.comm &&
              (cluster_train_nodes(a->cl) > 1) == (cluster_train_nodes(b->cl) > 1);
    same[2] = ta->inst == tb->inst && data_inst(a->cl) == data_inst(b->cl) &&
              ea.input == eb.input;
}

double plan_band_pair_error(const struct scenario *sc, const struct plan_cluster *a,
                            const struct plan_cluster *b)
{
    struct plan_errors ea, eb;
    double sa[3], sb[3], va[3], vb[3], sum = 0;
    int same[3];

    plan_errors_of(sc, a, &ea);
    plan_errors_of(sc, b, &eb);
    parts_of(a, sa);
    parts_of(b, sb);
    for (int k = 0; k < 3; k++) {   /* shares of each step */
        sa[k] /= a->res.step_mean_s;
        sb[k] /= b->res.step_mean_s;
    }
    shared_parts(sc, a, b, same);
    va[0] = ea.compute, va[1] = ea.comm, va[2] = ea.input;
    vb[0] = eb.compute, vb[1] = eb.comm, vb[2] = eb.input;
    for (int k = 0; k < 3; k++) {
        if (same[k]) {
            /* one error moves both steps: only the difference of the
             * shares it moves shows in their ratio */
            double d = va[k] * sa[k] - vb[k] * sb[k];
            sum += d * d;
        } else {
            sum += va[k] * sa[k] * va[k] * sa[k] + vb[k] * sb[k] * vb[k] * sb[k];
        }
    }
    return sqrt(sum);
}

int plan_band_tie(const struct scenario *sc, const struct plan_cluster *best,
                  const struct plan_cluster *b, int per_sample, struct plan_tie *t)
{
    double ob = cluster_objective(sc, best, per_sample);
    double o = cluster_objective(sc, b, per_sample);
    struct plan_tie x = {NAN, NAN, NAN};

    if (t)
        *t = x;
    if (!(best->res.step_mean_s > 0) || !(b->res.step_mean_s > 0) || !isfinite(ob) ||
        !isfinite(o) || !(ob > 0))
        return 0;
    x.gap = o / ob - 1;
    x.error = plan_band_pair_error(sc, best, b);
    x.limit = fmin(x.error, PLAN_TIE_MAX);
    if (t)
        *t = x;
    return x.gap <= x.limit;
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
