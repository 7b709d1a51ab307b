/*
 * plan_cluster.c - one cluster evaluated (planner.h): resolved into simulator
 * input, simulated, costed (per hour, step, epoch and whole training, with
 * the deadline, budget and data-channel constraints), and its bottleneck
 * named in words.  plan_run() and the catalog search both evaluate clusters
 * here, so a listed cluster and a searched candidate are measured alike.
 */
#include "planner.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "band.h"
#include "compute.h"
#include "plan_int.h"
#include "../catalog/shape.h"
#include "resolve.h"

void plan_eval_defaults(struct plan_eval_opts *o)
{
    memset(o, 0, sizeof *o);
    o->cpu_s_per_sample = NAN;
    o->compute_scale = 1.0;
    o->steps = 0;
    o->warmup = -1;
    o->trace = NULL;
}

const char *plan_bound_name(enum plan_bound b)
{
    static const char *n[] = {"compute", "cpu", "input_network", "pcie", "network", "gpu_link",
                              "parameter_server", "input", "latency", "cycle"};
    return (b >= PLAN_BOUND_COMPUTE && b <= PLAN_BOUND_CYCLE) ? n[b] : "?";
}

/* ---- the cluster's groups ---------------------------------------------- */

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

int plan_train_nodes(const struct sc_cluster *cl)
{
    int n = 0;
    for (int i = 0; i < cl->ngroups; i++)
        if (cl->groups[i].role == SIM_TRAIN)
            n += cl->groups[i].count;
    return n;
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

/* What bounds the step, as enum plan_bound and one line of words. */
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
            /* enough vCPUs in all: the wait is each batch's own time, not throughput */
            pc->bound = need < 0.9 * v / r->workers ? PLAN_BOUND_INPUT : PLAN_BOUND_CPU;
            if (pc->bound == PLAN_BOUND_INPUT)
                snprintf(pc->bound_text, sizeof pc->bound_text,
                         "input-bound: each batch's preprocessing is waited for (%d loader "
                         "worker%s, prefetch %d) though the pipeline needs about %.1f of the "
                         "%.1f vCPU a worker has; more loader workers or prefetch hide it; %s "
                         "busy %.0f%%", pc->cfg.w.loader_workers,
                         pc->cfg.w.loader_workers == 1 ? "" : "s", pc->cfg.w.prefetch, need,
                         v / r->workers, what, 100 * busy);
            else
                snprintf(pc->bound_text, sizeof pc->bound_text,
                         "CPU-bound: %.0f vCPU (%.1f per worker) keep %s busy %.0f%%; the input "
                         "pipeline needs about %.1f vCPU per worker", v, v / r->workers, what,
                         100 * busy, need);
        }
    } else if (r->tp_comm_s > 0.05 * r->step_mean_s && r->tp_comm_s >= 0.5 * r->exposed_comm_s) {
        /* the layers wait for their tensor-parallel collectives */
        int across = pc->cfg.c.tp > gpus;
        pc->bound = across ? PLAN_BOUND_NETWORK : PLAN_BOUND_GPU_LINK;
        snprintf(pc->bound_text, sizeof pc->bound_text,
                 "%s-bound: %.1f ms of each %.1f ms step is tensor-parallel communication (tp %d "
                 "over %s); %.60s busy %.0f%%", across ? "network" : "GPU-link",
                 1e3 * r->tp_comm_s, 1e3 * r->step_mean_s, pc->cfg.c.tp,
                 across ? "the NICs" : "the GPUs' links", what, 100 * busy);
    } else if (r->exposed_comm_s > 0.05 * r->step_mean_s) {
        int ps = sim_is_ps(pc->cfg.c.strategy);
        int nodes = 0;
        for (int i = 0; i < pc->cl->ngroups; i++)
            if (pc->cl->groups[i].role == SIM_TRAIN)
                nodes += pc->cl->groups[i].count;
        pc->bound = ps ? PLAN_BOUND_PS : nodes > 1 ? PLAN_BOUND_NETWORK : PLAN_BOUND_GPU_LINK;
        const char *kind = ps ? "parameter-server" : nodes > 1 ? "network" : "GPU-link";
        char cyc[64] = "";
        double link = r->util_nic;
        int k = (int)lround(r->workers), nb;
        for (int i = 0; i < pc->cfg.ngroups; i++)
            if (r->g[i].intra_util > link)
                link = r->g[i].intra_util;
        if (pc->cfg.c.cycle_s > 0)
            snprintf(cyc, sizeof cyc, ", started on the ticks of a %.3g ms background cycle",
                     1e3 * pc->cfg.c.cycle_s);
        if (!ps && pc->cfg.c.cycle_s > 0 && r->exposed_comm_s <= 1.2 * pc->cfg.c.cycle_s)
            pc->bound = PLAN_BOUND_CYCLE;   /* the wait is for the next tick, not the links */
        else if (!ps && link < 0.2)
            pc->bound = PLAN_BOUND_LATENCY; /* the links are idle: message latency */
        nb = pc->bound == PLAN_BOUND_LATENCY ? sim_bucket_count(&pc->cfg.c, pc->cfg.w.grad_bytes)
                                             : 0;
        if (pc->bound == PLAN_BOUND_CYCLE)
            snprintf(pc->bound_text, sizeof pc->bound_text,
                     "cycle-bound: %.1f ms of each %.1f ms step waits for the next tick of the "
                     "%.3g ms background cycle (HOROVOD_CYCLE_TIME) that starts the all-reduces "
                     "(busiest link %.0f%%); a shorter cycle cuts it; %.60s busy %.0f%%",
                     1e3 * r->exposed_comm_s, 1e3 * r->step_mean_s, 1e3 * pc->cfg.c.cycle_s,
                     100 * link, what, 100 * busy);
        else if (pc->bound == PLAN_BOUND_LATENCY)
            snprintf(pc->bound_text, sizeof pc->bound_text,
                     "latency-bound: %.1f ms of each %.1f ms step is exposed gradient "
                     "communication while the busiest link is %.0f%% busy: the per-message "
                     "latency of %d all-reduce%s over %d ranks (%s), not bandwidth; %s cut it; "
                     "%.60s busy %.0f%%",
                     1e3 * r->exposed_comm_s, 1e3 * r->step_mean_s, 100 * link, nb,
                     nb == 1 ? "" : "s", k, nodes > 1 ? "across nodes" : "inside the node",
                     nb > 1 ? "larger buckets or fewer ranks" : "fewer ranks or more samples a step",
                     what, 100 * busy);
        else
            snprintf(pc->bound_text, sizeof pc->bound_text,
                     "%s-bound: %.1f ms of each %.1f ms step is exposed gradient communication"
                     "%.63s (busiest NIC %.0f%%); %.60s busy %.0f%%", kind,
                     1e3 * r->exposed_comm_s, 1e3 * r->step_mean_s, cyc, 100 * r->util_nic, what,
                     100 * busy);
    } else {
        pc->bound = PLAN_BOUND_COMPUTE;
        snprintf(pc->bound_text, sizeof pc->bound_text, "compute-bound: %s busy %.0f%%", what,
                 100 * busy);
    }
}

/* ---- costs and the objective ------------------------------------------- */

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

double plan_cluster_objective(const struct scenario *sc, const struct plan_cluster *pc,
                              int per_sample)
{
    switch (sc->objective) {
    case SC_OBJ_TIME:
        /* Clusters with other worker counts take other numbers of steps:
         * rank by time to train, or by time per sample without a dataset. */
        return !isnan(pc->train_s) ? pc->train_s : 1.0 / pc->res.samples_per_s;
    case SC_OBJ_COST_STEP:
        /* Enumerated candidates differ in workers, so in samples per step:
         * the search compares cost per sample. */
        return per_sample ? pc->cost_per_step_usd / (pc->res.workers * pc->cfg.w.batch)
                          : pc->cost_per_step_usd;
    case SC_OBJ_COST_TRAIN:
        /* Without a dataset size cost per sample ranks the same way. */
        return !isnan(pc->cost_to_train_usd) ? pc->cost_to_train_usd
                                             : pc->cost_per_step_usd / pc->res.samples_per_s;
    }
    return pc->res.step_mean_s;
}

/* ---- evaluation -------------------------------------------------------- */

/* The precision's fallback (or auto's pick) on the first train group's GPU,
 * as compute.h plans it; nothing for CPU workers and with workload.mfu.
 * A fallback depends on the GPU and the precision alone (O(1)); only auto
 * has to time the model to know its pick. */
static void compute_note(const struct scenario *sc, struct plan_cluster *pc)
{
    const struct sc_group *g = plan_first_train(pc->cl);
    struct compute_plan p;
    struct compute_time t;
    int rc;

    pc->compute_note[0] = '\0';
    if (!g || g->inst->gpu_count <= 0 || !g->inst->gpu || !isnan(sc->mfu))
        return;
    rc = sc->precision_auto
             ? compute_on_gpu(sc, g->inst->gpu, NULL, sc->batch_per_gpu, &p, &t)
             : compute_plan_of(g->inst->gpu, sc->precision, sc->precision_strict, &p);
    if (rc == 0)
        snprintf(pc->compute_note, sizeof pc->compute_note, "%s", p.note);
}

/* What a worker holds: the train group that fills its memory most; a
 * cluster over a worker's memory is infeasible, whatever else holds. */
static void memory_check(const struct scenario *sc, struct plan_cluster *pc)
{
    const struct sc_cluster *cl = pc->cl;
    /* the servers hold the state under parameter servers */
    enum sc_sharding sharding = sim_is_ps(pc->cfg.c.strategy) ? SC_SHARD_NONE : sc->sharding;
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
        memcpy(pc->infeasible_why, why, sizeof why);
    }
}

/* Tokens per second and MFU (planner.h). */
static void throughput_of(const struct scenario *sc, struct plan_cluster *pc)
{
    double replicas = pc->res.workers / scenario_model_parallel(sc); /* data-parallel */
    const struct cat_model *m = sc->model;
    double peak = 0, fwd = scenario_fwd_gflops(sc) * 1e9;

    pc->tokens_per_s = NAN;
    if (shape_known(m))
        pc->tokens_per_s = pc->res.samples_per_s * (sc->seq_len > 0 ? sc->seq_len : m->seq_len);
    for (int i = 0; i < pc->cl->ngroups; i++) {
        const struct sc_group *g = &pc->cl->groups[i];
        if (g->role == SIM_TRAIN && g->inst->gpu_count > 0)
            peak += g->count * g->inst->gpu_count * resolve_peak_flops(g->inst, sc->precision, 0);
        else if (g->role == SIM_TRAIN)
            peak = NAN;     /* a CPU worker's peak is assumed, not catalogued */
    }
    pc->mfu = peak > 0 && fwd > 0 ? pc->res.samples_per_s * 3 * fwd / peak : NAN;
    pc->grad_accum = resolve_grad_accum(sc, (int)replicas);
    pc->global_batch = pc->cfg.w.batch * pc->res.workers;
    if (pc->feasible && sc->global_batch > 0 &&
        (double)sc->batch_per_gpu * replicas > sc->global_batch) {
        pc->feasible = 0;
        snprintf(pc->infeasible_why, sizeof pc->infeasible_why,
                 "%.0f data-parallel replicas x batch_per_gpu %d = %.0f samples a micro-batch, "
                 "over the global batch of %d: a smaller batch_per_gpu or fewer replicas",
                 replicas, sc->batch_per_gpu, sc->batch_per_gpu * replicas, sc->global_batch);
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
    if (sim_run(&pc->cfg, &pc->res, e))
        return -1;
    pc->cfg.trace = NULL;   /* the recording belongs to the caller */
    costs(sc, pc);
    memory_check(sc, pc);
    throughput_of(sc, pc);
    name_bound(pc);
    plan_band_set(sc, pc);
    compute_note(sc, pc);
    plan_assumptions(sc, pc);
    pc->sharding = sc->sharding;
    pc->batch_per_gpu = sc->batch_per_gpu;
    pc->recompute = sc->recompute;
    pc->nsim = 1;
    return 0;
}
