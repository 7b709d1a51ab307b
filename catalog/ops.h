/*
 * ops.h - a model as the operations a GPU runs: matrix work (convolutions,
 * the linear layers, attention's products) with the shape of each GEMM, and
 * memory-bound work (normalisation, activations, residual additions,
 * pooling, softmax, dropout, embedding lookups) with the elements it reads
 * and writes.  The planner times each on a GPU (planner/compute.h).
 *
 * Three ways in, best first:
 *   - arch: a network laid out layer by layer from its published
 *     architecture (ResNet, He et al. 2016, torchvision's v1.5 variant;
 *     VGG-16, Simonyan and Zisserman 2015);
 *   - shape: a transformer from catalog.models' layers, hidden, heads, ...
 *     (shape.h), block by block;
 *   - neither: one item of matrix work carrying the row's forward FLOPs.
 * Everything is per sample (one image, one sequence) of the forward pass;
 * docs/model.md "Compute" gives the element counts of each kind.
 */
#ifndef DT_OPS_H
#define DT_OPS_H

#include "catalog.h"

enum ops_kind {
    OPS_CONV, OPS_LINEAR, OPS_ATTN,                 /* matrix work */
    OPS_BNORM, OPS_LNORM, OPS_ACT, OPS_ADD, OPS_POOL, OPS_SOFTMAX, OPS_DROPOUT, OPS_EMBED,
    OPS_ROPE,                                       /* rotary embedding of Q and K */
    OPS_COPY,                                       /* OPS_BSH's copies around the
                                                       tensor-parallel collectives */
    OPS_NKIND
};

struct ops_item {
    enum ops_kind kind;
    double count;       /* kernels of this item per forward pass (repeats, e.g. layers) */
    /* Matrix work: nb independent GEMMs per sample of m rows (m grows with
     * the batch), n columns and a k-long reduction; a_elems the elements
     * its first operand reads per sample (an implicit-GEMM convolution reads
     * its input once, not the m x k unrolled matrix).  flops > 0 instead of
     * a shape: a model known only by its FLOPs. */
    double m, n, k, nb, a_elems, flops;
    int grouped;        /* the nb GEMMs launched one by one (a MoE layer's experts, as
                           Transformer Engine's grouped linear runs them), not one grid:
                           over this many streams at once (OPS_GROUP_STREAMS); 0 one grid */
    unsigned mods;      /* the OPS_MOD_* modules it belongs to (recompute_modules) */
    int no_dgrad;       /* the first layer: no gradient of its input */
    double recompute;   /* share of the forward GEMMs redone in backward (fused attention) */
    /* Fused attention (FlashAttention; planner/compute.c times it from
     * catalog/flash.h where it can): one of its two products, of a kernel
     * whose queries' and keys' head dimension is head_dim (both products
     * take the kernel's rate: MLA's 192 against its values' 128), causal 1
     * under a causal mask (the kernel skips the masked half). */
    int flash, causal;
    double head_dim;
    int dropout;        /* fused attention with dropout (catalog/flash.h's factor) */
    double window;      /* fused attention under a sliding window: the keys a query sees
                           (fewer than the sequence; 0 without one) */
    /* Memory-bound work: elements read plus written per sample. */
    double elems_fwd, elems_bwd;
    /* Under mixed precision (PyTorch autocast): amp_bytes > 0 is the mean
     * bytes per element of a kernel autocast runs in fp32 (softmax, layer
     * norm: 16-bit in, 32-bit out), amp_only an item that exists only then
     * (the cast back to 16 bits before the next matrix product). */
    double amp_bytes;
    int amp_only;
    int attn_core;      /* part of a transformer's attention core (QK^T, its scaling,
                           softmax and dropout, AV): what selective recompute redoes */
    /* fp8 (Transformer Engine): fp8 1 for a transformer block's four linear
     * layers, the GEMMs fp8 runs (the output projection over the vocabulary
     * stays 16-bit); cast_fused 1 where the kernel before it (a layer norm,
     * an activation) writes its input in fp8, 0 where a cast of its own
     * does (the attention's output projection). */
    int fp8, cast_fused;
    /* A routed expert's product under Transformer Engine's fused grouped
     * MLP (OPS_EXPERT_GROUPED unset): OPS_EPI_FWD, its input's fp8 copies
     * (row- and column-wise) written by the first product's GLU epilogue
     * (the second product); OPS_EPI_BWD, its output gradient's written by
     * the second product's dGLU epilogue (the first).  Where those kernels
     * run (Blackwell, MXFP8) planner/compute.c counts no cast for them. */
    int epi_cast;
    /* Which of a transformer block's products it is (OPS_PROJ_*; 0 none):
     * what LoRA's targets name (catalog/ops_lora.c).  no_wgrad 1: a frozen
     * weight, backward computes its input's gradient only. */
    int proj, no_wgrad;
    /* Per-operator selective recompute (workload.recompute: selective_op):
     * the share of this item's forward that backward runs again.  torchtitan
     * saves the output of every odd matrix product of a block, counting
     * Q, K and V apart, and of attention, and redoes the rest: K, the output
     * projection and the second feed-forward product (gated: its second
     * half; torchtitan's llama runs w1, w3 then w2), with the block's norms
     * and activation (pytorch/torchtitan@9dec370, torchtitan/parallelisms/
     * parallelize_llama.py, _apply_ac_to_transformer_block). */
    double op_sac;
};

struct ops_model {
    struct ops_item *v;
    int n, cap;
    int style;          /* OPS_PURE, OPS_FUSED bits it was laid out with */
    double tensors;     /* parameter tensors, as PyTorch modules hold them (a weight
                           and its bias two; 0 for a model known by FLOPs only): what
                           an optimizer's loop walks (planner/resolve.c) */
};

/*
 * How the framework runs the memory-bound work (OPS_* bits of `style`):
 * OPS_PURE, 16-bit activations throughout under mixed precision (apex O2,
 * Megatron-LM, DeepSpeed's fp16) rather than PyTorch autocast's fp32
 * softmax and layer norm and their casts back; OPS_FUSED, Megatron-LM's
 * fused kernels (Narayanan et al. 2021, arXiv:2104.04473, section 4.2):
 * scale, mask and softmax in one kernel, bias, dropout and residual add in
 * one.  0 is PyTorch eager under autocast.
 */
/* A transformer layer's modules as Megatron-Core's --recompute-modules names
 * them (megatron/core/transformer/transformer_config.py): the attention
 * core, the two layer norms before attention and the feed-forward block,
 * MLA's up projections, a dense layer's feed-forward block, a MoE layer's
 * whole block (router, dispatch, experts, combine), its experts' activation
 * and its shared experts.  ops_item.mods is a set of their bits. */
enum { OPS_MOD_CORE_ATTN = 0, OPS_MOD_LAYERNORM, OPS_MOD_MLA_UP, OPS_MOD_MLP, OPS_MOD_MOE,
       OPS_MOD_MOE_ACT, OPS_MOD_SHARED, OPS_NMOD };
const char *ops_mod_name(int i);    /* core_attn, layernorm, ... NULL past the end */

#define OPS_PURE 1
#define OPS_FUSED 2
/* OPS_BSH: the activations are batch first (b x s x h) under sequence
 * parallelism, as PyTorch's DTensor SequenceParallel shards them
 * (torchtitan): a sequence shard is not contiguous, so each all-gather
 * copies its gathered tensor into place after the collective and each
 * reduce-scatter its input before it (torch.distributed.
 * _functional_collectives: all_gather_tensor and reduce_scatter_tensor
 * with a gather or scatter dimension other than 0: torch.cat of
 * torch.chunk).  Megatron-LM's s x b x h needs no copy. */
#define OPS_BSH 4
/* OPS_EXPERT_GROUPED: the experts' block as Megatron-Core's TEGroupedMLP ran
 * it before Transformer Engine's fused grouped MLP (workload.expert_mlp:
 * grouped): a clamped activation clamps its halves in kernels of their own,
 * and the second product's biases are added expert by expert in fp32
 * (catalog/ops.c expert_epilogue).  Without it the block is fused and the
 * biases and the clamp cost nothing more. */
#define OPS_EXPERT_GROUPED 8
/* OPS_EXPERT_SEQUENTIAL (with OPS_EXPERT_GROUPED): Megatron-Core's
 * SequentialMLP (its default, without --moe-grouped-gemm), each local
 * expert's products run one after another on the compute stream, not
 * spread over Transformer Engine's grouped GEMM's streams. */
#define OPS_EXPERT_SEQUENTIAL 16
/* ops_item.grouped of an expert's products: the streams Transformer
 * Engine's grouped linear spreads its nb GEMMs over (transformer_engine/
 * common/util/multi_stream.cpp, get_num_compute_streams: 4), or 1 under
 * OPS_EXPERT_SEQUENTIAL */
#define OPS_GROUP_STREAMS 4
#define OPS_EPI_FWD 1
#define OPS_EPI_BWD 2

/* Model m's parameter tensors, as ops_build counts them (ops_model.tensors),
 * without laying it out. */
double ops_tensors(const struct cat_model *m);

/* Lay out model m, a sample being seq tokens for a shaped model (0: its
 * seq_len); flash: attention as one fused kernel (FlashAttention) rather
 * than two batched GEMMs around a softmax held in memory.  Convolutions
 * say nothing of their layout: the planner adds the transposes of an NCHW
 * tensor (compute.h).  tp > 1: what one GPU of a tensor-parallel group of
 * tp runs, Megatron style (a transformer given by its shape only): the
 * projections' output or reduction width, the heads and the vocabulary
 * divided by tp; the layer norms, dropouts and residual adds whole, or
 * divided too under sequence parallelism (sp); style, the OPS_* bits above. */
void ops_build(const struct cat_model *m, int seq, int flash, int tp, int sp, int style,
               struct ops_model *out);
/* How a rank's share of a transformer is cut (ops_build_layout): tp and
 * sp as for ops_build; cp > 1, one rank of a context-parallel group
 * (parallel.cp): seq / cp tokens through every product, their queries'
 * attention over all seq keys (causal, load-balanced: each rank half of
 * those it pairs); ep > 1, one rank of an expert-parallel group
 * (parallel.ep): experts / ep experts, each over the rows the ep ranks
 * route to it; moe_imbalance >= 1, the busiest rank's rows over an even
 * share (0: even). */
struct ops_layout {
    int tp, sp, cp, ep;
    double moe_imbalance;
    int etp;                    /* expert tensor parallelism; 0: tp's */
};
void ops_build_layout(const struct cat_model *m, int seq, const struct ops_layout *lay, int flash,
                      int style, struct ops_model *out);
void ops_free(struct ops_model *o);

/* A transformer block's four products as LoRA's targets name them
 * (workload.lora_targets): the fused query-key-value projection, the
 * attention's output projection, the feed-forward block's first (gated:
 * gate and up together) and second products. */
enum { OPS_PROJ_NONE = 0, OPS_PROJ_QKV, OPS_PROJ_OUT, OPS_PROJ_FC1, OPS_PROJ_FC2, OPS_NPROJ };
/* A target set holds 1 << (OPS_PROJ_* - 1); ops_lora_target_name(i) names
 * bit i (qkv, out, fc1, fc2; NULL past the end). */
const char *ops_lora_target_name(int i);
#define OPS_LORA_BIT(proj) (1u << ((proj) - 1))
#define OPS_LORA_DEFAULT (OPS_LORA_BIT(OPS_PROJ_QKV) | OPS_LORA_BIT(OPS_PROJ_OUT))

/*
 * LoRA fine-tuning (catalog/ops_lora.c; Hu et al. 2021, arXiv:2106.09685),
 * applied to a layout ops_build_layout made: every weight of o frozen (backward computes the inputs' gradients only,
 * the embedding none), and beside each product a target names, its
 * adapter: x A (k x rank) then (x A) B (rank x n), trainable, in 16 bits.
 * Experts' products (grouped) take none.  ops_lora_params: the adapters'
 * parameters over model m, whole (before tensor parallelism).
 */
void ops_lora(struct ops_model *o, int rank, unsigned targets);
double ops_lora_params(const struct cat_model *m, int rank, unsigned targets);
/* An item appended to o (kind, count a pass), zeroed but for them, and a
 * GEMM of m x n x k so appended: the layouts' common steps (ops.c,
 * ops_lora.c). */
struct ops_item *ops_push(struct ops_model *o, enum ops_kind kind, double count);
struct ops_item *ops_gemm(struct ops_model *o, enum ops_kind kind, double count, double m,
                          double n, double k);

/* Forward FLOPs per sample of the matrix work (2 per multiply-add). */
double ops_fwd_flops(const struct ops_model *o);

int ops_is_matrix(int kind);
const char *ops_kind_name(int kind);      /* closed set (base/names.h) */

/* The architectures ops_build lays out: the i-th name, NULL past the end. */
const char *ops_arch_name(int i);
int ops_arch_known(const char *name);

#endif
