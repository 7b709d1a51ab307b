/*
 * memory.c - what a worker holds (memory.h; docs/model.md "Memory").
 * O(1).
 */
#include "memory.h"

#include <math.h>
#include <stdio.h>

#include "../base/units.h"
#include "../catalog/ops.h"
#include "../catalog/shape.h"
#include "resolve.h"

/*
 * One layer's activations at 16 bits, bytes per sample, from the terms of
 * Korthikanti et al. 2022 (section 4.1), generalised to the model's feed-
 * forward width f, gating, key-value heads and dropout (d = 1 with dropout):
 *   layer norms                          4 s h
 *   attention: Q K V input 2 s h, Q and K 2 s h + 2 s kv, V 2 s kv, the
 *     output projection's input 2 s h, dropout mask d s h;
 *     scores: softmax 2 a s^2, dropout mask d a s^2, its output d 2 a s^2
 *   feed-forward: input 2 s h, dropout mask d s h, the first projection's
 *     output and the activation's output 2 s f each; gated (SwiGLU) and
 *     eager, silu(x1) * x2 keeps the first projection's two halves 4 s f,
 *     the SiLU's output 2 s f and the product 2 s f, 8 s f; with fused
 *     kernels (workload.kernels: fused) 6 s f: Megatron-Core's fused
 *     bias-SwiGLU (megatron/core/fusions/fused_bias_swiglu.py,
 *     SwiGLUFunction) saves only its input and redoes the SiLU in backward
 * which at GPT-3's (kv = h, f = 4h, dropout) is s h (34 + 5 a s / h).
 * Not divided by tensor parallelism: the layer norms' inputs, the inputs of
 * the QKV and first feed-forward projections and the dropout masks after
 * them (10 s h); sequence parallelism divides those too.
 * Per-operator recompute (selective_op, ops.h) keeps the outputs of the
 * products it does not redo and of attention: the block's input 2 s h
 * (divided under sequence parallelism), Q 2 s h, V 2 s kv, attention's
 * output 2 s h and the first feed-forward product 2 s f, split by tp;
 * gated, also the last product's 2 s h, whole (partial sums under tp; its
 * reduce-scatter's output 2 s h / t besides).
 * Transformer Engine's fp8 (MEM_ACT_FP8) keeps what a GEMM's backward
 * reads of its input as the fp8 copy it cast (one byte an element; its
 * Linear and LayerNormLinear save the quantized input, the layer norm's
 * input stays 16-bit): the QKV and first feed-forward projections' inputs
 * s h each and the last projection's s f.  The output projection's input
 * is attention's output, 2 s h, which a fused attention kernel keeps for
 * its own backward: under delayed scaling (MEM_ACT_PROJ_FP8) the
 * projection keeps an fp8 copy s h besides, under the other recipes
 * Megatron-Core has it keep and cast again the 16-bit one (save_original_
 * input; NVIDIA/Megatron-LM@d98e8a6).
 */
/*
 * A mixture of experts' feed-forward block, bytes a token, on average over
 * the layers (the dense ones as a dense block of ffn_hidden), into *whole
 * (the h-wide parts every tensor-parallel rank holds) and *split (the parts
 * split by tp, as the experts' widths are by default).  A MoE layer keeps
 * the router's fp32 logits, its top_k permuted copies of the token (the
 * first expert product's input, in bytes), the experts' first product and
 * activation as a dense block keeps them a copy, and the shared experts as a
 * dense block of their width.  The routed copies are the busiest rank's, imb
 * times an even share (scenario_moe_imbalance: dropless routing's default
 * under expert parallelism), as its step time counts them: where the
 * router sends more tokens to a rank's experts than the mean, that rank
 * keeps their copies and products for the backward, and its peak is the
 * one that runs out.  Not the experts' outputs: Megatron-Core
 * applies the router's probabilities in the experts' activation and sums
 * the outputs back without them (NVIDIA/Megatron-LM@2659630721, 2025-04-09,
 * "Memory efficient token permutation": activation_func_with_probs,
 * weighted_bias_swiglu_impl), so no backward needs them.
 * recompute_modules moe keeps the block's input alone (the
 * layer norm's, counted already); moe_act drops the activation's output.
 */
static void ffn_bytes(const struct cat_model *m, double ffn, double in2, double xin, double imb,
                      int flags, double *whole, double *split)
{
    double h = m->hidden, l = m->layers, lm = shape_moe_layers(m), k = m->top_k * imb;
    double fe = shape_expert_width(m), act = flags & MEM_ACT_REDO_MOE_ACT ? xin : 0;
    double moe_whole = 0, moe_split = 0;

    *whole = 0;
    *split = (ffn + in2) * m->ffn_hidden;
    if (!(shape_known(m) && m->experts > 0 && lm > 0 && l > 0))
        return;
    if (!(flags & MEM_ACT_REDO_MOE)) {
        moe_whole = 4 * m->experts + k * xin * h;
        moe_split = k * (ffn + xin - act) * fe +
                    (m->shared_experts > 0 ? (ffn + in2) * shape_shared_width(m) : 0);
    }
    *whole = lm / l * moe_whole;
    *split = (l - lm) / l * (ffn + in2) * m->ffn_hidden + lm / l * moe_split;
}

double memory_layer_act(const struct cat_model *m, double s, int tp, int etp, double imb, int sp,
                        int flash, int flags, enum sc_recompute rc)
{
    double h = m->hidden, f = m->ffn_hidden, a = m->heads, d = m->dropout > 0;
    double t = tp > 1 ? tp : 1;
    /* attention's widths by the shape: Q a heads x its head's, K and V the
     * key-value heads' (MLA: every head's, its values v_head_dim wide), the
     * output a heads x the values' head (hidden, kv where head_dim is
     * hidden / heads) */
    int mla = m->kv_lora_rank > 0;
    double q = a * shape_qk_head(m), o = a * shape_v_head(m);
    double kw = mla ? q : shape_kv_width(m), vw = mla ? o : shape_kv_width(m);
    /* MLA's latents, which its up projections keep with their norms (the
     * norm's input and output, q_lora_rank and kv_lora_rank wide) */
    double lat = mla ? 2 * 2 * ((double)m->q_lora_rank + m->kv_lora_rank) : 0;
    int redo_up = mla && (flags & MEM_ACT_REDO_MLA_UP);
    double in = flags & MEM_ACT_FP8 ? 1 : 2;                      /* a GEMM input's bytes */
    /* the QKV, first and second feed-forward products' inputs; frozen
     * (LoRA), an adapter's 16-bit input or nothing */
    int fz = flags & MEM_ACT_FROZEN;
    double in_qkv = fz ? (flags & MEM_ACT_ADAPT_QKV ? 2 : 0) : in;
    double in_fc1 = fz ? (flags & MEM_ACT_ADAPT_FC1 ? 2 : 0) : in;
    double in_fc2 = fz ? (flags & MEM_ACT_ADAPT_FC2 ? 2 : 0) : in;
    double kept = 4 * h + in_qkv * h + in_fc1 * h + 2 * d * h;    /* not split by tp */
    /* fused attention in fp8 (Transformer Engine's FusedAttnFunc under
     * NVTE_FP8_DPA_BWD, its default): Q, K and V kept in fp8, the output
     * too under delayed scaling (current scaling and MXFP8 keep it 16-bit:
     * NVTE_DPA_FP8CS_O_in_F16's default; NVIDIA/TransformerEngine@d0067d0
     * transformer_engine/pytorch/attention/dot_product_attention/backends.py) */
    int fa8 = flash && (flags & MEM_ACT_FP8_ATTN);
    double qb = redo_up ? 0 : fa8 ? 1 : 2, ob = fa8 && (flags & MEM_ACT_PROJ_FP8) ? 1 : 2;
    /* the output projection's input: attention's output as the kernel keeps
     * it, and the projection's own copy where it is another tensor (an fp8
     * cast under delayed scaling; a frozen projection's adapter, 16-bit) */
    double proj = fz ? (flash ? ob * o + (flags & MEM_ACT_ADAPT_OUT && ob < 2 ? 2 * o : 0)
                              : flags & MEM_ACT_ADAPT_OUT ? 2 * o : 0)
                : flash ? ob * o + (flags & MEM_ACT_PROJ_FP8 ? in * o : 0)
                        : flags & MEM_ACT_PROJ_FP8 ? in * o : 2 * o;
    /* a byte of f: the activation's input and output kept; fused SwiGLU, its
     * input 2 f alone, 16-bit or (fp8_act_input) fp8 */
    double ffn = !m->gated_ffn ? 2 : !(flags & MEM_ACT_FUSED) ? 6
                                   : flags & MEM_ACT_FP8_ACT_IN ? 2 : 4;
    double ffn_whole, ffn_split;
    double split, scores = (2 + 3 * d) * a * s;                   /* per token */

    ffn_bytes(m, ffn, in_fc2, fz ? 0 : in, imb > 0 ? imb : 1, flags, &ffn_whole, &ffn_split);
    split = qb * q + qb * kw + qb * vw + proj                     /* Q, K; V; proj input */
            + ffn_split;                                          /* feed-forward */
    kept += lat;

    if (rc == SC_RECOMPUTE_FULL)
        return 2 * s * h / (sp ? t : 1);
    if (rc == SC_RECOMPUTE_OP)
        return s * (2 * h / (sp ? t : 1) + (m->gated_ffn ? 2 * h : 0) +
                    (2 * q + 2 * vw + 2 * o + 2 * f + (m->gated_ffn && t > 1 ? 2 * h : 0)) / t);
    if (flash || rc == SC_RECOMPUTE_SELECTIVE)
        scores = 0;
    /* the routed copies: a tensor-parallel group's tokens gathered for its
     * experts' etp-way split (etp = tp: all of them on every rank), a
     * rank's share of them under etp < tp */
    return s * ((sp ? kept / t : kept) + ffn_whole * (etp > 0 && etp < t ? etp / t : 1) +
                (split + scores) / t);
}

/* LoRA (workload.lora_rank): the frozen weights and the products with
 * adapters, as MEM_ACT_* flags. */
static int lora_flags(const struct scenario *sc)
{
    unsigned t = sc->workload.lora_targets ? sc->workload.lora_targets : OPS_LORA_DEFAULT;

    if (sc->workload.lora_rank <= 0)
        return 0;
    return MEM_ACT_FROZEN | (t & OPS_LORA_BIT(OPS_PROJ_QKV) ? MEM_ACT_ADAPT_QKV : 0) |
           (t & OPS_LORA_BIT(OPS_PROJ_OUT) ? MEM_ACT_ADAPT_OUT : 0) |
           (t & OPS_LORA_BIT(OPS_PROJ_FC1) ? MEM_ACT_ADAPT_FC1 : 0) |
           (t & OPS_LORA_BIT(OPS_PROJ_FC2) ? MEM_ACT_ADAPT_FC2 : 0);
}

static int memory_act_flags(const struct scenario *sc)
{
    int te = sc->workload.precision == CAT_FP8 && sc->workload.fp8_library == SC_FP8_LIB_TE;

    unsigned mods = sc->workload.recompute_modules;

    return (sc->workload.kernels_fused ? MEM_ACT_FUSED : 0) | (te ? MEM_ACT_FP8 : 0) |
           (te && sc->workload.fp8_recipe == SC_FP8_DELAYED ? MEM_ACT_PROJ_FP8 : 0) |
           (mods & (1u << OPS_MOD_MOE) ? MEM_ACT_REDO_MOE : 0) |
           (mods & (1u << OPS_MOD_MOE_ACT) ? MEM_ACT_REDO_MOE_ACT : 0) |
           (mods & (1u << OPS_MOD_MLA_UP) ? MEM_ACT_REDO_MLA_UP : 0) |
           (sc->workload.fp8_act_input ? MEM_ACT_FP8_ACT_IN : 0) |
           (te && sc->workload.fp8_attention ? MEM_ACT_FP8_ATTN : 0) | lora_flags(sc);
}

/*
 * Bytes an element of the logits the loss holds at its peak, at 16 bits
 * (twice at fp32): the softmax in fp32 as Megatron-Core's vocab-parallel
 * losses keep it (megatron/core/fusions/fused_cross_entropy.py,
 * exp_logits, cast from the 16-bit logits by .float()) and beside it the
 * 16-bit logits in the forward (the model's reference holds them until the
 * loss returns) or the 16-bit gradient the backward casts the fp32 one to
 * (calculate_gradients' .to(torch.bfloat16)): 4 + 2; or Transformer
 * Engine's fused loss writing the gradient over the 16-bit logits it keeps
 * (pytorch/triton/cross_entropy.py, "return loss, _input", releases 2.7
 * to 2.17; 2.18 keeps it in fp32: NVIDIA/TransformerEngine@01bbe3ee); or
 * the logits cast to fp32 into PyTorch's cross_entropy, as torchtitan's
 * loss_fn runs it (pred.float(); pytorch/torchtitan@9dec370 train.py,
 * torchtitan/components/loss.py at HEAD): log_softmax keeps its fp32
 * output, and its backward makes its fp32 gradient beside that and the
 * fp32 gradient nll_loss hands it, 4 + 4 + 4 (the 16-bit logits are
 * released first: del pred).
 */
static double loss_bytes(const struct scenario *sc)
{
    switch (sc->workload.cross_entropy) {
    case SC_CE_IN_PLACE:
        return 2.0;
    case SC_CE_UPCAST:
        return 12.0;
    default:
        return 6.0;
    }
}

/* Activations in fp32 (or tf32) take twice the 16-bit bytes counted. */
static double act_width(const struct scenario *sc)
{
    return sc->workload.precision == CAT_FP32 || sc->workload.precision == CAT_TF32 ? 2 : 1;
}

/*
 * The multi-token-prediction modules (models.csv mtp_layers) on the stage
 * with the head, bytes of one micro-batch: each runs one more layer (its
 * activations as the model's mean layer's), keeps the inputs of its two
 * norms (h each) and of its projection of their concatenation (2 h), 8 h
 * bytes a token at 16 bits (Megatron-Core's MultiTokenPredictionLayer,
 * enorm, hnorm and eh_proj; megatron/core/transformer/multi_token_
 * prediction.py, NVIDIA/Megatron-LM@d98e8a6), and computes its own logits
 * and loss before the model's, whose saved softmax it holds until the
 * backward: 4 bytes a logit (its gradient written over the 16-bit logits
 * under in_place, 2).  per_layer: a layer's bytes of one micro-batch
 * (memory_layer_bytes).  Megatron-LM's two MLA MoE CI memory tests with
 * one such module (their last ranks, an interleaved pipeline's last stage)
 * come within +0.1% and -6.6% with it.
 */
static double mtp_head(const struct scenario *sc, double per_layer)
{
    const struct cat_model *m = sc->workload.model;
    int tp = sc->parallel.tp > 1 ? sc->parallel.tp : 1;
    double s = scenario_rank_tokens(sc) * sc->parallel.micro_batch;

    if (!shape_known(m) || m->mtp_layers <= 0)
        return 0;
    return m->mtp_layers *
           (per_layer +
            act_width(sc) * s * (8.0 * m->hidden / (sc->parallel.sequence_parallel ? tp : 1) +
                                 (sc->workload.cross_entropy == SC_CE_IN_PLACE ? 2 : 4) *
                                     m->vocab / tp));
}

double memory_layer_bytes(const struct scenario *sc)
{
    const struct cat_model *m = sc->workload.model;
    double s = scenario_rank_tokens(sc);
    int tp = sc->parallel.tp > 1 ? sc->parallel.tp : 1, sp = sc->parallel.sequence_parallel;
    int flash = sc->workload.attention != SC_ATTN_UNFUSED, fl = memory_act_flags(sc);
    double f = scenario_recompute_share(sc), imb = scenario_moe_imbalance(sc), act;

    act = memory_layer_act(m, s, tp, sc->parallel.etp, imb, sp, flash, fl, sc->parallel.recompute);
    /* workload.recompute_layers: the other layers keep everything; a
     * layer's mean over the model's */
    if (sc->parallel.recompute == SC_RECOMPUTE_FULL && f < 1)
        act = f * act + (1 - f) * memory_layer_act(m, s, tp, sc->parallel.etp, imb, sp, flash,
                                                   fl, SC_RECOMPUTE_NONE);
    return sc->parallel.micro_batch * act_width(sc) * act;
}

/* Model-state bytes per parameter: weights, gradients, optimizer (Adam).
 * In mixed precision the gradients are held at gradients.precision, the
 * width they are accumulated and reduced in: Megatron's main_grad buffer is
 * fp32 under grad_reduce_in_fp32 (bf16 parameters with fp32 gradients: 18
 * bytes a parameter, 6 + 12/d with the distributed optimizer over d ranks,
 * Megatron-LM's distributed-optimizer table), 16 bits when the recipe
 * reduces in bf16 (ZeRO's fp16 accounting, 2 + 2 + 12).  With the weights
 * sharded too (zero3, hsdp) the sharded fp32 parameters are the master
 * weights and the fp32 gradient shard is 4 of the 16 bytes a parameter
 * over the ranks that PyTorch FSDP keeps (4 + 4 + 8), which 2 + 2 + 12
 * already totals. */
static void state_bytes(const struct scenario *sc, enum sc_sharding sharding, double *w, double *g,
                        double *o);

double memory_checkpoint_bytes(const struct scenario *sc)
{
    double w, g, o;

    state_bytes(sc, SC_SHARD_NONE, &w, &g, &o);
    return sc->workload.model->params * (w + o);
}

static void state_bytes(const struct scenario *sc, enum sc_sharding sharding, double *w, double *g,
                        double *o)
{
    int wide = sc->workload.precision == CAT_FP32 || sc->workload.precision == CAT_TF32 || sc->workload.precision_strict;

    *w = wide ? 4 : sc->workload.fp8_params && sc->workload.precision == CAT_FP8 ? 1 : 2;
    *g = wide || (sc->gradients.precision == CAT_FP32 && sharding < SC_SHARD_ZERO3) ? 4 : 2;
    *o = wide ? 8 : 12;     /* moments; in mixed precision also the fp32 master weights */
    if (!isnan(sc->workload.optimizer_state_bytes))
        *o = sc->workload.optimizer_state_bytes;   /* another optimizer (workload.optimizer_state_bytes) */
}

/* The compute capability of an instance's GPUs; 0 without (or unknown). */
static int instance_cc(const struct cat_instance *in)
{
    return in->gpu_count > 0 && in->gpu ? in->gpu->cc : 0;
}

/* The layers at each end of the model that run their products in 16 bits
 * under fp8 (workload.fp8_bf16_layers). */
static double bf16_layers(const struct scenario *sc)
{
    return sc->workload.fp8_bf16_layers > 0 ? sc->workload.fp8_bf16_layers : 0;
}

/*
 * Of `gemm` parameters in the transformer layers a rank holds (`layers` of
 * them, `bf16` of which run their products in 16 bits: workload.fp8_bf16_
 * layers), those whose products run in fp8.
 */
static double fp8_gemm_params(const struct scenario *sc, double gemm, double layers, double bf16)
{
    if (sc->workload.precision != CAT_FP8 || !(layers > 0) || !(gemm > 0))
        return 0;
    return gemm * fmax(0, layers - bf16) / layers;
}

/*
 * Transformer Engine's quantized copies of the weights, bytes a parameter
 * whose products run in fp8.  Its Linear, LayerNormLinear and GroupedLinear
 * quantize a weight for the forward's product (rowwise) and for the
 * backward's data gradient (columnwise: the transpose under per-tensor
 * scaling, its own 32-element blocks under MXFP8), and keep the pair as a
 * workspace when told which micro-batch is the step's first, as
 * Megatron-Core tells them (its TE wrappers pass is_first_microbatch unless
 * disable_parameter_transpose_cache; NVIDIA/Megatron-LM@d98e8a6
 * megatron/core/extensions/transformer_engine.py): the pair lives from the
 * first forward through the optimizer's step to the next (module/linear.py,
 * quantize_weight and _fp8_workspaces; NVIDIA/TransformerEngine@d0067d0).
 * One byte an element each way, 1/32 more for MXFP8's scales, half a byte
 * and 1/16 for NVFP4's; per-tensor fp8 on Blackwell, whose fp8 products
 * take either layout, keeps the rowwise copy alone (nvte_is_non_tn_fp8_
 * gemm_supported: compute capability 10.x, 11.x and from 13; common/
 * transformer_engine.cpp, tensor/storage/float8_tensor_storage.py).
 * Megatron-LM's memory_speed MoE test and its fp8 twin bear it out: 684 MB
 * more held between steps with fp8, 662 counted (validate/published/
 * memory_cases.csv megatron-ci-moe-mla-mtp-fp8-copies).  None where the
 * weights are held in fp8 (workload.fp8_params): they are the rowwise copy,
 * and their columnwise one is made for the backward and not kept whole, as
 * MLPerf's LoRA runs of Llama 2 70B at tp 1 on 8 H200 show (64 GiB of fp8
 * weights, whose transposes would not fit beside them); none for fully
 * sharded weights (quantized as gathered, FSDP's path skips the cache) or
 * torchao's (it saves the 16-bit tensors).
 */
static double te_copy_bytes(const struct scenario *sc, const struct cat_instance *in,
                            enum sc_sharding sharding)
{
    int cc = instance_cc(in);

    if (sc->workload.precision != CAT_FP8 || sc->workload.fp8_library != SC_FP8_LIB_TE ||
        sc->workload.fp8_params || sharding >= SC_SHARD_ZERO3)
        return 0;
    if (sc->workload.fp8_recipe == SC_FP8_MXFP8)
        return 2 * (1 + 1.0 / 32);
    if (sc->workload.fp8_recipe == SC_FP8_NVFP4)
        return 2 * (0.5 + 1.0 / 16);
    return (cc >= 100 && cc < 120) || cc >= 130 ? 1 : 2;
}

/* Pipeline parallelism (parallel.pp): of a replica's parameters, what the
 * first stage (first = 1) or the last holds, and the layer-micro-batches
 * of activations it keeps at the peak of the schedule (sim/pp.c): 1F1B's
 * first stage min(pp, m) micro-batches of its layers, the last one;
 * interleaved, the warm-up's chunks and one (below). */
static void stage_of(const struct scenario *sc, int m, int first, double *params, double *xparams,
                     double *lmb, double *gemm)
{
    const struct cat_model *md = sc->workload.model;
    int pp = sc->parallel.pp, v = sc->parallel.interleave > 1 ? sc->parallel.interleave : 1, n = pp * v, lay[4096], mine = 0;
    double embed, out, inner;

    double held = resolve_state_params(sc);     /* expert parallelism: a share of the experts */
    double xheld = resolve_expert_state_params(sc);
    double n16 = bf16_layers(sc);
    /* the multi-token-prediction modules sit with the head on the last
     * stage (resolve_pp.c): of what the rank holds, their share, and of
     * that their routed experts'; they embed their input tokens with a
     * copy of the token table there, where it is not tied to the output
     * (Megatron-Core's GPTModel builds its embedding on the first stage
     * and on the one with the modules, mtp_process; megatron/core/models/
     * gpt/gpt_model.py, NVIDIA/Megatron-LM@d98e8a6) */
    double mtp = shape_mtp_weights(md, 0), xmtp = 0, mtp_table = 0;
    int moe = shape_moe_layers(md);

    if (mtp > 0 && moe > 0) {
        double share = (double)md->mtp_layers / (moe + md->mtp_layers);
        xmtp = xheld * share;
        mtp += xmtp - shape_expert_params(md) * share;
    }
    shape_tables(md, &embed, &out);
    inner = held - embed - (md->tied_embeddings ? 0 : out) - mtp;
    xheld -= xmtp;
    if (md->mtp_layers > 0 && !md->tied_embeddings)
        mtp_table = embed;

    if (n > 4096 || inner <= 0) {
        *params = held / pp;
        *xparams = (xheld + xmtp) / pp;
        *lmb = (double)md->layers / pp * (first ? (m < pp ? m : pp) : 1);
        *gemm = fp8_gemm_params(sc, inner > 0 ? inner / pp : 0, (double)md->layers / pp, 0);
        return;
    }
    resolve_pp_chunks(sc, pp, v, lay);
    if (sc->parallel.pp_schedule == SC_PP_DUALPIPE && v == 1) {
        /* DualPipe: the rank holds stage 0 and its mirror pp - 1, both
         * tables, twice a stage's parameters (the report's Table 2), and
         * pp + 1 micro-batches of a stage's activations at its peak */
        mine = lay[0] + lay[pp - 1];
        *params = inner * mine / md->layers + mtp + embed + out;
        *xparams = xheld * mine / md->layers + xmtp;
        *lmb = 0.5 * mine * (m < pp + 1 ? m : pp + 1);
        *gemm = fp8_gemm_params(sc, inner * mine / md->layers + mtp, mine + md->mtp_layers,
                                fmin(lay[0], n16) + fmin(lay[pp - 1], n16));
        return;
    }
    for (int c = 0; c < v; c++)
        mine += lay[c * pp + (first ? 0 : pp - 1)];
    *params = inner * mine / md->layers + (first ? embed : out + mtp + mtp_table);
    *xparams = xheld * mine / md->layers + (first ? 0 : xmtp);
    /* the 16-bit layers: the model's first ones in the first stage's first
     * chunk, its last ones in the last stage's last */
    *gemm = fp8_gemm_params(sc, inner * mine / md->layers + (first ? 0 : mtp),
                            mine + (first ? 0 : md->mtp_layers),
                            fmin(first ? lay[0] : lay[n - 1], n16));
    if (v == 1) {
        *lmb = (double)mine * (first ? (m < pp ? m : pp) : 1);
    } else {
        /* Megatron-Core's interleaved warm-up, 2 (pp - 1 - rank) + (v - 1)
         * pp forwards (all m v where that is as many), then the steady
         * state's first forward beside them (megatron/core/pipeline_
         * parallel/schedules.py, get_pp_rank_microbatches; NVIDIA/
         * Megatron-LM@d98e8a6): the last stage too keeps (v - 1) pp + 1
         * chunks, not one; the expert-parallel overlap (ep_overlap, its
         * overlap_moe_expert_parallel_comm) runs one forward more before
         * the first backward, so that each 1F1B step's forward and
         * backward are independent */
        int warm = 2 * (first ? pp - 1 : 0) + (v - 1) * pp +
                   (sc->parallel.ep_overlap && sc->parallel.ep > 1 ? 1 : 0);
        int chunks = warm >= m * v ? m * v : warm + 1;
        *lmb = (double)chunks * mine / v;
    }
}

/*
 * The GEMM libraries' workspaces an NVIDIA GPU's process holds from its
 * first product on, both taken from PyTorch's caching allocator and so in
 * its peak: PyTorch's cuBLAS workspaces, 32 MiB on compute capability 9.0
 * and 8 MiB + 128 KiB elsewhere (aten/src/ATen/cuda/CublasHandlePool.cpp,
 * parseChosenWorkspaceSize's defaults; cuBLASLt shares it, pytorch/
 * pytorch@26a39059), two of them: the file keys a workspace by handle and
 * stream and hands each thread its own handle (a thread-local pool window,
 * getCurrentCUDABlasHandle), and the backward's products run on autograd's
 * thread for the device, not the forward's (PYTORCH_CUBLAS_THREADS below);
 * and Transformer Engine's, 32 MiB + 1 KiB from
 * compute capability 9 and 4 MiB before (transformer_engine/pytorch/
 * cpp_extensions/gemm.py, get_cublas_workspace_size_bytes; NVIDIA/
 * TransformerEngine@d0067d0), which stacks without it do not hold.  A
 * mixture of experts' grouped products (Transformer Engine's
 * general_grouped_gemm, under TEGroupedMLP and the fused grouped MLP alike)
 * hold one more of Transformer Engine's size for each of its 4 compute
 * streams (get_cublas_workspace(grouped_gemm=True), cached for the process
 * like the other; transformer_engine/common/util/multi_stream.cpp,
 * num_compute_streams); Megatron-Core's SequentialMLP (expert_mlp
 * sequential) runs plain linears and holds none.  Other GPUs (ROCm's pools
 * differ): none counted.
 */
#define TE_GROUPED_STREAMS 4
/* The threads that take PyTorch's cuBLAS workspace: the forward's and the
 * backward's.  Megatron-LM's CI tests bear it out: what their small models
 * keep between steps ran 34 to 50 MB over the state and one workspace of
 * each library (megatron-ci-*-held, validate/published/memory_cases.csv). */
#define PYTORCH_CUBLAS_THREADS 2
static double gemm_workspaces(const struct scenario *sc, const struct cat_instance *in)
{
    const struct cat_model *m = sc->workload.model;
    int cc = instance_cc(in);
    double te = cc >= 90 ? 32.0 * DT_MIB + 1024 : 4.0 * DT_MIB;

    if (cc <= 0)
        return 0;
    return PYTORCH_CUBLAS_THREADS * (cc == 90 ? 32.0 * DT_MIB : 8.0 * DT_MIB + 128 * 1024.0) + te +
           (shape_known(m) && m->experts > 0 && sc->workload.expert_mlp != SC_EXPERT_SEQUENTIAL
                ? TE_GROUPED_STREAMS * te : 0);
}

/* The fp32 gradients an optimizer with fp32 master weights steps with when
 * the gradients are kept in 16 bits: Megatron-Core copies each 16-bit
 * main_grad it owns to fp32 (`main_grad.float()`, Float16OptimizerWith-
 * Float16Params and, for its shard, DistributedOptimizer's
 * _copy_model_grads_to_main_grads, NVIDIA/Megatron-LM@d98e8a64
 * megatron/core/optimizer/), and frees them at the next step's zero_grad,
 * after the step, before the activations come back.  That is the 20 bytes
 * a parameter of Megatron-LM's distributed-optimizer table for fp16
 * parameters and gradients (4 + 16/d distributed), where ZeRO's model
 * state counts 16.  An fp32 gradient is stepped in place (.float() of an
 * fp32 tensor is itself); fully sharded weights keep fp32 gradient shards
 * of their own (state_bytes).  The copy covers the parameters the
 * optimizer steps, as its state `opt` (o bytes a parameter) does: 4 bytes
 * each.  Another optimizer's state (workload.optimizer_state_bytes: bf16
 * moments beside fp32 master weights, as Megatron-Core's precision-aware
 * optimizer keeps them, stepping on the 16-bit gradients themselves;
 * bf16 master weights, as apex's distributed Adam can) is taken to step
 * without one. */
static double grad_copy_bytes(const struct scenario *sc, enum sc_sharding sharding, double w,
                              double g, double o, double opt)
{
    if (!sc->workload.amp_pure || !(w < 4) || g != 2 || sharding >= SC_SHARD_ZERO3 ||
        !isnan(sc->workload.optimizer_state_bytes) || !(o > 0))
        return 0;
    return opt * 4 / o;
}

/* What u holds at the optimizer's step: its state, the gradient copy and
 * the GEMM libraries' workspaces (held for the process). */
/* What stays allocated between steps: the state, the fp8 copies and the
 * GEMM workspaces (a pipeline stage's kept inputs aside). */
static double held_of(const struct scenario *sc, const struct cat_instance *in,
                      const struct mem_use *u)
{
    return u->weights + u->fp8_weights + u->gradients + u->optimizer + gemm_workspaces(sc, in);
}

static double step_peak(const struct scenario *sc, const struct cat_instance *in,
                        const struct mem_use *u)
{
    return held_of(sc, in, u) + u->grad_copy;
}

/* What a GPU holding `params` parameters (`xparams` of them routed
 * experts') and `layer_mb` layer-micro-batches of activations of per_layer
 * bytes each holds, with `head` bytes more where the stage has the loss:
 * into u, all but its stage and capacity.  `asked` is the sharding the run
 * asked for, `sharding` the one its state follows, with w, g and o bytes a
 * parameter. */
static void use_of(const struct scenario *sc, enum sc_sharding asked, enum sc_sharding sharding,
                   const struct cat_instance *in, int ranks, int local, double params,
                   double xparams, double gemm, double layer_mb, double per_layer, double head,
                   double w, double g, double o, struct mem_use *u)
{
    const struct cat_model *m = sc->workload.model;
    int tp = sc->parallel.tp > 1 ? sc->parallel.tp : 1;   /* tensor parallelism divides a replica's state */
    int mp = scenario_model_parallel(sc);
    double n = ranks / mp > 1 ? ranks / mp : 1, b = sc->parallel.micro_batch, xn;
    double width = act_width(sc);

    u->weights = params * w / tp;
    u->fp8_weights = gemm * te_copy_bytes(sc, in, asked) / tp;
    u->gradients = params * g / tp;
    u->optimizer = params * o / tp;
    if (sc->workload.lora_rank > 0) {
        /* LoRA: the frozen weights whole, gradients and state for the
         * adapters alone (a stage's share of them under a pipeline) */
        double t = resolve_lora_params(sc) / (sc->parallel.pp > 1 ? sc->parallel.pp : 1);
        u->gradients = t * g / tp;
        u->optimizer = t * o / tp;
        xparams = 0;
    }
    /* ZeRO's table 1: stage 1 shards the optimizer state, 2 the gradients
     * too, 3 the weights too; hsdp is stage 3 over a node's ranks */
    u->sharding = asked;
    if (sharding == SC_SHARD_HSDP)
        n = local / tp > 1 ? local / tp : 1;
    /* the routed experts' state shards over the expert-data-parallel ranks
     * (resolve_expert_dp), fewer than the data-parallel ones under ep:
     * none at all where ep x pp spans the cluster */
    xn = resolve_expert_dp(sc, ranks);
    xn = xn < n ? xn : n;
    {
        double kept = params > 0 ? resolve_sharded_params(params, xparams, n, xn) / params : 1 / n;
        double tkept = sc->workload.lora_rank > 0 ? 1 / n : kept;   /* the adapters: dense */
        if (sharding >= SC_SHARD_ZERO1)
            u->optimizer *= tkept;
        if (sharding >= SC_SHARD_ZERO2)
            u->gradients *= tkept;
        if (sharding >= SC_SHARD_ZERO3)
            u->weights *= kept;
    }
    if (shape_known(m)) {
        u->activations = layer_mb * per_layer + head;
    } else {
        u->activations = m->act_mib_per_sample * DT_MIB * width * b;
    }
    /* the gradient bucket being reduced and the next one filling; sharded
     * weights also hold two units gathered (the one computing and the one
     * prefetched) and one unit's gradients before their reduce-scatter */
    u->buffers = in->gpu_count > 0 && ranks > 1 ? 2 * sc->gradients.bucket_bytes : 0;
    if (sharding >= SC_SHARD_ZERO3 && n > 1) {
        /* units as the simulator cuts them (resolve.c): layers, or buckets */
        double gw = resolve_grad_width(sc);
        double units = shape_known(m) && m->layers > 0 ? m->layers
                                                       : ceil(m->params * gw / sc->gradients.bucket_bytes);
        u->buffers = m->params / tp / (units >= 1 ? units : 1) * (2 * w + gw);
    }
    u->buffers += gemm_workspaces(sc, in);
    /* the allgather dispatcher gathers a layer's tokens into Megatron-Core's
     * global memory buffer (use_global_buffer), held from the first MoE
     * layer on and reused by the others */
    u->buffers += resolve_ep_gathered_bytes(sc);
    /* full recompute: during a layer's backward its forward's activations
     * are made again beside the inputs the layers keep (those are the
     * activations above, as Korthikanti et al. 2022 count them), transient
     * as a buffer is */
    if (shape_known(m) && sc->parallel.recompute == SC_RECOMPUTE_FULL)
        u->buffers += b * width *
                      memory_layer_act(m, scenario_rank_tokens(sc), tp, sc->parallel.etp,
                                       scenario_moe_imbalance(sc), sc->parallel.sequence_parallel,
                                       sc->workload.attention != SC_ATTN_UNFUSED,
                                       memory_act_flags(sc), SC_RECOMPUTE_NONE);
    u->total = u->weights + u->fp8_weights + u->gradients + u->optimizer + u->buffers +
               (isnan(u->activations) ? 0 : u->activations);
    /* the optimizer's step: the activations are gone, the state is there
     * and, where the gradients are 16-bit beside fp32 master weights, the
     * fp32 copy of the optimizer's share of them that it steps with
     * (grad_copy_bytes; fully sharded weights as asked, a pipeline's FSDP
     * too, keep fp32 gradient shards); the whole a GPU holds is the larger
     * of the two */
    u->grad_copy = grad_copy_bytes(sc, asked, w, g, o, u->optimizer);
    u->held = held_of(sc, in, u);
    u->total = fmax(u->total, step_peak(sc, in, u));
}

/*
 * What a pipeline stage keeps between steps of what its neighbour sent:
 * each model chunk the stage runs holds the last micro-batch's input (its
 * block's input_tensor, set each forward and not cleared) and that input's
 * gradient (the schedule's retain_grad, read by its backward), a micro-
 * batch's hidden states each (megatron/core/transformer/transformer_block.py
 * set_input_tensor, megatron/core/pipeline_parallel/schedules.py; NVIDIA/
 * Megatron-LM@d98e8a6).  Every chunk of a stage but the first stage's first,
 * which embeds its tokens instead; by the schedule's peak each chunk has
 * taken a new one, so only `held` counts them.
 */
static double stage_inputs_held(const struct scenario *sc, int first)
{
    const struct cat_model *m = sc->workload.model;
    int tp = sc->parallel.tp > 1 ? sc->parallel.tp : 1;
    int v = sc->parallel.interleave > 1 ? sc->parallel.interleave : 1;
    double hidden = scenario_rank_tokens(sc) * sc->parallel.micro_batch * m->hidden *
                    act_width(sc) * 2 / (sc->parallel.sequence_parallel ? tp : 1);

    return (first ? v - 1 : v) * 2 * hidden;
}

static void parts_of(const struct mem_use *u, struct mem_parts *p)
{
    p->weights = u->weights;
    p->fp8_weights = u->fp8_weights;
    p->gradients = u->gradients;
    p->optimizer = u->optimizer;
    p->activations = u->activations;
    p->buffers = u->buffers;
    p->grad_copy = u->grad_copy;
    p->held = u->held;
    p->total = u->total;
}

void memory_of(const struct scenario *sc, enum sc_sharding sharding, const struct cat_instance *in,
               int ranks, int local, struct mem_use *u)
{
    const struct cat_model *m = sc->workload.model;
    int tp = sc->parallel.tp > 1 ? sc->parallel.tp : 1;
    double w, g, o, b = sc->parallel.micro_batch;
    double gib = in->gpu_count > 0 ? (!isnan(in->gpu_mem_gib) ? in->gpu_mem_gib
                                      : in->gpu ? in->gpu->mem_gib : NAN)
                                   : in->mem_gib;
    double layer_mb = m->layers, per_layer = shape_known(m) ? memory_layer_bytes(sc) : 0;
    /* what the loss keeps over the vocabulary, on the stage with the head,
     * with the multi-token-prediction modules' (mtp_head) */
    double loss = m->lm_head ? loss_bytes(sc) * b * act_width(sc) * scenario_rank_tokens(sc) *
                                   m->vocab / tp + mtp_head(sc, per_layer)
                             : 0;
    enum sc_sharding asked = sharding;

    /* under a pipeline FSDP holds a stage's parameters and gradients whole
     * through the step (resolve.c, resolve_shard): the distributed
     * optimizer's state */
    if (sc->parallel.pp > 1 && sharding > SC_SHARD_ZERO1)
        sharding = SC_SHARD_ZERO1;
    state_bytes(sc, sharding, &w, &g, &o);
    if (sc->workload.offload_layers > 0 && sc->workload.offload_layers < m->layers)
        layer_mb = m->layers - sc->workload.offload_layers;   /* the rest in host memory */
    if (sc->parallel.pp > 1 && shape_known(m)) {
        /* the fuller of the first stage and the last */
        double p0, l0, p1, l1, x0, x1, g0, g1;
        int rep = scenario_replica_gpus(sc);
        int mb = ranks / rep > 0 ? resolve_accum(sc, ranks / rep) : 1;
        struct mem_use first, last;
        stage_of(sc, mb, 1, &p0, &x0, &l0, &g0);
        stage_of(sc, mb, 0, &p1, &x1, &l1, &g1);
        use_of(sc, asked, sharding, in, ranks, local, p0, x0, g0, l0, per_layer, 0, w, g, o,
               &first);
        use_of(sc, asked, sharding, in, ranks, local, p1, x1, g1, l1, per_layer, loss, w, g, o,
               &last);
        first.held += stage_inputs_held(sc, 1);
        last.held += stage_inputs_held(sc, 0);
        *u = last.total > first.total ? last : first;
        u->stage = last.total > first.total ? MEM_STAGE_LAST : MEM_STAGE_FIRST;
        parts_of(&first, &u->stages[0]);
        parts_of(&last, &u->stages[1]);
    } else {
        double held = resolve_state_params(sc), embed = 0, out = 0, gemm = 0;
        if (shape_known(m)) {
            shape_tables(m, &embed, &out);
            gemm = fp8_gemm_params(sc, held - embed - (m->tied_embeddings ? 0 : out), m->layers,
                                   2 * bf16_layers(sc));
        }
        use_of(sc, asked, sharding, in, ranks, local, held, resolve_expert_state_params(sc), gemm,
               layer_mb, per_layer, loss, w, g, o, u);
        u->stage = MEM_STAGE_NONE;
        struct mem_parts none = {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
        u->stages[0] = u->stages[1] = none;
    }
    u->device = gib * DT_GIB;
    /* what the dispatcher registers from its own allocator is not the
     * framework's to use */
    u->registered = in->gpu_count > 0 ? resolve_ep_registered_bytes(sc, in) : 0;
    u->capacity = u->device * MEMORY_USABLE - u->registered;
}

const char *memory_stage_name(int stage)
{
    return stage == MEM_STAGE_FIRST ? "first" : stage == MEM_STAGE_LAST ? "last" : NULL;
}

void memory_why(const struct scenario *sc, const struct cat_instance *in, const struct mem_use *u,
                char *buf, size_t len)
{
    double state = u->weights + u->gradients + u->optimizer;
    const char *stage = memory_stage_name(u->stage);
    char reg[96] = "", fp8[96] = "";

    buf[0] = '\0';
    if (!(u->total > u->capacity))
        return;
    if (u->registered > 0)
        snprintf(reg, sizeof reg, " (the dispatcher's registered buffers take %.1f GiB)",
                 u->registered / DT_GIB);
    if (u->fp8_weights > 0)
        snprintf(fp8, sizeof fp8, ", the fp8 copies of its weights %.1f GiB",
                 u->fp8_weights / DT_GIB);
    if (u->grad_copy > 0 && !(step_peak(sc, in, u) < u->total)) {
        /* the optimizer's step is the peak */
        snprintf(buf, len,
                 "%.1f GiB per GPU%s%s%s at the optimizer's step (model state %.1f GiB%s and the "
                 "fp32 copy of its 16-bit gradients it steps with, %.1f GiB) is over the %.1f GiB "
                 "usable of its %.0f GiB%s by %.1f GiB; %s", u->total / DT_GIB,
                 stage ? " of the " : "", stage ? stage : "", stage ? " pipeline stage" : "",
                 state / DT_GIB, fp8, u->grad_copy / DT_GIB, u->capacity / DT_GIB,
                 u->device / DT_GIB,
                 reg, (u->total - u->capacity) / DT_GIB,
                 u->sharding == SC_SHARD_NONE
                     ? "sharding the optimizer state (gradients.sharding) divides the copy too"
                     : "more data-parallel ranks divide the optimizer's share and its copy");
        return;
    }
    snprintf(buf, len,
             "%.1f GiB per %s%s%s%s (model state %.1f GiB%s, activations %s%.1f GiB) is over "
             "the %.1f GiB usable of its %.0f GiB%s by %.1f GiB%s",
             u->total / DT_GIB, in->gpu_count > 0 ? "GPU" : "worker",
             stage ? " of the " : "", stage ? stage : "", stage ? " pipeline stage" : "",
             state / DT_GIB, fp8,
             isnan(u->activations) ? "unknown, " : "",
             isnan(u->activations) ? 0 : u->activations / DT_GIB, u->capacity / DT_GIB,
             u->device / DT_GIB, reg, (u->total - u->capacity) / DT_GIB,
             state > u->capacity ? (u->sharding < SC_SHARD_ZERO2
                                        ? "; the model state alone does not fit: shard it "
                                          "(gradients.sharding)"
                                        : "; the model state alone does not fit: more "
                                          "data-parallel ranks divide it")
             : sc->parallel.micro_batch > 1 ? "; a smaller batch_per_gpu fits more"
             : u->sharding == SC_SHARD_NONE ? "; sharding the model state (gradients.sharding) "
                                               "frees memory"
                                             : "; more data-parallel ranks divide the sharded state");
}
