/*
 * ops.c - models laid out as operations (ops.h; element counts in
 * docs/model.md "Compute").  O(layers).
 */
#include "ops.h"
#include "shape.h"
#include "../base/names.h"
#include "../base/xmem.h"

#include <math.h>
#include <string.h>

/*
 * Elements each memory-bound kind reads plus writes, per element of the
 * tensor it works on, forward and backward, as an unfused framework runs it:
 *   batch norm in training: a pass for the statistics, one to normalise
 *     (3); backward reduces x and dy, then reads both and writes dx (5);
 *   layer norm: one fused pass each way (2; 3: x, dy in, dx out);
 *   activation: in and out (2); backward reads its input and dy, writes dx (3);
 *   residual add: two in, one out (3); backward, the gradients of the two
 *     branches meet in one add (3);
 *   softmax: 2 and 3, as an activation;
 *   dropout: in, out and a one-byte mask (about 2.5 either way);
 *   embedding: a gather (2); backward scatters into the table (3).
 * Pooling gives its own counts (input and output differ in size).
 */
static const double pass_fwd[OPS_NKIND] = {0, 0, 0, 3, 2, 2, 3, 0, 2, 2.5, 2, 2, 2};
static const double pass_bwd[OPS_NKIND] = {0, 0, 0, 5, 3, 3, 3, 0, 3, 2.5, 3, 2, 2};

/*
 * Eager PyTorch's memory-bound kernels of a Llama block, measured
 * (validate/eager_ops.py on an H200, PyTorch 2.11, 8,192 tokens of
 * Llama 3 8B's widths; results/gpu-profiles/h200-eager-ops.jsonl,
 * 2026-11-26) and given here as the elements per element of the tensor
 * that take the measured time at the catalog's H200 rate for the kind
 * (4,800 GB/s x mem_eff 0.736 x kind_bw), so that other GPUs scale by
 * their own bandwidth; the gradient fill of the harness taken off the
 * backward.  Fused (workload.kernels: fused) the same work is one kernel
 * each: pass_fwd and pass_bwd.
 *   RMS norm as Hugging Face's and torchtitan's Llama write it (an fp32
 *     upcast, the mean of squares, rsqrt, two products, the cast back):
 *     0.439 ms forward and 0.985 ms backward over 8192 x 4096, 12.7 and
 *     28.1 elements (a layer norm's one kernel: 2 and 3);
 *   rotary embedding of Q and K by rotate_half (slices, a negation, a
 *     concatenation, two products and a sum each): 0.463 and 0.581 ms
 *     over 8192 x (4096 + 1024), 17.0 and 20.6;
 *   SwiGLU's silu(x1) * x3 as two kernels and their backward: 0.284 and
 *     0.565 ms over 8192 x 14336, 3.7 and 6.6 (fused: 3 and 4.5).
 */
#define EAGER_RMS_FWD 12.7
#define EAGER_RMS_BWD 28.1
#define EAGER_ROPE_FWD 17.0
#define EAGER_ROPE_BWD 20.6
#define EAGER_SWIGLU_FWD 3.7
#define EAGER_SWIGLU_BWD 6.6

/*
 * The experts' epilogue as Megatron-Core's TEGroupedMLP ran it through
 * mid-2026 (NVIDIA/Megatron-LM@d30c3ae5, April 2026: megatron/core/
 * transformer/moe/experts.py and fusions/fused_bias_geglu.py), counted as
 * PyTorch runs each operation, in elements of 16 bits read plus written
 * (an fp32 element is two):
 *   the clamp of a clamped gated activation (weighted_bias_quick_geglu_impl
 *     with a clamp value): chunk into halves, clamp each, cat them back,
 *     before the fused activation; over the first product's output of
 *     rows x 2f: forward 8 a row's f (each clamp reads and writes f, the
 *     cat reads and writes 2f), backward 10 (each clamp's backward reads
 *     the gradient and its input and writes one, 3f; the chunk's backward
 *     writes the whole gradient, 2f in and out).  The moe_act module
 *     recomputes it with the activation.
 *   the second product's biases (skip_bias_add, then _apply_bias): expert
 *     by expert the bias times the tokens' routing weights (fp32) added to
 *     the product's output, concatenated, cast back to 16 bits; over rows
 *     x h: forward 14 (the product b x p written in fp32, 2; the sum reads
 *     1 + 2 and writes 2; the cat 2 + 2; the cast 2 + 1), backward 18 (the
 *     cast's gradient to fp32, 3; back to 16 bits for the output, 3; the
 *     bias's and the weights' gradients each a product and a reduction,
 *     2 + 2 + 2 apiece).
 * The first product's bias runs in the grouped GEMM's epilogue and its
 * gradient with the weight gradient (Transformer Engine's grouped_linear.py):
 * nothing more.  The host's launches of the per-expert loop are not counted.
 */
#define EXPERT_CLAMP_FWD 8.0
#define EXPERT_CLAMP_BWD 10.0
#define EXPERT_BIAS_FWD 14.0
#define EXPERT_BIAS_BWD 18.0

static struct ops_item *push(struct ops_model *o, enum ops_kind kind, double count)
{
    struct ops_item *it;

    if (o->n == o->cap) {
        o->cap = o->cap ? 2 * o->cap : 64;
        o->v = x_realloc(o->v, (size_t)o->cap * sizeof *o->v);
    }
    it = &o->v[o->n++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->count = count;
    it->nb = 1;
    return it;
}

/* A GEMM of m rows per sample, n columns, k-long reduction. */

static struct ops_item *gemm(struct ops_model *o, enum ops_kind kind, double count, double m,
                             double n, double k)
{
    struct ops_item *it = push(o, kind, count);

    it->m = m;
    it->n = n;
    it->k = k;
    it->a_elems = m * k;
    return it;
}

/* Memory-bound work over a tensor of e elements per sample. */
struct ops_item *ops_push(struct ops_model *o, enum ops_kind kind, double count)
{
    return push(o, kind, count);
}

struct ops_item *ops_gemm(struct ops_model *o, enum ops_kind kind, double count, double m,
                          double n, double k)
{
    return gemm(o, kind, count, m, n, k);
}

static struct ops_item *mem(struct ops_model *o, enum ops_kind kind, double count, double e)
{
    struct ops_item *it = push(o, kind, count);

    it->elems_fwd = pass_fwd[kind] * e;
    it->elems_bwd = pass_bwd[kind] * e;
    return it;
}

/* Element-wise work counted operation by operation: fwd and bwd elements
 * read plus written per sample (the experts' epilogue). */
static struct ops_item *counted(struct ops_model *o, double count, double fwd, double bwd)
{
    struct ops_item *it = push(o, OPS_ACT, count);

    it->elems_fwd = fwd;
    it->elems_bwd = bwd;
    return it;
}

/* Autocast's fp32 kernels: 16-bit in, 32-bit out (3 bytes an element on
 * average), then the cast back to 16 bits that the next matrix product
 * makes (read 4, write 2: 3 again), forward and backward alike.  PyTorch's
 * autocast op reference lists softmax, layer_norm and the losses among
 * the ops that run in float32. */
static void amp_fp32(struct ops_model *o, struct ops_item *it, double count, double e)
{
    struct ops_item *cast;
    double redo = it->op_sac;

    if (o->style & OPS_PURE)
        return;     /* 16-bit in and out, fp32 inside the kernel only */
    it->amp_bytes = 3;
    cast = mem(o, OPS_ACT, count, e);   /* it may move: not used below */
    cast->amp_only = 1;
    cast->amp_bytes = 3;
    cast->op_sac = redo;
}

/*
 * Dropout then the residual add, over e elements per sample: two kernels
 * (2.5 + 3 elements forward, 2.5 + 3 backward), or one fused kernel, which
 * reads the branch and the residual and writes the sum and a one-byte mask
 * (3.5 forward) and in backward reads the gradient and the mask and writes
 * the branch's gradient (2.5; the residual's passes through untouched).
 */
static void dropout_add(struct ops_model *o, double count, double e, int drop)
{
    struct ops_item *it;

    if (drop && (o->style & OPS_FUSED)) {
        it = push(o, OPS_DROPOUT, count);
        it->elems_fwd = 3.5 * e;
        it->elems_bwd = 2.5 * e;
        return;
    }
    if (drop)
        mem(o, OPS_DROPOUT, count, e);
    mem(o, OPS_ADD, count, e);
}

/* A convolution of a cin x hin x hin input, kernel r x r, stride st, to
 * cout channels, and the batch norm (and ReLU) after it.  Returns the
 * output side. */
static int conv_bn(struct ops_model *o, int cin, int hin, int r, int st, int cout, int relu)
{
    int pad = r / 2, hout = (hin + 2 * pad - r) / st + 1;
    double out = (double)cout * hout * hout;
    struct ops_item *it = gemm(o, OPS_CONV, 1, (double)hout * hout, cout, (double)cin * r * r);

    it->a_elems = (double)cin * hin * hin;
    it->no_dgrad = o->n == 1;
    o->tensors += 3;            /* the kernel (no bias), the norm's scale and shift */
    mem(o, OPS_BNORM, 1, out);
    if (relu)
        mem(o, OPS_ACT, 1, out);
    return hout;
}

/* Max or average pooling from ein to eout elements per sample. */
static void pool(struct ops_model *o, double ein, double eout)
{
    struct ops_item *it = push(o, OPS_POOL, 1);

    it->elems_fwd = ein + eout;
    it->elems_bwd = eout + ein;
}

/* The classifier: a linear layer (and optionally ReLU and dropout). */
static void fc(struct ops_model *o, int in, int out, int relu_dropout)
{
    gemm(o, OPS_LINEAR, 1, 1, out, in);
    o->tensors += 2;
    if (relu_dropout) {
        mem(o, OPS_ACT, 1, out);
        mem(o, OPS_DROPOUT, 1, out);
    }
}

/*
 * ResNet at 224 x 224 (He et al. 2016, arXiv:1512.03385, table 1; the
 * stride sits in the 3x3 convolution of a bottleneck, torchvision's v1.5):
 * a 7x7 stem and max pool, four stages of blocks at widths 64 to 512
 * (bottlenecks widen 4x), average pool and a 1000-way classifier.
 */
static void resnet(struct ops_model *o, const int *blocks, int bottleneck)
{
    int cin = 64, h = conv_bn(o, 3, 224, 7, 2, 64, 1), exp = bottleneck ? 4 : 1;

    pool(o, 64.0 * h * h, 64.0 * (h / 2) * (h / 2));
    h /= 2;
    for (int s = 0; s < 4; s++)
        for (int b = 0; b < blocks[s]; b++) {
            int w = 64 << s, st = s > 0 && b == 0 ? 2 : 1, ho;
            if (bottleneck) {
                conv_bn(o, cin, h, 1, 1, w, 1);
                ho = conv_bn(o, w, h, 3, st, w, 1);
                conv_bn(o, w, ho, 1, 1, w * exp, 0);
            } else {
                ho = conv_bn(o, cin, h, 3, st, w, 1);
                conv_bn(o, w, ho, 3, 1, w, 0);
            }
            if (st != 1 || cin != w * exp)
                conv_bn(o, cin, h, 1, st, w * exp, 0);
            mem(o, OPS_ADD, 1, (double)w * exp * ho * ho);
            mem(o, OPS_ACT, 1, (double)w * exp * ho * ho);
            cin = w * exp;
            h = ho;
        }
    pool(o, (double)cin * h * h, cin);
    fc(o, cin, 1000, 0);
}

/* VGG-16 at 224 x 224 (Simonyan and Zisserman 2015, arXiv:1409.1556,
 * configuration D, as torchvision builds it: no batch norm). */
static void vgg16(struct ops_model *o)
{
    static const int cfg[] = {64, 64, 0, 128, 128, 0, 256, 256, 256, 0,
                              512, 512, 512, 0, 512, 512, 512, 0};
    int cin = 3, h = 224;

    for (size_t i = 0; i < sizeof cfg / sizeof *cfg; i++) {
        if (cfg[i] == 0) {
            pool(o, (double)cin * h * h, (double)cin * (h / 2) * (h / 2));
            h /= 2;
            continue;
        }
        struct ops_item *it = gemm(o, OPS_CONV, 1, (double)h * h, cfg[i], cin * 9.0);
        it->a_elems = (double)cin * h * h;
        it->no_dgrad = cin == 3;
        o->tensors += 2;
        mem(o, OPS_ACT, 1, (double)cfg[i] * h * h);
        cin = cfg[i];
    }
    fc(o, cin * h * h, 4096, 1);
    fc(o, 4096, 4096, 1);
    fc(o, 4096, 1000, 0);
}

/* A block's linear layer that fp8 runs (ops_item.fp8); fused 1 when the
 * kernel before it casts its input (Transformer Engine's LayerNormLinear
 * and LayerNormMLP fuse the cast into the norm and the activation). */
static void fp8_of(struct ops_item *it, int fused)
{
    it->fp8 = 1;
    it->cast_fused = fused;
}

/* One of fused attention's two products, heads of width d. */
static void flash_of(struct ops_item *it, const struct cat_model *m, int flash, double d)
{
    it->flash = flash;
    it->causal = flash && m->causal;
    it->head_dim = d;
    it->dropout = flash && m->dropout > 0;
}

/* A block's norm over e elements, `count` of them, redone (op_sac) under
 * per-operator recompute: an eager RMS norm as its measured chain of
 * kernels (its fp32 upcast counted in it), otherwise one kernel, fp32
 * inside under autocast. */
/* Items from..o->n belong to module bit mod too (ops.h OPS_MOD_*). */
static void tag(struct ops_model *o, int from, int mod)
{
    for (int i = from; i < o->n; i++)
        o->v[i].mods |= 1u << mod;
}

static void norm(struct ops_model *o, const struct cat_model *m, double count, double e,
                 double redo)
{
    struct ops_item *it = mem(o, OPS_LNORM, count, e);

    it->op_sac = redo;
    if (m->rms_norm && !(o->style & OPS_FUSED)) {
        it->elems_fwd = EAGER_RMS_FWD * e;
        it->elems_bwd = EAGER_RMS_BWD * e;
        return;
    }
    amp_fp32(o, it, count, e);
}

/*
 * A transformer of shape m over s tokens, block by block: norm, the Q, K,
 * V projections, attention, the output projection, (dropout,) residual
 * add, norm, the feed-forward block and its activation, (dropout,) add.
 * Attention held in memory is QK^T and AV as batched GEMMs (one per head)
 * around the scale-mask-softmax and dropout of heads x s x s scores; fused
 * (flash), it is the two products with nothing of size s x s in memory and
 * the scores recomputed in backward.  A rotary model rotates Q and K
 * after their projection.  Then the final norm and, for a
 * language model, the output projection and its softmax cross-entropy
 * over the vocabulary.
 */
/*
 * A feed-forward block of width f over `rows` tokens a sample, `count` of
 * them, as `nb` independent GEMMs (the experts of a MoE layer; 1 dense): the
 * first product (gated: gate and up together), the activation, the second.
 * experts 1: a MoE layer's routed experts (their activation is the moe_act
 * module; under OPS_EXPERT_GROUPED their clamp and biases cost more).
 */
static void ffn_rows(struct ops_model *o, const struct cat_model *m, double count, double rows,
                     double nb, double f, double t, int experts)
{
    double h = m->hidden, e = rows * nb;
    int grouped = experts && (o->style & OPS_EXPERT_GROUPED);
    int streams = nb > 1 ? (o->style & OPS_EXPERT_SEQUENTIAL ? 1 : OPS_GROUP_STREAMS) : 0;
    struct ops_item *it;
    int first;

    it = gemm(o, OPS_LINEAR, count, rows, (m->gated_ffn ? 2 * f : f) / t, h);
    it->nb = nb;
    it->grouped = streams;
    it->a_elems = e * h;
    it->proj = OPS_PROJ_FC1;
    fp8_of(it, 1);
    if (experts) {
        /* a routed expert's input comes from the dispatcher in 16 bits,
         * not from a norm that writes fp8: a cast of its own */
        it->cast_fused = 0;
        it->epi_cast = grouped || !m->gated_ffn ? 0 : OPS_EPI_BWD;
    }
    it->op_sac = m->gated_ffn ? 0.5 : 0;            /* gated: w3, the sixth */
    first = o->n;
    if (grouped && m->expert_clamp && m->gated_ffn)   /* the clamp's own kernels */
        counted(o, count, EXPERT_CLAMP_FWD * e * f / t, EXPERT_CLAMP_BWD * e * f / t)->op_sac = 1;
    it = mem(o, OPS_ACT, count, e * f / t * (m->gated_ffn ? 1.5 : 1));
    if (m->gated_ffn && !(o->style & OPS_FUSED)) {
        it->elems_fwd = EAGER_SWIGLU_FWD * e * f / t;
        it->elems_bwd = EAGER_SWIGLU_BWD * e * f / t;
    }
    it->op_sac = 1;
    if (experts)
        tag(o, first, OPS_MOD_MOE_ACT);     /* the experts' activation */
    it = gemm(o, OPS_LINEAR, count, rows, h, f / t);
    it->nb = nb;
    it->grouped = streams;
    it->a_elems = e * f / t;
    it->proj = OPS_PROJ_FC2;
    /* grouped: Megatron-Core's activation writes 16 bits and the grouped
     * linear casts them */
    fp8_of(it, !grouped);
    if (experts && !grouped && m->gated_ffn)
        it->epi_cast = OPS_EPI_FWD;
    it->op_sac = m->gated_ffn ? 0 : 1;              /* ungated: the sixth */
    if (grouped && m->expert_bias)                  /* the biases, expert by expert */
        counted(o, count, EXPERT_BIAS_FWD * e * h, EXPERT_BIAS_BWD * e * h);
}

/*
 * A MoE layer's feed-forward block over s tokens, `count` of them
 * (Megatron-Core's MoE layer, megatron/core/transformer/moe): the router's
 * product and its top-k softmax over the experts, the tokens permuted into
 * expert order (top_k copies of each), each expert's block as one GEMM of
 * the rows routed to it (grouped: experts GEMMs of s x top_k / experts rows,
 * an even load), the outputs unpermuted and summed by their weights, and
 * the shared experts as a dense block over every token.  Expert widths
 * split over tensor parallelism (expert tensor parallelism as Megatron-Core
 * defaults it, the tensor-parallel size).  Under expert parallelism of ep a
 * rank holds experts / ep of them (ep divides experts), each over the rows
 * of all ep ranks routed to it.
 */
static void moe_ffn(struct ops_model *o, const struct cat_model *m, double count, double s,
                    double t, double ep, double etp, double imb)
{
    double h = m->hidden, E = m->experts, k = m->top_k;
    struct ops_item *it;
    int first = o->n, shared;

    gemm(o, OPS_LINEAR, count, s, E, h);             /* the router */
    mem(o, OPS_SOFTMAX, count, s * E);
    it = mem(o, OPS_COPY, count, s * k * h);         /* permute */
    it->op_sac = 1;
    /* expert parallelism: the rank's experts / ep experts each take what
     * the ep ranks route to it, s k ep / E rows a sample of each rank on
     * an even load, imb times that on the busiest rank.  Expert tensor
     * parallelism of etp other than t (Megatron-Core's parallel folding):
     * a rank dispatches its sequence-parallel share s / t, and an expert
     * split etp ways gathers the rows of its etp ranks, s k ep etp / (t E),
     * each a etp-th of the expert's width */
    ffn_rows(o, m, count, s * k * ep * etp / (t * E) * imb, E / ep, shape_expert_width(m), etp, 1);
    it = mem(o, OPS_COPY, count, s * k * h);         /* unpermute and combine */
    it->op_sac = 1;
    shared = o->n;
    if (m->shared_experts > 0) {
        ffn_rows(o, m, count, s, 1, shape_shared_width(m), t, 0);
        /* the MoE layer's norm is a module of its own (it feeds the router
         * too), so the shared experts' first product casts its input in
         * full, as a dense block's LayerNormLinear does not */
        o->v[shared].cast_fused = 0;
    }
    tag(o, shared, OPS_MOD_SHARED);
    tag(o, first, OPS_MOD_MOE);
}

/*
 * Attention's core over s queries and `keys` keys (s, or a sliding window),
 * `count` layers of a heads of widths d (scores) and dv (values): held in
 * memory, QK^T and AV as batched GEMMs around the scale-mask-softmax and
 * dropout of the scores; fused (flash), the two products, the scores
 * recomputed in backward.  A window shorter than s is not causal-halved.
 */
static void attention(struct ops_model *o, const struct cat_model *m, double count, double s,
                      double keys, double a, double d, double dv, int flash, int drop)
{
    struct ops_item *it;

    if (count <= 0)
        return;
    it = gemm(o, OPS_ATTN, count, s, keys, d);      /* scores QK^T */
    it->nb = a;
    it->a_elems = s * d;
    it->recompute = flash ? 1 : 0;
    flash_of(it, m, flash, d);
    it->causal = it->causal && keys >= s;   /* cp: balanced, each rank half its keys */
    it->window = flash && m->window > 0 && keys < s ? keys : 0;
    if (!flash) {
        if (!(o->style & OPS_FUSED))
            mem(o, OPS_ACT, count, a * s * keys);   /* scale and mask */
        it = mem(o, OPS_SOFTMAX, count, a * s * keys);
        if (drop)                                   /* on the fp32 probabilities */
            mem(o, OPS_DROPOUT, count, a * s * keys)->amp_bytes = o->style & OPS_PURE ? 0 : 4;
        amp_fp32(o, it, count, a * s * keys);
    }
    it = gemm(o, OPS_ATTN, count, s, dv, keys);     /* weighted sum AV */
    it->nb = a;
    flash_of(it, m, flash, d);      /* the kernel's rate: its scores' head dimension */
    it->causal = it->causal && keys >= s;
    it->window = flash && m->window > 0 && keys < s ? keys : 0;
}

/*
 * `l` transformer blocks over s of seq tokens, lm of them MoE and wl of them
 * under the sliding window: the norm, the Q, K, V (or MLA) projections,
 * rotary, attention, the output projection, (dropout,) add, norm, the
 * feed-forward block or the experts, (dropout,) add.
 */
static void blocks(struct ops_model *o, const struct cat_model *m, double l, double lm,
                   double wl, double seq, double s, int flash, double t, double sp,
                   const struct ops_layout *lay)
{
    double h = m->hidden, f = m->ffn_hidden, a = m->heads / t, d = shape_qk_head(m);
    double dv = shape_v_head(m), qw = m->heads * d;
    double kv = shape_kv_width(m), drop = m->dropout > 0;
    double rep = s * h / sp;    /* what every rank of the group holds whole (sp: a share) */
    struct ops_item *it;
    int first;

    int eager = !(o->style & OPS_FUSED);

    first = o->n;
    norm(o, m, l, rep, 1);
    tag(o, first, OPS_MOD_LAYERNORM);
    if (m->kv_lora_rank > 0) {
        /* MLA (Megatron-Core's multi_latent_attention.py): the down
         * projections whole on every tensor-parallel rank, the up ones
         * split by heads */
        double ql = m->q_lora_rank, kl = m->kv_lora_rank;
        if (ql > 0) {
            it = gemm(o, OPS_LINEAR, l, s, ql, h);
            fp8_of(it, 1);
            it = gemm(o, OPS_LINEAR, l, s, qw / t, ql);
            it->mods |= 1u << OPS_MOD_MLA_UP;
        } else {
            it = gemm(o, OPS_LINEAR, l, s, qw / t, h);
        }
        fp8_of(it, 1);
        it = gemm(o, OPS_LINEAR, l, s, kl + m->qk_rope_dim, h);
        fp8_of(it, 1);
        it->op_sac = 1;
        it = gemm(o, OPS_LINEAR, l, s, m->heads * (m->qk_nope_dim + dv) / t, kl);
        it->mods |= 1u << OPS_MOD_MLA_UP;
        fp8_of(it, 1);
    } else {
        it = gemm(o, OPS_LINEAR, l, s, (qw + 2 * kv) / t, h);
        fp8_of(it, 1);
        it->proj = OPS_PROJ_QKV;
        it->op_sac = kv / (qw + 2 * kv);            /* K, the second of Q, K, V */
    }
    if (sp > 1 && (o->style & OPS_BSH)) {
        /* a layer's four collectives a pass (two all-gathers, two
         * reduce-scatters; backward the same four), each copying the whole
         * s x h activation once (read and write: pass 2); per-operator
         * recompute redoes the all-gathers, half of them */
        it = mem(o, OPS_COPY, 4 * l, s * h);
        it->op_sac = 0.5;
    }
    if (m->rotary) {
        /* MLA rotates only the rope part of each query head and the shared key */
        double rot = m->kv_lora_rank > 0 ? (m->heads / t + 1) * m->qk_rope_dim : (qw + kv) / t;
        it = mem(o, OPS_ROPE, l, s * rot);
        if (eager) {
            it->elems_fwd = EAGER_ROPE_FWD * s * rot;
            it->elems_bwd = EAGER_ROPE_BWD * s * rot;
        }
        it->op_sac = 1;
    }
    first = o->n;
    attention(o, m, l - wl, s, seq, a, d, dv, flash, drop);
    if (wl > 0)     /* sliding-window layers: each query sees at most `window` keys */
        attention(o, m, wl, s, fmin(seq, m->window), a, d, dv, flash, drop);
    for (int i = first; i < o->n; i++)
        o->v[i].attn_core = 1;
    tag(o, first, OPS_MOD_CORE_ATTN);
    it = gemm(o, OPS_LINEAR, l, s, h, m->heads * dv / t);   /* the fourth product */
    fp8_of(it, 0);
    it->proj = OPS_PROJ_OUT;
    it->op_sac = 1;
    dropout_add(o, l, rep, drop);
    first = o->n;
    norm(o, m, l, rep, 1);
    tag(o, first, OPS_MOD_LAYERNORM);
    first = o->n;
    if (l - lm > 0)
        ffn_rows(o, m, l - lm, s, 1, f, t, 0);
    tag(o, first, OPS_MOD_MLP);
    if (lm > 0)
        moe_ffn(o, m, lm, s, t, lay->ep > 1 ? lay->ep : 1, lay->etp > 0 ? lay->etp : t,
                lay->moe_imbalance > 1 ? lay->moe_imbalance : 1);
    dropout_add(o, l, rep, drop);
}

/* The output projection over the vocabulary and its loss (a language
 * model), or a span or class head. */
static void head(struct ops_model *o, const struct cat_model *m, double count, double s, double t)
{
    if (m->lm_head) {
        gemm(o, OPS_LINEAR, count, s, m->vocab / t, m->hidden);
        mem(o, OPS_SOFTMAX, count, s * m->vocab / t)->amp_bytes = 3;   /* the loss, in fp32 */
    } else {
        gemm(o, OPS_LINEAR, count, s, 2, m->hidden);  /* a span or class head */
    }
}

static void transformer(struct ops_model *o, const struct cat_model *m, double seq, double cp,
                        int flash, double t, double sp, const struct ops_layout *lay)
{
    double s = seq / cp;        /* a context-parallel rank's tokens; attention sees all seq */
    double h = m->hidden, rep = s * h / sp, mtp = m->mtp_layers;

    o->tensors = ops_tensors(m);
    mem(o, OPS_EMBED, 1, s * h);
    blocks(o, m, m->layers, shape_moe_layers(m), shape_window_layers(m), seq, s, flash, t, sp, lay);
    norm(o, m, 1, rep, 0);
    head(o, m, 1, s, t);
    if (mtp > 0) {
        /* multi-token prediction (DeepSeek-V3, arXiv:2412.19437 section
         * 2.2; Megatron-Core's multi_token_prediction.py): each module
         * normalizes the last hidden state and the next token's embedding,
         * projects the two (2h) back to h, runs one more block (a MoE block
         * where the model's last is) and the shared output head and loss
         * again; once a pass, on the last pipeline stage as the head */
        struct ops_item *it;
        norm(o, m, 2 * mtp, rep, 0);
        it = gemm(o, OPS_LINEAR, mtp, s, h, 2 * h);
        fp8_of(it, 0);
        blocks(o, m, mtp, shape_moe_layers(m) > 0 ? mtp : 0, 0, seq, s, flash, t, sp, lay);
        norm(o, m, mtp, rep, 0);
        head(o, m, mtp, s, t);
    }
}

/* ------------------------------------------------------------------ API */

static const char *const archs[] = {"resnet18", "resnet34", "resnet50", "resnet101",
                                    "resnet152", "vgg16", NULL};
static const int arch_blocks[][4] = {
    {2, 2, 2, 2}, {3, 4, 6, 3}, {3, 4, 6, 3}, {3, 4, 23, 3}, {3, 8, 36, 3}};

const char *ops_arch_name(int i) { return NAMES_AT(archs, i); }
int ops_arch_known(const char *name) { return names_parse(ops_arch_name, name) >= 0; }

double ops_tensors(const struct cat_model *m)
{
    int a = m->arch[0] ? names_parse(ops_arch_name, m->arch) : -1;

    if (a >= 0 && a < 5) {
        /* the stem, each block's two or three, a projection shortcut on
         * each stage's first block where its shape changes (every stage
         * with bottlenecks, the last three without): conv and norm, three
         * tensors each; and the classifier's two */
        double convs = 1 + (a >= 2 ? 4 : 3);
        for (int s = 0; s < 4; s++)
            convs += arch_blocks[a][s] * (a >= 2 ? 3 : 2);
        return 3 * convs + 2;
    }
    if (a == 5)
        return 13 * 2 + 3 * 2;              /* VGG-16: 13 convolutions, 3 linear, biased */
    if (!shape_known(m))
        return 0;
    /* Q, K, V and the output projection as four modules, two or three
     * feed-forward ones, with biases but on an RMS-norm (Llama-style)
     * model, two norms of two tensors (one, RMS); the token embedding, a
     * learned position one unless rotary, the final norm, an untied output
     * projection or a task head's weight and bias */
    {
        /* a MoE layer: the router, each expert's two or three, the shared
         * experts' (one module of their total width); MLA: two more
         * projections, three without a Q bottleneck */
        int ffn_mods = m->gated_ffn ? 3 : 2, moe = shape_moe_layers(m);
        double mla = m->kv_lora_rank > 0 ? (m->q_lora_rank > 0 ? 2 : 1) : 0;
        double moe_mods = 1 + (double)m->experts * ffn_mods + (m->shared_experts ? ffn_mods : 0);
        return m->layers * ((4 + mla + ffn_mods) * (m->rms_norm ? 1 : 2) + 2 * (m->rms_norm ? 1 : 2)) +
               moe * (moe_mods - ffn_mods) * (m->rms_norm ? 1 : 2) +
               1 + (m->rotary ? 0 : 1) + (m->rms_norm ? 1 : 2) +
               (m->lm_head ? (m->tied_embeddings ? 0 : 1) : 2);
    }
}

static const char *const mod_names[] = {"core_attn", "layernorm", "mla_up_proj", "mlp", "moe",
                                        "moe_act", "shared_experts", NULL};

const char *ops_mod_name(int i)
{
    return i >= 0 && i < OPS_NMOD ? mod_names[i] : NULL;
}

void ops_build(const struct cat_model *m, int seq, int flash, int tp, int sp, int style,
               struct ops_model *out)
{
    struct ops_layout lay = {tp, sp, 1, 1, 0, 0};

    ops_build_layout(m, seq, &lay, flash, style, out);
}

void ops_build_layout(const struct cat_model *m, int seq, const struct ops_layout *lay, int flash,
                      int style, struct ops_model *out)
{
    int tp = lay->tp, sp = lay->sp, cp = lay->cp;
    double t = tp > 1 ? tp : 1;

    int a = m->arch[0] ? names_parse(ops_arch_name, m->arch) : -1;

    memset(out, 0, sizeof *out);
    out->style = style;
    if (a >= 0 && a < 5)
        resnet(out, arch_blocks[a], a >= 2);
    else if (a == 5)
        vgg16(out);
    else if (shape_known(m))
        transformer(out, m, seq > 0 ? seq : m->seq_len, cp > 1 ? cp : 1, flash, t,
                    sp && t > 1 ? t : 1, lay);
    else
        push(out, OPS_LINEAR, 1)->flops = m->fwd_gflops * 1e9;
}

void ops_free(struct ops_model *o)
{
    x_free(o->v);
    memset(o, 0, sizeof *o);
}

double ops_fwd_flops(const struct ops_model *o)
{
    double f = 0;

    for (int i = 0; i < o->n; i++) {
        const struct ops_item *it = &o->v[i];
        if (it->flops > 0)
            f += it->count * it->flops;
        else if (ops_is_matrix(it->kind))
            f += it->count * 2 * it->m * it->n * it->k * it->nb;
    }
    return f;
}

int ops_is_matrix(int kind)
{
    return kind == OPS_CONV || kind == OPS_LINEAR || kind == OPS_ATTN;
}

static const char *const kinds[OPS_NKIND + 1] = {
    "conv", "linear", "attention", "batch_norm", "layer_norm", "activation", "residual_add",
    "pooling", "softmax", "dropout", "embedding", "rotary", "layout_copy", NULL};

const char *ops_kind_name(int kind) { return NAMES_AT(kinds, kind); }
