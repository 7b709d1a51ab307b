/*
 * shape.c - parameters and forward FLOPs of a transformer from its shape
 * (shape.h; derivation in docs/model.md).  O(1).
 */
#include "shape.h"

#include <math.h>
#include <stdio.h>

#include "fields.h"

int shape_known(const struct cat_model *m)
{
    return m->layers > 0;
}

double shape_qk_head(const struct cat_model *m)
{
    if (m->kv_lora_rank > 0)
        return (double)m->qk_nope_dim + m->qk_rope_dim;
    return m->head_dim > 0 ? m->head_dim : (double)m->hidden / m->heads;
}

double shape_v_head(const struct cat_model *m)
{
    return m->kv_lora_rank > 0 ? m->v_head_dim : shape_qk_head(m);
}

double shape_kv_width(const struct cat_model *m)
{
    return m->kv_heads * shape_qk_head(m);
}

double shape_attn_weights(const struct cat_model *m)
{
    double h = m->hidden, a = m->heads, dq = shape_qk_head(m);

    if (m->kv_lora_rank > 0) {
        /* MLA: Q down and up (or one projection), the joint K-V down
         * projection with the shared rotary key, K-V up, the output */
        double q = m->q_lora_rank > 0 ? h * m->q_lora_rank + (double)m->q_lora_rank * a * dq
                                      : h * a * dq;
        return q + h * ((double)m->kv_lora_rank + m->qk_rope_dim) +
               (double)m->kv_lora_rank * a * (m->qk_nope_dim + m->v_head_dim) +
               a * m->v_head_dim * h;
    }
    return h * (a * dq + 2 * shape_kv_width(m)) + a * dq * h;
}

double shape_mla_down_weights(const struct cat_model *m)
{
    double h = m->hidden;

    if (m->kv_lora_rank <= 0)
        return 0;
    return h * ((m->q_lora_rank > 0 ? (double)m->q_lora_rank : 0) + m->kv_lora_rank +
                m->qk_rope_dim);
}

/* A feed-forward block of width f: two products, three when gated. */
static double ffn_weights(const struct cat_model *m, double f)
{
    return (m->gated_ffn ? 3 : 2) * (double)m->hidden * f;
}

double shape_expert_width(const struct cat_model *m)
{
    return m->moe_ffn_hidden > 0 ? m->moe_ffn_hidden : m->ffn_hidden;
}

double shape_shared_width(const struct cat_model *m)
{
    return m->shared_experts * (m->shared_ffn_hidden > 0 ? (double)m->shared_ffn_hidden
                                                           : shape_expert_width(m));
}

int shape_is_moe_layer(const struct cat_model *m, int i)
{
    int every = m->moe_every > 0 ? m->moe_every : 1;

    return m->experts > 0 && i >= m->first_dense_layers && (i + 1) % every == 0;
}

int shape_moe_layers(const struct cat_model *m)
{
    int n = 0;

    for (int i = 0; i < m->layers && m->experts > 0; i++)
        n += shape_is_moe_layer(m, i);
    return n;
}

double shape_ffn_weights(const struct cat_model *m, int moe, int active)
{
    if (!moe)
        return ffn_weights(m, m->ffn_hidden);
    /* the router, the routed experts (all, or the top_k a token uses), the
     * shared ones */
    return (double)m->hidden * m->experts +
           (active ? m->top_k : m->experts) * ffn_weights(m, shape_expert_width(m)) +
           ffn_weights(m, shape_shared_width(m));
}

/* The multi-token-prediction modules' weights (every one, or those a token
 * uses): each the projection of 2h to h and one block, MoE where the model
 * has MoE layers; the embedding and output head are the model's. */
double shape_mtp_weights(const struct cat_model *m, int active)
{
    double h = m->hidden;

    if (m->mtp_layers <= 0)
        return 0;
    return m->mtp_layers * (2 * h * h + shape_attn_weights(m) +
                            shape_ffn_weights(m, shape_moe_layers(m) > 0, active));
}

/* Weights of the matrix products of all the layers (the multi-token-
 * prediction modules' too): every one, or those a token uses. */
static double layers_weights(const struct cat_model *m, int active)
{
    int moe = shape_moe_layers(m);

    return m->layers * shape_attn_weights(m) + (m->layers - moe) * shape_ffn_weights(m, 0, 0) +
           moe * shape_ffn_weights(m, 1, active) + shape_mtp_weights(m, active);
}

void shape_tables(const struct cat_model *m, double *first, double *last)
{
    double table = (double)m->vocab * m->hidden;

    *first = table + (m->tied_embeddings ? (double)m->seq_len * m->hidden : 0);
    *last = table;
}

static double with_tables(const struct cat_model *m, double layers)
{
    double first, last;

    shape_tables(m, &first, &last);
    return layers + first + (m->tied_embeddings ? 0 : last);
}

double shape_params(const struct cat_model *m)
{
    return with_tables(m, layers_weights(m, 0));
}

double shape_active_params(const struct cat_model *m)
{
    return with_tables(m, layers_weights(m, 1));
}

double shape_expert_params(const struct cat_model *m)
{
    int moe = shape_moe_layers(m);

    return (double)(moe + (moe > 0 ? m->mtp_layers : 0)) * m->experts *
           ffn_weights(m, shape_expert_width(m));
}

int shape_window_layers(const struct cat_model *m)
{
    int n = 0;

    for (int i = 0; i < m->layers && m->window_every > 0; i++)
        n += i % m->window_every == 0;
    return n;
}

/* The keys a token's queries meet over the layers: all seq of them, or
 * under a causal mask the half a query sees on average (a window's whole
 * window). */
static double keys_of(const struct cat_model *m, double seq, int causal)
{
    double wl = shape_window_layers(m);

    return (m->layers + m->mtp_layers - wl) * (causal ? seq / 2 : seq) + wl * fmin(seq, m->window);
}

static double fwd_flops(const struct cat_model *m, double seq, int causal)
{
    double heads = m->heads * (shape_qk_head(m) + shape_v_head(m));

    /* the products a token's weights take, attention's scores and weighted
     * sum over the keys it sees, the output projection */
    return (2 * layers_weights(m, 1) + 2 * keys_of(m, seq, causal) * heads +
            2.0 * m->hidden * m->vocab * (1 + m->mtp_layers)) * seq;
}

double shape_fwd_flops(const struct cat_model *m, double seq)
{
    return fwd_flops(m, seq, 0);
}

double shape_fwd_flops_causal(const struct cat_model *m, double seq)
{
    return fwd_flops(m, seq, 1);
}

void shape_defaults(struct cat_model *m)
{
    if (m->kv_heads <= 0 && m->heads > 0)
        m->kv_heads = m->heads;
}

/* Mixture of experts, MLA and windows: whole and consistent. */
static const char *moe_check(const struct cat_model *m, char *what, size_t cap)
{
    if (m->experts == 0 && (m->top_k || m->moe_ffn_hidden || m->shared_experts ||
                            m->shared_ffn_hidden || m->first_dense_layers || m->moe_every ||
                            m->capacity_factor > 0)) {
        snprintf(what, cap, "experts with the mixture-of-experts keys (top_k, moe_ffn_hidden, "
                 "shared_experts, shared_ffn_hidden, first_dense_layers, moe_every, "
                 "capacity_factor)");
        return "experts";
    }
    if (m->experts > 0 && (m->top_k < 1 || m->top_k > m->experts)) {
        snprintf(what, cap, "a top_k from 1 to experts (%d) with experts", m->experts);
        return "top_k";
    }
    if (m->shared_ffn_hidden > 0 && m->shared_experts == 0) {
        snprintf(what, cap, "shared_experts with shared_ffn_hidden");
        return "shared_experts";
    }
    if (m->experts > 0 && shape_moe_layers(m) == 0) {
        snprintf(what, cap, "at least one MoE layer: first_dense_layers under layers (%d) and a "
                 "moe_every of at most layers - first_dense_layers", m->layers);
        return "first_dense_layers";
    }
    if (m->capacity_factor > 0 && m->capacity_factor < 1) {
        snprintf(what, cap, "a capacity_factor of at least 1 (0: dropless)");
        return "capacity_factor";
    }
    if (m->experts == 0 && (m->expert_bias || m->expert_clamp)) {
        snprintf(what, cap, "experts with expert_bias and expert_clamp (the experts' biases "
                 "and clamped activation)");
        return "experts";
    }
    if (m->expert_clamp && !m->gated_ffn) {
        snprintf(what, cap, "gated_ffn with expert_clamp (a gated activation's two halves "
                 "clamped)");
        return "expert_clamp";
    }
    if (m->kv_lora_rank > 0 && (m->qk_rope_dim <= 0 || m->qk_nope_dim <= 0 || m->v_head_dim <= 0)) {
        snprintf(what, cap, "qk_rope_dim, qk_nope_dim and v_head_dim with kv_lora_rank (MLA)");
        return "kv_lora_rank";
    }
    if (m->kv_lora_rank == 0 && (m->q_lora_rank || m->qk_rope_dim || m->qk_nope_dim ||
                                 m->v_head_dim)) {
        snprintf(what, cap, "kv_lora_rank with q_lora_rank, qk_rope_dim, qk_nope_dim and "
                 "v_head_dim (MLA)");
        return "kv_lora_rank";
    }
    if ((m->window_every > 0) != (m->window > 0)) {
        snprintf(what, cap, "window and window_every together");
        return m->window > 0 ? "window_every" : "window";
    }
    if ((m->router_groups > 0) != (m->router_group_topk > 0)) {
        snprintf(what, cap, "router_groups and router_group_topk together");
        return m->router_groups > 0 ? "router_group_topk" : "router_groups";
    }
    if (m->router_groups > 0 && (m->experts % m->router_groups != 0 ||
                                 m->router_group_topk > m->router_groups ||
                                 (double)m->router_group_topk * m->experts / m->router_groups <
                                     m->top_k)) {
        snprintf(what, cap, "router_groups dividing the experts (%d), and router_group_topk of "
                 "them holding top_k (%d) experts", m->experts, m->top_k);
        return "router_groups";
    }
    return NULL;
}

const char *shape_check_form(const struct cat_model *m, int seq_len_later, char *what,
                             size_t cap)
{
    /* the dimensions besides layers, kv_heads left out: it defaults to heads */
    const char *const name[] = {"hidden", "heads", "ffn_hidden", "vocab", "seq_len"};
    const int have[] = {m->hidden > 0, m->heads > 0, m->ffn_hidden > 0, m->vocab > 0,
                        m->seq_len > 0 || seq_len_later};
    const int n = (int)(sizeof have / sizeof have[0]);
    int missing = 0, said = 0;
    size_t len;

    what[0] = '\0';
    for (int k = 0; k < n; k++)
        missing += !have[k];
    if (missing) {
        len = (size_t)snprintf(what, cap, "layers with hidden, heads, ffn_hidden, vocab and "
                               "seq_len, found a shape missing ");
        for (int k = 0; k < n && len < cap; k++) {
            if (have[k])
                continue;
            said++;
            len += (size_t)snprintf(what + len, cap - len, "%s%s",
                                    said == 1 ? "" : said == missing ? " and " : ", ", name[k]);
        }
        return "layers";
    }
    if (!isnan(m->params)) {
        snprintf(what, cap, "no params with a shape (give params or a shape, not both)");
        return "params";
    }
    /* Megatron-LM's rules (megatron/core/transformer/attention.py): a head
     * is hidden / heads wide, and each K and V head serves heads / kv_heads
     * query heads */
    if (m->head_dim == 0 && m->kv_lora_rank == 0 && m->hidden % m->heads != 0) {
        snprintf(what, cap, "a divisor of hidden (%d), or a head_dim", m->hidden);
        return "heads";
    }
    if (m->kv_heads <= 0 || m->kv_heads > m->heads || m->heads % m->kv_heads != 0) {
        snprintf(what, cap, "a divisor of heads (%d)", m->heads);
        return "kv_heads";
    }
    return moe_check(m, what, cap);
}

const char *shape_check_size(const struct cat_model *m, char *what, size_t cap)
{
    const struct cat_field *pf = fields_yaml("params"), *ff = fields_yaml("fwd_gflops");
    double params, gflops;

    what[0] = '\0';
    params = shape_params(m);
    if (!(params <= pf->hi)) {
        snprintf(what, cap, "the shape gives %.1e parameters, expected at most %g", params,
                 pf->hi);
        return "";
    }
    gflops = shape_fwd_flops(m, m->seq_len) / 1e9;
    if (!(gflops <= ff->hi)) {
        snprintf(what, cap, "the shape gives %.1e GFLOP a sample (seq_len %d), expected at "
                 "most %g", gflops, m->seq_len, ff->hi);
        return "";
    }
    return NULL;
}

const char *shape_check(const struct cat_model *m, char *what, size_t cap)
{
    const char *key = shape_check_form(m, 0, what, cap);

    return key ? key : shape_check_size(m, what, cap);
}

int shape_tp_fits(const struct cat_model *m, int tp)
{
    return tp <= 1 || !shape_known(m) || (m->heads % tp == 0 && m->kv_heads % tp == 0);
}
