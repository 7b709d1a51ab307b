/*
 * assume.c - what a cluster's prediction assumed where the catalog or the
 * scenario is silent (planner.h plan_assumptions; docs/output.md
 * "Assumed:"), so that no gap is filled without a word: a GPU link the
 * catalog does not describe (simulated as PCIe), NICs not counted (one
 * assumed), a GPU's efficiency not published (the median of the others), a
 * processor's speed not known where the input pipeline costs something, a
 * mixture of experts' host launches taken as hidden, a GPU of unknown SM count
 * losing nothing to the dispatcher's held SMs, checkpoints on the nodes'
 * own disks taken to survive a node's loss, units of a wider NVLink domain
 * joined into its nodes (resolve_domain_nodes), a fabric whose switches
 * reduce (CollNet's mid sizes not validated), and scenario fields that
 * change nothing (input.raw_bytes).  O(groups).
 */
#include "planner.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "goodput.h"
#include "resolve.h"

/* Append one assumption, unless it is there already. */
static void add(struct plan_cluster *pc, const char *text)
{
    if (pc->nassumed >= PLAN_MAX_ASSUMED)
        return;
    for (int i = 0; i < pc->nassumed; i++)
        if (strcmp(pc->assumed[i], text) == 0)
            return;
    snprintf(pc->assumed[pc->nassumed++], sizeof pc->assumed[0], "%s", text);
}

void plan_assumptions(const struct scenario *sc, struct plan_cluster *pc)
{
    const struct sc_cluster *cl = pc->cl;
    char b[sizeof pc->assumed[0]];
    int nodes = 0;

    pc->nassumed = 0;
    for (int i = 0; i < cl->ngroups; i++)
        nodes += cl->groups[i].count;
    for (int i = 0; i < cl->ngroups; i++) {
        const struct sc_group *g = &cl->groups[i];
        const struct cat_instance *in = g->inst;
        const struct sim_group *sg = &pc->cfg.groups[i];
        if (g->role == SIM_TRAIN && in->gpu_count > 1 &&
            (!in->intra_link_text || !in->intra_link_text[0])) {
            snprintf(b, sizeof b, "%s: intra_node_link unknown in the catalog: its GPUs assumed "
                     "to reach each other over PCIe, %.0f GB/s a GPU", in->name,
                     sg->intra_Bps / 1e9);
            add(pc, b);
        }
        if (g->role == SIM_TRAIN && in->gpu_count > 0 && in->nics < 0 && nodes > 1) {
            snprintf(b, sizeof b, "%s: NICs a node unknown in the catalog: one assumed (NCCL's "
                     "channels across nodes)", in->name);
            add(pc, b);
        }
        int k = g->role == SIM_TRAIN ? catalog_domain_units(in, g->count) : 1;
        if (k > 1) {
            snprintf(b, sizeof b, "%s: the %d share NVLink domains of %d GPUs (nvlink_domain): "
                     "simulated as %d node%s of %d GPUs over NVLink (%d of them each), as NCCL's "
                     "multi-node NVLink joins them", in->name, g->count, in->nvlink_domain,
                     g->count / k, g->count / k > 1 ? "s" : "", k * in->gpu_count, k);
            add(pc, b);
        }
        if (g->role == SIM_TRAIN && in->gpu && !(in->gpu->mm_eff > 0)) {
            snprintf(b, sizeof b, "%s: the matmul efficiency of its %s is not published: the "
                     "median of the GPUs that have one assumed", in->name, in->gpu->name);
            add(pc, b);
        }
        {
            int shared;
            const struct prof_measured *m = resolve_profile_cpu_of(sc, in, &shared);
            if (m && shared) {
                snprintf(b, sizeof b, "%.64s: vCPU speed from the profile of %.64s (the same "
                         "processor, %.40s)", in->name, m->instance, in->cpu_model);
                add(pc, b);
            }
        }
        if (g->role == SIM_TRAIN && in->gpu && !(in->gpu->sm_count > 0) && sc->parallel.ep > 1 &&
            (sc->parallel.ep_overlap ||
             (sc->parallel.pp_schedule == SC_PP_DUALPIPE && sc->parallel.pp > 1))) {
            snprintf(b, sizeof b, "%s: its %s's SM count is unknown in the catalog: the compute "
                     "beside the overlapped all-to-alls taken as losing nothing to the %d SMs "
                     "the dispatcher holds (parallel.ep_sms)", in->name, in->gpu->name,
                     resolve_ep_sms_held(sc));
            add(pc, b);
        }
        if (g->role == SIM_TRAIN && in->fabric && in->fabric->collnet && nodes > 1) {
            snprintf(b, sizeof b, "%.40s: the switches reduce (%.16s): NCCL's CollNet timed by "
                     "its model at %.2f of the NICs' rate, validated from 512 MiB up only; "
                     "the 3.5 ms a call that CollNetDirect's published times fit not charged "
                     "(docs/collectives.md \"In-network reduction (SHARP)\")",
                     in->name, in->fabric->name, in->fabric->collnet_eff);
            add(pc, b);
        }
        if (isnan(in->cpu_speed) && isnan(in->cpu_ghz) && sc->input.cpu_s_per_sample > 0) {
            snprintf(b, sizeof b, "%s: processor clock unknown in the catalog: its vCPUs "
                     "assumed as fast as the reference core", in->name);
            add(pc, b);
        }
    }
    if (sc->workload.model && sc->workload.model->experts > 0) {
        double floor_s = resolve_host_moe_pass_s(sc);      /* the one rule of the floor */
        int graphs = sc->workload.cuda_graphs;
        if (graphs != SC_GRAPHS_FULL && !isnan(sc->workload.moe_host_pass_s))
            snprintf(b, sizeof b, "mixture of experts %s CUDA graphs: each MoE layer's "
                     "pass takes at least the %.3g ms the scenario gives the host to issue it "
                     "(workload.moe_host_pass_s; docs/model.md \"The host's launches\")",
                     graphs == SC_GRAPHS_NONE ? "without" : "under scoped", floor_s * 1e3);
        else if (graphs == SC_GRAPHS_NONE)
            snprintf(b, sizeof b, "mixture of experts without CUDA graphs (workload.cuda_graphs "
                     "none): each MoE layer's pass takes at least the %.1f ms the host takes to "
                     "issue it, as Megatron-Core's eager dispatcher waits for the GPU once a "
                     "layer (docs/model.md \"The host's launches\")", floor_s * 1e3);
        else if (graphs == SC_GRAPHS_PARTIAL)
            snprintf(b, sizeof b, "mixture of experts under scoped CUDA graphs (workload."
                     "cuda_graphs partial): no host floor taken on a MoE layer's pass; it binds "
                     "at small micro-batches with many local experts (Megatron-Bridge 26.02's "
                     "Qwen3-30B on B200: 8.8 ms a pass at micro-batch 1): set "
                     "workload.moe_host_pass_s (docs/model.md \"The host's launches\")");
        else
            snprintf(b, sizeof b, "mixture of experts: the host's kernel launches hidden, as "
                     "full-iteration CUDA graphs hide them (workload.cuda_graphs full; "
                     "Megatron-Bridge 26.08's Qwen3 and DeepSeek-V3 runs: within 12%%); eager "
                     "runs are slower: say cuda_graphs: none (docs/model.md \"The host's "
                     "launches\")");
        add(pc, b);
    }
    if (sc->workload.lora_rank > 0) {
        double t = resolve_lora_params(sc), all = sc->workload.model->params;
        snprintf(b, sizeof b, "LoRA at rank %d: %.3g of %.3g parameters trained (the adapters; "
                 "their gradients, reduction and optimizer state), the frozen weights computing "
                 "their inputs' gradients only; the adapters' input dropout not counted "
                 "(docs/model.md \"LoRA fine-tuning\")", sc->workload.lora_rank, t, all);
        add(pc, b);
    }
    if (sc->goodput.present && goodput_store_local(&sc->goodput)) {
        snprintf(b, sizeof b, "goodput: checkpoints on %.40s, the nodes' own disks: a restart "
                 "after a node is lost (a failure, a preemption) taken to find that node's "
                 "share, copied to a peer or to durable storage beside training; without such "
                 "a copy the checkpoint is lost with the node", sc->goodput.storage->name);
        add(pc, b);
    }
    if (sc->input.raw_bytes > 0)
        add(pc, "input.raw_bytes: not modelled (storage reads are not simulated), so it changes "
            "nothing");
}
