/*
 * plan_cluster.c - one cluster evaluated (planner.h): resolved into simulator
 * input, simulated, costed (per hour, step, epoch and whole training, with
 * the deadline, budget and data-channel constraints), and its bottleneck
 * named in words; and for the clusters the planner returns, what the writers
 * print of them besides (NCCL's choice for each collective, the numbers a
 * profile measured).  plan_run() and the catalog search both evaluate clusters
 * here, so a listed cluster and a searched candidate are measured alike.
 */
#include "planner.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "band.h"
#include "compute.h"
#include "cluster.h"
#include "goodput.h"
#include "plan_int.h"
#include "../catalog/shape.h"
#include "resolve.h"
#include "../base/numfmt.h"

void plan_eval_defaults(struct plan_eval_opts *o)
{
    memset(o, 0, sizeof *o);
    o->cpu_s_per_sample = NAN;
    o->compute_scale = 1.0;
    o->steps = 0;
    o->warmup = -1;
    o->trace = NULL;
    o->whatif = 1;
}

const char *plan_bound_name(enum plan_bound b)
{
    static const char *n[] = {"compute", "cpu", "input_network", "pcie", "network", "gpu_link",
                              "parameter_server", "input", "latency", "cycle"};
    return (b >= PLAN_BOUND_COMPUTE && b <= PLAN_BOUND_CYCLE) ? n[b] : "?";
}

/* ---- costs ------------------------------------------------------------- */

/* The time to train over the step time's band.  Without failures it is steps
 * x step; with them Daly's wall time is linear in the work for a given
 * checkpoint interval, restart and save (goodput.h), none of which moves
 * with the step: either way the band scales it. */
static void train_band(struct plan_cluster *pc)
{
    double m = pc->res.step_mean_s;

    pc->train_band_lo_s = pc->train_band_hi_s = NAN;
    if (!isfinite(pc->train_s) || !(m > 0) || !isfinite(pc->band_lo_s) ||
        !isfinite(pc->band_hi_s))
        return;
    pc->train_band_lo_s = pc->train_s * pc->band_lo_s / m;
    pc->train_band_hi_s = pc->train_s * pc->band_hi_s / m;
}

/*
 * The evaluation passes of a run (input.eval_every_samples): one every that
 * many training samples, the first input.eval_skip not run, each of
 * input.eval_samples samples forward only, timed as the step's time a
 * sample times the train group's forward share of its compute (docs/model.md
 * "Evaluation").  Into pc->evals and pc->eval_s; none without a dataset.
 */
static void evals_of(const struct scenario *sc, struct plan_cluster *pc)
{
    const struct sim_config *cfg = &pc->cfg;
    const struct sc_input *in = &sc->input;
    double n, per_step = pc->res.workers * cfg->w.batch, fwd = NAN;

    pc->evals = 0;
    pc->eval_s = 0;
    if (isnan(in->eval_every_samples) || !(in->eval_samples > 0) || isnan(in->dataset_samples) ||
        !(per_step > 0))
        return;
    n = floor(in->dataset_samples * in->epochs / in->eval_every_samples + 1e-9) - in->eval_skip;
    for (int i = 0; i < cfg->ngroups && isnan(fwd); i++)
        if (cfg->groups[i].role == SIM_TRAIN && cfg->groups[i].fwd_s + cfg->groups[i].bwd_s > 0)
            fwd = cfg->groups[i].fwd_s / (cfg->groups[i].fwd_s + cfg->groups[i].bwd_s);
    if (!(n > 0) || isnan(fwd))
        return;
    pc->evals = (int)fmin(n, 1e9);
    pc->eval_s = pc->evals * in->eval_samples / per_step * pc->res.step_mean_s * fwd;
}

static void costs(const struct scenario *sc, struct plan_cluster *pc)
{
    const struct sim_result *r = &pc->res;
    const struct sim_config *cfg = &pc->cfg;
    double one = NAN;

    evals_of(sc, pc);           /* none without a dataset */
    pc->price_usd_h = 0;
    for (int i = 0; i < cfg->ngroups; i++)
        pc->price_usd_h += cfg->groups[i].count * cfg->groups[i].price_usd_h;
    pc->cost_per_step_usd = pc->price_usd_h * r->step_mean_s / 3600;
    if (!isnan(sc->input.dataset_samples)) {
        pc->steps_per_epoch = ceil(sc->input.dataset_samples / (r->workers * cfg->w.batch) - 1e-9);
        pc->epoch_s = pc->steps_per_epoch * r->step_mean_s;
        pc->cost_per_epoch_usd = pc->price_usd_h * pc->epoch_s / 3600;
        pc->train_s = pc->epoch_s * sc->input.epochs + pc->eval_s;
        pc->cost_to_train_usd = pc->price_usd_h * pc->train_s / 3600;
    } else {
        pc->steps_per_epoch = pc->epoch_s = pc->cost_per_epoch_usd = NAN;
        pc->train_s = pc->cost_to_train_usd = NAN;
    }
    goodput_of(sc, pc);
    /* Against one worker alone (compute and optimizer only); under tensor
     * or pipeline parallelism against one replica alone, whose step keeps
     * its compute, its tensor-parallel communication, the bubble and the
     * optimizer and loses the data-parallel sharing and the input's stall:
     * per replica, the step it would take over the step it takes, at most 1
     * (docs/output.md). */
    if (scenario_model_parallel(sc) > 1) {
        double alone = r->compute_s + r->tp_comm_s + r->pp_bubble_s + r->optimizer_s;
        pc->scaling_eff = r->step_mean_s > 0 ? fmin(1, alone / r->step_mean_s) : NAN;
    } else {
        for (int i = 0; i < cfg->ngroups; i++)
            if (cfg->groups[i].role == SIM_TRAIN) {
                const struct sim_group *g = &cfg->groups[i];
                one = cfg->w.batch / (g->fwd_s + g->bwd_s + g->opt_s);
                break;
            }
        pc->scaling_eff = one > 0 ? r->samples_per_s / (r->workers * one) : NAN;
    }
    pc->feasible = 1;
    pc->infeasible = PLAN_OK;
    pc->infeasible_why[0] = 0;
    if (!isnan(sc->objective.budget_usd_h) && pc->price_usd_h > sc->objective.budget_usd_h) {
        pc->feasible = 0;
        pc->infeasible = PLAN_INF_BUDGET;
        snprintf(pc->infeasible_why, sizeof pc->infeasible_why, "$%.2f/h is over the budget of $%.2f/h",
                 pc->price_usd_h, sc->objective.budget_usd_h);
    } else if (sc->objective.max_data_channels > 0 && r->workers > sc->objective.max_data_channels) {
        pc->feasible = 0;
        pc->infeasible = PLAN_INF_CHANNELS;
        snprintf(pc->infeasible_why, sizeof pc->infeasible_why,
                 "%.0f workers need %.0f data channels, more than the %d allowed per job",
                 r->workers, r->workers, sc->objective.max_data_channels);
    } else if (!isnan(sc->objective.deadline_h) && !isnan(pc->train_s) && pc->train_s > sc->objective.deadline_h * 3600) {
        char took[32];
        pc->feasible = 0;
        pc->infeasible = PLAN_INF_DEADLINE;
        numfmt_duration(took, sizeof took, pc->train_s, NUMFMT_OWN);
        snprintf(pc->infeasible_why, sizeof pc->infeasible_why, "%s to train misses the %g h deadline",
                 took, sc->objective.deadline_h);
    }
}

/* ---- evaluation -------------------------------------------------------- */

/* The precision's fallback (or auto's pick) on the first train group's GPU,
 * as compute.h plans it; nothing for CPU workers and with workload.mfu.
 * A fallback depends on the GPU and the precision alone (O(1)); only auto
 * has to time the model to know its pick. */
static void compute_note(const struct scenario *sc, struct plan_cluster *pc)
{
    const struct sc_group *g = cluster_first_train(pc->cl);
    struct compute_plan p;
    struct compute_time t;
    int rc;

    pc->compute_note[0] = '\0';
    if (!g || g->inst->gpu_count <= 0 || !g->inst->gpu || !isnan(sc->workload.mfu))
        return;
    rc = sc->workload.precision_auto
             ? compute_on_gpu(sc, g->inst->gpu, NULL, sc->parallel.micro_batch, &p, &t)
             : compute_plan_of(g->inst->gpu, sc->workload.precision, sc->workload.precision_strict, &p);
    if (rc == 0)
        snprintf(pc->compute_note, sizeof pc->compute_note, "%s", p.note);
}

/* What a worker holds: the train group that fills its memory most; a
 * cluster over a worker's memory is infeasible, whatever else holds. */
static void memory_check(const struct scenario *sc, struct plan_cluster *pc)
{
    const struct sc_cluster *cl = pc->cl;
    /* the servers hold the state under parameter servers */
    enum sc_sharding sharding = sim_is_ps(pc->cfg.c.strategy) ? SC_SHARD_NONE : sc->parallel.sharding;
    double worst = -1;
    int ranks = (int)pc->res.workers;
    char why[sizeof pc->infeasible_why] = "";

    for (int i = 0; i < cl->ngroups; i++) {
        const struct cat_instance *in = cl->groups[i].inst;
        struct mem_use u;
        if (cl->groups[i].role != SIM_TRAIN)
            continue;
        memory_of(sc, sharding, in, ranks, in->gpu_count > 0 ? in->gpu_count : 1, &u);
        if (u.total / u.capacity > worst || !(worst >= 0)) {
            worst = u.total / u.capacity;
            pc->mem = u;
            memory_why(sc, in, &u, why, sizeof why);
        }
    }
    if (why[0]) {
        pc->feasible = 0;
        pc->infeasible = PLAN_INF_MEMORY;
        memcpy(pc->infeasible_why, why, sizeof why);
    }
}

/* A GPU's waits a step for the MoE layers' all-to-alls, as the simulator
 * ran them (sim/ep.c's flows, or a pipeline stage's waits), and for the
 * expert tensor-parallel gathers beside them (resolve_ep.c), a stage's
 * share. */
static void expert_comm_of(const struct scenario *sc, struct plan_cluster *pc)
{
    int pp = sc->parallel.pp > 1 ? sc->parallel.pp : 1;

    pc->ep_comm_s = sc->parallel.ep > 1 ? pc->res.ep_comm_s : 0;
    pc->ep_gather_s = 0;
    pc->ep_over_nics = 0;
    pc->host_wait_s = 0;
    pc->ep_sm_slow_s = 0;
    pc->ep_sms = 0;
    pc->ep_dispatch = sc->parallel.ep_dispatch;
    pc->ep_nvl_share = 1;
    for (int i = 0; i < pc->cl->ngroups && i < pc->cfg.ngroups; i++)
        if (pc->cl->groups[i].role == SIM_TRAIN) {
            /* the host's launches (resolve_host.c), the dispatcher's held
             * SMs and the gathers (resolve_ep.c), a stage's share */
            pc->host_wait_s = pc->cfg.groups[i].host_wait_s / pp;
            pc->ep_sm_slow_s = pc->cfg.groups[i].ep_sm_slow_s / pp;
            pc->ep_sms = pc->cfg.groups[i].ep_sms_held;
            pc->ep_gather_s = sc->parallel.ep > 1 ? pc->cfg.groups[i].ep_gather_wait_s / pp : 0;
            pc->ep_over_nics = resolve_ep_spans_nodes(sc, pc->cl->groups[i].inst);
            pc->ep_nvl_share = resolve_ep_nvl_share(sc, pc->cl->groups[i].inst);
            break;
        }
    pc->cp = sc->parallel.cp > 1 ? sc->parallel.cp : 1;
    pc->ep = sc->parallel.ep > 1 ? sc->parallel.ep : 1;
    pc->etp = sc->parallel.etp > 0 ? sc->parallel.etp : 0;
    pc->ep_overlap = sc->parallel.ep > 1 && sc->parallel.ep_overlap;
}

/* Tokens per second and MFU (planner.h). */
static void throughput_of(const struct scenario *sc, struct plan_cluster *pc)
{
    double replicas = pc->res.workers / scenario_replica_gpus(sc); /* data-parallel */
    const struct cat_model *m = sc->workload.model;
    double peak = 0, fwd = scenario_fwd_gflops(sc) * 1e9;
    /* a pass's FLOPs in forwards: 3 (backward two GEMMs a product), 2 under
     * LoRA (frozen products compute their inputs' gradients only; the
     * adapters' are not counted) */
    double passes = sc->workload.lora_rank > 0 ? 2 : 3;

    pc->tokens_per_s = pc->causal_flops_per_token = NAN;
    if (shape_known(m)) {
        pc->tokens_per_s = pc->res.samples_per_s * scenario_seq_len(sc);
        pc->causal_flops_per_token = passes * shape_fwd_flops_causal(m, scenario_seq_len(sc)) /
                                     scenario_seq_len(sc);
    }
    for (int i = 0; i < pc->cl->ngroups; i++) {
        const struct sc_group *g = &pc->cl->groups[i];
        if (g->role == SIM_TRAIN && g->inst->gpu_count > 0)
            peak += g->count * g->inst->gpu_count * resolve_peak_flops(g->inst, sc->workload.precision, 0);
        else if (g->role == SIM_TRAIN)
            peak = NAN;     /* a CPU worker's peak is assumed, not catalogued */
    }
    pc->mfu = peak > 0 && fwd > 0 ? pc->res.samples_per_s * passes * fwd / peak : NAN;
    pc->grad_accum = resolve_accum(sc, (int)replicas);
    pc->global_batch = pc->cfg.w.batch * pc->res.workers;
    pc->batch_note[0] = '\0';
    if (sc->workload.global_batch > 0 && fabs(pc->global_batch - sc->workload.global_batch) >= 0.5)
        snprintf(pc->batch_note, sizeof pc->batch_note,
                 "runs %.0f samples a step (%.0f replicas x %d micro-batches of %d), not the "
                 "global_batch of %d: the nearest whole number of micro-batches a replica (%+.1f%%)",
                 pc->global_batch, replicas, pc->grad_accum, sc->parallel.micro_batch,
                 sc->workload.global_batch,
                 100 * (pc->global_batch / sc->workload.global_batch - 1));
    if (pc->feasible && sc->workload.global_batch > 0 &&
        (double)sc->parallel.micro_batch * replicas > sc->workload.global_batch) {
        pc->feasible = 0;
        pc->infeasible = PLAN_INF_BATCH;
        snprintf(pc->infeasible_why, sizeof pc->infeasible_why,
                 "%.0f data-parallel replicas x batch_per_gpu %d = %.0f samples a micro-batch, "
                 "over the global batch of %d: a smaller batch_per_gpu or fewer replicas",
                 replicas, sc->parallel.micro_batch, sc->parallel.micro_batch * replicas, sc->workload.global_batch);
    }
}

int plan_cluster_eval_one(const struct scenario *sc, const struct sc_cluster *cl,
                          const struct plan_eval_opts *o, struct plan_cluster *pc,
                          struct dt_err *e)
{
    struct resolve_opts ro = {o->cpu_s_per_sample, o->compute_scale, o->unit_flops};

    memset(pc, 0, sizeof *pc);
    pc->cl = cl;
    if (resolve_cluster(sc, cl, &ro, &pc->cfg, e))
        return -1;
    if (o->steps > 0)
        pc->cfg.steps = o->steps;
    if (o->warmup >= 0)
        pc->cfg.warmup = o->warmup;
    pc->cfg.trace = o->trace;
    pc->cfg.memo = o->memo;
    if (sim_run(&pc->cfg, &pc->res, e))
        return -1;
    pc->cfg.trace = NULL;   /* the recording belongs to the caller */
    pc->cfg.memo = NULL;    /* and so does the memo */
    costs(sc, pc);
    memory_check(sc, pc);
    throughput_of(sc, pc);
    expert_comm_of(sc, pc);
    if (plan_bound_set(pc, o->whatif, e))
        return -1;
    plan_band_set(sc, pc);
    train_band(pc);
    compute_note(sc, pc);
    plan_assumptions(sc, pc);
    pc->sharding = sc->parallel.sharding;
    pc->batch_per_gpu = sc->parallel.micro_batch;
    pc->recompute = sc->parallel.recompute;
    pc->nsim = 1;
    return 0;
}

void plan_cluster_details(const struct scenario *sc, struct plan_cluster *pc)
{
    pc->ncollectives = sim_collectives(&pc->cfg, pc->collectives, PLAN_MAX_COLLECTIVES);
    pc->nmeasured = plan_measured(sc, pc->cl, &pc->cfg, pc->measured, PLAN_MAX_MEASURED);
}
