/*
 * scenario.c - the scenario model's defaults (from the field table,
 * sc_field.c), its release, and what the planner reads it through
 * (scenario.h); its closed sets are sc_names.c's.
 */
#include "scenario.h"
#include "sc_field.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../catalog/shape.h"
#include "../base/units.h"

void scenario_defaults(struct scenario *sc, const char *name)
{
    memset(sc, 0, sizeof *sc);
    snprintf(sc->name, sizeof sc->name, "%s", name ? name : "");
    /* every section but plan (present only when given: scenario_plan_defaults) */
    for (int i = 0; i < sc_nfields; i++)
        if (sc_fields[i].sec != SC_SEC_PLAN)
            sc_field_default(&sc_fields[i], sc_section_of(sc, sc_fields[i].sec));
}

void scenario_free(struct scenario *sc)
{
    if (!sc)
        return;
    x_free(sc->clusters);
    sc->clusters = NULL;
    sc->nclusters = 0;
    x_free(sc->profiles);
    sc->profiles = NULL;
    sc->nprofiles = 0;
}

double scenario_fwd_gflops(const struct scenario *sc)
{
    if (sc->workload.seq_len > 0 && shape_known(sc->workload.model))
        return shape_fwd_flops(sc->workload.model, sc->workload.seq_len) / 1e9;
    return sc->workload.model->fwd_gflops;
}

int scenario_model_parallel(const struct scenario *sc)
{
    return (sc->parallel.tp > 1 ? sc->parallel.tp : 1) * (sc->parallel.pp > 1 ? sc->parallel.pp : 1);
}

double scenario_seq_len(const struct scenario *sc)
{
    return sc->workload.seq_len > 0 ? sc->workload.seq_len : sc->workload.model->seq_len;
}

double scenario_rank_tokens(const struct scenario *sc)
{
    return scenario_seq_len(sc) / (sc->parallel.cp > 1 ? sc->parallel.cp : 1);
}

/*
 * The default imbalance, dropless routing as trained: Megatron-MoE-ModelZoo
 * measured Qwen3-235B-A22B on 256 H100 (tp 4, pp 8, ep 8: 16 of its 128
 * experts a rank, top 8) at 295 TFLOP/s a GPU under forced balance and 237
 * dropless at 16,384 tokens (yanring/Megatron-MoE-ModelZoo@798dfb50
 * best_practice/qwen3/readme.md, H100 long-context table), 0.803, which
 * dtplan's model of that layout gives at 1.66.  Its 32K, 64K and 128K
 * pairs (0.827, 0.870, 0.918) are validate/llm_runs.pl's check of it.
 * Measured at one expert-parallel size; not scaled with ep.  A model that
 * drops tokens past a capacity factor holds its busiest rank to it.
 */
double scenario_moe_imbalance(const struct scenario *sc)
{
    const struct cat_model *m = sc->workload.model;
    double imb = sc->workload.moe_imbalance;

    if (!isnan(imb))
        return imb;
    if (!shape_known(m) || m->experts <= 0 || sc->parallel.ep <= 1)
        return 1;
    return m->capacity_factor > 0 ? fmax(1, fmin(SC_MOE_IMBALANCE, m->capacity_factor))
                                  : SC_MOE_IMBALANCE;
}

double scenario_recompute_share(const struct scenario *sc)
{
    const struct cat_model *m = sc->workload.model;
    int n = sc->workload.recompute_layers;

    if (sc->parallel.recompute != SC_RECOMPUTE_FULL)
        return 0;
    return n > 0 && m && m->layers > n ? (double)n / m->layers : 1;
}

int scenario_dims_auto(const struct scenario *sc)
{
    const struct sc_parallel *p = &sc->parallel;

    return p->tp_auto || p->pp_auto || p->cp_auto || p->ep_auto || p->etp_auto ||
           p->ep_overlap_auto || p->recompute_auto || p->sharding_auto;
}

void scenario_parallel_fixed(struct sc_parallel *p)
{
    p->tp_auto = p->pp_auto = p->cp_auto = p->ep_auto = p->etp_auto = p->ep_overlap_auto = 0;
    p->recompute_auto = p->sharding_auto = p->micro_batch_auto = 0;
}

int scenario_replica_gpus(const struct scenario *sc)
{
    return scenario_model_parallel(sc) * (sc->parallel.cp > 1 ? sc->parallel.cp : 1);
}

/* Megatron-Core's DistributedDataParallel sizes a bucket, when none is
 * given, at max(40M, 1M x the data-parallel group's ranks) parameters, so
 * that a ring's share of a bucket stays bandwidth-bound as the group grows
 * (NVIDIA/Megatron-LM@d98e8a64 megatron/core/distributed/
 * distributed_data_parallel.py). */
#define MEGATRON_BUCKET_MIN_PARAMS 40e6
#define MEGATRON_BUCKET_PARAMS_PER_RANK 1e6

double scenario_bucket_bytes(const struct scenario *sc, double cluster_bytes, int k)
{
    int dp = k / scenario_replica_gpus(sc);

    if (sc->gradients.bucket_rule != SC_BUCKETS_MEGATRON)
        return cluster_bytes;
    if (dp < 1)
        dp = 1;
    return fmax(MEGATRON_BUCKET_MIN_PARAMS, MEGATRON_BUCKET_PARAMS_PER_RANK * dp) *
           (sc->gradients.precision == CAT_FP32 ? 4.0 : 2.0);
}

void scenario_cluster_comm(const struct scenario *sc, const struct sc_cluster *cl,
                           struct sc_comm *out)
{
    int gpus = 0;

    out->strategy = cl->gradients.strategy >= 0 ? (enum sim_strategy)cl->gradients.strategy : sc->gradients.strategy;
    /* auto is NCCL's choice; a cluster whose train nodes have no GPU runs
     * the ring, as before auto existed (docs/scenario.md) */
    for (int i = 0; i < cl->ngroups; i++)
        gpus |= cl->groups[i].role == SIM_TRAIN && cl->groups[i].inst->gpu_count > 0;
    if (out->strategy == SIM_AUTO && !gpus)
        out->strategy = SIM_RING;
    out->bucket_bytes = cl->gradients.own ? cl->gradients.bucket_bytes : sc->gradients.bucket_bytes;
    out->ps_place = cl->gradients.own ? cl->gradients.ps_place : sc->gradients.ps_place;
    out->ps_count = cl->gradients.own ? cl->gradients.ps_count : sc->gradients.ps_count;
}

void scenario_cluster_parallel(const struct scenario *sc, const struct sc_cluster *cl,
                               struct sc_parallel *out)
{
    const struct sc_cluster_parallel *own = &cl->parallel;

    *out = sc->parallel;
    if (own->tp != 0) {
        out->tp_auto = own->tp < 0;
        out->tp = own->tp > 0 ? own->tp : 1;
    }
    if (own->sp != 0)
        out->sequence_parallel = own->sp == 2;
    if (own->pp != 0) {
        out->pp_auto = own->pp < 0;
        out->pp = own->pp > 0 ? own->pp : 1;
    }
    if (own->interleave != 0) {
        out->interleave = own->interleave;
        out->interleave_set = 1;
    }
}

int scenario_for_cluster(const struct scenario *sc, const struct sc_cluster *cl,
                         struct scenario *out)
{
    int own;

    *out = *sc;
    scenario_cluster_parallel(sc, cl, &out->parallel);
    own = memcmp(&out->parallel, &sc->parallel, sizeof out->parallel) != 0;
    if (cl->micro_batch > 0) {
        out->parallel.micro_batch = cl->micro_batch;
        out->parallel.micro_batch_auto = 0;
        own = 1;
    }
    if (cl->grad_accum > 0) {
        out->workload.grad_accum = cl->grad_accum;
        own = 1;
    }
    return own;
}

void scenario_plan_defaults(struct sc_plan *p)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < sc_nfields; i++)
        if (sc_fields[i].sec == SC_SEC_PLAN)
            sc_field_default(&sc_fields[i], p);
}
