/*
 * test_compute.c - models as operations (catalog/ops.c) and their time on a
 * GPU (planner/compute.c): the laid-out networks' FLOPs against the
 * published counts, the formats each precision runs at, the roofline's
 * terms, and a measured time carried through the model.  Links the planner
 * layer only (Makefile: LAYER_test_compute).
 */
#include "t.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "../../catalog/catalog.h"
#include "../../catalog/csv.h"
#include "../../catalog/flash.h"
#include "../../catalog/ops.h"
#include "../../catalog/shape.h"
#include "../../planner/compute.h"
#include "../../planner/planner.h"
#include "../../scenario/scenario.h"

static struct catalog cat;

static double fwd_gflops(const char *model, int seq)
{
    const struct cat_model *m = catalog_find_model(&cat, model);
    struct ops_model o;
    double f;

    if (!m)
        return NAN;
    ops_build(m, seq, 1, 1, 0, 0, &o);
    f = ops_fwd_flops(&o) / 1e9;
    ops_free(&o);
    return f;
}

static void networks_match_their_published_flops(void)
{
    /* torchvision's multiply-adds x 2 (models.csv) */
    T_NEAR(fwd_gflops("resnet50", 0), 8.178, 0.001, "ResNet-50 laid out: 8.178 GFLOP (%.4f)",
           fwd_gflops("resnet50", 0));
    T_NEAR(fwd_gflops("resnet18", 0) / 3.628, 1, 0.01, "ResNet-18 within 1%% of 3.628 (%.3f)",
           fwd_gflops("resnet18", 0));
    T_NEAR(fwd_gflops("resnet101", 0) / 15.602, 1, 0.01, "ResNet-101 within 1%% of 15.602 (%.3f)",
           fwd_gflops("resnet101", 0));
    T_NEAR(fwd_gflops("vgg16", 0) / 30.94, 1, 0.01, "VGG-16 within 1%% of 30.94 (%.3f)",
           fwd_gflops("vgg16", 0));
    /* a transformer's layout is its shape's FLOPs, attention term included */
    {
        const struct cat_model *g = catalog_find_model(&cat, "gpt3-175b");
        T_NEAR(fwd_gflops("gpt3-175b", 0) / (shape_fwd_flops(g, 2048) / 1e9), 1, 1e-12,
               "GPT-3 175B: operations sum to the shape's forward FLOPs");
        T_NEAR(fwd_gflops("gpt3-175b", 1024) / (shape_fwd_flops(g, 1024) / 1e9), 1, 1e-12,
               "and at another sequence length");
    }
    /* a model known only by its FLOPs is one matrix item */
    T_NEAR(fwd_gflops("inception_v3", 0), 11.426, 1e-9, "inception_v3: its row's FLOPs");
    /* SQuAD's span head instead of the vocabulary projection */
    {
        const struct cat_model *b = catalog_find_model(&cat, "bert-large-squad");
        double lm = shape_fwd_flops(b, 384) / 1e9, head = 2.0 * 1024 * 30522 * 384 / 1e9;
        T_NEAR(fwd_gflops("bert-large-squad", 0), lm - head + 2.0 * 1024 * 2 * 384 / 1e9, 1e-6,
               "BERT-large SQuAD: no vocabulary projection");
    }
}

static void precisions_run_as_frameworks_run_them(void)
{
    const struct cat_gpu *v100 = catalog_find_gpu(&cat, "V100");
    const struct cat_gpu *a100 = catalog_find_gpu(&cat, "A100");
    const struct cat_gpu *h100 = catalog_find_gpu(&cat, "H100");
    struct compute_plan p;

    T_CHECK(compute_plan_of(a100, CAT_FP32, 0, &p) == 0 && p.conv == CAT_TF32 &&
                p.linear == CAT_FP32 && p.act_bytes == 4 && !p.note[0],
            "A100 fp32: TF32 convolutions (cuDNN), fp32 matmuls (PyTorch >= 1.12)");
    T_CHECK(compute_plan_of(a100, CAT_FP32, 1, &p) == 0 && p.conv == CAT_FP32,
            "fp32_strict: fp32 convolutions too");
    T_CHECK(compute_plan_of(v100, CAT_FP32, 0, &p) == 0 && p.conv == CAT_FP32,
            "V100 fp32: no TF32 to use");
    T_CHECK(compute_plan_of(v100, CAT_BF16, 0, &p) == 0 && p.linear == CAT_FP16 &&
                strstr(p.note, "has no bf16: runs fp16"),
            "V100 bf16 falls back to fp16 and says so (%s)", p.note);
    T_CHECK(compute_plan_of(v100, CAT_TF32, 0, &p) == 0 && p.linear == CAT_FP32 &&
                strstr(p.note, "no TF32"),
            "V100 tf32 runs fp32 and says so");
    T_CHECK(compute_plan_of(h100, CAT_FP8, 0, &p) == 0 && p.linear == CAT_FP8 &&
                p.conv == CAT_BF16 && p.attn == CAT_BF16 && !p.note[0],
            "H100 fp8: linear layers in fp8, convolutions and attention in bf16");
    T_CHECK(compute_plan_of(a100, CAT_FP8, 0, &p) == 0 && p.linear == CAT_BF16 &&
                strstr(p.note, "has no fp8: runs bf16"),
            "A100 fp8 falls back to bf16 and says so");
}

/* A scenario of one model at one precision, no clusters. */
static void scn(struct scenario *sc, const char *model, int prec)
{
    scenario_defaults(sc, "compute");
    sc->catalog = &cat;
    sc->workload.model = catalog_find_model(&cat, model);
    sc->parallel.micro_batch = 64;
    scenario_prec_set(sc, prec);
}

static double pass_s(const struct scenario *sc, const char *gpu, double batch,
                     struct compute_plan *p)
{
    struct compute_time t;
    struct compute_plan q;

    if (compute_on_gpu(sc, catalog_find_gpu(&cat, gpu), NULL, batch, p ? p : &q, &t))
        return NAN;
    return t.fwd_s + t.bwd_s;
}

static void auto_takes_the_fastest_native_format(void)
{
    struct scenario sc;
    struct compute_plan p;
    double t_auto, t_bf16;

    scn(&sc, "gpt3-1.3b", CAT_NPREC + 1);
    t_auto = pass_s(&sc, "H100", 8, &p);
    T_CHECK(p.linear == CAT_FP8 && strstr(p.note, "auto: fp8"), "auto on H100: fp8 (%s)",
            p.note);
    scenario_prec_set(&sc, CAT_BF16);
    t_bf16 = pass_s(&sc, "H100", 8, NULL);
    T_CHECK(t_auto < t_bf16, "and it is faster than bf16 (%g < %g s)", t_auto, t_bf16);
    scenario_prec_set(&sc, CAT_NPREC + 1);
    pass_s(&sc, "V100", 8, &p);
    T_CHECK(p.linear == CAT_FP16, "auto on V100: fp16 (no bf16, no fp8)");
    scenario_free(&sc);
}

/* sc's pass on g at `batch` under recompute rc, into *t. */
static void timed_under(struct scenario *sc, const struct cat_gpu *g, double batch,
                        enum sc_recompute rc, struct compute_time *t)
{
    struct compute_plan p;

    sc->parallel.recompute = rc;
    compute_on_gpu(sc, g, NULL, batch, &p, t);
}

/* workload.recompute: full redoes the forward in backward; selective the
 * attention core's forward, fused or not (a checkpointed core attention
 * module runs its kernel forward again). */
static void recompute_adds_its_forward_work(void)
{
    struct scenario sc;
    struct compute_time none, sel, full;
    const struct cat_gpu *h100 = catalog_find_gpu(&cat, "H100");

    scn(&sc, "gpt3-1.3b", CAT_BF16);
    sc.workload.attention = SC_ATTN_UNFUSED;
    timed_under(&sc, h100, 4, SC_RECOMPUTE_NONE, &none);
    timed_under(&sc, h100, 4, SC_RECOMPUTE_SELECTIVE, &sel);
    timed_under(&sc, h100, 4, SC_RECOMPUTE_FULL, &full);
    T_CHECK(none.core_fwd_s > 0 && none.core_fwd_s < none.fwd_s, "the attention core is part of the forward");
    T_NEAR(sel.bwd_s, none.bwd_s + none.core_fwd_s, 1e-12, "selective: backward + the core's forward");
    T_NEAR(full.bwd_s, none.bwd_s + none.fwd_s, 1e-12, "full: backward + the forward");
    T_CHECK(full.fwd_s == none.fwd_s, "the forward itself is unchanged");
    /* workload.recompute_layers: that share of the layers redo theirs */
    sc.workload.recompute_layers = sc.workload.model->layers / 4;
    timed_under(&sc, h100, 4, SC_RECOMPUTE_FULL, &full);
    T_NEAR(full.bwd_s, none.bwd_s + none.fwd_s / 4, 1e-12,
           "recompute_layers a quarter of the layers: backward + a quarter of the forward");
    sc.workload.recompute_layers = sc.workload.model->layers;
    timed_under(&sc, h100, 4, SC_RECOMPUTE_FULL, &full);
    T_NEAR(full.bwd_s, none.bwd_s + none.fwd_s, 1e-12, "recompute_layers all of them: full");
    sc.workload.recompute_layers = 0;
    sc.workload.attention = SC_ATTN_FLASH;
    timed_under(&sc, h100, 4, SC_RECOMPUTE_NONE, &none);
    timed_under(&sc, h100, 4, SC_RECOMPUTE_SELECTIVE, &sel);
    T_NEAR(sel.bwd_s, none.bwd_s + none.core_fwd_s, 1e-12,
           "fused attention: selective runs the fused kernel's forward again (%.1f ms)",
           1e3 * none.core_fwd_s);
    scenario_free(&sc);
}

/* recompute: selective_op (torchtitan's per-operator policy) redoes K,
 * the output projection and the second half of the gated feed-forward's
 * first product (w3), the norms, the rotary embedding and the activation:
 * on Llama 2 13B (MHA, f 13824) the three products are (h + h + f) /
 * (4 h + 3 f) = 38.8% of the block's linear forward (fused kernels, so
 * that the memory-bound work is small beside them).  torchtitan's own A100
 * runs of that model, eager (validate/published/llm_runs.csv), lose 11.9%
 * of their throughput to it. */
static void per_operator_recompute_redoes_every_second_product(void)
{
    struct scenario sc;
    struct compute_time none, op, full;
    const struct cat_gpu *a100 = catalog_find_gpu(&cat, "A100-80GB");
    double h = 5120, f = 13824, lin;

    scn(&sc, "llama2-13b", CAT_BF16);
    sc.workload.seq_len = 4096;
    sc.workload.kernels_fused = 1;
    timed_under(&sc, a100, 1, SC_RECOMPUTE_NONE, &none);
    timed_under(&sc, a100, 1, SC_RECOMPUTE_OP, &op);
    timed_under(&sc, a100, 1, SC_RECOMPUTE_FULL, &full);
    T_CHECK(op.fwd_s == none.fwd_s, "the forward is unchanged");
    T_CHECK(op.bwd_s > none.bwd_s && op.bwd_s < full.bwd_s, "it costs more than none, less than "
            "full (%g < %g < %g s)", none.bwd_s, op.bwd_s, full.bwd_s);
    lin = none.kind_s[OPS_LINEAR] / 3;      /* the linear forward, near enough */
    T_CHECK(op.op_sac_s > 0.9 * (h + h + f) / (4 * h + 3 * f) * lin &&
            op.op_sac_s < 1.3 * (h + h + f) / (4 * h + 3 * f) * lin,
            "about 38.8%% of the linear forward, with the norms and activation (%g of %g s)",
            op.op_sac_s, lin);
    sc.workload.kernels_fused = 0;
    timed_under(&sc, a100, 1, SC_RECOMPUTE_NONE, &none);
    timed_under(&sc, a100, 1, SC_RECOMPUTE_OP, &op);
    T_CHECK(fabs((none.fwd_s + none.bwd_s) / (op.fwd_s + op.bwd_s) - 1 / 1.119) < 0.03,
            "throughput ratio %.3f against torchtitan's published 0.881",
            (none.fwd_s + none.bwd_s) / (op.fwd_s + op.bwd_s));
    scenario_free(&sc);
}

/* workload.amp: pure keeps activations 16-bit (no fp32 softmax or layer
 * norm, no casts back); workload.kernels: fused merges scale-mask into the
 * softmax and dropout into the residual add.  Neither touches the GEMMs,
 * and neither changes a run whose activations are 32-bit. */
static void pure_and_fused_cut_memory_work_only(void)
{
    struct scenario sc;
    struct compute_plan p;
    struct compute_time base, pure, both, t32a, t32b;
    const struct cat_gpu *a100 = catalog_find_gpu(&cat, "A100-80GB");
    double mem_base, mem_pure;

    scn(&sc, "bert-large-squad", CAT_FP16);
    sc.workload.attention = SC_ATTN_UNFUSED;
    compute_on_gpu(&sc, a100, NULL, 32, &p, &base);
    sc.workload.amp_pure = 1;
    compute_on_gpu(&sc, a100, NULL, 32, &p, &pure);
    sc.workload.kernels_fused = 1;
    compute_on_gpu(&sc, a100, NULL, 32, &p, &both);
    mem_base = base.fwd_s + base.bwd_s - base.kind_s[OPS_LINEAR] - base.kind_s[OPS_ATTN];
    mem_pure = pure.fwd_s + pure.bwd_s - pure.kind_s[OPS_LINEAR] - pure.kind_s[OPS_ATTN];
    T_CHECK(pure.kind_s[OPS_LINEAR] == base.kind_s[OPS_LINEAR] &&
                pure.kind_s[OPS_ATTN] == base.kind_s[OPS_ATTN] &&
                both.kind_s[OPS_LINEAR] == base.kind_s[OPS_LINEAR],
            "the GEMMs are the same under every style");
    T_CHECK(mem_pure < 0.8 * mem_base && pure.kernels < base.kernels,
            "pure: less memory-bound time (%g -> %g s) and no casts (%g -> %g kernels)",
            mem_base, mem_pure, base.kernels, pure.kernels);
    T_CHECK(both.kind_s[OPS_ADD] < pure.kind_s[OPS_ADD] && both.kernels < pure.kernels &&
                both.fwd_s + both.bwd_s < pure.fwd_s + pure.bwd_s,
            "fused: the dropout-adds and the scale-mask pass merge (%g -> %g kernels)",
            pure.kernels, both.kernels);
    scenario_prec_set(&sc, CAT_TF32);
    compute_on_gpu(&sc, a100, NULL, 32, &p, &t32a);
    sc.workload.amp_pure = 0;
    compute_on_gpu(&sc, a100, NULL, 32, &p, &t32b);
    T_CHECK(t32a.fwd_s == t32b.fwd_s && t32a.bwd_s == t32b.bwd_s,
            "amp: pure changes nothing in tf32");
    /* a model without dropout keeps its residual adds as they are */
    scenario_free(&sc);
    scn(&sc, "llama2-7b", CAT_BF16);
    compute_on_gpu(&sc, a100, NULL, 1, &p, &base);
    sc.workload.kernels_fused = 1;
    compute_on_gpu(&sc, a100, NULL, 1, &p, &both);
    T_CHECK(both.kind_s[OPS_ADD] == base.kind_s[OPS_ADD] && both.kind_s[OPS_DROPOUT] == 0,
            "no dropout: the adds stay, nothing is merged");
    scenario_free(&sc);
}

static void the_roofline_has_both_terms(void)
{
    struct scenario sc;
    struct compute_rates r;
    struct compute_plan p;
    struct compute_time t1, t2;
    struct ops_model o;
    const struct cat_gpu *a100 = catalog_find_gpu(&cat, "A100");

    scn(&sc, "resnet50", CAT_FP16);
    ops_build(sc.workload.model, 0, 1, 1, 0, 0, &o);
    compute_plan_of(a100, CAT_FP16, 0, &p);
    compute_rates_of(a100, NULL, &r);
    T_NEAR(r.flops[CAT_FP16], 312e12 * a100->mm_eff, 1, "A100 fp16 rate: peak x mm_eff");
    compute_time_of(&o, &p, &r, 256, &t1);
    r.mem_Bps *= 2;
    compute_time_of(&o, &p, &r, 256, &t2);
    T_CHECK(t2.kind_s[OPS_BNORM] < 0.6 * t1.kind_s[OPS_BNORM] &&
                fabs(t2.kind_s[OPS_LINEAR] - t1.kind_s[OPS_LINEAR]) < 1e-6,
            "twice the bandwidth halves batch norm (%g -> %g s), not the classifier GEMM",
            t1.kind_s[OPS_BNORM], t2.kind_s[OPS_BNORM]);
    T_CHECK(t1.bwd_s > 1.5 * t1.fwd_s && t1.bwd_s < 3 * t1.fwd_s,
            "backward is about twice forward (%.2f)", t1.bwd_s / t1.fwd_s);
    /* NCHW on tensor cores pays cuDNN's transposes; NHWC does not */
    p.transpose = 1;
    compute_time_of(&o, &p, &r, 256, &t1);
    T_CHECK(t1.kind_s[OPS_CONV] > 1.2 * t2.kind_s[OPS_CONV] &&
                t1.kind_s[OPS_BNORM] == t2.kind_s[OPS_BNORM] &&
                t1.kernels == t2.kernels,
            "NCHW transposes add to the convolutions (%g -> %g s), nothing else",
            t2.kind_s[OPS_CONV], t1.kind_s[OPS_CONV]);
    p.conv = CAT_FP32;
    compute_time_of(&o, &p, &r, 256, &t1);
    p.transpose = 0;
    compute_time_of(&o, &p, &r, 256, &t2);
    T_CHECK(t1.kind_s[OPS_CONV] == t2.kind_s[OPS_CONV], "not on CUDA cores (fp32)");
    ops_free(&o);
    scenario_free(&sc);
}

static void a_measured_time_carries_through_the_model(void)
{
    struct scenario sc;
    struct sc_cluster cl;
    struct sim_config cfg;
    struct dt_err e;
    double a100, h100, t;

    scn(&sc, "resnet50", CAT_FP16);
    a100 = pass_s(&sc, "A100", 64, NULL);
    h100 = pass_s(&sc, "H100", 64, NULL);
    sc.workload.measured_gpu = catalog_find_gpu(&cat, "A100");
    sc.workload.measured_compute_s = 0.5;
    sc.workload.measured_batch = 64;
    memset(&cl, 0, sizeof cl);
    snprintf(cl.name, sizeof cl.name, "one-p5");
    cl.gradients.strategy = -1;
    cl.ngroups = 1;
    cl.groups[0].role = SIM_TRAIN;
    cl.groups[0].inst = catalog_find_instance(&cat, "p5.48xlarge");
    cl.groups[0].count = 1;
    sc.clusters = &cl;
    sc.nclusters = 1;
    T_CHECK(plan_resolve(&sc, &cl, &cfg, &e) == 0, "p5 resolves (%s)", e.msg);
    t = cfg.groups[0].fwd_s + cfg.groups[0].bwd_s;
    T_NEAR(t, 0.5 * h100 / a100, 1e-12,
           "H100 = measured A100 time x model(H100) / model(A100) = %.4f s, not the peak ratio "
           "(%.4f s)", t, 0.5 * 312 / 989.4);
    cl.groups[0].inst = catalog_find_instance(&cat, "p4d.24xlarge");
    T_CHECK(plan_resolve(&sc, &cl, &cfg, &e) == 0, "p4d resolves");
    T_NEAR(cfg.groups[0].fwd_s + cfg.groups[0].bwd_s, 0.5, 1e-12,
           "on the measured GPU at the measured batch: the measurement");
    sc.clusters = NULL;
    sc.nclusters = 0;
    scenario_free(&sc);
}

/* Attention's time in one pass of sc's model on gpu at batch b. */
static double attn_s(const struct scenario *sc, const char *gpu, double b)
{
    struct compute_time t;
    struct compute_plan p;

    if (compute_on_gpu(sc, catalog_find_gpu(&cat, gpu), NULL, b, &p, &t))
        return NAN;
    return t.kind_s[OPS_ATTN];
}

/* Fused attention runs at FlashAttention-2's published rate (catalog/
 * flash.h): 3.5 times its forward FLOPs, halved under a causal mask, at the
 * published share of the GPU's GEMM rate; the Triton kernel slower by its
 * published ratio; before Ampere, and in 32 bits, the two GEMMs as before,
 * the masked half skipped. */
/*
 * fp8 as Transformer Engine runs it (docs/model.md "fp8"): a block's four
 * linear layers in fp8 at 0.885 of bf16's share of peak, their casts as
 * memory-bound work, attention, norms and the vocabulary's projection in
 * bf16.  Llama 3 8B at 8,192 tokens on an H100: a gain inside the 1.1x to
 * 1.5x published for Hopper, not the 2x of the peaks.
 */
static void fp8_runs_as_transformer_engine_runs_it(void)
{
    struct scenario sc;
    struct compute_plan p;
    double b16, f8, cur, half, mx;

    scn(&sc, "llama3-8b", CAT_BF16);
    sc.workload.seq_len = 8192;
    b16 = pass_s(&sc, "H100", 1, &p);
    scenario_prec_set(&sc, CAT_FP8);
    f8 = pass_s(&sc, "H100", 1, &p);
    T_CHECK(p.linear == CAT_FP8 && p.half == CAT_BF16 && p.attn == CAT_BF16 && !p.note[0],
            "fp8 on an H100: the linear layers in fp8, the rest in bf16");
    T_CHECK(b16 / f8 > 1.1 && b16 / f8 < 1.5,
            "fp8 is %.2fx bf16's speed, inside the 1.1x to 1.5x published for Hopper", b16 / f8);
    sc.workload.fp8_recipe = SC_FP8_CURRENT;
    cur = pass_s(&sc, "H100", 1, &p);
    T_CHECK(cur > f8 && cur < b16, "current scaling's amax passes cost more than delayed "
            "scaling's history (%.1f against %.1f ms), still faster than bf16", 1e3 * cur,
            1e3 * f8);
    sc.workload.fp8_recipe = SC_FP8_MXFP8;
    mx = pass_s(&sc, "H100", 1, &p);
    T_CHECK(p.fp8_recipe == SC_FP8_DELAYED && strstr(p.note, "no MXFP8") && fabs(mx - f8) < 1e-12,
            "MXFP8 on an H100 falls back to delayed scaling, saying so (%s)", p.note);
    sc.workload.fp8_recipe = SC_FP8_DELAYED;
    sc.workload.fp8_bf16_layers = 2;
    half = pass_s(&sc, "H100", 1, &p);
    T_CHECK(half > f8 && half < b16 && fabs((half - f8) / (b16 - f8) - 4.0 / 32) < 0.05,
            "the first and last 2 of 32 layers in bf16: %.1f ms, about 4/32 of the way to "
            "bf16's %.1f (%.3f)", 1e3 * half, 1e3 * b16, (half - f8) / (b16 - f8));
    sc.workload.fp8_bf16_layers = 100;
    T_NEAR(pass_s(&sc, "H100", 1, &p) / b16, 1, 1e-9, "every layer in bf16: bf16's time");
    sc.workload.fp8_bf16_layers = 0;
    T_CHECK(isnan(pass_s(&sc, "V100", 1, &p)) || strstr(p.note, "no fp8"),
            "a GPU without fp8 runs 16-bit, saying so");
    sc.workload.fp8_recipe = SC_FP8_NVFP4;
    mx = pass_s(&sc, "H100", 1, &p);
    T_CHECK(p.fp8_recipe == SC_FP8_DELAYED && strstr(p.note, "has no NVFP4") && fabs(mx - f8) < 1e-12,
            "NVFP4 on an H100 (no fp4 peak) falls back to delayed scaling, saying so (%s)", p.note);
    {
        /* on a GB200: NVFP4's products at 1.81x fp8's, its quantization
         * 2.7x delayed scaling's: faster than MXFP8, short of the products'
         * own gain */
        double g_mx, g_f4, g_b16;
        sc.workload.fp8_recipe = SC_FP8_MXFP8;
        g_mx = pass_s(&sc, "GB200", 1, &p);
        sc.workload.fp8_recipe = SC_FP8_NVFP4;
        g_f4 = pass_s(&sc, "GB200", 1, &p);
        T_CHECK(p.fp8_recipe == SC_FP8_NVFP4 && g_f4 < g_mx && g_mx / g_f4 < 1.81,
                "NVFP4 on a GB200: %.1f ms against MXFP8's %.1f (%.2fx, under the products' 1.81x)",
                1e3 * g_f4, 1e3 * g_mx, g_mx / g_f4);
        scenario_prec_set(&sc, CAT_BF16);
        g_b16 = pass_s(&sc, "GB200", 1, &p);
        T_CHECK(g_b16 > g_mx, "and bf16 slower than both (%.1f ms)", 1e3 * g_b16);
        scenario_prec_set(&sc, CAT_FP8);
        sc.workload.fp8_recipe = SC_FP8_DELAYED;
    }
}

static void fused_attention_runs_at_its_published_rate(void)
{
    struct scenario sc;
    struct cat_model bidir;
    double L = 32, s = 2048, d = 128, a = 32, b = 2, fa2, tri, fwd_flops, rate;

    scn(&sc, "mpt-7b", CAT_BF16);
    sc.workload.seq_len = (int)s;
    T_CHECK(sc.workload.model->causal == 1 && sc.workload.model->heads == 32 && sc.workload.model->layers == 32 &&
            sc.workload.model->hidden == 4096, "MPT-7B: causal, 32 heads of 128, 32 layers");
    fa2 = attn_s(&sc, "A100-80GB", b);
    /* A100 80GB SXM4, head dimension 128, causal, sequence 2k: 155 TFLOP/s */
    fwd_flops = L * b * a * 4 * s * s * d / 2;
    rate = 155 / 245.2 * 312e12 * catalog_find_gpu(&cat, "A100-80GB")->mm_eff;
    T_NEAR(fa2, 3.5 * fwd_flops / rate + L * 4 * 3e-6, 1e-12 * fa2,
           "A100 80GB: 3.5 x the causal forward FLOPs at 155 TFLOP/s, plus four kernels a layer "
           "(%g s)", fa2);
    T_NEAR(flash_share(FLASH_FA2, 90, 128, 1, 2048), 219 / 719.7, 1e-12,
           "Hopper: 219 TFLOP/s of the H100's 719.7 GEMM rate (PyTorch's kernel as a lent H200 "
           "ran it), where the A100 reaches 155 of 245.2");
    T_NEAR(flash_share(FLASH_FA2, 100, 128, 1, 2048), 265 / 719.7, 1e-12,
           "Blackwell: the published H100 bar's share, 265 of 719.7");
    T_NEAR(flash_share(FLASH_CUDNN, 90, 128, 1, 8192), 566.9 / 719.7, 1e-12,
           "cuDNN on Hopper: NVIDIA's published H200 figure at 8k, causal (566.9)");
    T_NEAR(flash_share_amd(3, 1, 8192), 3.5 / (1 / 550.67 + 2.5 / 474.02) / 708.5, 1e-12,
           "MI300X: aiter's causal 8k forward 550.67 and backward 474.02 TFLOP/s, combined, over "
           "its 708.5 GEMM rate (%.3f)", flash_share_amd(3, 1, 8192));
    T_NEAR(flash_share_amd(4, 0, 4096 * sqrt(2.0)), 3.5 / (1 / (0.5 * (1361.66 + 1322.77)) +
                                                         2.5 / (0.5 * (1125.48 + 1182.59))) / 1565.0,
           1e-12, "MI355X, unmasked, halfway between 4k and 8k on a log scale");
    T_NEAR(flash_share_amd(3, 1, 1024), flash_share_amd(3, 1, 2048), 0, "held under 2k");
    {
        /* the shares' GEMM rates are the catalog's for the GPUs measured */
        const struct cat_gpu *a3 = catalog_find_gpu(&cat, "MI300X"), *a4 = catalog_find_gpu(&cat, "MI355X");
        T_CHECK(a3 && a4 && a3->cdna == 3 && a4->cdna == 4 &&
                fabs(a3->peak_tflops[CAT_BF16] * a3->mm_eff - 708.5) < 1e-9 &&
                fabs(a4->peak_tflops[CAT_BF16] * a4->mm_eff - 1565.0) < 1e-9,
                "MI300X (CDNA 3) at 708.5 and MI355X (CDNA 4) at 1565.0 TFLOP/s in gpus.csv");
    }
    T_CHECK(isnan(flash_share_amd(2, 1, 8192)) && isnan(flash_share_amd(0, 1, 8192)),
            "no figure for another generation, nor for a GPU that is not AMD's");
    T_NEAR(flash_share(FLASH_CUDNN, 90, 128, 0, 8192), 566.9 * 589 / 531 / 719.7, 1e-12,
           "unmasked: that figure times the measured unmasked-to-causal ratio (589 / 531)");
    T_NEAR(flash_share(FLASH_CUDNN, 90, 128, 1, 131072), 608.0 / 719.7, 1e-12,
           "past the published 32k: held there, as the lent H100 measured the rate to 128k");
    T_NEAR(flash_share(FLASH_FA2, 86, 96, 0, 1448.15), (0.5 * (162 + 187) + 0.5 * (153 + 172)) / 2 / 245.2,
           0.002, "Ampere's other parts take the A100's figures, interpolated in head dimension and "
           "log sequence");
    T_CHECK(isnan(flash_share(FLASH_FA2, 70, 128, 1, 2048)), "no FlashAttention-2 before Ampere");
    sc.workload.attention = SC_ATTN_FLASH_TRITON;
    tri = attn_s(&sc, "A100-80GB", b);
    T_NEAR((tri - L * 4 * 3e-6) / (fa2 - L * 4 * 3e-6), 155.0 / 68, 1e-9,
           "the Triton kernel: 68 TFLOP/s where FlashAttention-2 reaches 155");
    sc.workload.attention = SC_ATTN_FLASH;
    bidir = *sc.workload.model;
    bidir.causal = 0;
    sc.workload.model = &bidir;
    T_NEAR((attn_s(&sc, "A100-80GB", b) - L * 4 * 3e-6) / (fa2 - L * 4 * 3e-6), 2 * 155.0 / 187,
           1e-9, "without the mask: twice the FLOPs at 187 TFLOP/s");
    tri = attn_s(&sc, "V100", b);
    sc.workload.model = catalog_find_model(&cat, "mpt-7b");
    T_NEAR(attn_s(&sc, "V100", b), tri / 2, 1e-12 * tri, "V100: the two GEMMs, halved under the mask");
    {
        struct compute_plan p;
        pass_s(&sc, "V100", b, &p);
        T_CHECK(strstr(p.note, "V100: no FlashAttention rate") != NULL, "and says so (%s)", p.note);
        pass_s(&sc, "A100-80GB", b, &p);
        T_CHECK(p.note[0] == 0, "the A100 runs it without a note");
    }
    scenario_prec_set(&sc, CAT_TF32);
    sc.workload.model = &bidir;
    fa2 = attn_s(&sc, "A100-80GB", b);
    sc.workload.model = catalog_find_model(&cat, "mpt-7b");
    T_NEAR(attn_s(&sc, "A100-80GB", b), fa2 / 2, 1e-12 * fa2,
           "TF32: the two GEMMs too, halved under the mask");
    scenario_free(&sc);
}

/* The model's time for each of the 16 products of a transformer layer that
 * a lent H200 measured in bf16 and fp8 (results/gpu-profiles/
 * h200-fp8-gemm.json: Llama 3 8B's and 70B's layer at 8,192 tokens, tp 1
 * and tp 8; 20 back-to-back calls each, so shorter than sustained): within
 * 15% in both formats where the reduction is 1,024 deep or more.  The
 * shallowest (Llama 3 8B's output projection at tp 8, k 512) is marked:
 * its fp8 product takes 30% longer than the model gives (k 1,024: 9%), the
 * 16-bit output tile costing as much in fp8 as in bf16, which a roofline of
 * the larger of compute and bytes leaves out. */
static void gemm_times_follow_a_measured_sweep(const char *path, const char *gpu)
{
    FILE *f = fopen(path, "rb");
    static char buf[1 << 16];
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    struct compute_rates r;
    cJSON *j, *arr = NULL, *it;
    int shapes = 0;

    if (f)
        fclose(f);
    buf[n] = 0;
    if (!(j = cJSON_Parse(buf))) {
        T_CHECK(0, "%s parses", path);
        return;
    }
    cJSON_ArrayForEach(it, j)
        if (cJSON_IsArray(it))
            arr = it;
    compute_rates_of(catalog_find_gpu(&cat, gpu), NULL, &r);
    cJSON_ArrayForEach(it, arr) {
        double m = cJSON_GetObjectItem(it, "m")->valuedouble;
        double nn = cJSON_GetObjectItem(it, "n")->valuedouble;
        double k = cJSON_GetObjectItem(it, "k")->valuedouble;
        double eb = compute_gemm_s(&r, m, nn, k, CAT_BF16) / cJSON_GetObjectItem(it, "bf16_s")->valuedouble - 1;
        double e8 = compute_gemm_s(&r, m, nn, k, CAT_FP8) / cJSON_GetObjectItem(it, "fp8_s")->valuedouble - 1;
        int within = fabs(eb) <= 0.15 && fabs(e8) <= 0.15;

        shapes++;
        if (k < 1024)
            printf("%s - %s %.0f x %.0f x %.0f: bf16 %+.1f%%, fp8 %+.1f%% [known gap: a shallow "
                   "reduction's fp8 product, its output tile's cost not in the roofline]\n",
                   within ? "ok" : "xfail", gpu, m, nn, k, 100 * eb, 100 * e8);
        else
            T_CHECK(within, "%s %.0f x %.0f x %.0f: bf16 %+.1f%%, fp8 %+.1f%% of the measured", gpu,
                    m, nn, k, 100 * eb, 100 * e8);
    }
    T_CHECK(shapes == 16, "the sweep's 16 products (%d)", shapes);
    cJSON_Delete(j);
}

static void h200_gemm_times_follow_its_sweep(void)
{
    gemm_times_follow_a_measured_sweep("results/gpu-profiles/h200-fp8-gemm.json", "H200");
}

/* The same sweep on a lent H100 SXM (results/gpu-profiles/h100-fp8-gemm.json). */
static void h100_gemm_times_follow_its_sweep(void)
{
    gemm_times_follow_a_measured_sweep("results/gpu-profiles/h100-fp8-gemm.json", "H100");
}

/* The six products of a MoE layer's local experts (first and second, each
 * forward, input gradient and weight gradient) that a lent H200 measured
 * (results/gpu-profiles/h200-moe-gemm.jsonl, validate/moe_gemm.py: one
 * product an expert over 4 streams, replayed from a CUDA graph; 17 cases
 * of five models at ep 1 to 64), against the model's grouped products.
 * Where an expert takes 1,024 rows or more (every published recipe's
 * layout): each case within 20% in bf16 and in fp8, and their mean error
 * within 10%.  Below that (128 experts of 128 and 256 rows, ep 1) the cases
 * print: 4 streams of small products are not the model's 4 rounds of one
 * grid each (Qwen3-235B -27%). */
static void moe_products_follow_the_measured(void)
{
    FILE *f = fopen("results/gpu-profiles/h200-moe-gemm.jsonl", "rb");
    char line[4096];
    struct compute_rates r;
    int cases = 0, big = 0;
    double sum[2] = {0, 0};

    T_CHECK(f != NULL, "h200-moe-gemm.jsonl opens");
    if (!f)
        return;
    compute_rates_of(catalog_find_gpu(&cat, "H200"), NULL, &r);
    while (fgets(line, sizeof line, f)) {
        cJSON *j = cJSON_Parse(line), *t4 = j ? cJSON_GetObjectItem(j, "loop4_s") : NULL;
        cJSON *t8 = j ? cJSON_GetObjectItem(j, "fp8_loop4_s") : NULL;
        double h, fw, n1, L, R, e[2];

        if (!t4 || !t8) {
            cJSON_Delete(j);
            continue;
        }
        h = cJSON_GetObjectItem(j, "hidden")->valuedouble;
        fw = cJSON_GetObjectItem(j, "ffn")->valuedouble;
        n1 = cJSON_GetObjectItem(j, "n1")->valuedouble;
        L = cJSON_GetObjectItem(j, "local_experts")->valuedouble;
        R = cJSON_GetObjectItem(j, "rows")->valuedouble;
        for (int p = 0; p < 2; p++) {
            enum cat_prec pr = p ? CAT_FP8 : CAT_BF16;
            double t = compute_grouped_s(&r, R, n1, h, L, pr) + compute_grouped_s(&r, R, h, n1, L, pr) +
                       compute_grouped_s(&r, h, n1, R, L, pr) + compute_grouped_s(&r, R, h, fw, L, pr) +
                       compute_grouped_s(&r, R, fw, h, L, pr) + compute_grouped_s(&r, fw, h, R, L, pr);
            e[p] = t / (p ? t8 : t4)->valuedouble - 1;
        }
        if (R >= 1024) {
            T_CHECK(fabs(e[0]) <= 0.20 && fabs(e[1]) <= 0.20,
                    "%s ep %.0f (%.0f experts x %.0f rows): bf16 %+.1f%%, fp8 %+.1f%% of the measured",
                    cJSON_GetObjectItem(j, "model")->valuestring,
                    cJSON_GetObjectItem(j, "ep")->valuedouble, L, R, 100 * e[0], 100 * e[1]);
            sum[0] += e[0];
            sum[1] += e[1];
            big++;
        } else {
            printf("%s - %s ep %.0f (%.0f experts x %.0f rows): bf16 %+.1f%%, fp8 %+.1f%%\n",
                   fabs(e[0]) <= 0.20 && fabs(e[1]) <= 0.20 ? "ok" : "xfail",
                   cJSON_GetObjectItem(j, "model")->valuestring,
                   cJSON_GetObjectItem(j, "ep")->valuedouble, L, R, 100 * e[0], 100 * e[1]);
        }
        cases++;
        cJSON_Delete(j);
    }
    fclose(f);
    T_CHECK(cases == 17 && big == 14, "the measured cases (%d, %d of 1,024 rows or more)", cases, big);
    if (big > 0)
        T_CHECK(fabs(sum[0] / big) <= 0.10 && fabs(sum[1] / big) <= 0.10,
                "their mean error: bf16 %+.1f%%, fp8 %+.1f%%", 100 * sum[0] / big, 100 * sum[1] / big);
}

/* Published GEMM sweeps (validate/published/gemm_sweeps.csv): Microsoft's own cuBLASLt runs
 * on its ND H100 v5, ND H200 v5 and ND GB200 v6 VMs (fp8, random data, 10,000 warm-ups,
 * squares of 1,024 to 32,768 and three other shapes; fp4 on the GB200), the same on a GB300
 * from a fork of that guide, and torchao's bf16 and NVFP4 squares on a B200, against the
 * model's product (compute_gemm_s; compute_fp4_gemm_s for fp4) from the catalog alone.
 * Each case without a known gap within 15%, the fp8 ones' mean error within 8%; a case with
 * one prints "xfail" and its reason, and fails the test once it comes within 15% (its mark
 * must go); a calibration input (a catalog figure's source) is printed, not checked. */
static void gemm_rates_follow_published_sweeps(void)
{
    struct csv_file f;
    struct dt_err e;
    int n8 = 0, cases = 0;
    double sum8 = 0;

    if (csv_read(&f, "validate/published/gemm_sweeps.csv", &e) != 0) {
        T_CHECK(0, "gemm_sweeps.csv reads: %s", e.msg);
        return;
    }
    for (int i = 1; i < f.nrows; i++) {
        const struct csv_row *row = &f.rows[i];
#define COL(name) row->fields[csv_column(&f.rows[0], name)].text
        const struct cat_gpu *g = catalog_find_gpu(&cat, COL("gpu"));
        double m = atof(COL("m")), n = atof(COL("n")), k = atof(COL("k"));
        int fp4 = !strcmp(COL("format"), "fp4"), bf16 = !strcmp(COL("format"), "bf16");
        const char *gap = COL("known_gap");
        struct compute_rates r;
        double t, err;

        if (!g) {
            T_CHECK(0, "%s: the catalog has %s", COL("case"), COL("gpu"));
            continue;
        }
        compute_rates_of(g, NULL, &r);
        t = fp4 ? compute_fp4_gemm_s(&r, m, n, k)
                : compute_gemm_s(&r, m, n, k, bf16 ? CAT_BF16 : CAT_FP8);
        err = 2 * m * n * k / t / 1e12 / atof(COL("published_tflops")) - 1;
        cases++;
        if (!strncmp(gap, "calibration input", strlen("calibration input"))) {
            printf("# input - %s: %+.1f%% of the published [%s]\n", COL("case"), 100 * err, gap);
        } else if (gap[0]) {
            printf("%s - %s: %+.1f%% of the published [known gap: %s]\n",
                   fabs(err) <= 0.15 ? "not ok" : "xfail", COL("case"), 100 * err, gap);
            T_CHECK(fabs(err) > 0.15, "%s: a marked case stays past 15%% (%+.1f%%)", COL("case"),
                    100 * err);
        } else {
            T_CHECK(fabs(err) <= 0.15, "%s: %+.1f%% of the published", COL("case"), 100 * err);
            if (!fp4 && !bf16) {
                sum8 += fabs(err);
                n8++;
            }
        }
#undef COL
    }
    csv_free(&f);
    T_CHECK(cases == 58, "the sweeps' 58 cases (%d)", cases);
    if (n8 > 0)
        T_CHECK(sum8 / n8 <= 0.08, "fp8 without a known gap: mean |error| %.1f%% over %d", 100 * sum8 / n8,
                n8);
}

/* Attention dropout in a fused kernel costs what the H200 measured: at
 * 2,048 tokens, head dimension 128, causal, FlashAttention-2 1.14x its time
 * without, cuDNN 1.46x; the rest of the layer is unchanged but for the
 * dropout kernels of the residual branches. */
static void fused_attention_pays_for_its_dropout(void)
{
    T_NEAR(flash_dropout_factor(FLASH_FA2, 90, 128, 1, 2048), 1.14, 1e-12, "FlashAttention-2: 1.14x");
    T_NEAR(flash_dropout_factor(FLASH_CUDNN, 90, 128, 1, 2048), 1.46, 1e-12, "cuDNN on Hopper: 1.46x");
    T_NEAR(flash_dropout_factor(FLASH_CUDNN, 80, 128, 1, 2048), 1.14, 1e-12,
           "cuDNN before Hopper: FlashAttention-2's, as its rate");
    T_CHECK(flash_dropout_factor(FLASH_FA2, 90, 96, 0, 3000) > 1.08 &&
                flash_dropout_factor(FLASH_FA2, 90, 96, 0, 3000) < 1.21,
            "between the measured head dimensions and sequences: between their factors");
}

/* ops_tensors counts what ops_build lays out, for every catalog model;
 * torchvision's ResNet-50 holds 161 parameter tensors, VGG-16 32. */
static void tensor_counts_agree_with_the_layout(void)
{
    int bad = 0;

    for (int i = 0; i < cat.nmodels; i++) {
        struct ops_model o;
        ops_build(&cat.models[i], 0, 1, 1, 0, 0, &o);
        if (o.tensors != ops_tensors(&cat.models[i])) {
            T_CHECK(0, "%s: %g laid out, %g counted", cat.models[i].name, o.tensors,
                    ops_tensors(&cat.models[i]));
            bad++;
        }
        ops_free(&o);
    }
    T_CHECK(bad == 0, "ops_tensors agrees with ops_build on all %d models", cat.nmodels);
    T_NEAR(ops_tensors(catalog_find_model(&cat, "resnet50")), 161, 0, "ResNet-50: 161 tensors");
    T_NEAR(ops_tensors(catalog_find_model(&cat, "vgg16")), 32, 0, "VGG-16: 32 tensors");
}

/* Context parallelism (parallel.cp): a rank of cp runs every product over
 * seq / cp tokens and its queries' attention over all seq keys, causal and
 * balanced, so the matrix work of a sequence splits evenly over the ranks;
 * a MoE model's expert GEMMs split the same way. */
static void context_parallel_ranks_split_the_sequence(void)
{
    static const char *const models[] = {"llama3-8b", "qwen3-30b-a3b", "deepseek-v3"};

    for (size_t i = 0; i < sizeof models / sizeof *models; i++) {
        const struct cat_model *m = catalog_find_model(&cat, models[i]);
        struct ops_model o1, o4;
        int attn = 0;
        if (!m) {
            T_CHECK(0, "%s in the catalog", models[i]);
            continue;
        }
        ops_build(m, 8192, 1, 1, 0, 0, &o1);
        struct ops_layout lay = {1, 0, 4, 1, 0, 0};
        ops_build_layout(m, 8192, &lay, 1, 0, &o4);
        T_NEAR(ops_fwd_flops(&o4) / ops_fwd_flops(&o1), 0.25, 1e-12,
               "%s at cp 4: a quarter of the matrix work a rank (%.4g of %.4g GFLOP)", models[i],
               ops_fwd_flops(&o4) / 1e9, ops_fwd_flops(&o1) / 1e9);
        for (int k = 0; k < o4.n; k++)
            if (o4.v[k].kind == OPS_ATTN && o4.v[k].n == 8192 && o4.v[k].m == 2048 && o4.v[k].causal)
                attn = 1;
        T_CHECK(attn, "%s: 2048 queries a rank over 8192 keys, causal", models[i]);
        ops_free(&o1);
        ops_free(&o4);
    }
}

/* Expert parallelism: a rank of ep holds experts / ep experts, each a GEMM
 * over the rows all ep ranks route to it, so an even load leaves a rank the
 * work it had (Qwen3-30B-A3B at ep 8: 16 experts of 4096 x 8 x 8 / 128 =
 * 2048 rows a sequence); the busiest rank at moe_imbalance 1.5 has half as
 * much again of the experts' work. */
static void expert_parallel_ranks_split_the_experts(void)
{
    const struct cat_model *m = catalog_find_model(&cat, "qwen3-30b-a3b");
    struct ops_layout l1 = {1, 0, 1, 1, 0, 0}, l8 = {1, 0, 1, 8, 0, 0}, l8i = {1, 0, 1, 8, 1.5, 0};
    struct ops_model o1, o8, o8i;
    double expert = 0, experts1 = 0;
    int found = 0;

    if (!m) {
        T_CHECK(0, "qwen3-30b-a3b in the catalog");
        return;
    }
    ops_build_layout(m, 4096, &l1, 1, 0, &o1);
    ops_build_layout(m, 4096, &l8, 1, 0, &o8);
    ops_build_layout(m, 4096, &l8i, 1, 0, &o8i);
    T_NEAR(ops_fwd_flops(&o8) / ops_fwd_flops(&o1), 1, 1e-12,
           "ep 8, even load: a rank's matrix work as at ep 1 (%.4g GFLOP)", ops_fwd_flops(&o8) / 1e9);
    for (int k = 0; k < o8.n; k++)
        if (o8.v[k].kind == OPS_LINEAR && o8.v[k].nb == 16 && o8.v[k].m == 2048) {
            found++;
            expert += 2 * o8.v[k].m * o8.v[k].n * o8.v[k].k * o8.v[k].nb * o8.v[k].count;
        }
    for (int k = 0; k < o1.n; k++)
        if (o1.v[k].kind == OPS_LINEAR && o1.v[k].nb == 128)
            experts1 += 2 * o1.v[k].m * o1.v[k].n * o1.v[k].k * o1.v[k].nb * o1.v[k].count;
    T_CHECK(found == 2, "16 experts a rank, 2048 rows each, both products (%d)", found);
    T_NEAR(expert, experts1, 1e-6 * experts1, "the experts' work is the same");
    T_NEAR(ops_fwd_flops(&o8i) - ops_fwd_flops(&o8), 0.5 * expert, 1e-6 * expert,
           "moe_imbalance 1.5: half the experts' work again");
    ops_free(&o1);
    ops_free(&o8);
    ops_free(&o8i);
}

/* LoRA (ops_lora): every weight frozen, each targeted product's adapter
 * beside it.  Llama 3 8B at rank 16 on the fused QKV and output
 * projections: 32 x 16 x ((4096 + 4096 + 2 x 1024) + (4096 + 4096))
 * trained parameters; the frozen products' backward is their input's
 * gradient alone (of a 16-bit product's two backward GEMMs, the one of its
 * forward's shape), and the adapters add two GEMMs and a sum each. */
static void lora_freezes_the_weights_and_adds_adapters(void)
{
    const struct cat_model *m = catalog_find_model(&cat, "llama3-8b");
    const struct cat_gpu *g = catalog_find_gpu(&cat, "H100");
    struct ops_layout full = {1, 0, 1, 1, 0, 0};
    struct ops_model o1, o2;
    struct compute_plan p;
    struct compute_rates r;
    struct compute_time t1, t2;
    int frozen = 1, adapters = 0;

    if (!m || !g) {
        T_CHECK(0, "llama3-8b and H100 in the catalog");
        return;
    }
    T_NEAR(ops_lora_params(m, 16, OPS_LORA_DEFAULT), 32.0 * 16 * (4096 + 4096 + 2048 + 8192), 0,
           "rank 16 on qkv and out: %.4g parameters trained", ops_lora_params(m, 16, OPS_LORA_DEFAULT));
    T_NEAR(ops_lora_params(m, 16, OPS_LORA_BIT(OPS_PROJ_FC1) | OPS_LORA_BIT(OPS_PROJ_FC2)),
           32.0 * 16 * ((4096 + 2 * 14336) + (14336 + 4096)), 0, "on fc1 (gated) and fc2");
    ops_build_layout(m, 8192, &full, 1, 0, &o1);
    ops_build_layout(m, 8192, &full, 1, 0, &o2);
    ops_lora(&o2, 16, OPS_LORA_DEFAULT);
    for (int k = 0; k < o1.n; k++)
        if (o1.v[k].kind == OPS_LINEAR && !o2.v[k].no_wgrad)
            frozen = 0;
    for (int k = o1.n; k < o2.n; k++)
        adapters += o2.v[k].kind == OPS_LINEAR && !o2.v[k].no_wgrad && !o2.v[k].fp8 &&
                    (o2.v[k].n == 16 || o2.v[k].k == 16);
    T_CHECK(frozen, "every product of the model frozen");
    T_CHECK(o2.n - o1.n == 6 && adapters == 4, "two adapters of two products and a sum each (%d items, "
            "%d adapter products)", o2.n - o1.n, adapters);
    compute_rates_of(g, NULL, &r);
    if (compute_plan_of(g, CAT_BF16, 0, &p) == 0 && compute_time_of(&o1, &p, &r, 1, &t1) == 0 &&
        compute_time_of(&o2, &p, &r, 1, &t2) == 0) {
        double lin1 = t1.kind_s[OPS_LINEAR], lin2 = t2.kind_s[OPS_LINEAR];
        T_CHECK(lin2 < 0.75 * lin1 && lin2 > 0.6 * lin1,
                "the products' time about two thirds of training's (%.3f of %.3f s)", lin2, lin1);
        T_CHECK(t2.fwd_s > t1.fwd_s && t2.fwd_s < 1.05 * t1.fwd_s,
                "forward: the adapters add under 5%% (%.4f against %.4f s)", t2.fwd_s, t1.fwd_s);
    } else {
        T_CHECK(0, "H100 times llama3-8b in bf16");
    }
    ops_free(&o1);
    ops_free(&o2);
    {
        /* NVIDIA's MLPerf LoRA implementation counts 2,598 TFLOP a sample of
         * Llama 2 70B at 8,192 tokens (mlcommons/training_results_v5.1@441d65f4
         * NVIDIA/benchmarks/llama2_70b_lora/implementations/nemo/config_common.sh,
         * MODEL_TFLOP_PER_SAMPLE): the LoRA layout's forward and backward
         * (frozen products one backward GEMM, fused attention's backward 2.5
         * forwards, causal halved) within 2% of it */
        const struct cat_model *l2 = catalog_find_model(&cat, "llama2-70b");
        struct ops_model o;
        double total = 0;
        if (!l2) {
            T_CHECK(0, "llama2-70b in the catalog");
            return;
        }
        ops_build_layout(l2, 8192, &full, 1, 0, &o);
        ops_lora(&o, 16, OPS_LORA_DEFAULT);
        for (int k = 0; k < o.n; k++) {
            const struct ops_item *it = &o.v[k];
            double f = 2 * it->m * it->n * it->k * it->nb * it->count * (it->causal ? 0.5 : 1);
            if (!ops_is_matrix(it->kind))
                continue;
            total += it->flash ? 3.5 * f : f * (1 + !it->no_dgrad + !it->no_wgrad);
        }
        T_NEAR(total / 1e12, 2598, 0.02 * 2598, "Llama 2 70B LoRA: %.0f TFLOP a sample against "
               "NVIDIA's 2,598", total / 1e12);
        ops_free(&o);
    }
}

/* A MoE layer's experts run as Transformer Engine's grouped linear runs
 * them: one cuBLAS call an expert, 4 streams at once, so 128 small experts
 * (Qwen3-30B-A3B at ep 1: 256 rows each a sequence) take longer than one
 * grid of all their tiles would and no less than 128 launches a product;
 * 8 large ones (ep 16: 4096 rows) come within 10% of the one grid. */
/* fp8's casts over a MoE layer's experts cover every row the rank's experts
 * take, not one expert's: the grouped product of 16 experts of 2,048 rows
 * casts what one product of 32,768 rows casts (the difference between
 * current and delayed scaling is a share of the casts alone).  Under the
 * fused grouped MLP on Blackwell with MXFP8, the second product's input and
 * the first's output gradient come from the kernels' epilogues: those two
 * casts go. */
static void expert_casts_cover_all_their_rows(void)
{
    const struct cat_model *m = catalog_find_model(&cat, "qwen3-30b-a3b");
    const struct cat_gpu *h100 = catalog_find_gpu(&cat, "H100"), *b200 = catalog_find_gpu(&cat, "B200");
    struct ops_layout l8 = {1, 0, 1, 8, 0, 0};
    struct compute_plan p;
    struct compute_rates r;
    struct ops_model fused, grouped;
    int seen = 0;

    if (!m || !h100 || !b200) {
        T_CHECK(0, "qwen3-30b-a3b, H100 and B200 in the catalog");
        return;
    }
    compute_plan_of(h100, CAT_FP8, 0, &p);
    compute_rates_of(h100, NULL, &r);
    ops_build_layout(m, 4096, &l8, 1, 0, &fused);
    ops_build_layout(m, 4096, &l8, 1, OPS_EXPERT_GROUPED, &grouped);
    for (int k = 0; k < fused.n; k++) {
        struct ops_item one = fused.v[k], flat;
        struct ops_model single = {&one, 1, 1, 0, 0};
        struct compute_time cur, del, fcur, fdel;
        if (!one.grouped || !one.fp8)
            continue;
        seen++;
        one.count = 1;
        flat = one;
        flat.m = one.m * one.nb;
        flat.nb = 1;
        flat.grouped = 0;
        p.fp8_recipe = SC_FP8_CURRENT;
        compute_time_of(&single, &p, &r, 1, &cur);
        p.fp8_recipe = SC_FP8_DELAYED;
        compute_time_of(&single, &p, &r, 1, &del);
        single.v = &flat;
        p.fp8_recipe = SC_FP8_CURRENT;
        compute_time_of(&single, &p, &r, 1, &fcur);
        p.fp8_recipe = SC_FP8_DELAYED;
        compute_time_of(&single, &p, &r, 1, &fdel);
        T_NEAR(cur.fwd_s + cur.bwd_s - del.fwd_s - del.bwd_s,
               fcur.fwd_s + fcur.bwd_s - fdel.fwd_s - fdel.bwd_s, 1e-12,
               "%.0f experts of %.0f rows cast what %.0f rows cast", one.nb, one.m, flat.m);
        T_CHECK(one.proj == OPS_PROJ_FC1 ? one.cast_fused == 0 && one.epi_cast == OPS_EPI_BWD
                                         : one.cast_fused == 1 && one.epi_cast == OPS_EPI_FWD,
                "fused: the first product casts its dispatched input, the second's comes from "
                "the epilogue");
    }
    T_CHECK(seen == 2, "two expert products (%d)", seen);
    for (int k = 0; k < grouped.n; k++)
        if (grouped.v[k].grouped && grouped.v[k].fp8)
            T_CHECK(grouped.v[k].cast_fused == 0 && grouped.v[k].epi_cast == 0,
                    "TEGroupedMLP: each product casts its own input");
    {
        /* the whole pass on B200 under MXFP8: fused below grouped by the two casts */
        struct compute_time tf, tg, hf, hg;
        compute_plan_of(b200, CAT_FP8, 0, &p);
        compute_rates_of(b200, NULL, &r);
        p.fp8_recipe = SC_FP8_MXFP8;
        compute_time_of(&fused, &p, &r, 1, &tf);
        compute_time_of(&grouped, &p, &r, 1, &tg);
        T_CHECK(tf.fwd_s + tf.bwd_s < tg.fwd_s + tg.bwd_s && tf.kernels < tg.kernels,
                "B200 MXFP8: the fused MLP's pass %.3f ms, TEGroupedMLP's %.3f",
                1e3 * (tf.fwd_s + tf.bwd_s), 1e3 * (tg.fwd_s + tg.bwd_s));
        p.fp8_recipe = SC_FP8_DELAYED;   /* no fused kernels: only the second's transpose differs */
        compute_time_of(&fused, &p, &r, 1, &hf);
        compute_time_of(&grouped, &p, &r, 1, &hg);
        T_CHECK(hf.kernels == hg.kernels && hf.fwd_s < hg.fwd_s && hf.bwd_s == hg.bwd_s,
                "B200 delayed scaling: the same kernels, the fused activation writes fp8");
    }
    ops_free(&fused);
    ops_free(&grouped);
    {
        /* shared experts: the MoE layer's norm feeds the router too, so
         * their first product casts in full; a dense block's does not */
        const struct cat_model *ds = catalog_find_model(&cat, "deepseek-v3");
        const struct cat_model *dense = catalog_find_model(&cat, "llama3-8b");
        struct ops_model o;
        int fc1 = 0, sfc1 = 0, dfc1 = 0;
        if (!ds || !dense) {
            T_CHECK(0, "deepseek-v3 and llama3-8b in the catalog");
            return;
        }
        ops_build_layout(ds, 4096, &l8, 1, 0, &o);
        for (int k = 0; k < o.n; k++)
            if ((o.v[k].mods & (1u << OPS_MOD_SHARED)) && o.v[k].fp8 && o.v[k].proj == OPS_PROJ_FC1) {
                sfc1++;
                fc1 += o.v[k].cast_fused == 0;
            }
        ops_free(&o);
        ops_build_layout(dense, 4096, &l8, 1, 0, &o);
        for (int k = 0; k < o.n; k++)
            if (o.v[k].fp8 && o.v[k].proj == OPS_PROJ_FC1)
                dfc1 += o.v[k].cast_fused == 1;
        ops_free(&o);
        T_CHECK(sfc1 >= 1 && fc1 == sfc1 && dfc1 == 1, "the shared experts' first product "
                "casts in full (%d of %d blocks), a dense block's only transposes (%d)", fc1,
                sfc1, dfc1);
    }
}

static void grouped_experts_launch_one_by_one(void)
{
    const struct cat_model *m = catalog_find_model(&cat, "qwen3-30b-a3b");
    const struct cat_gpu *h100 = catalog_find_gpu(&cat, "H100");
    struct ops_layout l1 = {1, 0, 1, 1, 0, 0}, l16 = {1, 0, 1, 16, 0, 0};
    const struct ops_layout *lays[2] = {&l1, &l16};
    struct compute_plan p;
    struct compute_rates r;

    if (!m || !h100) {
        T_CHECK(0, "qwen3-30b-a3b and H100 in the catalog");
        return;
    }
    compute_plan_of(h100, CAT_BF16, 0, &p);
    compute_rates_of(h100, NULL, &r);
    for (int i = 0; i < 2; i++) {
        struct ops_model o;
        int seen = 0;
        ops_build_layout(m, 4096, lays[i], 1, 0, &o);
        for (int k = 0; k < o.n; k++) {
            struct ops_item one = o.v[k];
            struct ops_model single = {&one, 1, 1, 0, 0};
            struct compute_time grouped, grid;
            if (!one.grouped)
                continue;
            seen++;
            one.count = 1;
            compute_time_of(&single, &p, &r, 1, &grouped);
            one.grouped = 0;
            compute_time_of(&single, &p, &r, 1, &grid);
            if (i == 0)
                T_CHECK(grouped.fwd_s > 1.2 * grid.fwd_s && grouped.fwd_s >= 128 * 4.72e-6 &&
                        grouped.bwd_s >= 2 * 128 * 4.72e-6,
                        "128 experts of %.0f rows: %.1f us against one grid's %.1f, 128 "
                        "launches at least", one.m, grouped.fwd_s * 1e6, grid.fwd_s * 1e6);
            else
                T_CHECK(grouped.fwd_s >= grid.fwd_s && grouped.fwd_s < 1.1 * grid.fwd_s,
                        "8 experts of %.0f rows: %.1f us, within 10%% of one grid's %.1f",
                        one.m, grouped.fwd_s * 1e6, grid.fwd_s * 1e6);
        }
        T_CHECK(seen == 2, "both expert products grouped (%d)", seen);
        ops_free(&o);
    }
}

/* Megatron-Core's recompute modules as the items carry them: the two
 * layer norms a layer, MLA's two up projections, the routed experts'
 * activation inside the MoE block, the layers' and the multi-token-
 * prediction module's block alike; a module's forward is what backward
 * runs again (DeepSeek-V3: the MoE block, a part of the forward). */
static void recompute_modules_tag_their_items(void)
{
    const struct cat_model *m = catalog_find_model(&cat, "deepseek-v3");
    const struct cat_gpu *h100 = catalog_find_gpu(&cat, "H100");
    struct ops_layout l = {1, 0, 1, 8, 0, 0};
    struct ops_model o;
    struct compute_plan p;
    struct compute_rates r;
    struct compute_time t;
    int n[OPS_NMOD] = {0}, act_in_moe = 1;

    if (!m || !h100) {
        T_CHECK(0, "deepseek-v3 and H100 in the catalog");
        return;
    }
    ops_build_layout(m, 4096, &l, 1, 0, &o);
    for (int k = 0; k < o.n; k++) {
        for (int b = 0; b < OPS_NMOD; b++)
            n[b] += (o.v[k].mods >> b) & 1;
        if ((o.v[k].mods & (1u << OPS_MOD_MOE_ACT)) && !(o.v[k].mods & (1u << OPS_MOD_MOE)))
            act_in_moe = 0;
    }
    /* the multi-token-prediction module's block carries its modules too */
    T_CHECK(n[OPS_MOD_LAYERNORM] == 2 * (1 + m->mtp_layers) &&
            n[OPS_MOD_MLA_UP] == 2 * (1 + m->mtp_layers) && n[OPS_MOD_MOE_ACT] == 1 + m->mtp_layers &&
            n[OPS_MOD_CORE_ATTN] >= 2 && n[OPS_MOD_MLP] >= 3 && n[OPS_MOD_SHARED] >= 3,
            "layernorm 2, mla_up_proj 2, moe_act 1 a block (the layers' and the module's), core_attn %d, mlp %d, shared_experts %d items",
            n[OPS_MOD_CORE_ATTN], n[OPS_MOD_MLP], n[OPS_MOD_SHARED]);
    T_CHECK(act_in_moe, "the experts' activation is part of the MoE block");
    compute_plan_of(h100, CAT_BF16, 0, &p);
    compute_rates_of(h100, NULL, &r);
    p.redo_mods = 1u << OPS_MOD_MOE;
    compute_time_of(&o, &p, &r, 1, &t);
    T_CHECK(t.mods_fwd_s > 0.2 * t.fwd_s && t.mods_fwd_s < 0.9 * t.fwd_s,
            "the MoE blocks' forward: %.0f%% of the forward", 100 * t.mods_fwd_s / t.fwd_s);
    p.redo_mods = 0;
    compute_time_of(&o, &p, &r, 1, &t);
    T_CHECK(t.mods_fwd_s == 0, "no module listed, nothing redone");
    ops_free(&o);
}

/* A sliding window's kernel runs at NVIDIA's published windowed rates (catalog/flash.c
 * window_eff): a GB200's 128-token window and an H200's 1024-token one come back, a 4k
 * window is causal attention at 4k, and GPT-OSS's windowed layers carry their window. */
static void sliding_windows_run_at_their_published_rate(void)
{
    const struct cat_model *m = catalog_find_model(&cat, "gpt-oss-120b");
    double gb200 = 2500 * catalog_find_gpu(&cat, "GB200")->mm_eff;   /* its 16-bit GEMM rate */
    double w128 = flash_window_share(FLASH_CUDNN, 100, 64, 128) * gb200;
    double w256 = flash_window_share(FLASH_CUDNN, 100, 64, 256) * gb200;
    double w1024 = flash_window_share(FLASH_CUDNN, 90, 64, 1024) * 719.7;
    struct ops_model o;
    double windowed = 0, causal = 0;

    T_NEAR(w128, 3.5 / (1 / 161.0 + 2.5 / 182), 1e-6,
           "GB200, 128 keys: the published 161 forward and 182 backward TFLOP/s combined (%.1f)",
           w128);
    T_NEAR(w1024, 3.5 / (1 / 336.0 + 2.5 / 289), 1e-6,
           "H200, 1024 keys: the published 336 and 289 combined (%.1f)", w1024);
    T_CHECK(w256 > w128 && w256 < flash_share(FLASH_CUDNN, 100, 64, 1, 4096) * gb200,
            "256 keys between the 128-key rate and causal attention at 4k (%.1f)", w256);
    T_NEAR(flash_window_share(FLASH_CUDNN, 90, 128, 4096), flash_share(FLASH_CUDNN, 90, 128, 1, 4096),
           1e-12, "a 4k window: causal attention at 4k");
    T_CHECK(isnan(flash_window_share(FLASH_FA2, 70, 64, 128)), "no fused kernel before Ampere");
    T_CHECK(m && m->window == 128, "gpt-oss-120b: a 128-token window");
    if (!m)
        return;
    ops_build(m, 4096, 1, 1, 0, 0, &o);
    for (int i = 0; i < o.n; i++) {
        if (o.v[i].flash && o.v[i].window == 128)
            windowed += o.v[i].count;
        else if (o.v[i].flash && o.v[i].window == 0)
            causal += o.v[i].count;
    }
    ops_free(&o);
    T_NEAR(windowed, 36, 0, "GPT-OSS: 18 windowed layers, two products each (%g)", windowed);
    T_NEAR(causal, 36, 0, "and 18 full-attention layers (%g)", causal);
}

/* The window's curve against the one measured on Hopper itself: a lent H200 timed cuDNN's
 * causal sliding window (results/gpu-profiles/h200-attention-window.jsonl,
 * validate/attn_window.py: JAX's cuDNN attention, cuDNN 9.19, GPT-OSS's 64 query and 8
 * key-value heads of 64, 4,096 tokens, batch 1 and 4) at 128 to 2,048 keys and the whole
 * causal sequence.  Each window's forward-plus-backward rate over the causal one of the same
 * batch is flash.c's curve, carried from a GB200 point and an H200 one, within 15% (the two
 * batches themselves differ by up to 11%), and the curve's mean error within 5%. */
static void windows_follow_the_h200_measured(void)
{
    FILE *f = fopen("results/gpu-profiles/h200-attention-window.jsonl", "rb");
    char line[4096];
    double causal[5] = {0}, rate[5][5] = {{0}}, sum = 0;
    const double keys[5] = {128, 256, 512, 1024, 2048};
    int n = 0;

    T_CHECK(f != NULL, "h200-attention-window.jsonl opens");
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        cJSON *j = cJSON_Parse(line), *k = j ? cJSON_GetObjectItem(j, "kind") : NULL;
        cJSON *r = j ? cJSON_GetObjectItem(j, "fwd_bwd_tflops") : NULL;

        if (cJSON_IsString(k) && !strcmp(k->valuestring, "gptoss") && cJSON_IsNumber(r) &&
            cJSON_GetObjectItem(j, "seq")->valuedouble == 4096) {
            int b = (int)cJSON_GetObjectItem(j, "batch")->valuedouble;
            double w = cJSON_GetObjectItem(j, "window")->valuedouble;

            if (b == 1 || b == 4) {
                if (w >= 4096)
                    causal[b] = r->valuedouble;
                for (int i = 0; i < 5; i++)
                    if (w == keys[i])
                        rate[b][i] = r->valuedouble;
            }
        }
        cJSON_Delete(j);
    }
    fclose(f);
    for (int b = 1; b <= 4; b += 3)
        for (int i = 0; i < 5; i++) {
            double model = flash_window_share(FLASH_CUDNN, 90, 64, keys[i]) /
                           flash_share(FLASH_CUDNN, 90, 64, 1, 4096);
            double meas = causal[b] > 0 ? rate[b][i] / causal[b] : 0;
            double e = meas > 0 ? model / meas - 1 : 1;

            T_CHECK(fabs(e) <= 0.15, "batch %d, %.0f keys: the curve %.3f, measured %.3f (%+.1f%%)", b,
                    keys[i], model, meas, 100 * e);
            sum += e;
            n++;
        }
    T_CHECK(fabs(sum / n) <= 0.05, "the curve's mean error over the measured windows: %+.1f%%",
            100 * sum / n);
}

/* The experts' epilogue under workload.expert_mlp: grouped (catalog/ops.c expert_epilogue):
 * GPT-OSS's clamp adds 8 and 10 elements a row's expert width to the moe_act module and its
 * second product's biases 14 and 18 a row's hidden width; fused, and for a model without
 * them, nothing changes. */
static void grouped_experts_pay_their_epilogue(void)
{
    const struct cat_model *m = catalog_find_model(&cat, "gpt-oss-120b");
    const struct cat_model *q = catalog_find_model(&cat, "qwen3-30b-a3b");
    struct ops_layout lay = {.tp = 1, .sp = 0, .cp = 1, .ep = 8, .moe_imbalance = 1, .etp = 1};
    struct ops_model f, g;
    double df = 0, db = 0, act_f = 0, act_g = 0, rows;

    T_CHECK(m && m->expert_bias && m->expert_clamp, "gpt-oss-120b: biased, clamped experts");
    T_CHECK(q && !q->expert_bias && !q->expert_clamp, "qwen3-30b-a3b: neither");
    if (!m || !q)
        return;
    ops_build_layout(m, 4096, &lay, 1, OPS_PURE | OPS_FUSED, &f);
    ops_build_layout(m, 4096, &lay, 1, OPS_PURE | OPS_FUSED | OPS_EXPERT_GROUPED, &g);
    for (int i = 0; i < f.n; i++)
        df += f.v[i].count * (f.v[i].elems_fwd + f.v[i].elems_bwd);
    for (int i = 0; i < g.n; i++) {
        db += g.v[i].count * (g.v[i].elems_fwd + g.v[i].elems_bwd);
        if (g.v[i].mods & (1u << OPS_MOD_MOE_ACT))
            act_g += g.v[i].count * g.v[i].elems_fwd;
    }
    for (int i = 0; i < f.n; i++)
        if (f.v[i].mods & (1u << OPS_MOD_MOE_ACT))
            act_f += f.v[i].count * f.v[i].elems_fwd;
    /* a rank's rows: 4096 tokens x top 4 x ep 8 over 128 experts, 16 of them local */
    rows = 4096.0 * 4 * 8 / 128 * 16;
    T_NEAR(g.n - f.n, 2, 0, "two items more: the clamp and the biases (%d)", g.n - f.n);
    T_NEAR(db - df, 36 * rows * ((8 + 10) * 2880.0 + (14 + 18) * 2880.0), 1e-6 * db,
           "36 layers' clamps and biases (%.4g elements)", db - df);
    T_NEAR(act_g - act_f, 36 * rows * 8 * 2880.0, 1e-6 * act_g,
           "the clamp's forward is part of moe_act (%.4g)", act_g - act_f);
    ops_free(&f);
    ops_free(&g);
    ops_build_layout(q, 4096, &lay, 1, OPS_PURE | OPS_FUSED, &f);
    ops_build_layout(q, 4096, &lay, 1, OPS_PURE | OPS_FUSED | OPS_EXPERT_GROUPED, &g);
    T_CHECK(f.n == g.n, "Qwen3: the same items either way (%d, %d)", f.n, g.n);
    ops_free(&f);
    ops_free(&g);
}

/* A sliding window in fp8 on Blackwell (catalog/flash.c win_ms): the forward near its 16-bit
 * time, the backward as published (MXFP8 on a GB200 at 4k: 2.080 ms against 0.465 in bf16),
 * falling with the sequence past 32k; Hopper's windows keep their 16-bit rate. */
static void fp8_windows_run_at_their_published_times(void)
{
    double f = flash_fp8_window_factor(100, 1, 4096, 0), b = flash_fp8_window_factor(100, 1, 4096, 1);

    T_NEAR(f, 0.210 / 0.210, 1e-12, "GB200, MXFP8 at 4k: the forward as in bf16 (%.3f)", f);
    T_NEAR(b, 0.465 / 2.080, 1e-12, "GB200, MXFP8 at 4k: the backward 0.465 against 2.080 ms (%.3f)", b);
    T_NEAR(flash_fp8_window_factor(103, 0, 8192, 1), 0.862 / 5.189, 1e-12,
           "GB300, per-tensor fp8 at 8k: 0.862 against 5.189 ms");
    T_NEAR(flash_fp8_window_factor(100, 1, 65536, 1), 3.692 / 108.370 / 2, 1e-12,
           "GB200 at 64k: half 32k's ratio (the backward's time with the sequence's square)");
    T_NEAR(flash_fp8_window_factor(90, 0, 4096, 1), 1, 0, "Hopper: none published, 1");
}

/* Attention in fp8 (workload.fp8_attention) at NVIDIA's published fp8 and MXFP8 rates over
 * the same benchmark's 16-bit ones (catalog/flash.c flash_fp8_factor). */
static void fp8_attention_runs_at_its_published_rate(void)
{
    T_NEAR(flash_fp8_factor(103, 192, 1, 4096), 1716.0 / 1243, 1e-12,
           "GB300, MLA's 192, MXFP8 at 4k: 1716 against 1243 TFLOP/s (%.3f)",
           flash_fp8_factor(103, 192, 1, 4096));
    T_NEAR(flash_fp8_factor(100, 128, 0, 16384), 1753.0 / 1418, 1e-12,
           "GB200, 128, per-tensor fp8 at 16k: 1753 against 1418");
    T_NEAR(flash_fp8_factor(100, 64, 1, 4096), flash_fp8_factor(100, 128, 1, 4096), 1e-12,
           "head dimensions under 128 take 128's");
    T_NEAR(flash_fp8_factor(90, 128, 0, 8192), 678.05 / 502.82, 1e-12,
           "Hopper, fp8 at 8k: 678 against 503 (the September 2024 run)");
    T_NEAR(flash_fp8_factor(90, 128, 1, 8192), 1, 0, "no MXFP8 on Hopper");
    T_NEAR(flash_fp8_factor(80, 128, 0, 8192), 1, 0, "nothing published before Hopper");
}

int main(void)
{
    struct dt_err e;

    if (catalog_load(&cat, "catalog", &e)) {
        printf("FAIL - catalog: %s\n", e.msg);
        return 1;
    }
    T_RUN(networks_match_their_published_flops);
    T_RUN(grouped_experts_pay_their_epilogue);
    T_RUN(fp8_windows_run_at_their_published_times);
    T_RUN(precisions_run_as_frameworks_run_them);
    T_RUN(auto_takes_the_fastest_native_format);
    T_RUN(recompute_adds_its_forward_work);
    T_RUN(per_operator_recompute_redoes_every_second_product);
    T_RUN(tensor_counts_agree_with_the_layout);
    T_RUN(h200_gemm_times_follow_its_sweep);
    T_RUN(h100_gemm_times_follow_its_sweep);
    T_RUN(moe_products_follow_the_measured);
    T_RUN(fused_attention_pays_for_its_dropout);
    T_RUN(pure_and_fused_cut_memory_work_only);
    T_RUN(the_roofline_has_both_terms);
    T_RUN(a_measured_time_carries_through_the_model);
    T_RUN(fused_attention_runs_at_its_published_rate);
    T_RUN(fp8_runs_as_transformer_engine_runs_it);
    T_RUN(context_parallel_ranks_split_the_sequence);
    T_RUN(expert_parallel_ranks_split_the_experts);
    T_RUN(lora_freezes_the_weights_and_adds_adapters);
    T_RUN(grouped_experts_launch_one_by_one);
    T_RUN(expert_casts_cover_all_their_rows);
    T_RUN(recompute_modules_tag_their_items);
    T_RUN(sliding_windows_run_at_their_published_rate);
    T_RUN(windows_follow_the_h200_measured);
    T_RUN(gemm_rates_follow_published_sweeps);
    T_RUN(fp8_attention_runs_at_its_published_rate);
    catalog_free(&cat);
    return T_DONE();
}
