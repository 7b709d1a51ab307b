/*
 * resolve_ep.c - expert parallelism (parallel.ep; docs/model.md "Expert
 * parallelism"), as Megatron-Core's MoE layers run it with the all-to-all
 * token dispatcher (megatron/core/transformer/moe/token_dispatcher.py).
 *
 * An expert-parallel group of ep ranks, taken from a pipeline stage's
 * tensor-, context- and data-parallel ranks etp apart (Megatron-Core's
 * parallel folding), splits every MoE layer's routed experts: a rank holds
 * experts / ep of them split etp ways, with their gradients and optimizer
 * state (the dense part and the shared experts as tp splits them).  In each MoE layer a rank sends each of its tokens' top_k copies
 * to the rank of its expert and takes back the results: two all-to-alls
 * in the forward (dispatch, combine), two in the backward, and the forward's
 * again when backward recomputes it.  They run on the compute stream,
 * between the router and the experts: the layer waits for them.  On an even
 * load (moe_imbalance 1) a rank sends and receives (ep - 1) / ep of its
 * tokens' copies; the busiest rank moves moe_imbalance times that, and its
 * experts compute that much more (catalog/ops.c).
 *
 * The group's links: Megatron-Core places the expert-parallel ranks next
 * to the expert tensor-parallel ones (etp, tp's by default), so a group of
 * etp x ep GPUs that fits a node moves over NVLink; a larger one sends the
 * share bound for other nodes over the GPU's share of its node's NICs
 * while the rest crosses NVLink, and the slower of the two sets the time.
 *
 * Dispatchers (parallel.ep_dispatch): NCCL's all-to-all sends each routed
 * copy on its own; DeepEP's normal kernels and HybridEP send a token once
 * to each other node that holds one of its experts and fan it out over
 * NVLink there (deepseek-ai/DeepEP README, "normal kernels"; Megatron-
 * Core's flex dispatcher), so across nodes a token costs the nodes its
 * top_k experts fall on, not its copies.  Under a balanced router the
 * experts a token picks are top_k of the experts drawn without
 * replacement, and a node of the group's n holds E / n of them (group-
 * limited routing: remote_nodes).  parallel.ep_fp8_dispatch sends the
 * forward dispatch in fp8 (resolve_ep_waits).  Megatron-Core's allgather
 * dispatcher (its default, moe_token_dispatcher_type; MoEAllGatherToken
 * Dispatcher in token_dispatcher.py, NVIDIA/Megatron-LM@d98e8a6) gathers
 * every rank's tokens, a tp-th of the sequence each, to all etp x ep ranks
 * of the expert group, each keeping those its experts take, and reduce-
 * scatters the experts' outputs back: NCCL's ring collectives of the
 * group's whole tokens, top_k not in the bytes and no etp gather after
 * them (gather_bytes).
 *
 * Overlap (parallel.ep_overlap, Megatron-Core's overlap_moe_expert_
 * parallel_comm): one micro-batch's forward runs beside another's
 * backward, layer by layer, each's all-to-alls under the other's compute,
 * which hides RESOLVE_EP_HIDDEN of the shorter of the two; the first
 * micro-batch waits for all of its own.  0.56, from the one published
 * measurement of the overlap alone: Megatron-MoE-ModelZoo's Qwen3-235B-A22B
 * on 256 H100 (tp 2, pp 8, interleave 4, ep 32, DeepEP; yanring/Megatron-
 * MoE-ModelZoo@798dfb50 best_practice/qwen3/readme.md) runs 245 TFLOP/s a
 * GPU without and 276 with it, 1.127 times, which dtplan's waits and
 * compute for that layout give at 0.56 (0.50: 1.104, 0.60: 1.145; re-fitted
 * on 2026-11-28 from 0.50, at which the model had come to 1.104).  The
 * Megatron-Core MoE report's "93% overlap ratio" (arXiv:2603.07685,
 * section 4.2.3) would give 1.36 there; it does not count what the pairing
 * costs the compute beside it beyond the SMs held (overlap_cost_s).
 *
 * Without a pipeline the all-to-alls run in the simulator as flows beside
 * every other (resolve_ep below, sim/ep.c); a pipeline's stages take them
 * as waits.
 */
#include "resolve.h"

#include <math.h>
#include <stdio.h>

#include "../base/interp.h"
#include "../catalog/ops.h"
#include "../catalog/shape.h"
#include "../sim/nccl.h"
#include "cluster.h"

static int etp_of(const struct scenario *sc)
{
    return sc->parallel.etp > 0 ? sc->parallel.etp : sc->parallel.tp > 1 ? sc->parallel.tp : 1;
}

/* A train group of `gpus` GPUs whose ranks of a pipeline stage (tp x cp x
 * dp of them) etp x ep divides (Megatron-Core's parallel folding). */
static int ep_places(const struct sc_group *g, int gpus, const void *arg)
{
    const struct scenario *sc = arg;
    int pp = sc->parallel.pp > 1 ? sc->parallel.pp : 1, ep = sc->parallel.ep > 1 ? sc->parallel.ep : 1;

    return g->inst->gpu_count >= 1 && gpus % pp == 0 && (gpus / pp) % (etp_of(sc) * ep) == 0;
}

int resolve_ep_fits(const struct scenario *sc, const struct sc_cluster *cl, char *why, size_t len)
{
    const struct cat_model *m = sc->workload.model;
    const struct sc_group *g;
    int ep = sc->parallel.ep, etp = sc->parallel.etp, moe = shape_known(m) && m->experts > 0;

    if (ep <= 1 && etp <= 0)
        return 1;
    if (!moe) {
        snprintf(why, len, "%s %d needs a mixture of experts (a model with experts); %s has none",
                 ep > 1 ? "parallel.ep" : "parallel.etp", ep > 1 ? ep : etp, m->name);
        return 0;
    }
    if (ep > 1 && m->experts % ep != 0) {
        snprintf(why, len, "parallel.ep %d does not divide %s's %d experts", ep, m->name,
                 m->experts);
        return 0;
    }
    for (int i = 0; i < cl->ngroups && sc->parallel.ep_sms > 0; i++) {
        const struct cat_gpu *gpu = cl->groups[i].inst->gpu;
        if (cl->groups[i].role == SIM_TRAIN && gpu && gpu->sm_count > 0 &&
            sc->parallel.ep_sms >= gpu->sm_count) {
            snprintf(why, len, "parallel.ep_sms %d leaves no SM of %s's %d to compute beside the "
                     "dispatcher", sc->parallel.ep_sms, gpu->name, gpu->sm_count);
            return 0;
        }
    }
    if (etp > 0 && shape_expert_width(m) / etp < 1) {
        snprintf(why, len, "parallel.etp %d is more ranks than %s's expert width %g", etp,
                 m->name, shape_expert_width(m));
        return 0;
    }
    if ((g = cluster_train_refused(cl, ep_places, sc))) {
        int gpus = g->count * (g->inst->gpu_count > 0 ? g->inst->gpu_count : 1);
        int pp = sc->parallel.pp > 1 ? sc->parallel.pp : 1;
        if (etp > 0)
            snprintf(why, len, "parallel.etp %d x ep %d does not divide the %d GPUs of a "
                     "pipeline stage (tp x cp x data-parallel ranks) of %d x %s", etp,
                     ep > 1 ? ep : 1, gpus / pp, g->count, g->inst->name);
        else
            snprintf(why, len, "parallel.ep %d x etp %d does not divide the %d GPUs of a "
                     "pipeline stage (tp x cp x data-parallel ranks) of %d x %s", ep,
                     etp_of(sc), gpus / pp, g->count, g->inst->name);
        return 0;
    }
    return 1;
}

double resolve_state_params(const struct scenario *sc)
{
    const struct cat_model *m = sc->workload.model;
    int ep = sc->parallel.ep > 1 ? sc->parallel.ep : 1, tp = sc->parallel.tp > 1 ? sc->parallel.tp : 1;
    double dup;

    if (!shape_known(m))
        return m->params;
    /* MLA's down projections are whole on every tensor-parallel rank
     * (Megatron-Core builds them as Transformer Engine linears in
     * parallel_mode "duplicated"; megatron/core/transformer/multi_latent_
     * attention.py, NVIDIA/Megatron-LM@d98e8a6), as tp - 1 more copies
     * before the caller's split */
    dup = (tp - 1.0) * shape_mla_down_weights(m) * (m->layers + m->mtp_layers);
    if (m->experts <= 0 || (ep == 1 && etp_of(sc) == tp))
        return m->params + dup;
    /* before the tensor-parallel split the caller makes: the routed
     * experts a rank holds, experts / ep of them split etp ways, as a
     * tp-th of what it holds */
    return m->params + dup - shape_expert_params(m) * (1 - (double)tp / (ep * etp_of(sc)));
}

double resolve_expert_state_params(const struct scenario *sc)
{
    const struct cat_model *m = sc->workload.model;
    int ep = sc->parallel.ep > 1 ? sc->parallel.ep : 1, tp = sc->parallel.tp > 1 ? sc->parallel.tp : 1;

    if (!shape_known(m) || m->experts <= 0)
        return 0;
    return shape_expert_params(m) * tp / (ep * etp_of(sc));
}

/* Megatron-Core's expert-data-parallel size: world / (pp x ep x etp)
 * (megatron/core/parallel_state.py, the expert groups' generator), the
 * ranks that hold the same experts; the dense state's are world / (tp x
 * pp), context parallelism folded in both. */
int resolve_expert_dp(const struct scenario *sc, int ranks)
{
    int ep = sc->parallel.ep > 1 ? sc->parallel.ep : 1, pp = sc->parallel.pp > 1 ? sc->parallel.pp : 1;
    int n = ranks / (pp * ep * etp_of(sc));

    return n > 1 ? n : 1;
}

double resolve_sharded_params(double held, double xheld, double n, double xn)
{
    xheld = xheld < 0 ? 0 : xheld > held ? held : xheld;
    n = n > 1 ? n : 1;
    xn = xn > 1 ? xn : 1;
    return (held - xheld) / n + xheld / xn;
}

/* Of k experts drawn without replacement from E spread evenly over n
 * holders, the chance that a given holder gets none of them. */
static double none_of(double E, double k, double n)
{
    double miss = 1;

    for (int i = 0; i < k; i++)
        miss *= (E - E / n - i) / (E - i);
    return fmax(miss, 0);
}

/* Of a token's top_k experts, drawn without replacement from E spread
 * evenly over n nodes, the expected number of other nodes it reaches.  Under
 * group-limited routing whose groups fill nodes whole (DeepSeek-V3's 8
 * groups over 8 nodes: a token's experts on at most 4), the token reaches
 * the nodes of its router_group_topk groups, drawn from router_groups. */
static double remote_nodes(const struct cat_model *m, int n)
{
    double E = m->experts, k = m->top_k;

    if (n <= 1)
        return 0;
    if (m->router_groups > 0 && m->router_groups % n == 0) {
        E = m->router_groups;           /* the groups as the experts drawn */
        k = m->router_group_topk;
    }
    return (n - 1) * (1 - none_of(E, k, n));
}

/* Of a token's top_k experts, drawn as remote_nodes draws them, the
 * expected number of the group's ep ranks (E / ep experts each) that hold
 * one or more: the flex dispatchers send a token once to each such rank
 * and the rank fans it out to its experts (DeepEP's is_token_in_rank;
 * HybridEP's receive buffer holds one row per source token a rank,
 * deepseek-ai/DeepEP@94a9f8f6 (branch hybrid-ep) docs/Hybrid-EP_
 * Implementation.md, "Intra-node buffers"), and the combine sums a rank's
 * experts' outputs before sending one row back.  Under group-limited
 * routing whose groups fill ranks whole, the token's experts fall on the
 * ranks of its router_group_topk groups. */
static double ranks_reached(const struct cat_model *m, int ep)
{
    double E = m->experts, r = ep;

    if (ep <= 1)
        return 1;
    if (m->router_groups > 0 && ep % m->router_groups == 0) {
        r = (double)ep / m->router_groups * m->router_group_topk;
        E = (double)m->experts / m->router_groups * m->router_group_topk;
    }
    return r * (1 - none_of(E, m->top_k, r));
}

/*
 * The routed experts' gradients reduce over their expert-data-parallel
 * group (Megatron-Core's DDP buckets them apart, on the expert data-parallel
 * group), not the data-parallel one, and the two groups sit differently on
 * the nodes: a node of W GPUs holds W / tp of a stage's data-parallel ranks
 * (tp apart) but only W / (etp x ep) of an expert group's (etp x ep apart),
 * and a group's ranks on a node cross the network over their own NICs.  At
 * tp 2 and ep 32 on a 64-GPU NVLink domain, 32 data-parallel ranks share a
 * node's 64 NICs where 2 expert-data-parallel ranks have 2 of them.  The
 * simulator times every gradient on the data-parallel group's links
 * (resolve.c reduced_params), so the experts' count there at what their own
 * group's all-reduce takes over what the data-parallel one's would, each as
 * NCCL would run it (nccl_pick) on that group's shape: the ranks a node
 * holds, the nodes they span and those ranks' share of the node's NICs.
 * -1 where either group is not timed so (no NCCL shape, a fixed strategy).
 */
static int ranks_a_node(int stage_gpus, int apart, int group)
{
    int l = apart <= stage_gpus ? stage_gpus / apart : 1;

    return l < group ? l : group;
}

static double allreduce_on(const struct nccl_shape *all, int ppn, int ranks, double bytes)
{
    struct nccl_shape sh = *all;
    struct nccl_model m;
    struct nccl_choice c;
    int w = all->ppn > 0 ? all->ppn : 1;

    if (ranks < 2 || !(bytes > 0))
        return 0;
    sh.ppn = ppn;
    sh.nodes = (ranks + ppn - 1) / ppn;
    sh.net_Bps = all->net_Bps * ppn / w;
    sh.nics = all->nics * ppn / w;
    if (sh.nics < 1)
        sh.nics = 1;
    if (ppn == 1)
        sh.intra_Bps = INFINITY;
    nccl_model_init(&m, &sh, NCCL_ALLREDUCE);
    return nccl_pick(&m, bytes, &c) == 0 ? c.time_s : -1;
}

double resolve_ep_grad_scale(const struct scenario *sc, const struct sim_config *cfg,
                             int strategy, int k, double bytes)
{
    struct nccl_shape all;
    int tp = sc->parallel.tp > 1 ? sc->parallel.tp : 1, pp = sc->parallel.pp > 1 ? sc->parallel.pp : 1;
    int dp = k / (tp * pp), xdp = resolve_expert_dp(sc, k), ex = etp_of(sc) * sc->parallel.ep, stage;
    double td, tx;

    if (sc->parallel.ep <= 1 || strategy != SIM_AUTO || sim_nccl_shape(cfg, &all) != 0)
        return -1;
    /* a stage's GPUs on a node: all of them, or a pp-th where a replica's
     * tp x pp GPUs come together (order tp-pp-dp) */
    stage = sc->parallel.order == SIM_ORDER_TP_PP_DP ? (all.ppn / pp > 0 ? all.ppn / pp : 1)
                                                      : all.ppn;
    td = allreduce_on(&all, ranks_a_node(stage, tp, dp), dp, bytes);
    tx = allreduce_on(&all, ranks_a_node(stage, ex, xdp), xdp, bytes);
    return td > 0 && tx >= 0 ? tx / td : -1;
}

/* The expert-parallel ranks a node of `in` holds of a group (etp apart). */
static int ranks_in_node(const struct scenario *sc, const struct cat_instance *in)
{
    int ep = sc->parallel.ep > 1 ? sc->parallel.ep : 1, etp = etp_of(sc), wpn = in->gpu_count;

    return etp * ep <= wpn ? ep : wpn / etp > 0 ? wpn / etp : 1;
}

int resolve_ep_spans_nodes(const struct scenario *sc, const struct cat_instance *in)
{
    return sc->parallel.ep > 1 && ranks_in_node(sc, in) < sc->parallel.ep;
}

/* A rank's tokens of a micro-batch, a tp-th of them under sequence
 * parallelism; and their bytes, hidden values each. */
static double local_tokens(const struct scenario *sc)
{
    int tp = sc->parallel.tp > 1 ? sc->parallel.tp : 1;

    return scenario_rank_tokens(sc) * sc->parallel.micro_batch /
           (sc->parallel.sequence_parallel ? tp : 1);
}

static double local_bytes(const struct scenario *sc)
{
    return local_tokens(sc) * sc->workload.model->hidden * resolve_act_width(sc);
}

/* One copy of them as a rank sends or receives it, the busiest rank imb
 * times an even share. */
static double token_bytes(const struct scenario *sc)
{
    return local_bytes(sc) * scenario_moe_imbalance(sc);
}

static int allgather(const struct scenario *sc)
{
    return sc->parallel.ep_dispatch == SC_EP_ALLGATHER;
}

/* Whether NCCL's collectives move the tokens (alltoall, allgather), not a
 * flex dispatcher's kernels. */
static int by_nccl(const struct scenario *sc)
{
    return sc->parallel.ep_dispatch == SC_EP_ALLTOALL || allgather(sc);
}

double resolve_ep_gathered_bytes(const struct scenario *sc)
{
    const struct cat_model *m = sc->workload.model;

    if (!allgather(sc) || sc->parallel.ep <= 1 || !shape_known(m) || m->experts <= 0)
        return 0;
    return local_bytes(sc) * etp_of(sc) * sc->parallel.ep;
}

/* One MoE layer's all-to-all (a dispatch or a combine) of one micro-batch:
 * the bytes a GPU of `in` sends over NVLink (*nvl) and to other nodes
 * (*net). */
static void alltoall_bytes(const struct scenario *sc, const struct cat_instance *in, double *nvl,
                           double *net)
{
    const struct cat_model *m = sc->workload.model;
    int ep = sc->parallel.ep, in_node = ranks_in_node(sc, in), n = etp_of(sc) * ep;
    double token = token_bytes(sc), bytes = token * m->top_k;   /* top_k copies of each */

    if (allgather(sc)) {
        /* a ring over the group's n ranks (etp x ep, in_node x etp of
         * them a node): every other rank's tokens pass each rank over
         * NVLink, and a node takes in the chunks of the group's other
         * nodes once, over its ranks' NICs */
        double chunk = local_bytes(sc), here = (double)in_node * etp_of(sc);
        *nvl = chunk * (n - 1);
        *net = in_node < ep ? chunk * (n - here) / here : 0;
    } else if (sc->parallel.ep_dispatch == SC_EP_ALLTOALL) {
        /* (ep - 1) / ep of the copies to other ranks, by where they sit */
        *nvl = bytes * (in_node - 1.0) / ep;
        *net = bytes * (double)(ep - in_node) / ep;
    } else if (in_node >= ep) {
        /* a token once to each other rank of its experts */
        *nvl = token * ranks_reached(m, ep) * (ep - 1.0) / ep;
        *net = 0;
    } else {
        /* a token once to each other node of its experts; there, and for
         * this node's own, once to each rank of its experts over NVLink */
        *nvl = token * ranks_reached(m, ep) * (in_node - 1.0) / in_node;
        *net = token * remote_nodes(m, ep / in_node);
    }
}

/*
 * HybridEP's registered buffers, which it allocates once for the largest
 * case, every rank's tokens routed to one rank (deepseek-ai/DeepEP@94a9f8f6,
 * branch hybrid-ep, docs/Hybrid-EP_Implementation.md section 4.2): the
 * intra-node token buffer of T x ep tokens of `hidden` 16-bit values (T a
 * rank's tokens of a micro-batch, Megatron-Core's first dispatch's input:
 * fused_a2a.py init_hybrid_ep_buffer; its fp8 dispatch is off) and their
 * fp32 probabilities over the node's experts (a rank's experts times the
 * group's ranks a node), and across nodes the RDMA buffers of T tokens from
 * each other node, each capped at 1 GB; one set for dispatch and combine
 * (use_shared_buffer, the default).  DeepSeek-V3 at ep 64 over one rack's
 * NVLink, 4,096 tokens a rank: 3.5 GB of tokens and 0.26 GB of
 * probabilities.  They come from its own allocator (registered for IPC,
 * multi-node NVLink and RDMA), outside PyTorch's.
 */
#define HYBRIDEP_RDMA_CAP 1e9

/*
 * DeepEP's normal kernels' buffers (deepseek-ai/DeepEP@dd758ca csrc/legacy/
 * config.hpp, get_nvl_buffer_size_hint and get_rdma_buffer_size_hint, with
 * the dispatch and combine configs deep_ep/buffers/legacy.py recommends for
 * the group's size, the larger of the two; Megatron-Core's fused_a2a.py
 * get_buffer, 16-bit hidden values, its SMs 20 unless parallel.ep_sms says):
 * each of num_sms / 2 channels holds, for each of the group's ranks in a
 * node (8 at most) and each node, a ring of received tokens of `hidden`
 * 16-bit values with their source metadata (8 bytes), 128 top-k indices (8
 * bytes each), 128 weights and 128 scales (4 bytes each); across nodes its
 * RDMA rings hold twice that a token (send and receive) and an int4 more.
 * cudaMalloc'd and NVSHMEM's, outside PyTorch's allocator.  DeepSeek-V3 at
 * ep 64 (8 nodes): 0.38 GB over NVLink and 0.34 GB for RDMA.
 */
#define DEEPEP_NCFG 12
static const int deepep_ranks[DEEPEP_NCFG] = {2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 144, 160};
/* the dispatch and combine configs' NVLink receive tokens and RDMA send
 * tokens (their RDMA receive tokens all 128) */
static const int deepep_nvl_recv[DEEPEP_NCFG] = {256, 256, 256, 288, 288, 288, 288, 288, 480,
                                                 560, 720, 720};
static const int deepep_rdma_send[2][DEEPEP_NCFG] = {
    {6, 6, 6, 20, 8, 8, 8, 8, 12, 12, 12, 12},     /* dispatch */
    {6, 6, 6, 12, 8, 8, 8, 8, 8, 8, 8, 8}};        /* combine */
#define DEEPEP_MAX_NVL_PEERS 8
#define DEEPEP_SMS 20

static double deepep_bytes(const struct scenario *sc, double h)
{
    int ep = sc->parallel.ep, i = 0;
    int sms = sc->parallel.ep_sms > 0 ? sc->parallel.ep_sms : DEEPEP_SMS;
    int ch = sms / 2, nvl = ep < DEEPEP_MAX_NVL_PEERS ? ep : DEEPEP_MAX_NVL_PEERS;
    int rdma = ep / DEEPEP_MAX_NVL_PEERS > 1 ? ep / DEEPEP_MAX_NVL_PEERS : 1;
    double token = 2 * h + 8 + 128 * 8 + 128 * 4 + 128 * 4, bytes, recv = 0;

    while (i < DEEPEP_NCFG - 1 && deepep_ranks[i] < ep)  /* the group's size, or the next */
        i++;
    bytes = (double)ch * nvl * (2 * rdma + 3) * 4 + (double)ch * nvl * deepep_nvl_recv[i] * token;
    if (ep > DEEPEP_MAX_NVL_PEERS) {
        for (int k = 0; k < 2; k++) {       /* 128 rounded up to a multiple of the sends */
            int s = deepep_rdma_send[k][i];
            recv = fmax(recv, ceil(128.0 / s) * s);
        }
        bytes += (double)ch * rdma * (DEEPEP_MAX_NVL_PEERS * 2 + 2) * 2 * 4 +
                 (double)ch * rdma * recv * (2 * token + 16 * 2);
    }
    return bytes;
}

double resolve_ep_registered_bytes(const struct scenario *sc, const struct cat_instance *in)
{
    const struct cat_model *m = sc->workload.model;
    int ep = sc->parallel.ep, r, nodes;
    double T, h, probs;

    if (ep <= 1 || !shape_known(m) || m->experts <= 0 || in->gpu_count < 1)
        return 0;
    if (sc->parallel.ep_dispatch == SC_EP_DEEPEP)
        return deepep_bytes(sc, m->hidden);
    if (sc->parallel.ep_dispatch != SC_EP_HYBRIDEP)
        return 0;
    r = ranks_in_node(sc, in);
    nodes = ep / r > 1 ? ep / r : 1;
    h = m->hidden;
    T = local_tokens(sc);
    probs = (double)m->experts / ep * r * 4;            /* fp32 over the node's experts */
    return T * ep * (h * 2 + probs) +
           (nodes > 1 ? fmin(HYBRIDEP_RDMA_CAP, T * (nodes - 1) * h * 2) +
                            fmin(HYBRIDEP_RDMA_CAP, T * (nodes - 1) * probs)
                      : 0);
}

/* The all-to-all figures of g's network (nccl_a2a.c, catalog/fabric.c
 * a2a_*) that the dispatcher pays: NCCL's all-to-all (ep_dispatch
 * alltoall) its share of the NICs and its cost beyond the bytes; the flex
 * dispatcher's own transport has no published figure, and the allgather
 * dispatcher's rings are not all-to-alls: none. */
static const struct nccl_a2a_net *a2a_net(const struct scenario *sc, const struct sim_group *g)
{
    static const struct nccl_a2a_net none = {0, 0, 0};

    return sc->parallel.ep_dispatch == SC_EP_ALLTOALL ? &g->net_a2a : &none;
}

/* That cost for one all-to-all of the group: a call, and each of its ranks
 * in another node. */
static double a2a_over_s(const struct scenario *sc, const struct cat_instance *in,
                         const struct sim_group *g)
{
    int ep = sc->parallel.ep, in_node = ranks_in_node(sc, in);

    return in_node < ep ? nccl_a2a_over_s(a2a_net(sc, g), ep - in_node) : 0;
}

/*
 * The flex dispatchers' kernels over NVLink, as a share of the rate NCCL's
 * all-to-all gets there (the link's effective rate, nccl_link_eff, times
 * its run rate, nccl_link_run: 666 GB/s a GB200, 371 an H100), between
 * `peers` ranks of one NVLink domain: NVIDIA's kernel-only benchmarks, each
 * figure an "algorithm bandwidth" (the bytes a rank receives, a token once
 * a rank reached, over the kernel's time; deepseek-ai/DeepEP@94a9f8f6,
 * branch hybrid-ep, tests/test_hybrid_ep.py) taken as (peers - 1) / peers
 * of it sent to the others, a dispatch's and a combine's harmonic mean.
 * HybridEP on Blackwell: its GB200 table at 32 SMs, the Megatron-Bridge
 * recipes' (docs/README_Hybrid-EP.md, "GB200 Platform", 4,096 tokens of
 * 7,168 a rank, top 8, uniform routing: 8 ranks 764.03 and 737.13 GB/s, 16
 * 706.95 and 666.26, 24 665.97 and 639.80, 32 642.23 and 605.15, 36 632.31
 * and 596.99; held past 36); its B200 node at 16 SMs gives 0.923.  On
 * Hopper: NVIDIA's DeepSeek-V3 guide's figure of an H100 node at 16 blocks,
 * 368.9 and 368.87 GB/s (NVIDIA/Megatron-LM@402bc50 docs/discussions/
 * deepseek-v3-gb200-optimization, image6.png): 0.871.  DeepEP's normal
 * kernels within 8 ranks: its README's H800 node (deepseek-ai/DeepEP@
 * 94a9f8f6 README.md: EP 8, 153 and 158 GB/s, against dtplan's 165 for an
 * H800): 0.825.  Past 8 ranks, over a rack's multi-node NVLink that DeepEP
 * reaches through a community port, HybridEP's share times the ratio of
 * the two dispatchers' times through torch's API on the same rack and
 * harness at 24 SMs (README_Hybrid-EP.md's DeepEP table: 8 ranks 512.72 and
 * 425.95 GB/s against HybridEP's 545.71 and 568.94, 16 442.47 and 378.32
 * against 523.48 and 521.55, 24 450.22 and 163.62 against 507.32 and
 * 483.76) and at 32 the guide's (section 2.2.1: "about 400 GB/s" and "about
 * 190 GB/s" with 24 SMs at EP32, against 484.22 and 464.54): its combine
 * falls to a third past 16 ranks.  Neither measured xGMI: AMD's GPUs, and
 * NCCL's all-to-all, take 1.
 */
#define NSHARE 5
static const double share_peers[NSHARE] = {8, 16, 24, 32, 36};
static const double hybridep_bw[NSHARE] = {0.985, 0.965, 0.939, 0.906, 0.896};
static const double deepep_ratio[NSHARE] = {0.835, 0.781, 0.485, 0.543, 0.543};
#define HYBRIDEP_HOPPER 0.871
#define DEEPEP_NODE 0.825

static double at_peers(const double *row, double n)
{
    return interp_held(share_peers, row, NSHARE, n, 0);
}

double resolve_ep_nvl_share(const struct scenario *sc, const struct cat_instance *in)
{
    const struct cat_gpu *gpu = in->gpu;
    double n = ranks_in_node(sc, in), hyb;

    if (by_nccl(sc) || !gpu || gpu->cdna > 0)
        return 1;
    hyb = cat_cc_blackwell(gpu->cc) ? at_peers(hybridep_bw, n) : HYBRIDEP_HOPPER;
    if (sc->parallel.ep_dispatch == SC_EP_HYBRIDEP)
        return hyb;
    return n <= share_peers[0] ? DEEPEP_NODE : hyb * at_peers(deepep_ratio, n);
}

/* The dispatcher's NVLink rate over g's link rate: NCCL's run rate times
 * its kernels' share of it. */
static double nvl_run(const struct scenario *sc, const struct cat_instance *in,
                      const struct sim_group *g)
{
    return nccl_link_run(g->gpu_cc) * resolve_ep_nvl_share(sc, in);
}

/* ... its time on a GPU of `in` with g's links, s: the slower of its NVLink
 * share and its NIC share (every GPU of the node sends at once). */
static double alltoall_s(const struct scenario *sc, const struct cat_instance *in,
                         const struct sim_group *g)
{
    int wpn = in->gpu_count, in_node = ranks_in_node(sc, in);
    double nvl, net;

    alltoall_bytes(sc, in, &nvl, &net);
    return nccl_a2a_s(g->intra_Bps * nvl_run(sc, in, g),
                      in_node < sc->parallel.ep ? g->nic_Bps / wpn * nccl_a2a_share(a2a_net(sc, g)) : 0,
                      nvl, net, a2a_over_s(sc, in, g));
}

double resolve_ep_alltoall_s(const struct scenario *sc, const struct cat_instance *in,
                             const struct sim_group *g)
{
    const struct cat_model *m = sc->workload.model;

    if (sc->parallel.ep <= 1 || !shape_known(m) || m->experts <= 0 || in->gpu_count < 1)
        return 0;
    return alltoall_s(sc, in, g);
}

/*
 * Expert tensor parallelism of etp > 1 (tp's by default): after the
 * dispatch each rank gathers, over its etp ranks, the tokens they received
 * for the experts they share, and before the combine reduce-scatters the
 * experts' outputs back (Megatron-Core's alltoall dispatcher:
 * gather_from_sequence_parallel_region after the all-to-all,
 * reduce_scatter_to_sequence_parallel_region before it;
 * NVIDIA/Megatron-LM@2e2bdf62 megatron/core/transformer/moe/
 * token_dispatcher.py, and the expert tensor-parallel group since parallel
 * folding).  The gathered tensor is etp ranks' received copies, top_k of
 * each of a rank's tokens (a tp-th of them under sequence parallelism),
 * hidden 16-bit values each; a ring moves (etp - 1) / etp of it a rank,
 * over NVLink where the etp ranks share a node, else the GPU's share of
 * its NICs.  These run on the compute stream beside the all-to-alls, not
 * under the tensor-parallel overlap's products.  One such collective of one
 * micro-batch, s; 0 at etp 1.
 */
double resolve_ep_etp_gather_s(const struct scenario *sc, const struct cat_instance *in,
                               const struct sim_group *g)
{
    const struct cat_model *m = sc->workload.model;
    int etp = etp_of(sc);
    double bytes, bw;

    if (etp <= 1 || sc->parallel.ep <= 1 || !shape_known(m) || m->experts <= 0 ||
        in->gpu_count < 1 || allgather(sc))
        return 0;
    bytes = etp * token_bytes(sc) * m->top_k;
    bw = etp <= in->gpu_count && g->intra_Bps > 0 ? g->intra_Bps : g->nic_Bps / in->gpu_count;
    return bw > 0 ? bytes * (etp - 1.0) / etp / bw : 0;
}

/* The all-to-alls a MoE layer's forward and backward run (*nf, *nb), in
 * units of one 16-bit all-to-all of a micro-batch: the forward dispatch in
 * fp8 (a byte a value and an fp32 scale a 128) counts its share where the
 * run's tokens would go at 16 bits (its backward and the combines stay
 * 16-bit); dispatch and combine forward, their gradients backward, and the
 * forward's again under full recompute (for the share of the layers that
 * recompute, or the moe module's).  Each brings one etp gather or
 * reduce-scatter (*gf, *gb of them). */
static void counts_of(const struct scenario *sc, double *nf, double *nb, double *gf, double *gb)
{
    double disp = sc->parallel.ep_fp8_dispatch ? (1 + 4.0 / 128) / resolve_act_width(sc) : 1;
    double redo = sc->workload.recompute_modules & (1u << OPS_MOD_MOE)
                      ? 1 : scenario_recompute_share(sc);

    *nf = disp + 1;
    *nb = 2 + redo * (disp + 1);
    *gf = 2;
    *gb = 2 + redo * 2;
}

/* A micro-batch's waits over the MoE layers, forward and backward, for one
 * all-to-all of a2a s and one etp gather of gath s. */
static void waits_of(const struct scenario *sc, double a2a, double gath, double *fwd_s,
                     double *bwd_s)
{
    double layers = shape_moe_layers(sc->workload.model), nf, nb, gf, gb;

    counts_of(sc, &nf, &nb, &gf, &gb);
    *fwd_s = layers * (nf * a2a + gf * gath);
    *bwd_s = layers * (nb * a2a + gb * gath);
}

void resolve_ep_waits(const struct scenario *sc, const struct cat_instance *in,
                      const struct sim_group *g, double *fwd_s, double *bwd_s)
{
    waits_of(sc, resolve_ep_alltoall_s(sc, in, g), resolve_ep_etp_gather_s(sc, in, g), fwd_s,
             bwd_s);
}

/* DualPipe pairs every forward chunk with a backward chunk, each's
 * all-to-alls under the other's compute (arXiv:2412.19437 section 3.2.1),
 * parallel.ep_overlap or not, and the report says they are "fully hidden":
 * so all of the shorter of the two (DUALPIPE_HIDDEN 1), not Megatron-Core's
 * measured share.  The report's own run then comes within 3% (19.9 s a step
 * published); at RESOLVE_EP_HIDDEN it was 27% slow.  (Before the
 * multi-token-prediction module, the recipes' layouts and the experts'
 * casts, all of it had put that run 23% fast, which is why the measured
 * share stood in.) */
#define DUALPIPE_HIDDEN 1.0
static int dualpipe(const struct scenario *sc)
{
    return sc->parallel.pp_schedule == SC_PP_DUALPIPE && sc->parallel.pp > 1;
}

double resolve_ep_hidden(const struct scenario *sc)
{
    return dualpipe(sc) ? DUALPIPE_HIDDEN : sc->parallel.ep_overlap ? RESOLVE_EP_HIDDEN : 0;
}

double resolve_ep_exposed(const struct scenario *sc, double wait_s, double compute_s, int n)
{
    double h = resolve_ep_hidden(sc);

    if (!(h > 0) || n < 1)
        return n * wait_s;
    /* the first micro-batch alone; each other one's beside another's
     * compute, h of the shorter of the two hidden */
    return wait_s + (n - 1) * (wait_s - h * fmin(wait_s, compute_s));
}

/*
 * Under overlap the dispatchers' kernels hold SMs of their own while the
 * other micro-batch computes: DeepEP's and HybridEP's 20 (Megatron-Core's
 * moe_deepep_num_sms, "historical default 20", megatron/core/transformer/
 * transformer_config.py), NCCL's all-to-all as many blocks as its ring's
 * (interfere.c: 24 on an H100 node), or parallel.ep_sms where a run sets
 * them (Megatron-Core's moe_flex_dispatcher_num_sms; Megatron-Bridge's perf
 * recipes give HybridEP 32 in every run, NVIDIA-NeMo/Megatron-Bridge@
 * 4ab94dfad src/megatron/bridge/perf_recipes/_common.py _benchmark_common,
 * and at 21d102f5e scripts/performance/utils/overrides.py).  The compute
 * beside them runs on the rest: SMs / (SMs - blocks) times slower, for the
 * share of it the all-to-alls cover.  The seconds a micro-batch's compute c
 * gains so.  A lent H200 measured the factor with a kernel holding 8 to 66
 * SMs beside 16-bit products, causal attention and a cast to fp8
 * (validate/sm_share.py, results/gpu-profiles/h200-sm-share.jsonl and -2):
 * from 20 SMs up the slowdowns are the factor's within 10% (15% in the
 * repeat, whose baseline moved 3% to 15%), their mean within 1.2%; below 20
 * the products slow more (1.12 to 1.28 at 8), a copy kernel not at all.
 */
#define EP_FLEX_SMS 20
#define EP_NCCL_SMS 24

double resolve_ep_sm_factor(int sms, int held)
{
    return sms > held && held > 0 ? (double)sms / (sms - held) : 1;
}

int resolve_ep_sms_held(const struct scenario *sc)
{
    return sc->parallel.ep_sms > 0 ? sc->parallel.ep_sms
           : by_nccl(sc) ? EP_NCCL_SMS : EP_FLEX_SMS;
}

static double overlap_cost_s(const struct scenario *sc, const struct cat_instance *in, double w,
                             double c)
{
    int sms = in->gpu ? in->gpu->sm_count : 0, held = resolve_ep_sms_held(sc);

    if ((!sc->parallel.ep_overlap && !dualpipe(sc)) || sms <= held || !(c > 0))
        return 0;
    return c * fmin(1, w / c) * (resolve_ep_sm_factor(sms, held) - 1);
}

/*
 * The all-to-alls into the simulator.  Without a pipeline they run there as
 * flows (sim/ep.c) on the links and NICs the data-parallel reductions and
 * gathers share: one all-to-all's bytes a GPU, how many a layer's forward
 * and backward run (the MoE layers' share of the layers), and the share of
 * their time alone waited for (the overlap's exposure: resolve_ep_exposed's
 * over all of them).  In a pipeline each stage runs alone (sim/pp.c): they
 * are waits in the MoE layers, exposed as here, and ep_wait_s says how much
 * of those waits they are.  The etp gathers stay waits either way.
 */
void resolve_ep(const struct scenario *sc, const struct sc_cluster *cl, struct sim_config *cfg)
{
    const struct cat_model *m = sc->workload.model;
    int n = sc->workload.grad_accum > 0 ? sc->workload.grad_accum : 1, flows = sc->parallel.pp <= 1;
    double layers = shape_moe_layers(m), units = cfg->c.units > 0 ? cfg->c.units : m->layers;
    double nf, nb, gf, gb;

    if (sc->parallel.ep <= 1)
        return;
    counts_of(sc, &nf, &nb, &gf, &gb);
    for (int i = 0; i < cl->ngroups && i < cfg->ngroups; i++) {
        const struct cat_instance *in = cl->groups[i].inst;
        struct sim_group *g = &cfg->groups[i];
        double wf, wb, c, x, slow, e, a2a, gath;
        if (cl->groups[i].role != SIM_TRAIN)
            continue;
        a2a = resolve_ep_alltoall_s(sc, in, g);
        gath = resolve_ep_etp_gather_s(sc, in, g);
        waits_of(sc, a2a, gath, &wf, &wb);
        a2a *= layers * (nf + nb);          /* their parts of wf + wb */
        gath *= layers * (gf + gb);
        c = (g->fwd_s + g->bwd_s) / n;
        slow = overlap_cost_s(sc, in, wf + wb, c);
        x = resolve_ep_exposed(sc, wf + wb, c + slow, n);
        if (c > 0) {        /* the compute beside the overlap, slower in proportion */
            g->ep_sm_slow_s = (g->fwd_s + g->bwd_s) * slow / c;
            g->ep_sms_held = slow > 0 ? resolve_ep_sms_held(sc) : 0;
            g->fwd_s *= 1 + slow / c;
            g->bwd_s *= 1 + slow / c;
            g->layer_wait_s *= 1 + slow / c;
            g->moe_wait_s *= 1 + slow / c;
        }
        if (!(wf + wb > 0))
            continue;
        e = fmin(1, x / (n * (wf + wb)));   /* the share of them waited for */
        /* the exposed gathers (and, in a pipeline, all-to-alls) as waits,
         * shared between forward and backward as the gathers are */
        double w = n * e * (flows ? gath : wf + wb);
        double fw = flows ? (gf + gb > 0 ? gf / (gf + gb) : 0) : wf / (wf + wb);
        g->fwd_s += w * fw;
        g->bwd_s += w * (1 - fw);
        g->moe_wait_s += w;
        g->ep_gather_wait_s = n * e * gath;
        if (!flows) {
            g->ep_wait_s = n * e * a2a;
            continue;
        }
        g->ep_flow_s = n * e * a2a;
        if (cfg->c.ep == 0 && e > 0 && a2a > 0 && units > 0) {
            alltoall_bytes(sc, in, &cfg->c.ep_nvl_bytes, &cfg->c.ep_net_bytes);
            /* the flows hold the NICs as long as the share makes them, and
             * start after the call's overhead */
            cfg->c.ep_net_bytes /= nccl_a2a_share(a2a_net(sc, g));
            cfg->c.ep_nvl_bytes /= nvl_run(sc, in, g);     /* the dispatcher's rate */
            cfg->c.ep_net_lat_s = a2a_over_s(sc, in, g);
            cfg->c.ep = sc->parallel.ep;
            cfg->c.ep_fwd = layers / units * nf;
            cfg->c.ep_bwd = layers / units * nb;
            cfg->c.ep_exposed = e;
            cfg->c.ep_overlap = resolve_ep_hidden(sc) > 0;
        }
    }
}
