/*
 * shape.h - a transformer given by its shape (catalog.models' layers,
 * hidden, heads, kv_heads, ffn_hidden, gated_ffn, vocab, tied_embeddings,
 * seq_len): its parameter count and its forward FLOPs per sequence.
 *
 * Per layer the weights are the attention projections, h (h + 2 h_kv) for
 * Q, K and V plus h^2 for the output (h_kv = h kv_heads / heads: grouped-
 * query attention shares K and V between heads), and the feed-forward
 * block, 2 h f, or 3 h f when gated (SwiGLU's gate, up and down
 * projections).  The model adds the token embedding, V h, counted twice
 * when the output projection is not tied to it, and a learned position
 * embedding of seq_len h when the embeddings are tied (GPT-2 and GPT-3).
 * Biases and normalisation weights are left out (under 0.1%).
 *
 * A forward pass costs 2 FLOPs per weight per token for every matrix
 * product (the embedding lookup is none; a mixture of experts counts the
 * weights a token uses), plus attention's scores and weighted sum, 2 s h
 * FLOPs per token each (QK^T and AV over the whole sequence, as Narayanan
 * et al. 2021 count them; heads x head widths in place of h, a window in
 * place of s), plus the output projection, 2 h V.  For a plain GPT (kv_heads = heads, f = 4h, not
 * gated) this is eq. 3 of Narayanan et al. (arXiv:2104.04473) divided by
 * its 4 passes: 24 l h^2 s (1 + s / (6 h) + V / (12 l h)) per sequence.
 * docs/model.md gives the derivation.
 */
#ifndef DT_SHAPE_H
#define DT_SHAPE_H

#include <stddef.h>

#include "catalog.h"

/* 1 when m is given by its shape (layers > 0). */
int shape_known(const struct cat_model *m);

/* The parameters outside the layers: the token table, with a learned
 * position table when the embeddings are tied (GPT-2, GPT-3), into *first
 * (the first pipeline stage's); the output layer, or the tied table's copy,
 * into *last (the last stage's). */
void shape_tables(const struct cat_model *m, double *first, double *last);

/* Trainable parameters from the shape; those one token uses (a mixture of
 * experts' router, top_k routed and shared experts, with everything else). */
double shape_params(const struct cat_model *m);
double shape_active_params(const struct cat_model *m);

/* A head's width in the scores (Q and K: head_dim, hidden / heads, or MLA's
 * nope + rope) and in the values (MLA: v_head_dim); the width of K (and of
 * V) of one layer without MLA: kv_heads x the head's. */
double shape_qk_head(const struct cat_model *m);
double shape_v_head(const struct cat_model *m);
double shape_kv_width(const struct cat_model *m);

/* Weights of one layer's attention products (Q, K, V and the output, or
 * MLA's down and up projections), and of its feed-forward block: dense
 * (moe 0), or a MoE layer's router, experts and shared experts, all of them
 * (active 0) or those one token uses. */
double shape_attn_weights(const struct cat_model *m);
/* MLA's down projections a layer (the query's, where it is compressed, and
 * the joint key-value one with the shared rotary key), of
 * shape_attn_weights; 0 for other attention. */
double shape_mla_down_weights(const struct cat_model *m);
/* The multi-token-prediction modules' weights (models.csv mtp_layers), all
 * (active 0) or those a token uses; in shape_params, not in a model's
 * published size. */
double shape_mtp_weights(const struct cat_model *m, int active);
double shape_ffn_weights(const struct cat_model *m, int moe, int active);

/* A routed expert's width (moe_ffn_hidden, else ffn_hidden), the shared
 * experts' width together, whether layer i (from 0) is a MoE layer, how many
 * are, and how many layers attend through a sliding window. */
double shape_expert_width(const struct cat_model *m);
double shape_shared_width(const struct cat_model *m);
int shape_is_moe_layer(const struct cat_model *m, int i);
int shape_moe_layers(const struct cat_model *m);
int shape_window_layers(const struct cat_model *m);
/* The routed experts' parameters, all MoE layers (what expert parallelism
 * splits; 0 for a dense model). */
double shape_expert_params(const struct cat_model *m);

/* Forward FLOPs of one sequence of seq tokens. */
double shape_fwd_flops(const struct cat_model *m, double seq);
/* The same with attention under a causal mask, a query over half the keys
 * on average: how Megatron-LM counts a model's FLOPs (megatron/training/
 * training.py, num_floating_point_operations, "causal mask"), the count
 * behind the TFLOP/s its tables and Megatron-Bridge's publish. */
double shape_fwd_flops_causal(const struct cat_model *m, double seq);

/* What a shape leaves to defaults: kv_heads 0 (not given) becomes heads,
 * multi-head attention, where heads is given. */
void shape_defaults(struct cat_model *m);

/*
 * Whether a shape is whole, consistent and within the bounds of the fields
 * it stands for.  NULL when it is, what[] empty.  Else what[] says what
 * was expected and the return value names the key at fault:
 *   "layers" with a missing dimension (what: "layers with hidden, heads,
 *   ffn_hidden, vocab and seq_len, found a shape missing ffn_hidden and
 *   vocab", the whole sentence after "expected");
 *   "params" when params is given too (not NAN): a shape or params;
 *   "heads" when heads does not divide hidden, "kv_heads" when kv_heads
 *   does not divide heads (what: "a divisor of ...");
 *   "" when what it derives is out of range: the parameters above params'
 *   bound, or the forward GFLOP at seq_len above fwd_gflops' (fields.h),
 *   what being the whole sentence ("the shape gives 3.0e+16 parameters,
 *   expected at most 1e+13").
 * Called after shape_defaults() and before params and fwd_gflops are
 * filled in from the shape.  shape_check() is shape_check_form(m, 0) and
 * then shape_check_size().
 */
const char *shape_check(const struct cat_model *m, char *what, size_t cap);

/* The first three cases above: whether the shape is whole and consistent.
 * seq_len_later 1: seq_len may still be 0 (a scenario's inline model takes
 * workload.seq_len, read after it), and is not counted missing. */
const char *shape_check_form(const struct cat_model *m, int seq_len_later, char *what,
                             size_t cap);

/* The last case: the bounds on what a whole shape gives at its seq_len. */
const char *shape_check_size(const struct cat_model *m, char *what, size_t cap);

/*
 * 1 when tensor parallelism of degree tp splits m's attention evenly, as
 * Megatron-LM requires: tp divides heads and kv_heads (attention.py divides
 * both by the tensor-parallel size; K and V heads are not replicated).
 * Always 1 for tp 1 and for a model not given by its shape.
 */
int shape_tp_fits(const struct cat_model *m, int tp);

#endif
