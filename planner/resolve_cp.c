/*
 * resolve_cp.c - context parallelism (parallel.cp; docs/model.md "Context
 * parallelism"), as Megatron-Core runs it through Transformer Engine's
 * ring attention (the p2p form of --cp-comm-type, parallel.cp_comm's
 * default), its all-to-all form (a2a, DeepSpeed-Ulysses), its all-gather
 * form (allgather, the Llama 3 paper's), and PyTorch's experimental
 * context_parallel with its all-gather rotation (torch, as torchtitan ran
 * it in late 2024).
 *
 * Each sequence is cut into 2 cp chunks and rank r keeps chunks r and
 * 2cp - 1 - r, so that under a causal mask every rank has the same share of
 * the attention (the load balancing of Megatron-Core's get_batch_on_this_
 * cp_rank).  A rank runs every layer's products over its s / cp tokens
 * (catalog/ops.c builds the ops so) and its queries' attention over the
 * whole sequence: the keys and values come round the ring of cp ranks, one
 * chunk a step, each step's transfer beside the attention over the chunk
 * before it.  Backward runs the ring again with the keys' and values'
 * gradients going the other way.  The cp ranks hold the same weights: they
 * reduce gradients with the data-parallel ranks (the simulator's group is
 * the GPUs over tp x pp, unchanged), and each replica's batch is spread over
 * tp x pp x cp GPUs.
 *
 * What a layer waits for: of each of the cp - 1 steps, what the transfer
 * takes past the attention it hides under (a2a and allgather: the whole of
 * their collectives, which the attention waits on).  The ring runs over the cp
 * group's links: Megatron-Core orders tp, then cp, then dp, so a group of
 * tp x cp GPUs that fits a node moves over NVLink, and otherwise over each
 * GPU's share of the node's NICs.
 */
#include "resolve.h"

#include <math.h>
#include <stdio.h>

#include "../catalog/shape.h"
#include "cluster.h"

/* A train group of `gpus` GPUs holds whole replicas of tp x pp x cp. */
static int cp_places(const struct sc_group *g, int gpus, const void *arg)
{
    return g->inst->gpu_count >= 1 && gpus % scenario_replica_gpus(arg) == 0;
}

int resolve_cp_fits(const struct scenario *sc, const struct sc_cluster *cl, char *why, size_t len)
{
    const struct cat_model *m = sc->workload.model;
    const struct sc_group *g;
    int cp = sc->parallel.cp, s = (int)scenario_seq_len(sc);
    int rep = scenario_replica_gpus(sc);

    if (cp <= 1)
        return 1;
    if (!resolve_shaped(sc, "cp", cp, why, len))
        return 0;
    if (sc->parallel.cp_comm == SC_CP_A2A &&
        (m->heads % (sc->parallel.tp > 1 ? sc->parallel.tp : 1) != 0 ||
         (m->heads / (sc->parallel.tp > 1 ? sc->parallel.tp : 1)) % cp != 0)) {
        int tp = sc->parallel.tp > 1 ? sc->parallel.tp : 1;
        snprintf(why, len, "parallel.cp %d with cp_comm a2a splits a rank's heads cp ways: %s's "
                 "%d heads over tp %d leave %g a rank, which cp does not divide", cp, m->name,
                 m->heads, tp, (double)m->heads / tp);
        return 0;
    }
    if (s % (2 * cp) != 0) {
        snprintf(why, len, "parallel.cp %d needs a sequence of a multiple of 2 cp = %d tokens "
                 "(two chunks a rank), not %d", cp, 2 * cp, s);
        return 0;
    }
    if ((g = cluster_train_refused(cl, cp_places, sc))) {
        if (g->inst->gpu_count < 1)
            snprintf(why, len, "parallel.cp %d needs GPU train nodes; %s has none", cp,
                     g->inst->name);
        else
            snprintf(why, len, "parallel.cp %d x tp %d x pp %d = %d GPUs a replica does not "
                     "divide the %d GPUs of %d x %s", cp, sc->parallel.tp, sc->parallel.pp, rep,
                     g->count * g->inst->gpu_count, g->count, g->inst->name);
        return 0;
    }
    return 1;
}

/* Bytes of the keys and values of one chunk of s / cp tokens, a layer, one
 * micro-batch, on one tensor-parallel rank: K and V of kv_heads (MLA, or a
 * model that repeats its key-value heads before the attention,
 * parallel.cp_kv_repeat: of every head) at 16 bits. */
static double kv_chunk_bytes(const struct scenario *sc)
{
    const struct cat_model *m = sc->workload.model;
    double heads = m->kv_lora_rank > 0 || sc->parallel.cp_kv_repeat ? m->heads : m->kv_heads;
    double tp = sc->parallel.tp > 1 ? sc->parallel.tp : 1;

    return scenario_rank_tokens(sc) * sc->parallel.micro_batch * heads *
           (shape_qk_head(m) + shape_v_head(m)) * 2 / tp;
}

/* Bytes of a rank's queries and of the attention's output for its s / cp
 * tokens, a layer, one micro-batch, on one tensor-parallel rank, at 16
 * bits. */
static double qo_chunk_bytes(const struct scenario *sc)
{
    const struct cat_model *m = sc->workload.model;
    double tp = sc->parallel.tp > 1 ? sc->parallel.tp : 1;

    return scenario_rank_tokens(sc) * sc->parallel.micro_batch * m->heads *
           (shape_qk_head(m) + shape_v_head(m)) * 2 / tp;
}

void resolve_cp_waits(const struct scenario *sc, const struct cat_instance *in,
                      const struct sim_group *g, const double *attn, double *fwd_s, double *bwd_s)
{
    const struct cat_model *m = sc->workload.model;
    int cp = sc->parallel.cp, tp = sc->parallel.tp > 1 ? sc->parallel.tp : 1;
    double bw, step, af, ab;

    *fwd_s = *bwd_s = 0;
    if (cp <= 1 || m->layers <= 0 || in->gpu_count < 1)
        return;
    /* the group's links: NVLink inside a node, else a GPU's share of its NICs */
    bw = tp * cp <= in->gpu_count && g->intra_Bps > 0 ? g->intra_Bps : g->nic_Bps / in->gpu_count;
    if (!(bw > 0))
        return;
    if (sc->parallel.cp_comm == SC_CP_A2A) {
        /* Ulysses: Q, K and V traded from sequence shards to head shards
         * before the attention and its output back after, (cp - 1) / cp of
         * each leaving the rank, waited for; backward the same in reverse */
        double t = (qo_chunk_bytes(sc) + kv_chunk_bytes(sc)) * (cp - 1.0) / cp / bw;
        *fwd_s = t * m->layers;
        *bwd_s = t * m->layers;
        return;
    }
    if (sc->parallel.cp_comm == SC_CP_TORCH) {
        /* PyTorch's ring attention with the all-gather rotation
         * (torch/distributed/tensor/experimental/_attention.py, late 2024):
         * the keys and values gathered once, issued before the first step
         * (the rank's own, diagonal chunks: 1 / cp of its attention) and
         * waited for at the second, forward and again backward; backward,
         * the keys' and values' gradients go round the ring in fp32 (twice
         * the bytes), each step's sent after its attention and waited for
         * after the next step's, the last one waited for whole. */
        double ag = kv_chunk_bytes(sc) * (cp - 1.0) / bw, dkv = 2 * kv_chunk_bytes(sc) / bw;
        af = attn[0] / m->layers / cp;
        ab = attn[1] / m->layers / cp;
        *fwd_s = fmax(0, ag - af) * m->layers;
        *bwd_s = (fmax(0, ag - ab) + (cp - 1) * fmax(0, dkv - ab) + dkv) * m->layers;
        return;
    }
    if (sc->parallel.cp_comm == SC_CP_ALLGATHER) {
        /* the keys and values gathered whole before the attention (cp - 1
         * chunks in), their gradients reduce-scattered after its backward,
         * waited for */
        double t = kv_chunk_bytes(sc) * (cp - 1.0) / bw;
        *fwd_s = t * m->layers;
        *bwd_s = t * m->layers;
        return;
    }
    step = kv_chunk_bytes(sc) / bw;
    /* a layer's attention a step, forward and backward */
    af = attn[0] / m->layers / cp;
    ab = attn[1] / m->layers / cp;
    *fwd_s = (cp - 1) * fmax(0, step - af) * m->layers;
    *bwd_s = (cp - 1) * fmax(0, 2 * step - ab) * m->layers;
}

void resolve_cp(const struct scenario *sc, struct sim_config *cfg)
{
    if (sc->parallel.cp > 1)
        cfg->w.batch /= sc->parallel.cp;    /* a replica's samples, over its cp ranks too */
}
