/*
 * compute.c - a model's forward and backward time on one GPU, operation by
 * operation (compute.h; docs/model.md "Compute").  O(operations).
 */
#include "compute.h"
#include "../catalog/flash.h"
#include "../catalog/shape.h"
#include "../scenario/scenario.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Fractions assumed for a GPU whose gpus.csv row gives none: the medians of
 * the GPUs that have them (docs/model.md). */
#define DEFAULT_MM_EFF 0.76
#define DEFAULT_MEM_EFF 0.875
/* Fixed cost of one kernel on the GPU: launch and the tail of its last
 * wave, seconds (assumed; docs/model.md). */
#define KERNEL_S 3e-6
/*
 * What PyTorch's kernels of each memory-bound kind reach of the GPU's
 * streaming bandwidth, on tensors over 64 MB: the median over NeuSight's
 * per-operator latency sets (sitar-lab/NeuSight@6945927d
 * scripts/asplos/data/dataset/train/collect/{add,relu,gelu,ln,softmax},
 * PyTorch 2.1, fp32) on an A100 PCIe 40GB, a V100 PCIe 32GB and a T4, each
 * over that GPU's measured stream rate (gpus.csv mem_eff): element-wise
 * 0.87 (add 0.87, 0.87, 0.99), layer norm 0.55 (0.55, 0.54, 0.65; two
 * passes counted), softmax 0.63 (0.63, 0.61, 0.80).  Batch norm has no
 * such measurement: 1, its statistics pass already counted.
 */
static const double kind_bw[OPS_NKIND] = {
    [OPS_BNORM] = 1.0, [OPS_LNORM] = 0.55, [OPS_ACT] = 0.87, [OPS_ADD] = 0.87,
    [OPS_POOL] = 0.87, [OPS_SOFTMAX] = 0.63, [OPS_DROPOUT] = 0.87, [OPS_EMBED] = 0.87,
    [OPS_ROPE] = 0.87, [OPS_COPY] = 0.87};

/*
 * What an fp8 GEMM reaches of the fp8 peak, over what a 16-bit one reaches
 * of the 16-bit peak (mm_eff): 0.885, the medians measured on an H200 over
 * a transformer layer's 16 products at 8,192 tokens, fp8 (e4m3, per-tensor
 * scales, bf16 out) 0.669 of 1,978.9 TFLOP/s against bf16 0.756 of 989.4
 * (results/gpu-profiles/h200-fp8-gemm.json, calibrate/fp8_gemm.py;
 * docs/calibrate.md "fp8 matrix products").  Applied to every GPU with an
 * fp8 peak before Blackwell.  On Blackwell (compute capability 10.x):
 * 0.962, Transformer Engine's own GEMM benchmark on a B300 SXM6 (NVIDIA/
 * TransformerEngine@1609c890 docs/examples/gemm_profiling/
 * gemm_profiling.rst, a 5B layer's twelve products at 15,872 tokens,
 * pre-quantized): fp8 6.812 ms against bf16 13.102, 1.923x of the 2x the
 * peaks give.
 */
#define FP8_GEMM_SHARE 0.885
#define FP8_GEMM_SHARE_BLACKWELL (13.102 / 6.812 / 2)

/* NVFP4's products (fp8_recipe nvfp4): where a GPU's own large 4-bit
 * products are published, the share of its fp4 peak they reach (gpus.csv
 * fp4_eff: the GB200's and GB300's cuBLASLt sweeps, torchao's B200
 * squares); elsewhere the fp8 rate times what the same Transformer Engine
 * table measures between NVFP4 and per-tensor fp8 products, pre-quantized:
 * 3.764 ms against 6.812, 1.810x (a B300 SXM6, whose fp4 peak its sources
 * give as 12,600 to 15,000). */
#define FP4_OVER_FP8 (6.812 / 3.764)

/* GEMM tile edge and the shortest reduction worth a split across SMs. */
#define TILE 128
#define SPLIT_K_MIN 512

static int has(const struct cat_gpu *g, enum cat_prec f)
{
    return !isnan(g->peak_tflops[f]) && g->peak_tflops[f] > 0;
}

/* The best 16-bit format g has, bf16 first when asked for; FP32 if none. */
static enum cat_prec half_of(const struct cat_gpu *g, enum cat_prec want)
{
    if (want == CAT_BF16 && has(g, CAT_BF16))
        return CAT_BF16;
    if (has(g, CAT_FP16))
        return CAT_FP16;
    return has(g, CAT_BF16) ? CAT_BF16 : CAT_FP32;
}

int compute_plan_of(const struct cat_gpu *g, enum cat_prec want, int strict,
                    struct compute_plan *p)
{
    enum cat_prec tf = has(g, CAT_TF32) ? CAT_TF32 : CAT_FP32, h;

    memset(p, 0, sizeof *p);
    p->act_bytes = want == CAT_FP32 || want == CAT_TF32 ? 4 : 2;
    switch (want) {
    case CAT_FP32:
        p->conv = strict ? CAT_FP32 : tf;
        p->linear = p->attn = CAT_FP32;
        break;
    case CAT_TF32:
        p->conv = p->linear = p->attn = tf;
        if (tf != CAT_TF32)
            snprintf(p->note, sizeof p->note, "%s has no TF32: runs fp32", g->name);
        break;
    case CAT_FP8:
        h = half_of(g, CAT_BF16);
        p->conv = p->attn = p->half = h;
        p->linear = has(g, CAT_FP8) ? CAT_FP8 : h;
        if (!has(g, CAT_FP8))
            snprintf(p->note, sizeof p->note, "%s has no fp8: runs %s", g->name,
                     catalog_prec_name(h));
        break;
    default:
        h = half_of(g, want);
        p->conv = p->linear = p->attn = h;
        if (h != want)
            snprintf(p->note, sizeof p->note, "%s has no %s: runs %s", g->name,
                     catalog_prec_name(want), catalog_prec_name(h));
        if (h == CAT_FP32)
            p->act_bytes = 4;
        break;
    }
    if (want != CAT_FP8)
        p->half = p->linear;
    return has(g, p->conv) && has(g, p->linear) && has(g, p->attn) ? 0 : -1;
}

void compute_rates_of(const struct cat_gpu *g, const double *profile_tflops,
                      struct compute_rates *r)
{
    double mm = g->mm_eff > 0 ? g->mm_eff : DEFAULT_MM_EFF;
    double me = g->mem_eff > 0 ? g->mem_eff : DEFAULT_MEM_EFF;

    memset(r, 0, sizeof *r);
    r->assumed = !(g->mm_eff > 0) || !(g->mem_eff > 0);
    for (int f = 0; f < CAT_NPREC; f++) {
        double eff = f == CAT_FP32 && g->fp32_eff > 0 ? g->fp32_eff
                     : f == CAT_FP8 ? mm * (cat_cc_blackwell(g->cc) ? FP8_GEMM_SHARE_BLACKWELL
                                                                   : FP8_GEMM_SHARE)
                                                        : mm;
        r->flops[f] = has(g, (enum cat_prec)f) ? g->peak_tflops[f] * 1e12 * eff : NAN;
        if (profile_tflops && profile_tflops[f] > 0) {
            r->flops[f] = profile_tflops[f] * 1e12;
            r->measured = 1;
        }
    }
    r->fp4_over_fp8 = g->fp4_eff > 0 && g->fp4_tflops > 0 && r->flops[CAT_FP8] > 0
                          ? g->fp4_tflops * 1e12 * g->fp4_eff / r->flops[CAT_FP8]
                          : FP4_OVER_FP8;
    r->mem_Bps = g->mem_bw_gbs * 1e9 * me;
    r->sms = g->sm_count;
    r->cc = g->cc;
    r->cdna = g->cdna;
}

static double bytes_of(enum cat_prec f)
{
    return f == CAT_FP8 ? 1 : f == CAT_FP16 || f == CAT_BF16 ? 2 : 4;
}

/* Share of d rows or columns that tiles of up to TILE cover usefully;
 * *n the tiles.  An edge shorter than a tile gets a smaller power-of-two
 * tile. */
static double tile_use(double d, double *n)
{
    double t = TILE;

    if (d < TILE)
        for (t = 16; t < d; t *= 2)
            ;
    *n = ceil(d / t);
    return d / (*n * t);
}

/* One GEMM launch: nb products of m x n with reduction k, reading a_el
 * elements of the first operand in all, in format f. */
static double gemm_s(double m, double n, double k, double nb, double a_el, enum cat_prec f,
                     const struct compute_rates *r)
{
    double tm, tn, use = tile_use(m, &tm) * tile_use(n, &tn), tiles = tm * tn * nb;
    double flops = 2 * m * n * k * nb, out_b = f == CAT_FP8 ? 2 : bytes_of(f);
    double bytes = (a_el + k * n * nb) * bytes_of(f) + m * n * nb * out_b;

    if (r->sms > 0) {
        if (tiles < r->sms) {
            double split = fmin(floor(r->sms / tiles), floor(k / SPLIT_K_MIN));
            if (split > 1)
                tiles *= split;
        }
        use *= tiles / (ceil(tiles / r->sms) * r->sms);
    }
    return fmax(flops / (r->flops[f] * use), bytes / r->mem_Bps) + KERNEL_S;
}

double compute_gemm_s(const struct compute_rates *r, double m, double n, double k,
                      enum cat_prec f)
{
    return gemm_s(m, n, k, 1, m * k, f, r);
}

double compute_fp4_gemm_s(const struct compute_rates *r, double m, double n, double k)
{
    return compute_gemm_s(r, m, n, k, CAT_FP8) / r->fp4_over_fp8;
}

/* The format item it runs in: fp8 only for the GEMMs fp8 takes. */
static enum cat_prec format_of(const struct compute_plan *p, const struct ops_item *it)
{
    if (it->kind == OPS_CONV)
        return p->conv;
    if (it->kind == OPS_ATTN)
        return p->attn;
    return p->linear == CAT_FP8 && !it->fp8 ? p->half : p->linear;
}

/*
 * The casts an fp8 GEMM adds at `batch` samples, as Transformer Engine runs
 * them (docs/model.md "fp8"), memory-bound at the element-wise rate:
 * forward, its input's fp8 copy and the transposed copy the weight gradient
 * reads (a cast-transpose kernel reading 2 bytes and writing 1 + 1 an
 * element; where the norm or the activation before it writes fp8 itself,
 * the transpose alone, 1 + 1); backward, the output gradient's
 * cast-transpose (2 + 1 + 1).  Current scaling finds each tensor's amax
 * before casting, in a kernel of its own; MXFP8 a scale a block of 32 in
 * its cast.  Delayed scaling's amax history update is one kernel a step for
 * all tensors, and the weights' casts one a step (cached over
 * micro-batches): both left out.  A MoE layer's grouped products cast every
 * row their nb experts take; those whose casts the fused grouped MLP's
 * kernels write in their epilogues (ops_item.epi_cast, on Blackwell under
 * MXFP8) cast nothing there.
 *
 * The other recipes' quantization takes delayed scaling's time times what
 * Transformer Engine's own GEMM benchmark measures between them, its
 * autocast time less its pre-quantized time a layer (NVIDIA/
 * TransformerEngine@1609c890 docs/examples/gemm_profiling/
 * gemm_profiling.rst; a 5B layer at 15,872 tokens): on an H200 NVL current
 * scaling 3.50 ms against delayed 2.19 (1.60x, its amax read and kernel
 * included); on a B300 current scaling 2.34 and MXFP8 1.82 against delayed
 * 0.99 (2.36x and 1.84x: on Blackwell neither keeps to the memory rate
 * that delayed scaling's cast reaches).  Hopper's factor stands for other
 * GPUs before Blackwell, the B300's for Blackwell's.  On Blackwell delayed
 * scaling's own cast takes longer than its bytes at the element-wise rate:
 * the same table's 0.990 ms a layer (autocast 7.802 less the pre-quantized
 * products' 6.812) against the 0.601 ms the casts below give the B300
 * (7,700 GB/s), 1.648x, which Blackwell's recipes all take
 * (validate/fp8_gemm.pl then gives the table's ratios back).
 */
#define BLACKWELL_CAST (0.990 / 0.601)

/* MXFP8's block-scaled products on Blackwell take longer than per-tensor
 * fp8 ones: 7.161 against 6.812 ms a layer pre-quantized on the B300, the
 * same table. */
#define MXFP8_GEMM_BLACKWELL (7.161 / 6.812)

static double recipe_factor(int recipe, int cc)
{
    int blackwell = cat_cc_blackwell(cc);
    double base = blackwell ? BLACKWELL_CAST : 1;

    if (recipe == SC_FP8_CURRENT)
        return base * (blackwell ? 2335.0 / 990 : 3500.0 / 2193);
    if (recipe == SC_FP8_MXFP8)
        return base * 1823.0 / 990;
    if (recipe == SC_FP8_NVFP4)     /* autocast 6.453 less pre-quantized 3.764 ms */
        return base * 2689.0 / 990;
    return base;
}

static void fp8_casts(const struct ops_item *it, const struct compute_plan *p,
                      const struct compute_rates *r, double batch, double *fwd, double *bwd,
                      double *kernels)
{
    double nb = it->nb > 1 ? it->nb : 1;    /* a MoE layer's experts: all their rows */
    double bw = r->mem_Bps * kind_bw[OPS_ACT], x = it->m * it->k * nb * batch;
    double y = it->m * it->n * nb * batch, f = recipe_factor(p->fp8_recipe, r->cc);
    int cur = p->fp8_recipe == SC_FP8_CURRENT;

    /* the fused grouped MLP's kernels (Blackwell, MXFP8) write these */
    int epi = p->fp8_recipe == SC_FP8_MXFP8 && cat_cc_blackwell(r->cc) ? it->epi_cast : 0;

    *fwd = epi & OPS_EPI_FWD ? 0 : f * (it->cast_fused ? 2 : 4) * x / bw + (1 + cur) * KERNEL_S;
    *bwd = epi & OPS_EPI_BWD ? 0 : f * 4 * y / bw + (1 + cur) * KERNEL_S;
    *kernels = (!(epi & OPS_EPI_FWD) + !(epi & OPS_EPI_BWD)) * (1 + cur);
}

/*
 * Tensor cores convolve NHWC tensors; given NCHW (PyTorch's default layout)
 * cuDNN transposes the input and the output around each convolution (NVIDIA
 * Deep Learning Performance guide, "Tensor Layouts in Memory: NCHW vs
 * NHWC").  Counted as one read and one write of each, forward, and twice
 * that backward (the input and the weight gradients each transpose
 * theirs).
 */
#define TRANSPOSE_FWD 2
#define TRANSPOSE_BWD 4

/*
 * Fused attention's product `it` at `batch` samples in 16-bit format f, as
 * FlashAttention-2 runs it (catalog/flash.h): its FLOPs, halved under a
 * causal mask, at the published share of the GPU's own GEMM rate (under a
 * sliding window, the window's published share), backward 2.5 times
 * forward (the recomputed scores included); fp8_attn (compute_plan) takes
 * the published fp8 or MXFP8 speed-up, windows apart.  0 where no
 * published rate applies (before Ampere, or not 16-bit).
 */
static int flash_s(const struct ops_item *it, enum cat_prec f, const struct compute_rates *r,
                   int fp8_attn, double batch, double *fwd, double *bwd)
{
    double share, flops, fwd_x = 1, bwd_x = 1;

    if (!it->flash || (f != CAT_FP16 && f != CAT_BF16))
        return 0;
    if (r->cdna > 0)            /* AMD: its own kernels' rates, whatever the name */
        share = flash_share_amd(r->cdna, it->causal && it->window == 0,
                                it->window > 0 ? it->window : it->m);
    else
        share = it->window > 0 ? flash_window_share(it->flash, r->cc, it->head_dim, it->window)
                               : flash_share(it->flash, r->cc, it->head_dim, it->causal, it->m);
    if (!(share > 0))
        return 0;
    if (fp8_attn && it->window == 0 && r->cdna == 0)  /* AMD: no fp8 figure stands */
        share *= flash_fp8_factor(r->cc, it->head_dim, fp8_attn == 2, it->m);
    if (fp8_attn && it->window > 0 && r->cdna == 0) {
        /* a window in fp8: its forward and backward as published apart */
        fwd_x = flash_fp8_window_factor(r->cc, fp8_attn == 2, it->m, 0);
        bwd_x = flash_fp8_window_factor(r->cc, fp8_attn == 2, it->m, 1);
    }
    flops = 2 * it->m * it->n * it->k * it->nb * batch * (it->causal ? 0.5 : 1);
    if (it->dropout)
        share /= flash_dropout_factor(it->flash, r->cc, it->head_dim, it->causal, it->m);
    *fwd = flops / (r->flops[f] * share * fwd_x) + KERNEL_S;
    *bwd = 2.5 * flops / (r->flops[f] * share * bwd_x) + KERNEL_S;
    return 1;
}

/*
 * Transformer Engine's grouped linear (a MoE layer's experts) runs its nb
 * GEMMs as separate cuBLAS calls spread over its compute streams, 4 of them
 * (NVIDIA/TransformerEngine transformer_engine/common/util/multi_stream.cpp,
 * get_num_compute_streams; gemm/cublaslt_gemm.cu, nvte_multi_stream_cublas_
 * gemm): at most 4 run at once, so a round of 4 small products fills the
 * GPU's SMs only as far as their tiles go, and the host issues each call,
 * an empty kernel's launch at least (resolve_opt.c: 4.72 us on an H200
 * host, calibrate --gpu), so nb calls take no less than nb launches.
 * Megatron-Core's SequentialMLP runs them one at a time (streams 1).
 */
#define GROUP_LAUNCH_S 4.72e-6

/* nb GEMMs of m x n, reduction k, reading a_el elements in all, launched
 * one by one over `streams` streams. */
static double grouped_s(double m, double n, double k, double nb, double a_el, int streams,
                        enum cat_prec f, const struct compute_rates *r)
{
    double at_once = fmin(nb, streams > 0 ? streams : 1);
    double t = nb / at_once * gemm_s(m, n, k, at_once, a_el * at_once / nb, f, r);

    return fmax(t, nb * GROUP_LAUNCH_S);
}

double compute_grouped_s(const struct compute_rates *r, double m, double n, double k, double nb,
                         enum cat_prec f)
{
    return grouped_s(m, n, k, nb, nb * m * k, OPS_GROUP_STREAMS, f, r);
}

/* Forward and backward seconds of matrix item it at `batch` samples. */
static void matrix_s(const struct ops_item *it, enum cat_prec f, int transpose, int fp8_attn,
                     const struct compute_rates *r, double batch, double *fwd, double *bwd)
{
    double m = it->m, nb = it->nb, a = it->a_elems * batch, mn;

    if (it->flops > 0) {
        *fwd = it->flops * batch / r->flops[f] + KERNEL_S;
        *bwd = (it->no_wgrad ? 1 : 2) * *fwd;  /* two GEMMs of the forward's size, two kernels */
        return;
    }
    if (flash_s(it, f, r, fp8_attn, batch, fwd, bwd))
        return;
    if (it->kind == OPS_ATTN)
        nb *= batch;            /* one product per head and sample */
    else
        m *= batch;
    mn = m * it->n * nb;
    if (it->grouped && nb > 1) {
        *fwd = grouped_s(m, it->n, it->k, nb, a, it->grouped, f, r);
        *bwd = (it->no_dgrad ? 0 : grouped_s(m, it->k, it->n, nb, mn, it->grouped, f, r)) +
               (it->no_wgrad ? 0 : grouped_s(it->k, it->n, m, nb, a, it->grouped, f, r)) +
               it->recompute * *fwd;
        return;
    }
    *fwd = gemm_s(m, it->n, it->k, nb, a, f, r);
    /* dX = dY W^T (m x k, reduce n); dW = X^T dY (k x n, reduce m). */
    *bwd = (it->no_dgrad ? 0 : gemm_s(m, it->k, it->n, nb, mn, f, r)) +
           (it->no_wgrad ? 0 : gemm_s(it->k, it->n, m, nb, a, f, r)) + it->recompute * *fwd;
    if (transpose && it->kind == OPS_CONV) {
        double t = (a + mn) * bytes_of(f) / r->mem_Bps;
        *fwd += TRANSPOSE_FWD * t;
        *bwd += TRANSPOSE_BWD * t;
    }
    if (it->causal) {           /* a fused kernel skips the masked half */
        *fwd /= 2;
        *bwd /= 2;
    }
}

int compute_time_of(const struct ops_model *o, const struct compute_plan *p,
                    const struct compute_rates *r, double batch, struct compute_time *t)
{
    int block = 0;

    memset(t, 0, sizeof *t);
    t->tensors = o->tensors;
    for (int i = 0; i < o->n; i++) {
        const struct ops_item *it = &o->v[i];
        double fwd, bwd;

        if (ops_is_matrix(it->kind)) {
            enum cat_prec f = format_of(p, it);
            if (!(r->flops[f] > 0))
                return -1;
            matrix_s(it, f, p->transpose && f != CAT_FP32, p->fp8_attn, r, batch, &fwd, &bwd);
            t->kernels += it->count * (3 - it->no_dgrad - it->no_wgrad);
            if (f == CAT_FP8) {
                /* the casts; the first and the last fp8_bf16_layers layers
                 * in 16 bits instead */
                double cf, cb, ck, hf, hb, n16 = fmin(it->count, 2.0 * p->fp8_bf16_layers);
                if (p->fp8_recipe == SC_FP8_MXFP8 && cat_cc_blackwell(r->cc)) {
                    fwd *= MXFP8_GEMM_BLACKWELL;    /* block-scaled products */
                    bwd *= MXFP8_GEMM_BLACKWELL;
                } else if (p->fp8_recipe == SC_FP8_NVFP4) {
                    /* 4-bit products (fp8_recipe_of keeps nvfp4 to a
                     * Blackwell part with an fp4 peak) */
                    fwd /= r->fp4_over_fp8;
                    bwd /= r->fp4_over_fp8;
                }
                fp8_casts(it, p, r, batch, &cf, &cb, &ck);
                t->kernels += (it->count - n16) * ck;
                fwd += cf;
                bwd += cb;
                if (n16 > 0 && r->flops[p->half] > 0) {
                    matrix_s(it, p->half, 0, 0, r, batch, &hf, &hb);
                    fwd = ((it->count - n16) * fwd + n16 * hf) / it->count;
                    bwd = ((it->count - n16) * bwd + n16 * hb) / it->count;
                }
            }
        } else {
            int amp = p->act_bytes == 2;
            double b = (amp && it->amp_bytes > 0 ? it->amp_bytes : p->act_bytes) * batch /
                       (r->mem_Bps * kind_bw[it->kind]);
            if (it->amp_only && !amp)
                continue;
            fwd = it->elems_fwd * b + KERNEL_S;
            bwd = it->elems_bwd * b + KERNEL_S;
            t->kernels += it->count * 2;
        }
        if (it->fp8 && block < 4)
            t->block_fwd_s[block++] = fwd;
        t->fwd_s += it->count * fwd;
        t->bwd_s += it->count * bwd;
        if (it->attn_core)
            t->core_fwd_s += it->count * fwd;
        if (it->mods & p->redo_mods)
            t->mods_fwd_s += it->count * fwd;
        t->op_sac_s += it->count * it->op_sac * fwd;
        t->kind_s[it->kind] += it->count * (fwd + bwd);
    }
    return 0;
}

/* The fp8 recipe of sc on g into p: MXFP8 needs Blackwell's block-scaled
 * tensor cores (compute capability 10.0 and later); elsewhere it falls
 * back to delayed scaling, with a note. */
static void fp8_recipe_of(const struct scenario *sc, const struct cat_gpu *g,
                          struct compute_plan *p)
{
    p->fp8_recipe = sc->workload.fp8_recipe;
    p->fp8_bf16_layers = sc->workload.fp8_bf16_layers;
    if (p->linear == CAT_FP8 && p->fp8_recipe == SC_FP8_MXFP8 && g->cc > 0 && g->cc < 100) {
        size_t n = strlen(p->note);
        p->fp8_recipe = SC_FP8_DELAYED;
        snprintf(p->note + n, sizeof p->note - n, "%s%s has no MXFP8 (Blackwell and later): "
                 "delayed scaling", n ? "; " : "", g->name);
    }
    if (p->linear == CAT_FP8 && p->fp8_recipe == SC_FP8_NVFP4 &&
        (!(g->fp4_tflops > 0) || !cat_cc_blackwell(g->cc))) {
        size_t n = strlen(p->note);
        p->fp8_recipe = SC_FP8_DELAYED;
        snprintf(p->note + n, sizeof p->note - n, "%s%s has no NVFP4 (a Blackwell part with an fp4 "
                 "peak in the catalog): fp8 with delayed scaling", n ? "; " : "", g->name);
    }
    /* attention in fp8 under fp8 (Transformer Engine's fp8_dpa): MXFP8's blocks under the
     * block-scaled recipes, per-tensor scales under delayed and current scaling */
    if (p->linear == CAT_FP8 && sc->workload.fp8_attention)
        p->fp8_attn = p->fp8_recipe == SC_FP8_MXFP8 || p->fp8_recipe == SC_FP8_NVFP4 ? 2 : 1;
}

/* The modules recompute_modules redoes beyond what workload.recompute
 * does (selective already redoes the attention core). */
static unsigned redo_mods(const struct scenario *sc)
{
    unsigned m = sc->workload.recompute_modules;

    if (sc->parallel.recompute == SC_RECOMPUTE_SELECTIVE)
        m &= ~(1u << OPS_MOD_CORE_ATTN);
    return sc->parallel.recompute == SC_RECOMPUTE_FULL ? 0 : m;
}

int compute_on_gpu(const struct scenario *sc, const struct cat_gpu *g,
                   const double *profile_tflops, double batch, struct compute_plan *p,
                   struct compute_time *t)
{
    static const enum cat_prec tries[] = {CAT_FP8, CAT_BF16, CAT_FP16, CAT_TF32, CAT_FP32};
    struct compute_rates r;
    struct ops_model o;
    static const int kernel[] = {[SC_ATTN_FLASH] = FLASH_FA2, [SC_ATTN_UNFUSED] = 0,
                                 [SC_ATTN_FLASH_TRITON] = FLASH_TRITON, [SC_ATTN_CUDNN] = FLASH_CUDNN,
                                 [SC_ATTN_CUDNN_910] = FLASH_CUDNN_910,
                                 [SC_ATTN_CUDNN_913] = FLASH_CUDNN_913};
    int rc = -1, flash = kernel[sc->workload.attention];

    {
        struct ops_layout lay = {sc->parallel.tp, sc->parallel.sequence_parallel, sc->parallel.cp,
                                 sc->parallel.ep, scenario_moe_imbalance(sc), sc->parallel.etp};
        ops_build_layout(sc->workload.model, sc->workload.seq_len, &lay, flash,
                         scenario_ops_style(sc), &o);
        if (sc->workload.lora_rank > 0)     /* LoRA fine-tuning: frozen weights, adapters */
            ops_lora(&o, sc->workload.lora_rank,
                     sc->workload.lora_targets ? sc->workload.lora_targets : OPS_LORA_DEFAULT);
    }
    compute_rates_of(g, profile_tflops, &r);
    if (!sc->workload.precision_auto) {
        if (compute_plan_of(g, sc->workload.precision, sc->workload.precision_strict, p) == 0) {
            p->transpose = !sc->workload.channels_last;
            p->redo_mods = redo_mods(sc);
            fp8_recipe_of(sc, g, p);
            rc = compute_time_of(&o, p, &r, batch, t);
        }
    } else {
        /* the fastest of the formats g runs natively (no fallback) */
        for (size_t i = 0; i < sizeof tries / sizeof *tries; i++) {
            struct compute_plan q;
            struct compute_time u;
            if (compute_plan_of(g, tries[i], 0, &q) != 0 || q.note[0])
                continue;
            q.transpose = !sc->workload.channels_last;
            q.redo_mods = redo_mods(sc);
            fp8_recipe_of(sc, g, &q);
            if (compute_time_of(&o, &q, &r, batch, &u) != 0)
                continue;
            if (rc != 0 || u.fwd_s + u.bwd_s < t->fwd_s + t->bwd_s) {
                *p = q;
                *t = u;
                rc = 0;
            }
        }
        if (rc == 0)
            snprintf(p->note, sizeof p->note, "auto: %s, the fastest %s runs",
                     catalog_prec_name(p->linear), g->name);
    }
    ops_free(&o);
    if (rc == 0 && flash && shape_known(sc->workload.model) &&
        isnan(flash_share(flash, g->cc, 128, 1, 2048)) && isnan(flash_share_amd(g->cdna, 1, 2048))) {
        size_t n = strlen(p->note);
        snprintf(p->note + n, sizeof p->note - n, "%s%s: no FlashAttention rate (Ampere and later "
                 "only): attention as two GEMMs", n ? "; " : "", g->name);
    } else if (rc == 0 && flash_is_cudnn(flash) && shape_known(sc->workload.model) &&
               !cudnn_measured(g->cc) && g->cdna == 0) {
        size_t n = strlen(p->note);
        snprintf(p->note + n, sizeof p->note - n, "%s%s: cuDNN attention measured on Hopper and "
                 "Blackwell only: FlashAttention-2's rate", n ? "; " : "", g->name);
    }
    /* activation recompute (workload.recompute): full redoes the forward in
     * backward (workload.recompute_layers: that share of it, the layers
     * counted evenly, as the rest of the forward is), selective the attention core's forward, fused or not
     * (Megatron-Core checkpoints the core attention module, whose fused
     * kernel then runs forward again before its own backward), selective_op
     * what ops_item.op_sac marks */
    if (rc == 0 && sc->parallel.recompute == SC_RECOMPUTE_FULL)
        t->bwd_s += t->fwd_s * scenario_recompute_share(sc);
    else if (rc == 0 && sc->parallel.recompute == SC_RECOMPUTE_OP)
        t->bwd_s += t->op_sac_s;
    else if (rc == 0 && sc->parallel.recompute == SC_RECOMPUTE_SELECTIVE)
        t->bwd_s += t->core_fwd_s;
    /* Megatron-Core's --recompute-modules: each listed module's forward
     * again (the attention core's once, whichever names it) */
    if (rc == 0 && sc->parallel.recompute != SC_RECOMPUTE_FULL)
        t->bwd_s += t->mods_fwd_s;
    return rc;
}
