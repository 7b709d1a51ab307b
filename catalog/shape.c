/*
 * shape.c - parameters and forward FLOPs of a transformer from its shape
 * (shape.h; derivation in docs/model.md).  O(1).
 */
#include "shape.h"

int shape_known(const struct cat_model *m)
{
    return m->layers > 0;
}

/* Width of K and V: the heads that share them times the head width. */
static double kv_width(const struct cat_model *m)
{
    return (double)m->hidden * m->kv_heads / m->heads;
}

/* Weights of the matrix products of one layer. */
static double layer_weights(const struct cat_model *m)
{
    double h = m->hidden, f = m->ffn_hidden;

    return h * (h + 2 * kv_width(m)) + h * h + (m->gated_ffn ? 3 : 2) * h * f;
}

double shape_params(const struct cat_model *m)
{
    double h = m->hidden, v = m->vocab;
    double embed = m->tied_embeddings ? v * h + (double)m->seq_len * h : 2 * v * h;

    return m->layers * layer_weights(m) + embed;
}

double shape_fwd_flops(const struct cat_model *m, double seq)
{
    double h = m->hidden, per_token;

    per_token = m->layers * (2 * layer_weights(m) + 4 * seq * h) + 2 * h * m->vocab;
    return per_token * seq;
}

const char *shape_check(const struct cat_model *m)
{
    if (m->hidden <= 0 || m->heads <= 0 || m->kv_heads <= 0 || m->ffn_hidden <= 0 ||
        m->vocab <= 0 || m->seq_len <= 0)
        return "layers with hidden, heads, kv_heads, ffn_hidden, vocab and seq_len";
    if (m->kv_heads > m->heads)
        return "kv_heads of at most heads";
    return "";
}
