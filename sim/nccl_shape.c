/*
 * nccl_shape.c - NCCL's view of a config (sim.h, struct nccl_shape): the
 * shape of its train groups as NCCL's cost model takes it, and the shapes
 * of the groups that parallel dimensions leave (one node under HYBRID
 * sharding, one rank a node across; a tensor-parallel group and the
 * data-parallel group at one of its positions).
 */
#include "nccl.h"
#include "sim.h"

#include <math.h>
#include <string.h>

int sim_nccl_shape(const struct sim_config *cfg, struct nccl_shape *sh)
{
    int found = 0, ntrain = 0;

    memset(sh, 0, sizeof *sh);
    sh->ppn = 1;
    sh->link = NCCL_LINK_NVSWITCH;
    for (int i = 0; i < cfg->ngroups; i++) {
        const struct sim_group *g = &cfg->groups[i];
        int wpn = sim_workers_per_node(g), nics = g->nics > 0 ? g->nics : 1;
        enum nccl_link l = g->link == SIM_LINK_NVSWITCH ? NCCL_LINK_NVSWITCH
                           : g->link == SIM_LINK_NVLINK ? NCCL_LINK_NVLINK : NCCL_LINK_PCI;
        if (g->role != SIM_TRAIN)
            continue;
        sh->nodes += g->count;
        if (wpn > sh->ppn)
            sh->ppn = wpn;
        if (g->gpus > sh->node_gpus)
            sh->node_gpus = g->gpus;
        if (g->gpus > 0 && (!found || (g->gpu_cc > 0 && (sh->cc == 0 || g->gpu_cc < sh->cc))))
            sh->cc = g->gpu_cc;
        if (g->gpus > 0 && g->gpu_cdna > 0)
            sh->rccl = g->gpu_cdna;     /* AMD's GPUs run RCCL (rccl.c) */
        if (g->gpus > 1 && l < sh->link)
            sh->link = l;
        if (g->gpus > 1 && (sh->intra_Bps == 0 || g->intra_Bps < sh->intra_Bps))
            sh->intra_Bps = g->intra_Bps;
        if (g->nic_Bps > 0 && (sh->net_Bps == 0 || g->nic_Bps < sh->net_Bps))
            sh->net_Bps = g->nic_Bps;
        if (sh->nics == 0 || nics < sh->nics)
            sh->nics = nics;
        sh->amd_cpu |= g->cpu_amd;
        /* the fabric: the most restrictive of the groups' */
        if (g->net_plugin_lat_s > sh->net_lat_s)
            sh->net_lat_s = g->net_plugin_lat_s;
        if (g->net_hop_s > sh->net_hop_s) {
            sh->net_hop_s = g->net_hop_s;
            sh->net_simple_s = g->net_simple_s;
        }
        for (int q = 0; q < 2; q++)
            if (g->net_step_s[q] > sh->net_step_s[q])
                sh->net_step_s[q] = g->net_step_s[q];
        nccl_a2a_merge(&sh->a2a, &g->net_a2a);
        if (g->net_protos)
            sh->protos = sh->protos ? sh->protos & g->net_protos : g->net_protos;
        sh->ring_only |= g->net_ring_only;
        /* in-network reduction only where every train group's network has it, at the
         * least share of theirs */
        sh->collnet = ntrain == 0 ? g->net_collnet : sh->collnet && g->net_collnet;
        if (sh->collnet && (ntrain == 0 || g->net_collnet_eff < sh->collnet_eff))
            sh->collnet_eff = g->net_collnet_eff;
        /* a tuner only where every train group's plugin has it */
        sh->tuner = ntrain++ == 0 || sh->tuner == g->net_tuner ? g->net_tuner : 0;
        if (g->net_buff_bytes > 0) {
            sh->buff_bytes = g->net_buff_bytes;
            sh->nvls_chunk_bytes = g->net_nvls_chunk_bytes;
            sh->nvls_tree_max_bytes = g->net_nvls_tree_max_bytes;
        }
        if (g->coll_beta_s > 0 && g->coll_nodes > 0 && g->coll_ranks % g->coll_nodes == 0) {
            sh->meas_alpha_s = g->coll_alpha_s;
            sh->meas_beta_s = g->coll_beta_s;
            sh->meas_nodes = g->coll_nodes;
            sh->meas_ppn = g->coll_ranks / g->coll_nodes;
        }
        found |= g->gpus > 0;
    }
    if (sh->ppn == 1)
        sh->intra_Bps = sh->intra_Bps > 0 ? sh->intra_Bps : INFINITY;
    return found ? 0 : -1;
}

void sim_hybrid_shapes(const struct nccl_shape *sh, struct nccl_shape *node,
                       struct nccl_shape *across)
{
    *node = *across = *sh;
    node->nodes = 1;
    across->ppn = 1;
    across->net_Bps = sh->net_Bps / sh->ppn;
    across->nics = sh->nics > sh->ppn ? sh->nics / sh->ppn : 1;
}

void sim_tp_shapes(const struct nccl_shape *sh, int tp, struct nccl_shape *tpg,
                   struct nccl_shape *dpg, int *nic_share)
{
    int ppn = sh->ppn, share = tp < ppn ? tp : ppn;

    *tpg = *dpg = *sh;
    tpg->ppn = share;
    tpg->nodes = tp <= ppn ? 1 : tp / ppn;
    dpg->ppn = tp <= ppn ? ppn / tp : 1;
    dpg->nodes = tp <= ppn ? sh->nodes : sh->nodes / (tp / ppn);
    dpg->net_Bps = sh->net_Bps / share;
    dpg->nics = sh->nics > share ? sh->nics / share : 1;
    *nic_share = share;
}
