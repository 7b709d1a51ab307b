/*
 * scenario.c - the scenario model's defaults, its release, and the closed
 * sets it owns (scenario.h).  docs/scenario.md lists the same defaults for
 * users; a change here changes that page.
 */
#include "scenario.h"
#include "sc_field.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../base/names.h"
#include "../catalog/ops.h"
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

void scenario_plan_defaults(struct sc_plan *p)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < sc_nfields; i++)
        if (sc_fields[i].sec == SC_SEC_PLAN)
            sc_field_default(&sc_fields[i], p);
}

/* ---- closed sets -------------------------------------------------------- */

static const char *const objectives[] = { "step_time", "cost_per_step", "cost_to_train", NULL };
static const char *const places[] = { "colocated", "dedicated", NULL };
static const char *const receives[] = { "together", "in_turn", NULL };
static const char *const solves[] = { "cpu_cost", "compute", NULL };
static const char *const grad_precs[] = { "fp32", "fp16", "bf16", NULL };
static const enum cat_prec grad_prec_values[] = { CAT_FP32, CAT_FP16, CAT_BF16 };

const char *scenario_objective_name(int o) { return NAMES_AT(objectives, o); }
int scenario_objective_parse(const char *s) { return names_parse(scenario_objective_name, s); }
const char *scenario_ps_place_name(int p) { return NAMES_AT(places, p); }
const char *scenario_ps_receive_name(int r) { return NAMES_AT(receives, r); }
const char *scenario_solve_name(int s) { return NAMES_AT(solves, s); }
const char *scenario_grad_prec_name(int i) { return NAMES_AT(grad_precs, i); }
int scenario_ps_place_parse(const char *s) { return names_parse(scenario_ps_place_name, s); }
int scenario_ps_receive_parse(const char *s) { return names_parse(scenario_ps_receive_name, s); }
int scenario_solve_parse(const char *s) { return names_parse(scenario_solve_name, s); }
int scenario_grad_prec_parse(const char *s) { return names_parse(scenario_grad_prec_name, s); }

static const char *const precs[] = { "fp32", "tf32", "fp16", "bf16", "fp8", "fp32_strict",
                                     "auto", NULL };
static const char *const attentions[] = { "flash", "unfused", "flash_triton", NULL };
static const char *const memory_formats[] = { "nchw", "nhwc", NULL };
static const char *const amps[] = { "autocast", "pure", NULL };
static const char *const kernelss[] = { "eager", "fused", NULL };
/* the stages a scenario may ask for (enum sc_sharding; fsdp is zero3 as
 * PyTorch FSDP's FULL_SHARD runs it) */
static const char *const shardings[] = { "none", "zero1", "zero2", "zero3", "fsdp", "hsdp", "auto",
                                         NULL };
static const char *const recomputes[] = { "none", "selective", "full", "auto", NULL };
/* in SIM_ORDER_* order */
static const char *const pp_orders[] = { "tp-dp-pp", "tp-pp-dp", NULL };

const char *scenario_prec_name(int i) { return NAMES_AT(precs, i); }
const char *scenario_attention_name(int i) { return NAMES_AT(attentions, i); }
const char *scenario_sharding_name(int i) { return NAMES_AT(shardings, i); }
const char *scenario_recompute_name(int i) { return NAMES_AT(recomputes, i); }
const char *scenario_pp_order_name(int i) { return NAMES_AT(pp_orders, i); }
const char *scenario_memory_format_name(int i) { return NAMES_AT(memory_formats, i); }
const char *scenario_amp_name(int i) { return NAMES_AT(amps, i); }
const char *scenario_kernels_name(int i) { return NAMES_AT(kernelss, i); }

int scenario_ops_style(const struct scenario *sc)
{
    return (sc->workload.amp_pure ? OPS_PURE : 0) | (sc->workload.kernels_fused ? OPS_FUSED : 0);
}

void scenario_prec_set(struct scenario *sc, int i)
{
    sc->workload.precision_strict = i == CAT_NPREC;
    sc->workload.precision_auto = i == CAT_NPREC + 1;
    /* auto's nominal format (memory estimates) is the 16-bit one */
    sc->workload.precision = i < CAT_NPREC ? (enum cat_prec)i : sc->workload.precision_auto ? CAT_BF16 : CAT_FP32;
}

int scenario_prec_index(const struct scenario *sc)
{
    return sc->workload.precision_auto ? CAT_NPREC + 1 : sc->workload.precision_strict ? CAT_NPREC
                                                                     : (int)sc->workload.precision;
}

enum cat_prec scenario_grad_prec_value(int i)
{
    return scenario_grad_prec_name(i) ? grad_prec_values[i] : CAT_FP32;
}
