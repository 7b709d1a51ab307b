/*
 * test_memory.c - what a worker holds (planner/memory.c) against the
 * published figures: ZeRO's model-state bytes per GPU for each stage
 * (Rajbhandari et al. 2020, figure 1: 7.5B parameters on 64 GPUs), and
 * Korthikanti et al. 2022's activations per layer, with its tensor- and
 * sequence-parallel and recompute forms.  Links the planner layer only
 * (Makefile: LAYER_test_memory).
 */
#include "t.h"
#include "t_llama.h"

#include <math.h>
#include <string.h>

#include "../../catalog/catalog.h"
#include "../../catalog/shape.h"
#include "../../planner/memory.h"
#include "../../scenario/scenario.h"

/* A model of `params` parameters and nothing else known, on a node of 8
 * GPUs of `gib`, in a default scenario at fp16. */
static void fixture(struct cat_model *m, struct cat_gpu *g, struct cat_instance *in,
                    struct scenario *sc, double params, double gib)
{
    memset(m, 0, sizeof *m);
    m->params = params;
    memset(g, 0, sizeof *g);
    g->mem_gib = gib;
    memset(in, 0, sizeof *in);
    in->gpu_count = 8;
    in->gpu = g;
    in->gpu_mem_gib = NAN;
    scenario_defaults(sc, "zero");
    sc->workload.model = m;
    sc->workload.precision = CAT_FP16;
    sc->gradients.precision = CAT_FP16;   /* ZeRO's accounting: fp16 gradients */
}

/* A language model by its shape, multi-head attention, a vocabulary of
 * 32,000 and 4,096 tokens a sequence. */
static void lm_shape(struct cat_model *m, int layers, double hidden, int heads, double ffn)
{
    m->layers = layers;
    m->hidden = hidden;
    m->heads = heads;
    m->kv_heads = heads;
    m->ffn_hidden = ffn;
    m->vocab = 32000;
    m->seq_len = 4096;
    m->lm_head = 1;
}

static void zero_stages_divide_the_model_state(void)
{
    /* figure 1 of the ZeRO paper: Psi = 7.5B, K = 12, Nd = 64 */
    static const double want_gb[] = {120, 31.4, 16.6};
    struct cat_model m;
    struct cat_gpu g;
    struct cat_instance in;
    struct scenario sc;
    struct mem_use u;

    fixture(&m, &g, &in, &sc, 7.5e9, 80);
    for (int s = SC_SHARD_NONE; s <= SC_SHARD_ZERO2; s++) {
        sc.parallel.sharding = (enum sc_sharding)s;
        memory_of(&sc, sc.parallel.sharding, &in, 64, 8, &u);
        T_NEAR((u.weights + u.gradients + u.optimizer) / 1e9, want_gb[s], 0.005,
               "%s: %.1f GB of model state per GPU", scenario_sharding_name(s),
               (u.weights + u.gradients + u.optimizer) / 1e9);
    }
    sc.parallel.sharding = SC_SHARD_ZERO3;
    memory_of(&sc, sc.parallel.sharding, &in, 64, 8, &u);
    T_NEAR((u.weights + u.gradients + u.optimizer) / 1e9, 1.875, 1e-9, "stage 3: 16 x 7.5 / 64 GB");
    sc.parallel.sharding = SC_SHARD_HSDP;
    memory_of(&sc, sc.parallel.sharding, &in, 64, 8, &u);
    T_NEAR((u.weights + u.gradients + u.optimizer) / 1e9, 15, 1e-9,
           "hsdp: stage 3 within a node of 8: 120 / 8 GB");
    /* 7.5B fp32 gradients (the scenario default) in 25 MiB units: 30e9 /
     * 26214400 -> 1145 units; two gathered (2 bytes a parameter each) and
     * one unit's gradients (4); the state as FSDP keeps it, 4 + 4 + 8 over
     * the ranks, still 15 GB */
    sc.gradients.precision = CAT_FP32;
    memory_of(&sc, sc.parallel.sharding, &in, 64, 8, &u);
    T_NEAR(u.buffers, 7.5e9 / 1145 * 8, 1e-3, "hsdp: two units gathered and one unit's gradients");
    T_NEAR((u.weights + u.gradients + u.optimizer) / 1e9, 15, 1e-9,
           "hsdp, fp32 gradients: still 16 bytes a parameter over a node's 8");
    sc.gradients.precision = CAT_FP16;
    sc.parallel.sharding = SC_SHARD_ZERO2;
    memory_of(&sc, sc.parallel.sharding, &in, 64, 8, &u);
    T_NEAR(u.buffers, 2 * 25 * 1048576.0, 0, "zero2: two 25 MiB gradient buckets");
    T_NEAR(u.capacity, 0.9 * 80 * 1073741824.0, 0, "90%% of 80 GiB usable");
    sc.parallel.sharding = SC_SHARD_NONE;
    sc.workload.precision = CAT_FP32;
    memory_of(&sc, sc.parallel.sharding, &in, 64, 8, &u);
    T_CHECK(u.weights == 4 * 7.5e9 && u.gradients == 4 * 7.5e9 && u.optimizer == 8 * 7.5e9,
            "fp32 Adam: 4 + 4 + 8 bytes a parameter");
    /* Megatron-LM's distributed-optimizer table: bf16 parameters with fp32
     * gradients (its main_grad buffer) hold 18 bytes a parameter, 6 + 12/d
     * with the distributed optimizer (zero1) */
    sc.workload.precision = CAT_BF16;
    sc.gradients.precision = CAT_FP32;
    memory_of(&sc, sc.parallel.sharding, &in, 64, 8, &u);
    T_NEAR(u.weights + u.gradients + u.optimizer, 18 * 7.5e9, 1e-12,
           "bf16 with fp32 gradients: 2 + 4 + 12 bytes a parameter");
    sc.parallel.sharding = SC_SHARD_ZERO1;
    memory_of(&sc, sc.parallel.sharding, &in, 64, 8, &u);
    T_NEAR(u.weights + u.gradients + u.optimizer, (6 + 12.0 / 64) * 7.5e9, 1e-12,
           "and the distributed optimizer over 64: 6 + 12/64 bytes a parameter");
    sc.parallel.sharding = SC_SHARD_NONE;
    sc.gradients.precision = CAT_FP16;
    sc.workload.precision = CAT_FP16;
    sc.workload.optimizer_state_bytes = 8;   /* SGD with momentum: fp32 master weights and momentum */
    sc.parallel.sharding = SC_SHARD_ZERO1;
    memory_of(&sc, sc.parallel.sharding, &in, 64, 8, &u);
    T_CHECK(u.weights == 2 * 7.5e9 && u.optimizer == 8 * 7.5e9 / 64,
            "another optimizer's state (K = 8), sharded by zero1: %.4g bytes", u.optimizer);
    scenario_free(&sc);
}

/* Megatron-LM's distributed-optimizer table counts what its optimizer holds
 * at the step: fp16 parameters and gradients 20 bytes a parameter, 4 + 16/d
 * distributed, the fp32 copy of the 16-bit gradients beside ZeRO's 16; an
 * fp32 gradient is stepped in place and fully sharded weights keep fp32
 * gradient shards, so neither copies.  The step is the peak when the
 * activations are smaller than the copy. */
static void the_optimizer_steps_with_an_fp32_copy(void)
{
    struct cat_model m;
    struct cat_gpu g;
    struct cat_instance in;
    struct scenario sc;
    struct mem_use u;
    char why[512];

    fixture(&m, &g, &in, &sc, 1e9, 80);
    sc.workload.amp_pure = 1;
    memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &u);
    T_NEAR(u.weights + u.gradients + u.optimizer + u.grad_copy, 20e9, 1e-12,
           "fp16 parameters and gradients at the step: 20 bytes a parameter");
    T_NEAR(u.total, 20e9, 1e-12, "the step is the peak: %.4g bytes", u.total);
    memory_of(&sc, SC_SHARD_ZERO1, &in, 8, 8, &u);
    T_NEAR(u.weights + u.gradients + u.optimizer + u.grad_copy, (4 + 16.0 / 8) * 1e9, 1e-12,
           "and with the distributed optimizer over 8: 4 + 16/8 bytes a parameter");
    T_NEAR(u.grad_copy, 4e9 / 8, 1e-12, "the copy of the optimizer's share");
    sc.gradients.precision = CAT_FP32;
    sc.workload.precision = CAT_BF16;
    memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &u);
    T_CHECK(u.grad_copy == 0, "fp32 gradients are stepped in place: 18 bytes a parameter");
    sc.gradients.precision = CAT_FP16;
    memory_of(&sc, SC_SHARD_ZERO3, &in, 8, 8, &u);
    T_CHECK(u.grad_copy == 0, "zero3: the fp32 gradient shards are the state's");
    sc.parallel.pp = 2;     /* FSDP under a pipeline holds its state as zero1 does, its shards fp32 */
    memory_of(&sc, SC_SHARD_FSDP, &in, 8, 8, &u);
    T_CHECK(u.grad_copy == 0, "fsdp under a pipeline: no copy either");
    sc.parallel.pp = 1;
    sc.workload.optimizer_state_bytes = 8;   /* bf16 moments, fp32 master: precision-aware */
    memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &u);
    T_CHECK(u.grad_copy == 0, "another optimizer's state steps on the 16-bit gradients");
    sc.workload.optimizer_state_bytes = NAN;
    sc.workload.amp_pure = 0;
    memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &u);
    T_CHECK(u.grad_copy == 0, "autocast: fp32 parameters, no 16-bit gradients to copy");
    /* 4e9 parameters at fp16 unsharded: 80 GB at the step, 64 of state:
     * over an 80 GiB GPU's 72 GiB usable by the copy, and said so */
    fixture(&m, &g, &in, &sc, 4e9, 80);
    sc.workload.amp_pure = 1;
    memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &u);
    memory_why(&sc, &in, &u, why, sizeof why);
    T_CHECK(strstr(why, "at the optimizer's step (model state 59.6 GiB and the fp32 copy of its "
                        "16-bit gradients it steps with, 14.9 GiB)") != NULL &&
                strstr(why, "sharding the optimizer state") != NULL,
            "the step named: %s", why);
    scenario_free(&sc);
}

/* Llama 3 8B's shape with 8 experts of width 1024 in every layer, top 2:
 * 5e9 dense parameters and the experts' 32 x 8 x 3 x 4096 x 1024, which it
 * returns. */
static double t_experts(struct cat_model *m)
{
    double x = 32.0 * 8 * 3 * 4096 * 1024;

    t_llama3_8b(m);
    m->experts = 8;
    m->top_k = 2;
    m->moe_ffn_hidden = 1024;
    m->params = 5e9 + x;
    return x;
}

/*
 * A mixture of experts' state shards as Megatron-Core shards it: the dense
 * parameters over the data-parallel ranks (GPUs over tp x pp), the routed
 * experts over the expert-data-parallel ones (GPUs over pp x ep x etp,
 * megatron/core/parallel_state.py).  Llama 3 8B's shape with 8 experts of
 * width 1024 in every layer: 32 x 8 x 3 x 4096 x 1024 expert parameters.
 */
static void experts_shard_over_their_own_ranks(void)
{
    struct cat_model m;
    struct cat_gpu g;
    struct cat_instance in;
    struct scenario sc;
    struct mem_use u;
    double x, dense;

    fixture(&m, &g, &in, &sc, 0, 192);
    x = t_experts(&m);
    dense = m.params - x;
    sc.workload.precision = CAT_BF16;
    sc.gradients.precision = CAT_BF16;
    sc.parallel.sharding = SC_SHARD_ZERO1;
    sc.parallel.ep = 8;
    /* 64 GPUs, ep 8: a rank holds an eighth of the experts, shared with
     * 64 / 8 = 8 expert-data-parallel ranks */
    memory_of(&sc, sc.parallel.sharding, &in, 64, 8, &u);
    T_NEAR(u.optimizer, 12 * (dense / 64 + x / 8 / 8), 1e-12,
           "zero1, ep 8 of 64: dense state over 64, the experts' over 8");
    T_NEAR(u.weights, 2 * (dense + x / 8), 1e-12, "weights whole: the dense ones and an eighth of the experts");
    /* ep 64: each rank the only holder of its expert, its state unsharded */
    sc.parallel.ep = 1;
    m.experts = 64;
    x *= 8;
    m.params = dense + x;
    sc.parallel.ep = 64;
    memory_of(&sc, sc.parallel.sharding, &in, 64, 8, &u);
    T_NEAR(u.optimizer, 12 * (dense / 64 + x / 64), 1e-12,
           "zero1, ep 64 of 64: the experts' state not sharded at all");
    sc.parallel.sharding = SC_SHARD_ZERO3;
    memory_of(&sc, sc.parallel.sharding, &in, 128, 8, &u);
    T_NEAR(u.weights, 2 * (dense / 128 + x / 64 / 2), 1e-12,
           "zero3, ep 64 of 128: weights too, the experts' over 2");
    /* no expert parallelism: the experts shard with the rest */
    sc.parallel.ep = 1;
    memory_of(&sc, sc.parallel.sharding, &in, 128, 8, &u);
    T_NEAR(u.optimizer, 12 * m.params / 128, 1e-12, "ep 1: everything over the 128 data-parallel ranks");
    scenario_free(&sc);
}

/*
 * LoRA (workload.lora_rank): the frozen weights whole, gradients and
 * optimizer state for the adapters alone (Llama 3 8B at rank 16 on qkv and
 * out: 9,437,184 trained parameters), fp8_params holding the weights a
 * byte each; a frozen product keeps no input but its adapter's, so at tp 1
 * a layer drops the first feed-forward product's input (s h) and the
 * second's (s f) of fp8 training and keeps the QKV input in 16 bits (2 s h
 * for s h).
 */
static void lora_trains_the_adapters_alone(void)
{
    struct cat_model m;
    struct cat_gpu g;
    struct cat_instance in;
    struct scenario sc;
    struct mem_use u;
    double trained = 32.0 * 16 * (4096 + 4096 + 2048 + 8192), fz, full;
    int fl = MEM_ACT_FUSED | MEM_ACT_FP8;

    fixture(&m, &g, &in, &sc, 0, 80);
    t_llama3_8b(&m);
    sc.workload.precision = CAT_BF16;
    sc.gradients.precision = CAT_BF16;
    sc.parallel.sharding = SC_SHARD_ZERO1;
    sc.workload.lora_rank = 16;
    memory_of(&sc, sc.parallel.sharding, &in, 8, 8, &u);
    T_NEAR(u.weights, 2 * 8e9, 1e-12, "the frozen weights whole, 2 bytes each");
    T_NEAR(u.gradients, 2 * trained, 1e-12, "gradients for the adapters alone");
    T_NEAR(u.optimizer, 12 * trained / 8, 1e-12, "their optimizer state, over the 8 ranks");
    sc.workload.precision = CAT_FP8;
    sc.workload.fp8_params = 1;
    memory_of(&sc, sc.parallel.sharding, &in, 8, 8, &u);
    T_NEAR(u.weights, 8e9, 1e-12, "fp8_params: a byte a weight");
    sc.workload.fp8_params = 0;
    full = memory_layer_act(&m, 8192, 1, 0, 1, 0, 1, fl, SC_RECOMPUTE_NONE);
    fz = memory_layer_act(&m, 8192, 1, 0, 1, 0, 1, fl | MEM_ACT_FROZEN | MEM_ACT_ADAPT_QKV | MEM_ACT_ADAPT_OUT,
                          SC_RECOMPUTE_NONE);
    T_NEAR(full - fz, 8192 * (4096 + 14336 - 4096.0), 1e-9,
           "frozen: the feed-forward products' inputs dropped, the QKV input 16-bit for its adapter");
    /* fused attention in fp8: Q, K and V kept a byte each (h + 2 kv a token
     * saved), the output too under delayed scaling (h more) */
    T_NEAR(full - memory_layer_act(&m, 8192, 1, 0, 1, 0, 1, fl | MEM_ACT_FP8_ATTN, SC_RECOMPUTE_NONE),
           8192 * (4096 + 2 * 1024.0), 1e-9, "fp8 attention: Q, K and V in fp8");
    T_NEAR(memory_layer_act(&m, 8192, 1, 0, 1, 0, 1, fl | MEM_ACT_PROJ_FP8, SC_RECOMPUTE_NONE) -
               memory_layer_act(&m, 8192, 1, 0, 1, 0, 1, fl | MEM_ACT_PROJ_FP8 | MEM_ACT_FP8_ATTN,
                                SC_RECOMPUTE_NONE),
           8192 * (4096 + 2 * 1024.0 + 4096), 1e-9, "and under delayed scaling its output");
    scenario_free(&sc);
}

/*
 * The ZeRO paper's table 1 (per-device model state in GB of 7.5B, 128B and
 * 1T parameters at data-parallel degrees 1 to 1024, each stage; all 54
 * cells) and table 2's left half at one-way model parallelism (the largest
 * model whose state fits a 32 GB V100 on 64 GPUs: 2B, 7.6B, 14.4B and
 * 128B for the baseline and the three stages).  GB are 1e9 bytes.  The
 * table prints three figures, rounded, and whole numbers from 100 up cut
 * down (1T at 64, P_os: 4187.5 printed 4187).
 */
static void zero_tables_1_and_2(void)
{
    static const int nd[] = {1, 4, 16, 64, 256, 1024};
    static const double psi[] = {7.5e9, 128e9, 1e12};
    static const double t1[3][3][6] = {   /* model, stage (os, os+g, os+g+p), DP */
        {{120, 52.5, 35.6, 31.4, 30.4, 30.1}, {120, 41.3, 21.6, 16.6, 15.4, 15.1},
         {120, 30, 7.5, 1.88, 0.47, 0.12}},
        {{2048, 896, 608, 536, 518, 513}, {2048, 704, 368, 284, 263, 257},
         {2048, 512, 128, 32, 8, 2}},
        {{16000, 7000, 4750, 4187, 4046, 4011}, {16000, 5500, 2875, 2218, 2054, 2013},
         {16000, 4000, 1000, 250, 62.5, 15.6}},
    };
    static const double t2[] = {2e9, 7.6e9, 14.4e9, 128e9};   /* none, os, os+g, os+g+p */
    static const enum sc_sharding st[] = {SC_SHARD_NONE, SC_SHARD_ZERO1, SC_SHARD_ZERO2,
                                          SC_SHARD_ZERO3};
    struct cat_model m;
    struct cat_gpu g;
    struct cat_instance in;
    struct scenario sc;
    struct mem_use u;

    fixture(&m, &g, &in, &sc, 0, 32);
    for (int i = 0; i < 3; i++)
        for (int s = 1; s <= 3; s++)
            for (int d = 0; d < 6; d++) {
                double want = t1[i][s - 1][d], gb;
                int ok;
                m.params = psi[i];
                memory_of(&sc, st[s], &in, nd[d], 8, &u);
                gb = (u.weights + u.gradients + u.optimizer) / 1e9;
                ok = want >= 100 ? gb >= want - 1e-9 && gb < want + 1
                                 : fabs(gb - want) <= (want < 1 ? 0.005 : 0.05) + 1e-9;
                T_CHECK(ok, "table 1: %.4g parameters, %s, DP %d: %.3f GB (printed %g)", psi[i],
                        scenario_sharding_name(st[s]), nd[d], gb, want);
            }
    for (int s = 0; s < 4; s++) {
        double per, max;
        m.params = 1;
        memory_of(&sc, st[s], &in, 64, 8, &u);
        per = u.weights + u.gradients + u.optimizer;  /* bytes a parameter on each GPU */
        max = 32e9 / per;
        T_NEAR(max / 1e9, t2[s] / 1e9, t2[s] < 1e10 ? 0.05 : 0.5,
               "table 2: %s on 64 GPUs of 32 GB holds at most %.2fB parameters",
               scenario_sharding_name(st[s]), max / 1e9);
    }
    scenario_free(&sc);
}

static void transformer_layers_keep_korthikantis_bytes(void)
{
    /* GPT-3 175B's shape: h 12288, a 96, f 4h, dropout; s 2048 */
    struct cat_model m;
    double s = 2048, h = 12288, a = 96, t = 8;

    memset(&m, 0, sizeof m);
    m.layers = 96;
    m.hidden = 12288;
    m.heads = 96;
    m.kv_heads = 96;
    m.ffn_hidden = 4 * 12288;
    m.dropout = 0.1;
    T_NEAR(memory_layer_act(&m, s, 1, 0, 1, 0, 0, 0, SC_RECOMPUTE_NONE), s * h * (34 + 5 * a * s / h), 1e-12,
           "no parallelism: s b h (34 + 5 a s / h)");
    T_NEAR(memory_layer_act(&m, s, 8, 0, 1, 0, 0, 0, SC_RECOMPUTE_NONE),
           s * h * (10 + 24 / t + 5 * a * s / (h * t)), 1e-12,
           "tensor parallel 8: s b h (10 + 24/t + 5 a s / (h t))");
    T_NEAR(memory_layer_act(&m, s, 8, 0, 1, 1, 0, 0, SC_RECOMPUTE_NONE), s * h / t * (34 + 5 * a * s / h),
           1e-12, "and sequence parallel: s b h / t (34 + 5 a s / h)");
    T_NEAR(memory_layer_act(&m, s, 8, 0, 1, 1, 0, 0, SC_RECOMPUTE_SELECTIVE), s * h / t * 34, 1e-12,
           "selective recompute: s b h 34 / t");
    T_NEAR(memory_layer_act(&m, s, 1, 0, 1, 0, 1, 0, SC_RECOMPUTE_NONE), s * h * 34, 1e-12,
           "fused (flash) attention keeps no scores");
    T_NEAR(memory_layer_act(&m, s, 8, 0, 1, 0, 0, 0, SC_RECOMPUTE_FULL), 2 * s * h, 1e-12,
           "full recompute: the layer's input, 2 s b h");
    T_NEAR(memory_layer_act(&m, s, 8, 0, 1, 1, 0, 0, SC_RECOMPUTE_FULL), 2 * s * h / t, 1e-12,
           "full recompute, sequence parallel: 2 s b h / t");
    m.dropout = 0;
    m.gated_ffn = 1;
    m.ffn_hidden = 14336;
    m.hidden = 4096;
    m.heads = 32;
    m.kv_heads = 8;
    /* Llama-3 8B: kept 8h, split 2h + 4 kv + 2h + 8f (eager SwiGLU: both
     * halves 4f, the SiLU's output 2f, the product 2f), scores 2 a s (no
     * dropout) */
    T_NEAR(memory_layer_act(&m, 8192, 1, 0, 1, 0, 0, 0, SC_RECOMPUTE_NONE),
           8192 * (8 * 4096 + 4 * 4096 + 4 * 1024 + 8 * 14336 + 2 * 32 * 8192.0), 1e-12,
           "gated, grouped-query, no dropout: the generalised terms");
    /* per-operator recompute keeps the input, Q, V, attention's output,
     * w1's and w2's outputs: 2 (h + h + kv + h + f + h) a token at tp 1 */
    T_NEAR(memory_layer_act(&m, 8192, 1, 0, 1, 0, 1, 0, SC_RECOMPUTE_OP),
           8192 * 2 * (4 * 4096 + 1024 + 14336.0), 1e-12,
           "selective_op: the outputs of the products it keeps");
    T_NEAR(memory_layer_act(&m, 8192, 8, 0, 1, 1, 1, 0, SC_RECOMPUTE_OP),
           8192 * (2 * 4096 / 8.0 + 2 * 4096 + (4 * 4096 + 2 * 1024 + 2 * 14336 + 2 * 4096) / 8.0),
           1e-12, "selective_op, tp 8 with sequence parallelism: split but for w2's partial sums");
    /* fused kernels: Megatron-Core's bias-SwiGLU keeps its input (4f) and
     * its output is the next projection's input (2f): 6f */
    T_NEAR(memory_layer_act(&m, 8192, 1, 0, 1, 0, 0, 1, SC_RECOMPUTE_NONE),
           8192 * (8 * 4096 + 4 * 4096 + 4 * 1024 + 6 * 14336 + 2 * 32 * 8192.0), 1e-12,
           "fused SwiGLU keeps 6 s f, not 8");
    /* Transformer Engine's fp8: the QKV and first feed-forward inputs 1 h
     * each (the layer norms' inputs stay 4 h), fused attention's output 2 h
     * (and under delayed scaling the output projection's fp8 copy h), the
     * last projection's input 1 f: kept 6 h, split 2h + 4 kv + 2 h + 5 f */
    T_NEAR(memory_layer_act(&m, 8192, 1, 0, 1, 0, 1, MEM_ACT_FUSED | MEM_ACT_FP8, SC_RECOMPUTE_NONE),
           8192 * (6 * 4096 + 4 * 4096 + 4 * 1024 + 5 * 14336.0), 1e-12,
           "fp8 as Transformer Engine keeps it: a byte a GEMM input");
    T_NEAR(memory_layer_act(&m, 8192, 1, 0, 1, 0, 1, MEM_ACT_FUSED | MEM_ACT_FP8 | MEM_ACT_PROJ_FP8,
                            SC_RECOMPUTE_NONE),
           8192 * (6 * 4096 + 5 * 4096 + 4 * 1024 + 5 * 14336.0), 1e-12,
           "delayed scaling: the output projection's fp8 copy besides");
    /* workload.fp8_act_input: the fused SwiGLU's input 2 f in fp8, 2 bytes
     * a token for 4: split 3 f for 5 */
    T_NEAR(memory_layer_act(&m, 8192, 1, 0, 1, 0, 1, MEM_ACT_FUSED | MEM_ACT_FP8 | MEM_ACT_FP8_ACT_IN,
                            SC_RECOMPUTE_NONE),
           8192 * (6 * 4096 + 4 * 4096 + 4 * 1024 + 3 * 14336.0), 1e-12,
           "fp8_act_input: the SwiGLU's input in fp8");
    /* A mixture of experts, every layer one (8 experts of width 1024, top
     * 2): its MoE block keeps the router's fp32 logits 4 E, the routed
     * copies' inputs k h (fp8: a byte), and a copy's first product and
     * activation (fused, fp8: 4 + 1 bytes of the width); not the experts'
     * outputs, which Megatron-Core's probabilities in the activation leave
     * unread (NVIDIA/Megatron-LM@2659630721) */
    m.experts = 8;
    m.top_k = 2;
    m.moe_ffn_hidden = 1024;
    T_NEAR(memory_layer_act(&m, 8192, 1, 0, 1, 0, 1, MEM_ACT_FUSED | MEM_ACT_FP8, SC_RECOMPUTE_NONE),
           8192 * (6 * 4096 + 4 * 8 + 2 * 4096 + 4 * 4096 + 4 * 1024 + 2 * 5 * 1024.0), 1e-12,
           "a MoE layer: logits, the routed copies' fp8 inputs, their products; no outputs");
    T_NEAR(memory_layer_act(&m, 8192, 1, 0, 1, 0, 1, MEM_ACT_FUSED | MEM_ACT_FP8, SC_RECOMPUTE_NONE) -
               memory_layer_act(&m, 8192, 1, 0, 1, 0, 1,
                                MEM_ACT_FUSED | MEM_ACT_FP8 | MEM_ACT_FP8_ACT_IN, SC_RECOMPUTE_NONE),
           8192 * 2 * 2 * 1024.0, 1e-9, "fp8_act_input halves each routed copy's SwiGLU input");
    m.experts = 0;
    m.top_k = 0;
    m.moe_ffn_hidden = 0;
    /* unfused attention: the output projection keeps only its fp8 input;
     * ungated: the activation's input 2 f and the fp8 output f */
    m.gated_ffn = 0;
    T_NEAR(memory_layer_act(&m, 8192, 8, 0, 1, 1, 0, MEM_ACT_FP8 | MEM_ACT_PROJ_FP8, SC_RECOMPUTE_NONE),
           8192 * ((6 * 4096) / 8.0 + (2 * 4096 + 4 * 1024 + 4096 + 3 * 14336 + 2 * 32 * 8192.0) / 8),
           1e-12, "fp8, unfused attention, ungated, tp 8 with sequence parallelism");
    m.gated_ffn = 1;
}

/* Pipeline stages (planner/memory.c stage_of): the first stage's weights
 * are its layers' and the embedding; 1F1B keeps min(pp, m) micro-batches of
 * its layers, the interleaved schedule Korthikanti's 1 + (pp - 1) / (pp v)
 * times that. */
static void pipeline_stages_keep_their_micro_batches(void)
{
    struct cat_model m;
    struct cat_gpu g;
    struct cat_instance in;
    struct scenario sc;
    struct mem_use u, u2;
    double s = 4096, act, table;

    fixture(&m, &g, &in, &sc, 0, 80);
    lm_shape(&m, 32, 4096, 32, 16384);
    table = 32000.0 * 4096;
    m.params = 12.0 * 4096 * 4096 * 32 + 2 * table;   /* layers, untied embedding and output */
    sc.parallel.micro_batch = 1;
    sc.workload.global_batch = 64;   /* 64 micro-batches a replica on one replica */
    sc.parallel.tp = 1;
    sc.parallel.pp = 4;
    act = memory_layer_act(&m, s, 1, 0, 1, 0, 1, 0, SC_RECOMPUTE_NONE);
    memory_of(&sc, SC_SHARD_NONE, &in, 4, 8, &u);
    T_NEAR(u.weights, (12.0 * 4096 * 4096 * 8 + table) * 2, 1e-12,
           "pp 4: the first stage holds 8 layers and the embedding, 2 bytes a parameter");
    T_NEAR(u.activations, 4 * 8 * act, 1e-12,
           "1F1B: 4 micro-batches of its 8 layers in flight on the first stage");
    sc.workload.global_batch = 2;
    memory_of(&sc, SC_SHARD_NONE, &in, 4, 8, &u);
    T_NEAR(u.activations, 2 * 8 * act, 1e-12, "2 micro-batches a step: only 2 in flight");
    sc.workload.global_batch = 64;
    sc.parallel.interleave = 2;
    memory_of(&sc, SC_SHARD_NONE, &in, 4, 8, &u2);
    T_NEAR(u2.activations, 4 * 8 * act * (1 + 3.0 / 8), 1e-12,
           "interleaved, 2 chunks: Korthikanti's 1 + (pp - 1) / (pp v) times 1F1B's");
    /* a vocabulary large enough that the last stage, with the loss, is the
     * fuller: Megatron-Core's warm-up gives it (v - 1) pp = 4 forwards, so
     * at the first backward it keeps 5 chunks of 4 layers, beside the
     * loss's 6 bytes a logit */
    m.vocab = 1000000;
    table = 1e6 * 4096;
    m.params = 12.0 * 4096 * 4096 * 32 + 2 * table;
    memory_of(&sc, SC_SHARD_NONE, &in, 4, 8, &u2);
    T_NEAR(u2.activations, 5 * 4 * act + 6.0 * s * 1e6, 1e-12,
           "interleaved, the last stage: (v - 1) pp + 1 chunks and the loss, not one chunk");
    T_CHECK(u2.stage == MEM_STAGE_LAST && u.stage == MEM_STAGE_FIRST,
            "and the report says which stage it counted: the last here, the first before");
    T_CHECK(u2.stages[1].total == u2.total && u2.stages[0].total < u2.total &&
                u.stages[0].total == u.total && u.stages[1].total <= u.total,
            "each stage's total beside it, the counted one the larger: %.1f and %.1f GiB here",
            u2.stages[0].total / 1073741824, u2.stages[1].total / 1073741824);
    /* the expert-parallel overlap's one forward more in the warm-up
     * (get_pp_rank_microbatches' overlap_moe_expert_parallel_comm): a chunk
     * more */
    sc.parallel.ep = 2;
    sc.parallel.ep_overlap = 1;
    memory_of(&sc, SC_SHARD_NONE, &in, 4, 8, &u2);
    T_NEAR(u2.activations, 6 * 4 * act + 6.0 * s * 1e6, 1e-12,
           "ep_overlap: the warm-up's extra forward, 6 chunks of 4 layers on the last stage");
    sc.parallel.ep = 1;
    sc.parallel.ep_overlap = 0;
    m.vocab = 32000;
    table = 32000.0 * 4096;
    m.params = 12.0 * 4096 * 4096 * 32 + 2 * table;
    sc.parallel.interleave = 1;
    sc.parallel.pp_schedule = SC_PP_DUALPIPE;
    memory_of(&sc, SC_SHARD_NONE, &in, 4, 8, &u2);
    T_NEAR(u2.weights, (12.0 * 4096 * 4096 * 16 + 2 * table) * 2, 1e-12,
           "DualPipe: stage 0 and its mirror, 16 layers and both tables (Table 2: 2x)");
    T_NEAR(u2.activations, 5 * 8 * act + 6.0 * s * 32000, 1e-12,
           "and pp + 1 micro-batches of a stage's layers, with the last stage's logits (its "
           "mirror's)");
}

/* Which library runs fp8 decides what the layers keep: Transformer
 * Engine's fp8 copies, or torchao's 16-bit inputs (as bf16 keeps them). */
static void fp8_library_decides_the_saved_inputs(void)
{
    struct cat_model m;
    struct cat_gpu g;
    struct cat_instance in;
    struct scenario sc;
    struct mem_use te, ao, bf;

    fixture(&m, &g, &in, &sc, 8e9, 80);
    t_llama3_8b(&m);
    sc.workload.kernels_fused = 1;
    sc.parallel.micro_batch = 1;
    sc.workload.precision = CAT_FP8;
    memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &te);
    sc.workload.fp8_library = SC_FP8_LIB_TORCHAO;
    memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &ao);
    sc.workload.precision = CAT_BF16;
    memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &bf);
    T_NEAR(ao.activations, bf.activations, 1e-12, "torchao's fp8 keeps what bf16 keeps");
    T_NEAR(te.activations, 32 * memory_layer_act(&m, 8192, 1, 0, 1, 0, 1,
                                                 MEM_ACT_FUSED | MEM_ACT_FP8 | MEM_ACT_PROJ_FP8,
                                                 SC_RECOMPUTE_NONE),
           1e-12, "Transformer Engine's fp8 keeps its fp8 copies: %.1f against %.1f GiB",
           te.activations / (1 << 30), bf.activations / (1 << 30));
    T_CHECK(te.activations < 0.9 * bf.activations, "and that is over 10%% less");
}

/* workload.recompute_layers n of L: n layers keep full recompute's input,
 * the rest everything, so a layer's mean is (n full + (L - n) none) / L;
 * torchtitan's every-second-layer checkpointing of Llama 3 8B halves the
 * gap between none and full. */
static void some_layers_recompute(void)
{
    struct cat_model m;
    struct cat_gpu g;
    struct cat_instance in;
    struct scenario sc;
    double none, full, half;

    fixture(&m, &g, &in, &sc, 8e9, 80);
    t_llama3_8b(&m);
    sc.workload.precision = CAT_BF16;
    sc.parallel.micro_batch = 1;
    none = memory_layer_bytes(&sc);
    sc.parallel.recompute = SC_RECOMPUTE_FULL;
    full = memory_layer_bytes(&sc);
    sc.workload.recompute_layers = 16;
    half = memory_layer_bytes(&sc);
    T_NEAR(full, memory_layer_act(&m, 8192, 1, 0, 1, 0, 1, 0, SC_RECOMPUTE_FULL), 1e-12,
           "full: the layer input");
    T_NEAR(half, (none + full) / 2, 1e-12, "16 of 32 layers: the mean of none and full "
           "(%.0f MiB a layer)", half / (1 << 20));
    sc.workload.recompute_layers = 32;
    T_NEAR(memory_layer_bytes(&sc), full, 1e-12, "all 32: full");
}

/* What the loss holds over the vocabulary at its peak (workload.
 * cross_entropy), bytes a logit at 16 bits: Megatron-Core's fp32 softmax
 * with the 16-bit logits or gradient beside it 6, Transformer Engine's
 * loss writing the gradient over the logits 2, the logits cast to fp32
 * into PyTorch's cross_entropy (torchtitan) 12; tensor parallelism splits
 * the vocabulary. */
static void the_loss_holds_its_logits(void)
{
    struct cat_model m;
    struct cat_gpu g;
    struct cat_instance in;
    struct scenario sc;
    struct mem_use u[3];
    static const enum sc_cross_entropy ce[3] = {SC_CE_FP32, SC_CE_IN_PLACE, SC_CE_UPCAST};
    double logits = 2.0 * 4096 * 32000 / 2;    /* micro-batch 2, tp 2 */

    fixture(&m, &g, &in, &sc, 0, 80);
    lm_shape(&m, 4, 1024, 8, 4096);
    sc.parallel.micro_batch = 2;
    sc.parallel.tp = 2;
    sc.workload.precision = CAT_BF16;
    for (int i = 0; i < 3; i++) {
        sc.workload.cross_entropy = ce[i];
        memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &u[i]);
    }
    T_NEAR(u[0].activations - u[1].activations, 4 * logits, 1e-9,
           "fp32: 6 bytes a logit, 4 over in_place's 2");
    T_NEAR(u[2].activations - u[0].activations, 6 * logits, 1e-9,
           "upcast: 12 bytes a logit, 6 over fp32's");
}

/* The GEMM libraries' workspaces in buffers: PyTorch's cuBLAS workspace
 * (32 MiB on compute capability 9.0, 8 MiB + 128 KiB elsewhere) and
 * Transformer Engine's (32 MiB + 1 KiB from 9.0, 4 MiB before); none on a
 * GPU without a compute capability (ROCm's). */
static void gemm_workspaces_are_held(void)
{
    struct cat_model m;
    struct cat_gpu g;
    struct cat_instance in;
    struct scenario sc;
    struct mem_use u0, u90, u80, u100;

    fixture(&m, &g, &in, &sc, 1e9, 80);
    memory_of(&sc, SC_SHARD_NONE, &in, 1, 8, &u0);
    g.cc = 90;
    memory_of(&sc, SC_SHARD_NONE, &in, 1, 8, &u90);
    g.cc = 80;
    memory_of(&sc, SC_SHARD_NONE, &in, 1, 8, &u80);
    g.cc = 100;
    memory_of(&sc, SC_SHARD_NONE, &in, 1, 8, &u100);
    T_NEAR(u90.buffers - u0.buffers, 96 * 1048576.0 + 1024, 1e-12,
           "H100: PyTorch's 32 MiB on the forward's and the backward's threads and Transformer "
           "Engine's 32 MiB + 1 KiB");
    T_NEAR(u80.buffers - u0.buffers, 20 * 1048576.0 + 256 * 1024, 1e-12,
           "A100: PyTorch's 8 MiB + 128 KiB twice and Transformer Engine's 4 MiB");
    T_NEAR(u100.buffers - u0.buffers, 48 * 1048576.0 + 256 * 1024 + 1024, 1e-12,
           "Blackwell: PyTorch's default outside 9.0 twice, Transformer Engine's 32 MiB + 1 KiB");
    T_NEAR(u90.total - u0.total, u90.buffers - u0.buffers, 1e-12, "and the total with them");
}

/*
 * A mixture of experts beyond its state: the busiest rank's routed copies
 * (moe_imbalance times an even share, under expert parallelism), Transformer
 * Engine's grouped GEMM's four more workspaces on an H100, and the allgather
 * dispatcher's gathered tokens.  Llama 3 8B's shape, 8 experts of width
 * 1024 in every layer, top 2; one micro-batch of 8,192 tokens.
 */
static void experts_hold_the_busiest_ranks_tokens(void)
{
    struct cat_model m;
    struct cat_gpu g;
    struct cat_instance in;
    struct scenario sc;
    struct mem_use even, busy, a2a, gathered, dense;
    double te = 32.0 * 1048576 + 1024;

    fixture(&m, &g, &in, &sc, 0, 192);
    t_experts(&m);
    g.cc = 90;
    sc.workload.precision = CAT_BF16;
    sc.workload.seq_len = 8192;
    sc.workload.kernels_fused = 1;
    sc.parallel.ep = 8;
    sc.parallel.micro_batch = 1;
    /* a layer's routed copies, 16-bit, top 2 a token: each copy's input h,
     * its fused SwiGLU's input 2 f and the second product's input f */
    double routed = 8192 * 2 * (2 * 4096 + 6 * 1024.0);
    T_NEAR(memory_layer_act(&m, 8192, 1, 0, 1.5, 0, 1, MEM_ACT_FUSED, SC_RECOMPUTE_NONE) -
               memory_layer_act(&m, 8192, 1, 0, 1, 0, 1, MEM_ACT_FUSED, SC_RECOMPUTE_NONE),
           0.5 * routed, 1e-9, "imbalance 1.5: half as many routed copies again");
    sc.workload.moe_imbalance = 1;
    memory_of(&sc, SC_SHARD_NONE, &in, 64, 8, &even);
    sc.workload.moe_imbalance = NAN;        /* dropless routing's default */
    memory_of(&sc, SC_SHARD_NONE, &in, 64, 8, &busy);
    T_NEAR(busy.activations - even.activations, 32 * (SC_MOE_IMBALANCE - 1) * routed, 1e-9,
           "the default imbalance on every layer's routed copies");
    T_NEAR(busy.buffers, even.buffers, 1e-12, "the buffers do not follow the routing");
    /* the same GPU without experts: four fewer Transformer Engine workspaces */
    m.experts = 0;
    m.top_k = 0;
    m.moe_ffn_hidden = 0;
    sc.parallel.ep = 1;
    memory_of(&sc, SC_SHARD_NONE, &in, 64, 8, &dense);
    T_NEAR(even.buffers - dense.buffers, 4 * te, 1e-9, "the grouped GEMM's 4 streams' workspaces");
    /* the allgather dispatcher: ep 8 ranks' tokens, 8 x 8,192 x 4,096 x 2 bytes */
    t_experts(&m);
    sc.parallel.ep = 8;
    memory_of(&sc, SC_SHARD_NONE, &in, 64, 8, &a2a);
    sc.parallel.ep_dispatch = SC_EP_ALLGATHER;
    memory_of(&sc, SC_SHARD_NONE, &in, 64, 8, &gathered);
    T_NEAR(gathered.buffers - a2a.buffers, 8.0 * 8192 * 4096 * 2, 1e-9,
           "allgather: the group's tokens in the global buffer");
    T_NEAR(gathered.activations, a2a.activations, 1e-12, "and the same routed copies kept");
    /* HybridEP: its registered buffer for 8 ranks' 8,192 tokens of 4,096
     * 16-bit values and their fp32 probabilities over the node's 8
     * experts, outside PyTorch's allocator: less usable, the same total */
    sc.parallel.ep_dispatch = SC_EP_HYBRIDEP;
    memory_of(&sc, SC_SHARD_NONE, &in, 64, 8, &busy);
    T_NEAR(a2a.capacity - busy.capacity, 8.0 * 8192 * (4096 * 2 + 8 * 4), 1e-9,
           "HybridEP's registered buffer off the usable memory");
    T_NEAR(busy.registered, a2a.capacity - busy.capacity, 1e-9, "and reported as registered");
    T_NEAR(busy.total, a2a.total, 1e-9, "not in the framework's total");
    scenario_free(&sc);
}

/*
 * Attention keeps its tensors at the shape's widths: Q heads x the head's,
 * K and V the key-value heads', the output heads x the values' head.  Qwen3-
 * 30B-A3B's attention (hidden 2048, 32 heads of 128, 4 key-value heads): Q
 * and the output 4096 wide, K and V 512, where hidden / heads would give
 * 2048 and 256.  MLA (DeepSeek-V2-Lite's: 16 heads, K and Q 128 + 64 a
 * head, V 128, kv_lora_rank 512, no query compression) keeps K per head
 * and its latent with its norm's input; recompute_modules mla_up_proj drops
 * Q, K and V.  One token, flash attention, no feed-forward difference.
 */
static void attention_keeps_its_heads_widths(void)
{
    struct cat_model m, w;

    memset(&m, 0, sizeof m);
    m.layers = 48;
    m.hidden = 2048;
    m.heads = 32;
    m.kv_heads = 4;
    m.ffn_hidden = 6144;
    m.gated_ffn = 1;
    w = m;
    w.head_dim = 128;
    /* Q + K + V + output, 16-bit: (4096 + 512 + 512 + 4096) 2 against
     * (2048 + 256 + 256 + 2048) 2 */
    T_NEAR(memory_layer_act(&w, 1, 1, 0, 1, 0, 1, MEM_ACT_FUSED, SC_RECOMPUTE_NONE) -
               memory_layer_act(&m, 1, 1, 0, 1, 0, 1, MEM_ACT_FUSED, SC_RECOMPUTE_NONE),
           2 * (9216 - 4608.0), 1e-9, "head_dim 128 of hidden 2048 and 32 heads: Q and the output twice");
    m.heads = 16;
    m.kv_heads = 16;
    w = m;
    w.kv_lora_rank = 512;
    w.qk_nope_dim = 128;
    w.qk_rope_dim = 64;
    w.v_head_dim = 128;
    /* MLA: Q and K 16 x 192, V and the output 16 x 128, the latent and its
     * norm's input 2 x 512, 16-bit; without it 4 x 2048 */
    T_NEAR(memory_layer_act(&w, 1, 1, 0, 1, 0, 1, MEM_ACT_FUSED, SC_RECOMPUTE_NONE) -
               memory_layer_act(&m, 1, 1, 0, 1, 0, 1, MEM_ACT_FUSED, SC_RECOMPUTE_NONE),
           2 * (2 * 3072 + 2 * 2048 + 2 * 512 - 4 * 2048.0), 1e-9,
           "MLA: K a head's 192 as Q's, and the latent");
    T_NEAR(memory_layer_act(&w, 1, 1, 0, 1, 0, 1, MEM_ACT_FUSED, SC_RECOMPUTE_NONE) -
               memory_layer_act(&w, 1, 1, 0, 1, 0, 1, MEM_ACT_FUSED | MEM_ACT_REDO_MLA_UP,
                                SC_RECOMPUTE_NONE),
           2 * (3072 + 3072 + 2048.0), 1e-9, "mla_up_proj: Q, K and V made again in the backward");
}

/* A multi-token-prediction module on the stage with the head: one more
 * layer's activations, its norms' and projection's inputs (8 h bytes a
 * token) and its loss's fp32 softmax (4 bytes a logit), a micro-batch's. */
static void mtp_modules_hold_a_layer_and_a_loss(void)
{
    struct cat_model m;
    struct cat_gpu g;
    struct cat_instance in;
    struct scenario sc;
    struct mem_use u0, u1;

    fixture(&m, &g, &in, &sc, 8e9, 192);
    t_llama3_8b(&m);
    m.lm_head = 1;
    sc.workload.precision = CAT_BF16;
    sc.workload.seq_len = 4096;
    sc.parallel.micro_batch = 1;
    memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &u0);
    m.mtp_layers = 1;
    memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &u1);
    T_NEAR(u1.activations - u0.activations,
           memory_layer_bytes(&sc) + 4096 * (8 * 4096 + 4.0 * m.vocab), 1e-9,
           "one more layer, its inputs and its loss's softmax");
    scenario_free(&sc);
}

/*
 * Transformer Engine's fp8 copies of the weights its products run with,
 * kept from the first forward through the step: 2 bytes a parameter of the
 * layers' products on an H100 (rowwise and the transpose), 1 on a B200
 * (one layout serves both), 2 + 1/16 under MXFP8, none for the tables.  In
 * the total and in what stays between steps; none with the weights held in
 * fp8, fully sharded, under torchao or in 16 bits.
 */
static void te_keeps_fp8_copies_of_the_weights(void)
{
    struct cat_model m;
    struct cat_gpu g;
    struct cat_instance in;
    struct scenario sc;
    struct mem_use u, b;
    double table = 32000.0 * 4096, gemm = 12.0 * 4096 * 4096 * 32;

    fixture(&m, &g, &in, &sc, 0, 80);
    lm_shape(&m, 32, 4096, 32, 16384);
    m.params = gemm + 2 * table;          /* untied embedding and output */
    sc.parallel.micro_batch = 1;
    sc.parallel.tp = 2;
    sc.workload.precision = CAT_BF16;
    g.cc = 90;
    memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &b);
    T_CHECK(b.fp8_weights == 0, "16-bit: no copies");
    sc.workload.precision = CAT_FP8;
    sc.workload.fp8_recipe = SC_FP8_CURRENT;
    memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &u);
    T_NEAR(u.fp8_weights, gemm / 2 * 2, 1e-12, "H100: 2 bytes a product's parameter over tp 2");
    T_NEAR(u.held - b.held, u.fp8_weights, 1e-12, "held between steps");
    T_CHECK(u.total >= u.weights + u.fp8_weights + u.gradients + u.optimizer + u.activations,
            "and in the total");
    g.cc = 100;
    memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &u);
    T_NEAR(u.fp8_weights, gemm / 2, 1e-12, "B200, per-tensor: the rowwise copy alone");
    sc.workload.fp8_recipe = SC_FP8_MXFP8;
    memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &u);
    T_NEAR(u.fp8_weights, gemm / 2 * (2 + 1.0 / 16), 1e-12, "MXFP8: both ways, with scales");
    sc.workload.fp8_bf16_layers = 1;
    memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &u);
    T_NEAR(u.fp8_weights, gemm * 30 / 32 / 2 * (2 + 1.0 / 16), 1e-12,
           "the first and last layers in 16 bits keep none");
    sc.workload.fp8_bf16_layers = 0;
    sc.workload.fp8_params = 1;
    memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &u);
    T_CHECK(u.fp8_weights == 0, "weights held in fp8 are the copy");
    sc.workload.fp8_params = 0;
    memory_of(&sc, SC_SHARD_ZERO3, &in, 8, 8, &u);
    T_CHECK(u.fp8_weights == 0, "fully sharded weights are quantized as gathered");
    sc.workload.fp8_library = SC_FP8_LIB_TORCHAO;
    memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &u);
    T_CHECK(u.fp8_weights == 0, "torchao saves the 16-bit weights");
    scenario_free(&sc);
}

/*
 * A pipeline stage keeps between steps, for each model chunk it runs, the
 * last input its neighbour sent and that input's gradient: v chunks on the
 * last stage, v - 1 on the first (its first chunk embeds).
 */
static void stages_keep_their_last_inputs(void)
{
    struct cat_model m;
    struct cat_gpu g;
    struct cat_instance in;
    struct scenario sc;
    struct mem_use u1, u4;
    double hid = 4096.0 * 2 * 4096 * 2;     /* tokens x micro-batch x hidden x 2 bytes */

    fixture(&m, &g, &in, &sc, 0, 80);
    lm_shape(&m, 32, 4096, 32, 16384);
    m.params = 12.0 * 4096 * 4096 * 32 + 2 * 32000.0 * 4096;
    sc.workload.precision = CAT_BF16;
    sc.parallel.micro_batch = 2;
    sc.parallel.pp = 4;
    sc.workload.global_batch = 64;
    memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &u1);
    sc.parallel.interleave = 4;
    memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &u4);
    T_NEAR(u1.stages[1].held - (u1.stages[1].weights + u1.stages[1].gradients +
                                u1.stages[1].optimizer),
           u4.stages[1].held - (u4.stages[1].weights + u4.stages[1].gradients +
                                u4.stages[1].optimizer) - 3 * 2 * hid, 1e-6,
           "interleaved 4 ways, the last stage keeps 3 chunks' input and gradient more");
    T_NEAR(u4.stages[1].held - u4.stages[0].held -
               (u4.stages[1].weights + u4.stages[1].gradients + u4.stages[1].optimizer -
                u4.stages[0].weights - u4.stages[0].gradients - u4.stages[0].optimizer),
           2 * hid, 1e-6, "and one pair more than the first stage, whose first chunk embeds");
    scenario_free(&sc);
}

/*
 * A pipeline's last stage holds the multi-token-prediction modules with
 * the head, and (untied) a copy of the token table they embed with; MLA's
 * down projections are whole on every tensor-parallel rank.
 */
static void mtp_and_mla_down_projections_sit_where_megatron_puts_them(void)
{
    struct cat_model m;
    struct cat_gpu g;
    struct cat_instance in;
    struct scenario sc;
    struct mem_use u1, u2;
    double down;

    fixture(&m, &g, &in, &sc, 0, 192);
    lm_shape(&m, 8, 1024, 8, 4096);
    m.gated_ffn = 1;
    m.q_lora_rank = 512;
    m.kv_lora_rank = 256;
    m.qk_rope_dim = 64;
    m.qk_nope_dim = 128;
    m.v_head_dim = 128;
    m.params = shape_params(&m);
    down = 1024.0 * (512 + 256 + 64);
    T_NEAR(shape_mla_down_weights(&m), down, 1e-12, "Q's and the joint K-V's down projections");
    sc.workload.precision = CAT_BF16;
    sc.parallel.micro_batch = 1;
    sc.parallel.tp = 1;
    memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &u1);
    sc.parallel.tp = 2;
    memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &u2);
    T_NEAR(u2.weights, u1.weights / 2 + 8 * down * 2 / 2, 1e-12,
           "tp 2 splits all but the down projections, whole on both ranks");
    m.mtp_layers = 1;
    m.params = shape_params(&m);
    sc.parallel.tp = 1;
    sc.parallel.pp = 2;
    sc.workload.global_batch = 8;
    memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &u1);
    T_NEAR(u1.stages[1].weights - u1.stages[0].weights,
           (shape_mtp_weights(&m, 0) + 32000.0 * 1024) * 2, 1e-9,
           "the last stage holds the MTP module and its copy of the token table beside the head "
           "(%.0f against %.0f MB)", u1.stages[1].weights / 1e6, u1.stages[0].weights / 1e6);
    scenario_free(&sc);
}

int main(void)
{
    T_RUN(some_layers_recompute);
    T_RUN(zero_stages_divide_the_model_state);
    T_RUN(the_optimizer_steps_with_an_fp32_copy);
    T_RUN(experts_shard_over_their_own_ranks);
    T_RUN(experts_hold_the_busiest_ranks_tokens);
    T_RUN(attention_keeps_its_heads_widths);
    T_RUN(mtp_modules_hold_a_layer_and_a_loss);
    T_RUN(lora_trains_the_adapters_alone);
    T_RUN(pipeline_stages_keep_their_micro_batches);
    T_RUN(the_loss_holds_its_logits);
    T_RUN(gemm_workspaces_are_held);
    T_RUN(zero_tables_1_and_2);
    T_RUN(transformer_layers_keep_korthikantis_bytes);
    T_RUN(fp8_library_decides_the_saved_inputs);
    T_RUN(te_keeps_fp8_copies_of_the_weights);
    T_RUN(mtp_and_mla_down_projections_sit_where_megatron_puts_them);
    T_RUN(stages_keep_their_last_inputs);
    return T_DONE();
}
