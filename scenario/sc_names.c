/*
 * sc_names.c - the closed sets the scenario model owns (scenario.h): each
 * a name table with its _name and _parse functions (base/names.h), and the
 * helpers that turn a name's index into the fields it sets.  Below both
 * scenario.c and the field table (sc_field.c), which names them.
 */
#include "scenario.h"

#include "../base/names.h"
#include "../catalog/ops.h"

/* ---- closed sets -------------------------------------------------------- */

static const char *const objectives[] = { "step_time", "cost_per_step", "cost_to_train", NULL };
static const char *const places[] = { "colocated", "dedicated", NULL };
static const char *const receives[] = { "together", "in_turn", NULL };
static const char *const bucket_rules[] = { "fixed", "megatron", NULL };
static const char *const solves[] = { "cpu_cost", "compute", NULL };
static const char *const checkpoints[] = { "sync", "async", NULL };
static const char *const grad_precs[] = { "fp32", "fp16", "bf16", NULL };
static const enum cat_prec grad_prec_values[] = { CAT_FP32, CAT_FP16, CAT_BF16 };

const char *scenario_objective_name(int o) { return NAMES_AT(objectives, o); }
const char *scenario_checkpoint_name(int c) { return NAMES_AT(checkpoints, c); }
int scenario_objective_parse(const char *s) { return names_parse(scenario_objective_name, s); }
const char *scenario_ps_place_name(int p) { return NAMES_AT(places, p); }
const char *scenario_ps_receive_name(int r) { return NAMES_AT(receives, r); }
const char *scenario_bucket_rule_name(int r) { return NAMES_AT(bucket_rules, r); }
const char *scenario_solve_name(int s) { return NAMES_AT(solves, s); }
const char *scenario_grad_prec_name(int i) { return NAMES_AT(grad_precs, i); }
int scenario_ps_place_parse(const char *s) { return names_parse(scenario_ps_place_name, s); }
int scenario_ps_receive_parse(const char *s) { return names_parse(scenario_ps_receive_name, s); }
int scenario_solve_parse(const char *s) { return names_parse(scenario_solve_name, s); }
int scenario_grad_prec_parse(const char *s) { return names_parse(scenario_grad_prec_name, s); }

static const char *const precs[] = { "fp32", "tf32", "fp16", "bf16", "fp8", "fp32_strict",
                                     "auto", NULL };
static const char *const attentions[] = { "flash", "unfused", "flash_triton", "cudnn", "cudnn_9.10",
                                           "cudnn_9.13", NULL };
static const char *const memory_formats[] = { "nchw", "nhwc", NULL };
static const char *const amps[] = { "autocast", "pure", NULL };
static const char *const kernelss[] = { "eager", "fused", NULL };
static const char *const fp8_recipes[] = { "delayed", "current", "mxfp8", "nvfp4", NULL };
static const char *const fp8_libraries[] = { "transformer_engine", "torchao", NULL };
static const char *const cross_entropies[] = { "fp32", "in_place", "upcast", NULL };
static const char *const opt_loops[] = { "fused", "foreach", "per_tensor", NULL };
static const char *const graphs[] = { "full", "partial", "none", NULL };
static const char *const expert_mlps[] = { "fused", "grouped", "sequential", NULL };
/* the stages a scenario may ask for (enum sc_sharding; fsdp is zero3 as
 * PyTorch FSDP's FULL_SHARD runs it) */
static const char *const shardings[] = { "none", "zero1", "zero2", "zero3", "fsdp", "hsdp", "auto",
                                         NULL };
static const char *const recomputes[] = { "none", "selective", "full", "auto", "selective_op",
                                          NULL };
/* in SIM_ORDER_* order */
static const char *const pp_orders[] = { "tp-dp-pp", "tp-pp-dp", NULL };
static const char *const tp_layouts[] = { "sbh", "bsh", NULL };
static const char *const pp_splits[] = { "layers", "embedding_loss", NULL };
static const char *const pp_schedules[] = { "1f1b", "dualpipe", NULL };
static const char *const ep_dispatches[] = { "alltoall", "deepep", "hybridep", "allgather", NULL };
static const char *const cp_comms[] = { "p2p", "a2a", "allgather", "torch", NULL };

const char *scenario_prec_name(int i) { return NAMES_AT(precs, i); }
const char *scenario_attention_name(int i) { return NAMES_AT(attentions, i); }
const char *scenario_sharding_name(int i) { return NAMES_AT(shardings, i); }
const char *scenario_recompute_name(int i) { return NAMES_AT(recomputes, i); }
const char *scenario_pp_order_name(int i) { return NAMES_AT(pp_orders, i); }
const char *scenario_tp_layout_name(int i) { return NAMES_AT(tp_layouts, i); }
const char *scenario_pp_split_name(int i) { return NAMES_AT(pp_splits, i); }
const char *scenario_pp_schedule_name(int i) { return NAMES_AT(pp_schedules, i); }
const char *scenario_ep_dispatch_name(int i) { return NAMES_AT(ep_dispatches, i); }
const char *scenario_cp_comm_name(int i) { return NAMES_AT(cp_comms, i); }
const char *scenario_memory_format_name(int i) { return NAMES_AT(memory_formats, i); }
const char *scenario_amp_name(int i) { return NAMES_AT(amps, i); }
const char *scenario_kernels_name(int i) { return NAMES_AT(kernelss, i); }
const char *scenario_fp8_recipe_name(int i) { return NAMES_AT(fp8_recipes, i); }
const char *scenario_fp8_library_name(int i) { return NAMES_AT(fp8_libraries, i); }
const char *scenario_cross_entropy_name(int i) { return NAMES_AT(cross_entropies, i); }
const char *scenario_opt_loop_name(int i) { return NAMES_AT(opt_loops, i); }
const char *scenario_graphs_name(int i) { return NAMES_AT(graphs, i); }
const char *scenario_expert_mlp_name(int i) { return NAMES_AT(expert_mlps, i); }

int scenario_ops_style(const struct scenario *sc)
{
    return (sc->workload.amp_pure ? OPS_PURE : 0) | (sc->workload.kernels_fused ? OPS_FUSED : 0) |
           (sc->parallel.tp_layout == SC_TP_LAYOUT_BSH ? OPS_BSH : 0) |
           (sc->workload.expert_mlp == SC_EXPERT_GROUPED ? OPS_EXPERT_GROUPED : 0) |
           (sc->workload.expert_mlp == SC_EXPERT_SEQUENTIAL
                ? OPS_EXPERT_GROUPED | OPS_EXPERT_SEQUENTIAL : 0);
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
