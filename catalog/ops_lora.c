/*
 * ops_lora.c - LoRA fine-tuning as the operations it runs (ops.h, ops_lora;
 * Hu et al. 2021, "LoRA: Low-Rank Adaptation of Large Language Models",
 * arXiv:2106.09685): the pre-trained weights frozen, a pair of low-rank
 * matrices trained beside each targeted product.
 *
 * What changes against training every weight:
 *   - a frozen product's backward is its input's gradient alone (dX = dY
 *     W^T), not its weight's (dW = X^T dY): two of a trained product's three
 *     GEMMs a pass;
 *   - the embedding's backward (its rows' gradient) does not run;
 *   - each targeted product of m x n x k gains its adapter, as NeMo's
 *     ParallelLinearAdapter and PEFT's LoRA layer run it: x A, an m x rank x
 *     k product, then (x A) B, m x n x rank, in 16 bits (the adapters run
 *     outside the fp8 recipe), trained (their three GEMMs each a pass), and
 *     their sum with the frozen product's output, an addition of m x n.
 * The adapter's input dropout (lora_dropout) is not counted.  Experts'
 * grouped products take none (adapters on routed experts are not what the
 * recipes train).
 */
#include "ops.h"
#include "shape.h"

static const char *const target_names[] = {"qkv", "out", "fc1", "fc2", NULL};

const char *ops_lora_target_name(int i)
{
    return i >= 0 && i < OPS_NPROJ - 1 ? target_names[i] : NULL;
}

void ops_lora(struct ops_model *o, int rank, unsigned targets)
{
    int n = o->n;
    double r = rank;

    for (int i = 0; i < n; i++) {
        struct ops_item *it = &o->v[i];
        double count, m, cols, k;
        if (it->kind == OPS_EMBED)
            it->elems_bwd = 0;
        if (it->kind != OPS_LINEAR && it->kind != OPS_CONV)
            continue;
        it->no_wgrad = 1;
        if (it->proj == OPS_PROJ_NONE || it->grouped || !(targets & OPS_LORA_BIT(it->proj)))
            continue;
        /* ops_push may move o->v: copy the shape first */
        count = it->count;
        m = it->m;
        cols = it->n;
        k = it->k;
        ops_gemm(o, OPS_LINEAR, count, m, r, k);
        ops_gemm(o, OPS_LINEAR, count, m, cols, r);
        {
            struct ops_item *add = ops_push(o, OPS_ADD, count);
            add->elems_fwd = 3 * m * cols;      /* read both outputs, write the sum */
            add->elems_bwd = 0;                 /* the gradient passes through to both */
        }
    }
}

double ops_lora_params(const struct cat_model *m, int rank, unsigned targets)
{
    double h = m->hidden, qw = m->heads * shape_qk_head(m), kv = shape_kv_width(m);
    double vw = m->heads * shape_v_head(m), f = m->ffn_hidden, dense = m->layers - shape_moe_layers(m);
    double per = 0, ffn = 0;

    if (!shape_known(m) || rank <= 0)
        return 0;
    if (targets & OPS_LORA_BIT(OPS_PROJ_QKV))
        per += h + qw + 2 * kv;
    if (targets & OPS_LORA_BIT(OPS_PROJ_OUT))
        per += vw + h;
    if (targets & OPS_LORA_BIT(OPS_PROJ_FC1))
        ffn += h + (m->gated_ffn ? 2 : 1) * f;
    if (targets & OPS_LORA_BIT(OPS_PROJ_FC2))
        ffn += f + h;
    return rank * (m->layers * per + dense * ffn);
}
