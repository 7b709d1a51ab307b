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

void shape_tables(const struct cat_model *m, double *first, double *last)
{
    double table = (double)m->vocab * m->hidden;

    *first = table + (m->tied_embeddings ? (double)m->seq_len * m->hidden : 0);
    *last = table;
}

double shape_params(const struct cat_model *m)
{
    double first, last;

    shape_tables(m, &first, &last);
    return m->layers * layer_weights(m) + first + (m->tied_embeddings ? 0 : last);
}

double shape_fwd_flops(const struct cat_model *m, double seq)
{
    double h = m->hidden, per_token;

    per_token = m->layers * (2 * layer_weights(m) + 4 * seq * h) + 2 * h * m->vocab;
    return per_token * seq;
}

void shape_defaults(struct cat_model *m)
{
    if (m->kv_heads <= 0 && m->heads > 0)
        m->kv_heads = m->heads;
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
    if (m->hidden % m->heads != 0) {
        snprintf(what, cap, "a divisor of hidden (%d)", m->hidden);
        return "heads";
    }
    if (m->kv_heads <= 0 || m->kv_heads > m->heads || m->heads % m->kv_heads != 0) {
        snprintf(what, cap, "a divisor of heads (%d)", m->heads);
        return "kv_heads";
    }
    return NULL;
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
