/*
 * resolve_ep.c - expert parallelism (parallel.ep; docs/model.md "Expert
 * parallelism"), as Megatron-Core's MoE layers run it with the all-to-all
 * token dispatcher (megatron/core/transformer/moe/token_dispatcher.py).
 *
 * An expert-parallel group of ep ranks, taken from the data-parallel (and
 * context-parallel) ranks at one tensor-parallel position, splits every
 * MoE layer's routed experts: a rank holds experts / ep of them, with their
 * gradients and optimizer state (the dense part and the shared experts
 * whole).  In each MoE layer a rank sends each of its tokens' top_k copies
 * to the rank of its expert and takes back the results: two all-to-alls
 * in the forward (dispatch, combine), two in the backward, and the forward's
 * again when backward recomputes it.  They run on the compute stream,
 * between the router and the experts: the layer waits for them.  On an even
 * load (moe_imbalance 1) a rank sends and receives (ep - 1) / ep of its
 * tokens' copies; the busiest rank moves moe_imbalance times that, and its
 * experts compute that much more (catalog/ops.c).
 *
 * The group's links: Megatron-Core places the expert-parallel ranks next
 * to the tensor-parallel ones, so a group of tp x ep GPUs that fits a node
 * moves over NVLink; a larger one sends the share bound for other nodes
 * over the GPU's share of its node's NICs while the rest crosses NVLink,
 * and the slower of the two sets the time.  Not yet: the all-to-alls
 * beside other flows on those links (they are waits here, not flows), the
 * dispatchers that overlap them (DeepEP, HybridEP, the 1F1B overlap of
 * Megatron-Core's interleaved pipelines), and expert tensor parallelism
 * other than tp.
 */
#include "resolve.h"

#include <math.h>
#include <stdio.h>

#include "../catalog/shape.h"
#include "cluster.h"

/* A train group of `gpus` GPUs whose data-parallel ranks ep divides. */
static int ep_places(const struct sc_group *g, int gpus, const void *arg)
{
    const struct scenario *sc = arg;

    return g->inst->gpu_count >= 1 && (gpus / scenario_model_parallel(sc)) % sc->parallel.ep == 0;
}

int resolve_ep_fits(const struct scenario *sc, const struct sc_cluster *cl, char *why, size_t len)
{
    const struct cat_model *m = sc->workload.model;
    const struct sc_group *g;
    int ep = sc->parallel.ep, mp = scenario_model_parallel(sc);

    if (ep <= 1)
        return 1;
    if (!shape_known(m) || m->experts <= 0) {
        snprintf(why, len, "parallel.ep %d needs a mixture of experts (a model with experts); "
                 "%s has none", ep, m->name);
        return 0;
    }
    if (m->experts % ep != 0) {
        snprintf(why, len, "parallel.ep %d does not divide %s's %d experts", ep, m->name,
                 m->experts);
        return 0;
    }
    if ((g = cluster_train_refused(cl, ep_places, sc))) {
        int gpus = g->count * (g->inst->gpu_count > 0 ? g->inst->gpu_count : 1);
        snprintf(why, len, "parallel.ep %d does not divide the %d data-parallel ranks (GPUs "
                 "over tp x pp) of %d x %s", ep, gpus / mp, g->count, g->inst->name);
        return 0;
    }
    return 1;
}

double resolve_state_params(const struct scenario *sc)
{
    const struct cat_model *m = sc->workload.model;
    int ep = sc->parallel.ep > 1 ? sc->parallel.ep : 1;

    if (ep == 1 || !shape_known(m))
        return m->params;
    return m->params - shape_expert_params(m) * (1 - 1.0 / ep);
}

/* One MoE layer's all-to-all (a dispatch or a combine) of one micro-batch on
 * a GPU of `in` with g's links, s. */
static double alltoall_s(const struct scenario *sc, const struct cat_instance *in,
                         const struct sim_group *g)
{
    const struct cat_model *m = sc->workload.model;
    int ep = sc->parallel.ep, tp = sc->parallel.tp > 1 ? sc->parallel.tp : 1;
    int wpn = in->gpu_count, in_node;
    double imb = sc->workload.moe_imbalance > 1 ? sc->workload.moe_imbalance : 1;
    double width = sc->workload.precision == CAT_FP32 || sc->workload.precision == CAT_TF32 ? 4 : 2;
    double bytes, t_nvl, t_net;

    /* a rank's tokens a micro-batch (a tp-th of them under sequence
     * parallelism), top_k copies each of hidden 16-bit values, the busiest
     * rank imb times an even share; (ep - 1) / ep of them to other ranks */
    bytes = scenario_rank_tokens(sc) * sc->parallel.micro_batch * m->top_k /
            (sc->parallel.sequence_parallel ? tp : 1) * m->hidden * width * imb;
    in_node = tp * ep <= wpn ? ep : wpn / tp > 0 ? wpn / tp : 1;
    t_nvl = g->intra_Bps > 0 ? bytes * (in_node - 1.0) / ep / g->intra_Bps : 0;
    t_net = in_node < ep && g->nic_Bps > 0
                ? bytes * (double)(ep - in_node) / ep / (g->nic_Bps / wpn)
                : 0;
    return fmax(t_nvl, t_net);
}

double resolve_ep_alltoall_s(const struct scenario *sc, const struct cat_instance *in,
                             const struct sim_group *g)
{
    const struct cat_model *m = sc->workload.model;

    if (sc->parallel.ep <= 1 || !shape_known(m) || m->experts <= 0 || in->gpu_count < 1)
        return 0;
    return alltoall_s(sc, in, g);
}

void resolve_ep_waits(const struct scenario *sc, const struct cat_instance *in,
                      const struct sim_group *g, double *fwd_s, double *bwd_s)
{
    double a2a = resolve_ep_alltoall_s(sc, in, g), layers = shape_moe_layers(sc->workload.model);

    /* dispatch and combine, forward and backward (and the forward's again
     * under full recompute), in each MoE layer */
    *fwd_s = layers * 2 * a2a;
    *bwd_s = layers * (sc->parallel.recompute == SC_RECOMPUTE_FULL ? 4 : 2) * a2a;
}

void resolve_ep(const struct scenario *sc, const struct sc_cluster *cl, struct sim_config *cfg)
{
    int n = sc->workload.grad_accum > 0 ? sc->workload.grad_accum : 1;

    if (sc->parallel.ep <= 1)
        return;
    for (int i = 0; i < cl->ngroups && i < cfg->ngroups; i++) {
        struct sim_group *g = &cfg->groups[i];
        double wf, wb;
        if (cl->groups[i].role != SIM_TRAIN)
            continue;
        resolve_ep_waits(sc, cl->groups[i].inst, g, &wf, &wb);
        g->fwd_s += n * wf;
        g->bwd_s += n * wb;
    }
}
