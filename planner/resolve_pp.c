/*
 * resolve_pp.c - pipeline parallelism in the planner (parallel.pp; sim/pp.c
 * runs it): whether a layout fits a cluster, and what the simulator needs
 * of it: the layers, the micro-batches a step, the share of a micro-
 * batch's work outside the layers (the last stage's), the embedding's and
 * output layer's share of the gradients, and the activations a stage
 * sends the next.
 */
#include "resolve.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../base/xmem.h"
#include "../catalog/shape.h"
#include "compute.h"

int resolve_pp_fits(const struct scenario *sc, const struct sc_cluster *cl, char *why, size_t len)
{
    int pp = sc->parallel.pp > 1 ? sc->parallel.pp : 1, tp = sc->parallel.tp > 1 ? sc->parallel.tp : 1;
    int v = sc->parallel.interleave > 1 ? sc->parallel.interleave : 1, k = 0;
    int ends = sc->parallel.pp_split == SC_PP_SPLIT_EMBEDDING_LOSS;
    const struct sc_group *g = NULL;

    why[0] = '\0';
    if (pp == 1)
        return 1;
    if (!resolve_shaped(sc, "pp", pp, why, len))
        return 0;
    for (int i = 0; i < cl->ngroups; i++) {
        if (cl->groups[i].role != SIM_TRAIN || cl->ngroups > 1 || g) {
            snprintf(why, len, "parallel.pp %d needs one group of GPU train nodes and no "
                     "other group", pp);
            return 0;
        }
        g = &cl->groups[i];
    }
    if (!g || g->inst->gpu_count < 1) {
        snprintf(why, len, "parallel.pp %d needs GPU train nodes", pp);
        return 0;
    }
    if (sc->workload.offload_layers > 0) {
        snprintf(why, len, "parallel.pp %d runs without activation offloading "
                 "(workload.offload_layers %d): Megatron-Core refuses the two together", pp,
                 sc->workload.offload_layers);
        return 0;
    }
    if (!sim_pp_fits_in(g->inst->gpu_count, g->count, tp, pp, sc->parallel.order)) {
        snprintf(why, len, "parallel.pp %d x tp %d does not fit %d x %s (%d GPUs a node): tp x "
                 "pp must divide the GPUs, and %s fill whole nodes or divide one",
                 pp, tp, g->count, g->inst->name, g->inst->gpu_count,
                 sc->parallel.order ? "a replica's tp x pp GPUs (order tp-pp-dp)" : "a stage's GPUs");
        return 0;
    }
    if (sc->workload.model->layers + (ends ? 2 : 0) < pp * v) {
        snprintf(why, len, "parallel.pp %d x interleave %d is more chunks than %s's %d layers%s",
                 pp, v, sc->workload.model->name, sc->workload.model->layers,
                 ends ? " with the embedding and the loss (parallel.pp_split: embedding_loss)" : "");
        return 0;
    }
    k = g->count * g->inst->gpu_count;
    if (sc->parallel.pp_schedule == SC_PP_DUALPIPE) {
        int m = resolve_accum(sc, k / scenario_replica_gpus(sc));
        if (pp % 2 != 0 || v > 1 || m % 2 != 0 || m < pp) {
            snprintf(why, len, "parallel.pp_schedule dualpipe needs an even pp (%d), one chunk a "
                     "stage (interleave %d) and an even number of micro-batches no fewer than pp "
                     "(the global batch gives %d a replica)", pp, v, m);
            return 0;
        }
    }
    if (v > 1) {
        int m = resolve_accum(sc, k / scenario_replica_gpus(sc));
        if (m % pp != 0) {
            snprintf(why, len, "parallel.interleave %d needs micro-batches a multiple of pp %d; "
                     "the global batch gives %d a replica", v, pp, m);
            return 0;
        }
    }
    return 1;
}

/* One pass of sc's model cut to `layers` layers on in's GPU, fwd + bwd
 * seconds, recompute as rec; -1 when the GPU has no rate for it. */
static double pass_s(const struct scenario *sc, const struct cat_instance *in, int layers,
                     enum sc_recompute rec)
{
    struct scenario *x = x_malloc(sizeof *x);
    struct cat_model cut = *sc->workload.model;
    struct compute_plan p;
    struct compute_time t;
    double s = -1;

    *x = *sc;
    x->parallel.recompute = rec;
    cut.layers = layers;
    x->workload.model = &cut;
    if (compute_on_gpu(x, in->gpu, NULL, sc->parallel.micro_batch, &p, &t) == 0)
        s = t.fwd_s + t.bwd_s;
    x_free(x);
    return s;
}

/*
 * Of a micro-batch's forward and backward on instance in, the share of the
 * embedding, final norm, output layer and loss: the model's operations are
 * a layer's repeated and these once (catalog/ops.c), so a model of one
 * layer less a layer's time, 2 T(1) - T(2), is theirs (never recomputed),
 * over the whole model's T(L) at sc's recompute, both at sc's tensor
 * parallelism and precision.  A model of no layers is not the head: it is
 * no longer a shape, and compute.c would cost it as the catalog's whole-
 * model FLOPs (issue 36).
 */
static double head_share(const struct scenario *sc, const struct cat_instance *in)
{
    double one, two, all, share = 0;

    if (!in->gpu)
        return 0;
    one = pass_s(sc, in, 1, SC_RECOMPUTE_NONE);
    two = pass_s(sc, in, 2, SC_RECOMPUTE_NONE);
    all = pass_s(sc, in, sc->workload.model->layers, sc->parallel.recompute);
    if (one > 0 && two > 0 && all > 0)
        share = (2 * one - two) / all;
    return share > 0 && share < 1 ? share : 0;
}

int resolve_pp_chunks(const struct scenario *sc, int pp, int v, int *out)
{
    int n = pp * v;

    if (sc->parallel.npp_layers == n) {
        memcpy(out, sc->parallel.pp_layers, (size_t)n * sizeof *out);
        return 1;
    }
    sim_pp_layers(sc->workload.model->layers, pp, v,
                  sc->parallel.pp_split == SC_PP_SPLIT_EMBEDDING_LOSS, out);
    return 0;
}

void resolve_pp(const struct scenario *sc, const struct sc_cluster *cl, int k,
                struct sim_config *cfg)
{
    const struct cat_model *m = sc->workload.model;
    int pp = sc->parallel.pp > 1 ? sc->parallel.pp : 1, tp = sc->parallel.tp > 1 ? sc->parallel.tp : 1;
    double width = resolve_act_width(sc);
    double first, last, params;
    const struct cat_instance *in = NULL;

    cfg->c.pp = pp;
    if (pp == 1)
        return;
    for (int i = 0; i < cl->ngroups; i++)
        if (cl->groups[i].role == SIM_TRAIN)
            in = cl->groups[i].inst;
    cfg->c.pp_interleave = sc->parallel.interleave > 1 ? sc->parallel.interleave : 1;
    cfg->c.pp_order = sc->parallel.order;
    cfg->c.pp_ends = sc->parallel.pp_split == SC_PP_SPLIT_EMBEDDING_LOSS;
    /* the chunks' layers as given (parallel.pp_layers), where they are for this layout */
    if (pp * cfg->c.pp_interleave <= SIM_MAX_PP_CHUNKS) {
        int n = pp * cfg->c.pp_interleave, at = 0;
        if (resolve_pp_chunks(sc, pp, cfg->c.pp_interleave, cfg->c.pp_layers))
            cfg->c.pp_nlayers = n;
        /* which of each chunk's layers are MoE layers (their waits are theirs) */
        for (int i = 0; i < n; i++) {
            cfg->c.pp_moe_layers[i] = 0;
            for (int j = 0; j < cfg->c.pp_layers[i]; j++, at++)
                cfg->c.pp_moe_layers[i] += at < m->layers && shape_is_moe_layer(m, at);
        }
    }
    cfg->c.pp_dualpipe = sc->parallel.pp_schedule == SC_PP_DUALPIPE;
    cfg->c.units = m->layers;
    cfg->c.micro_batches = resolve_accum(sc, k / scenario_replica_gpus(sc));
    cfg->c.pp_head_frac = in ? head_share(sc, in) : 0;
    /* the token table on the first stage (and a learned position table with
     * it); the output layer, or the tied table's copy, on the last */
    params = m->params > 0 ? m->params : shape_params(m);
    shape_tables(m, &first, &last);
    last += shape_mtp_weights(m, 0);    /* the multi-token-prediction modules, with the head */
    cfg->c.pp_embed_frac = params > 0 ? first / params : 0;
    cfg->c.pp_out_frac = params > 0 ? last / params : 0;
    if (cfg->c.pp_embed_frac + cfg->c.pp_out_frac >= 0.9) {
        cfg->c.pp_embed_frac = 0;
        cfg->c.pp_out_frac = 0;
    }
    /* s b h at the activations' width, each tensor-parallel rank its share
     * (Megatron's scatter-gather) */
    cfg->c.pp_p2p_bytes = scenario_rank_tokens(sc) * sc->parallel.micro_batch * m->hidden * width / tp;
    cfg->w.batch /= pp;     /* a replica's samples, over its tp x pp GPUs */
}
