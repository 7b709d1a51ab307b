/*
 * resolve_tp.c - tensor parallelism (parallel.tp; docs/model.md "Tensor
 * parallelism"), Megatron style: whether a degree fits a cluster and the
 * model, and what the simulator's tensor-parallel dimension (sim/tp.c) is
 * given: a layer's activation bytes a collective, their fp8 form under
 * sequence parallelism, the products' shares the overlap hides under, and
 * each GPU's tp-th of a replica's work.
 */
#include "resolve.h"

#include <math.h>
#include <stdio.h>

#include "../catalog/shape.h"
#include "cluster.h"
#include "compute.h"

int resolve_tp_fits(const struct scenario *sc, const struct sc_cluster *cl, char *why, size_t len)
{
    int tp = sc->parallel.tp > 1 ? sc->parallel.tp : 1;

    why[0] = '\0';
    if (tp == 1)
        return 1;
    if (!resolve_shaped(sc, "tp", tp, why, len))
        return 0;
    for (int i = 0; i < cl->ngroups; i++) {
        const struct sc_group *g = &cl->groups[i];
        int wpn = g->inst->gpu_count;
        if (g->role != SIM_TRAIN)
            continue;
        if (!sim_tp_fits(wpn, g->count, tp)) {
            snprintf(why, len, "parallel.tp %d does not fit %d x %s (%d GPUs a node): tp must "
                     "divide a node's GPUs, or span whole nodes", tp, g->count, g->inst->name,
                     wpn);
            return 0;
        }
    }
    if (!shape_tp_fits(sc->workload.model, tp)) {
        snprintf(why, len, "parallel.tp %d does not divide %s's heads (%d) and KV heads (%d): "
                 "Megatron-LM splits both evenly over tp", tp, sc->workload.model->name,
                 sc->workload.model->heads, sc->workload.model->kv_heads);
        return 0;
    }
    return 1;
}

/* Tensor parallelism (sim/tp.c): each GPU computes a tp-th of a replica's
 * micro-batch work and holds a tp-th of its weights; a layer's activation
 * all-reduce moves s b h values at the activations' width. */
/* tp_overlap: of a layer's forward on the first train group's GPU, the
 * shares of its four products, each the compute its collective hides under
 * (sim.h tp_gemm_share); left 0 (the whole layer) for a model without a
 * shape or a GPU the compute model cannot time. */
static void tp_shares(const struct scenario *sc, const struct sc_cluster *cl,
                      struct sim_config *cfg)
{
    const struct cat_model *m = sc->workload.model;
    const struct sc_group *tg = cluster_first_train(cl);
    struct compute_plan p;
    struct compute_time t;

    if (!shape_known(m) || !tg || !tg->inst->gpu ||
        compute_on_gpu(sc, tg->inst->gpu, NULL, sc->parallel.micro_batch, &p, &t) != 0 ||
        !(t.fwd_s > 0))
        return;
    for (int k = 0; k < 4; k++)
        cfg->c.tp_gemm_share[k] = fmin(1, t.block_fwd_s[k] * m->layers / t.fwd_s);
}

void resolve_tp(const struct scenario *sc, const struct sc_cluster *cl, struct sim_config *cfg)
{
    const struct cat_model *m = sc->workload.model;
    int tp = sc->parallel.tp > 1 ? sc->parallel.tp : 1;
    double width = resolve_act_width(sc);

    cfg->c.tp = tp;
    cfg->c.tp_sp = sc->parallel.sequence_parallel;
    cfg->c.tp_overlap = sc->parallel.tp_overlap;
    cfg->c.tp_recompute = sc->parallel.recompute == SC_RECOMPUTE_FULL ? SIM_TP_REDO_ALL
                          : sc->parallel.recompute == SC_RECOMPUTE_OP ? SIM_TP_REDO_GATHERS
                          : SIM_TP_REDO_NONE;
    cfg->c.tp_redo_skip = sc->parallel.recompute == SC_RECOMPUTE_FULL
                              ? 1 - scenario_recompute_share(sc) : 0;
    if (tp == 1)
        return;
    if (sc->parallel.tp_overlap)
        tp_shares(sc, cl, cfg);
    cfg->c.tp_bytes = scenario_rank_tokens(sc) * sc->parallel.micro_batch * m->hidden * width;
    /* a MoE layer without shared experts gathers no dense feed-forward
     * input over tp: its router reads the rank's own tokens and its experts
     * gather theirs over etp (resolve_ep.c); shared experts are a dense
     * block with their pair (Megatron-Core's SharedExpertMLP) */
    if (m->experts > 0 && m->shared_experts <= 0 && m->layers > 0)
        cfg->c.tp_moe_share = shape_moe_layers(m) / (double)m->layers;
    {
        /* fp8 with sequence parallelism gathers the QKV and first
         * feed-forward inputs in fp8, a byte an element: Transformer
         * Engine casts in the norm before its all-gather, torchao's
         * PrepareFloat8ModuleInput before DTensor's */
        const struct sc_group *tg = cluster_first_train(cl);
        struct compute_plan p;
        if (sc->parallel.sequence_parallel && tg && tg->inst->gpu &&
            compute_plan_of(tg->inst->gpu, sc->workload.precision, sc->workload.precision_strict,
                            &p) == 0 && p.linear == CAT_FP8)
            cfg->c.tp_gather_bytes = cfg->c.tp_bytes / width;
    }
    cfg->w.batch /= tp;     /* a replica's samples, over its tp GPUs */
    for (int i = 0; i < cfg->ngroups; i++)
        if (cfg->groups[i].role == SIM_TRAIN)
            cfg->groups[i].opt_s /= tp;   /* forward and backward: the compute model's, per GPU */
}
