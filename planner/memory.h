/*
 * memory.h - what one GPU (or CPU worker) of a cluster holds during a
 * training step (docs/model.md "Memory"), and whether it fits.
 *
 * Model state: weights, gradients and optimizer state, 16 bytes per
 * parameter for Adam in mixed precision or in fp32 (Rajbhandari et al. 2020,
 * "ZeRO", section 3.1: 2 + 2 + 12, or 4 + 4 + 8), the gradients at
 * gradients.precision's width (fp32: 2 + 4 + 12, Megatron-LM's main_grad;
 * not with the weights sharded, where FSDP's 4 + 4 + 8 totals the same 16),
 * divided by the data-parallel ranks as the sharding stage shares it
 * (their table 1).
 * Activations: a transformer given by its shape keeps s b h (34 + 5 a s / h)
 * bytes per layer at 16 bits without recompute (Korthikanti et al. 2022,
 * arXiv:2205.05198, eq. 2), less the 5 a s / h of the attention scores when
 * attention is fused (flash) or recomputed (selective), 2 s b h with full
 * recompute (the layer's input alone; a gated feed-forward keeps 8 s b f,
 * 6 s b f with Megatron-Core's fused SwiGLU), plus the loss's 6 s b v at
 * its peak (the fp32 softmax and the 16-bit logits or gradient beside it;
 * workload.cross_entropy in_place 2 s b v, upcast 12 s b v); tensor
 * parallelism divides the 24 of the 34 that are split across ranks, and
 * sequence parallelism the other 10.
 * Other models: catalog act_mib_per_sample per sample at 16 bits.
 * Twice the 16-bit figures when activations are fp32.
 */
#ifndef DT_MEMORY_H
#define DT_MEMORY_H

#include "../scenario/scenario.h"

/* Share of the GPU's memory a step may use: the rest goes to the CUDA
 * context, cuBLAS and NCCL workspaces and fragmentation (assumed). */
#define MEMORY_USABLE 0.90

/* One pipeline stage's parts of struct mem_use, bytes. */
struct mem_parts {
    double weights, fp8_weights, gradients, optimizer, activations, buffers, grad_copy, held,
        total;
};

/* Bytes per GPU (or CPU worker); activations NAN when unknown. */
struct mem_use {
    double weights, gradients, optimizer, activations, buffers, total;
    double fp8_weights; /* Transformer Engine's fp8 copies of the weights whose products run in
                           fp8 (rowwise and columnwise), kept from the first forward through
                           the optimizer's step; 0 if none */
    double grad_copy;   /* the fp32 copy of 16-bit gradients the optimizer makes at its step
                           (Megatron-Core's main_grad.float()), freed with the next step's
                           zero_grad: beside the state, not the activations; 0 if none */
    double capacity;    /* usable: MEMORY_USABLE of the device's memory, less `registered` */
    double registered;  /* held outside PyTorch's allocator (HybridEP's and DeepEP's
                           registered buffers), not in total */
    double device;      /* the device's memory */
    enum sc_sharding sharding; /* how the state was divided */
    int stage;          /* under a pipeline the stage counted, the fuller: MEM_STAGE_* */
    double held;        /* what stays allocated between steps: the weights and their fp8
                           copies, the gradients, the optimizer's state and the GEMM
                           workspaces (Megatron-LM's mem-allocated-bytes) */
    struct mem_parts stages[2]; /* under a pipeline each stage's parts, the first's and the
                                  last's; all NAN without one */
};

/* mem_use.stage */
enum { MEM_STAGE_NONE, MEM_STAGE_FIRST, MEM_STAGE_LAST };

/* "first" or "last" for a pipeline's stage; NULL without a pipeline. */
const char *memory_stage_name(int stage);

/* memory_layer_act's flags */
enum {
    MEM_ACT_FUSED = 1,  /* Megatron's fused kernels: a gated feed-forward's fused SwiGLU */
    MEM_ACT_FP8 = 2,    /* the GEMMs' inputs kept in fp8 (Transformer Engine's fp8) */
    MEM_ACT_PROJ_FP8 = 4, /* with MEM_ACT_FP8, the output projection keeps its own fp8 copy
                            (delayed scaling; Megatron-Core has it keep attention's 16-bit
                            output under the other recipes) */
    MEM_ACT_REDO_MOE = 8, /* recompute_modules moe: a MoE block keeps its input alone */
    MEM_ACT_REDO_MOE_ACT = 16, /* recompute_modules moe_act: the experts' activation output
                                  not kept */
    MEM_ACT_FP8_ACT_IN = 32, /* workload.fp8_act_input: the fused SwiGLU's input kept in fp8
                               for its backward (Megatron-Core's
                               activation_func_fp8_input_store) */
    MEM_ACT_FROZEN = 64,    /* LoRA: the weights frozen, so a product keeps its input only for
                               its adapter's gradient (16-bit), the experts' none */
    MEM_ACT_ADAPT_QKV = 128, MEM_ACT_ADAPT_OUT = 256, MEM_ACT_ADAPT_FC1 = 512,
    MEM_ACT_ADAPT_FC2 = 1024, /* with MEM_ACT_FROZEN, the products that have adapters */
    MEM_ACT_FP8_ATTN = 2048, /* fused attention in fp8 (workload.fp8_attention): it keeps Q, K
                               and V in fp8, and its output in fp8 too under delayed scaling
                               (MEM_ACT_PROJ_FP8) */
    MEM_ACT_REDO_MLA_UP = 4096 /* recompute_modules mla_up_proj: MLA's Q, K and V not kept
                                  (made again from its latents in the backward) */
};

/* Activation bytes of one layer of shaped transformer m, per sample of s
 * tokens, with tp-way tensor parallelism (sp: sequence parallel too; etp,
 * its experts' tensor parallelism, 0 for tp's), a mixture of experts'
 * routed copies imb times an even share (the busiest rank's; 1 for even),
 * `flash` attention, MEM_ACT_* flags and `rc` recompute; 16-bit
 * activations. */
double memory_layer_act(const struct cat_model *m, double s, int tp, int etp, double imb, int sp,
                        int flash, int flags, enum sc_recompute rc);

/* One layer's activations of one micro-batch of sc's workload (a model given
 * by its shape), bytes: memory_layer_act at sc's sequence, layout,
 * attention, kernels, fp8 library and recompute, times the micro-batch and
 * the activations' width; with workload.recompute_layers, the mean over the
 * model's layers of those that recompute and those that keep everything. */
double memory_layer_bytes(const struct scenario *sc);

/* A checkpoint of sc's model state, bytes: the weights and the optimizer's
 * state (fp32 master weights and Adam's moments in mixed precision: 14
 * bytes a parameter; BLOOM-176B's measured 2.3 TB, 13 a parameter,
 * bigscience-workshop/bigscience train/tr11-176B-ml/README.md), the
 * gradients not kept. */
double memory_checkpoint_bytes(const struct scenario *sc);

/* What one worker of instance `in` holds with sc's workload over `ranks`
 * data-parallel workers of which `local` share a node (hsdp), the model
 * state divided as `sharding` says (sc's, or none under parameter
 * servers). */
void memory_of(const struct scenario *sc, enum sc_sharding sharding, const struct cat_instance *in,
               int ranks, int local, struct mem_use *u);

/* "" when u fits; else why not, one clause into buf (what does not fit, by
 * how much, and what would help). */
void memory_why(const struct scenario *sc, const struct cat_instance *in, const struct mem_use *u,
                char *buf, size_t len);

#endif
