/*
 * compute.h - the time one GPU takes for a model's forward and backward
 * passes, operation by operation (catalog/ops.h): a roofline per GEMM and
 * per memory-bound kernel, at the number formats a precision runs at on
 * that GPU, plus a fixed cost per kernel.  docs/model.md "Compute".
 *
 *   GEMM:   max(2 m n k / (F x u), bytes / B) + kernel
 *   memory: elements x bytes per element / B + kernel
 *
 * F is what a large GEMM achieves in the format (a profile's cuBLAS sweep,
 * else the dense peak times the GPU's published mm_eff, or fp32_eff for
 * fp32 on the CUDA cores), B what a stream
 * copy achieves (nominal bandwidth times mem_eff), u the share of the
 * GPU's SMs the GEMM's 128 x 128 tiles keep busy (tile edges and the last
 * wave; a reduction too long for too few tiles is split across SMs).
 * Backward runs each GEMM twice over (the input's and the weights'
 * gradients, each with its own output shape) and each memory-bound kernel
 * with its backward element count.
 */
#ifndef DT_COMPUTE_H
#define DT_COMPUTE_H

#include "../catalog/catalog.h"
#include "../catalog/ops.h"

/* What a precision request (workload.precision) runs at on one GPU:
 * the format of each kind of matrix work and the bytes of an activation. */
struct compute_plan {
    enum cat_prec conv, linear, attn;
    enum cat_prec half;      /* the 16-bit format of what fp8 leaves in 16 bits (the
                                vocabulary's projection, workload.fp8_bf16_layers) */
    int fp8_recipe;          /* enum sc_fp8_recipe: the casts' costs (compute_time_of) */
    int fp8_bf16_layers;     /* the first and the last this many layers in 16 bits */
    int fp8_attn;            /* fused attention in fp8 (workload.fp8_attention): 0 no, 1
                                per-tensor scales, 2 MXFP8 blocks */
    int act_bytes;
    int transpose;           /* 1: NCHW convolutions on tensor cores, transposed to NHWC
                                and back around each (workload.memory_format) */
    char note[120];          /* a fallback the output reports, "" none */
    unsigned redo_mods;      /* the OPS_MOD_* modules whose forward backward runs again
                                (workload.recompute_modules) */
};

/* The formats of `want` on GPU g (docs/model.md "Precision"): fp32 runs
 * convolutions as TF32 where the GPU has it (cuDNN's default in PyTorch and
 * TensorFlow), linear layers in fp32 (PyTorch's default since 1.12) unless
 * strict; fp16 and bf16 are mixed precision; bf16 falls back to fp16 and
 * fp8 (linear layers only, Transformer Engine style) to bf16 where the GPU
 * lacks them.  Returns -1 when g has no peak at all for the formats. */
int compute_plan_of(const struct cat_gpu *g, enum cat_prec want, int strict,
                    struct compute_plan *p);

/* What one GPU delivers. */
struct compute_rates {
    double flops[CAT_NPREC]; /* large-GEMM FLOP/s per format, NAN where none */
    double mem_Bps;          /* streaming bandwidth, bytes/s */
    int sms;                 /* 0: tile waves not modelled */
    int cdna;                /* AMD's CDNA generation (0 not AMD): AMD's published fused-
                                attention rates (flash_share_amd) */
    int cc;                  /* compute capability x 10 (0 unknown): which published
                                fused-attention rates apply (catalog/flash.h) */
    int assumed;             /* 1: the GPU's mm_eff or mem_eff was not known */
    int measured;            /* 1: GEMM rates from a calibration profile */
    double fp4_over_fp8;     /* an NVFP4 product's rate over the fp8 one's (compute.c) */
};

/* One m x n x k product in format f at rates r, as the model times each of a
 * layer's GEMMs (its tiles, waves and bytes; validation against measured
 * sweeps). */
double compute_gemm_s(const struct compute_rates *r, double m, double n, double k,
                      enum cat_prec f);
/* The same product under fp8_recipe nvfp4, as the model times a layer's
 * 4-bit products: the fp8 product over r->fp4_over_fp8 (the GPU's published
 * NVFP4 share of its fp4 peak, else NVFP4's measured 1.81x; compute.c
 * FP4_OVER_FP8). */
double compute_fp4_gemm_s(const struct compute_rates *r, double m, double n, double k);
/* nb products of m x n, reduction k, as a MoE layer's experts run them
 * (Transformer Engine's grouped linear: one call an expert over 4 streams). */
double compute_grouped_s(const struct compute_rates *r, double m, double n, double k, double nb,
                         enum cat_prec f);

/* Rates of g; profile_tflops (NULL: none) is a profile's best GEMM TFLOP/s
 * per format, which replaces peak x mm_eff where it is present. */
void compute_rates_of(const struct cat_gpu *g, const double *profile_tflops,
                      struct compute_rates *r);

struct compute_time {
    double fwd_s, bwd_s;             /* one pass of `batch` samples */
    double kind_s[OPS_NKIND];        /* forward plus backward by kind */
    double core_fwd_s;               /* forward of the attention core (ops_item.attn_core) */
    double mods_fwd_s;               /* forward of the modules in compute_plan.redo_mods */
    double op_sac_s;                 /* forward that per-operator recompute redoes
                                        (ops_item.op_sac) */
    double tensors;                  /* the model's parameter tensors (ops_model.tensors) */
    double kernels;                  /* kernels launched per pass */
    double block_fwd_s[4];           /* one layer's forward in each of a transformer block's
                                        four products (ops_item.fp8), in the model's order */
};

/* Time of o on a GPU with rates r at plan p, `batch` samples at once.
 * Returns -1 when a format the plan needs has no rate. */
int compute_time_of(const struct ops_model *o, const struct compute_plan *p,
                    const struct compute_rates *r, double batch, struct compute_time *t);

struct scenario;

/*
 * One pass (forward and backward) of `batch` samples of sc's model on GPU
 * g, at sc's precision (auto: the fastest plan g has; *p says which).
 * profile_tflops as for compute_rates_of.  Returns -1 when g lacks the
 * peaks the precision needs.
 */
int compute_on_gpu(const struct scenario *sc, const struct cat_gpu *g,
                   const double *profile_tflops, double batch, struct compute_plan *p,
                   struct compute_time *t);

#endif
