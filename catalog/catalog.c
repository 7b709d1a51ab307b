/*
 * catalog.c - load instance types, GPU specs and the model zoo from CSV.
 *
 * The "platform" input of dtplan (see catalog.h and docs/catalog.md).  Each
 * table is read with csv.c, its header mapped by column name (order does not
 * matter, unknown extra columns are ignored), and every value checked at this
 * boundary: a bad value is reported as
 *   FILE:LINE:COL: COLUMN: expected WHAT, found "VALUE"
 * and nothing downstream ever sees it.  Empty numeric fields mean "unknown"
 * and are stored as NAN (or -1 for integer columns), never as 0.
 *
 * Lookups are linear scans with strcmp: O(n) per call, n is a few dozen rows.
 * Duplicate detection at load is O(n^2) for the same reason.
 */
#include "catalog.h"
#include "cattable.h"
#include "csv.h"
#include "fields.h"
#include "ops.h"
#include "shape.h"
#include "spot.h"
#include "../base/files.h"
#include "../base/names.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* ---------------------------------------------------------------------------
 * gpus.csv
 */

enum { G_NAME, G_FP32, G_TF32, G_FP16, G_BF16, G_MEM, G_BW, G_NVLINK, G_PCIE, G_SOURCE, G_N };
static const char *const gpu_cols[G_N] = {
    "name", "fp32_tflops", "tf32_tflops", "fp16_tflops", "bf16_tflops", "mem_gib",
    "mem_bw_gbs", "nvlink_gbs_dir", "pcie_gbs_dir", "source"};

/* The optional columns of gpus.csv: fp8 and fp4 peaks, SM count, the
 * measured fractions of peak and bandwidth and their source. */
enum { GO_FP8, GO_SM, GO_MM, GO_FP32, GO_MEM, GO_CC, GO_FP4, GO_CDNA, GO_FP4EFF, GO_N };
static const char *const gpu_opt_cols[GO_N] = {"fp8_tflops", "sm_count", "mm_eff", "fp32_eff",
                                               "mem_eff", "compute_capability", "fp4_tflops",
                                               "cdna", "fp4_eff"};

static int get_gpu_opt(struct cat_gpu *g, const struct cat_table *t, const struct csv_row *row,
                       const int *col, struct dt_err *e)
{
    double v[GO_N];

    for (int k = 0; k < GO_N; k++)
        if (col[k] < 0)
            v[k] = NAN;
        else if (tbl_opt_num(&v[k], t, row, col[k], e))
            return -1;
    g->peak_tflops[CAT_FP8] = v[GO_FP8];
    g->fp4_tflops = v[GO_FP4];
    g->fp4_eff = v[GO_FP4EFF];
    g->sm_count = isnan(v[GO_SM]) ? 0 : (int)v[GO_SM];
    g->mm_eff = v[GO_MM];
    g->fp32_eff = v[GO_FP32];
    g->mem_eff = v[GO_MEM];
    g->cc = isnan(v[GO_CC]) ? 0 : (int)lround(v[GO_CC] * 10);
    g->cdna = isnan(v[GO_CDNA]) ? 0 : (int)v[GO_CDNA];
    return 0;
}

static int load_gpus(struct catalog *cat, const char *dir, struct dt_err *e)
{
    struct cat_table t;
    int r, rc = -1, *lines, ocol[GO_N], src_col;

    if (tbl_open(&t, dir, "gpus.csv", gpu_cols, G_N, e) != 0)
        return -1;
    for (int k = 0; k < GO_N; k++)
        ocol[k] = tbl_optional_col(&t, gpu_opt_cols[k]);
    src_col = tbl_optional_col(&t, "eff_source");
    lines = x_calloc((size_t)t.csv.nrows, sizeof *lines);
    cat->gpus = x_calloc((size_t)t.csv.nrows, sizeof *cat->gpus);
    for (r = 1; r < t.csv.nrows; r++) {
        const struct csv_row *row = &t.csv.rows[r];
        struct cat_gpu *g = &cat->gpus[cat->ngpus];

        if (tbl_text(g->name, sizeof g->name, 1, &t, row, G_NAME, e) ||
            tbl_unique(cat->gpus[0].name, cat->ngpus, sizeof *g, lines, &t, row, G_NAME, e) ||
            tbl_num(&g->peak_tflops[CAT_FP32], &t, row, G_FP32, e) ||
            tbl_num(&g->peak_tflops[CAT_TF32], &t, row, G_TF32, e) ||
            tbl_num(&g->peak_tflops[CAT_FP16], &t, row, G_FP16, e) ||
            tbl_num(&g->peak_tflops[CAT_BF16], &t, row, G_BF16, e) ||
            get_gpu_opt(g, &t, row, ocol, e) ||
            tbl_num(&g->mem_gib, &t, row, G_MEM, e) ||
            tbl_num(&g->mem_bw_gbs, &t, row, G_BW, e) ||
            tbl_num(&g->nvlink_gbs_dir, &t, row, G_NVLINK, e) ||
            tbl_num(&g->pcie_gbs_dir, &t, row, G_PCIE, e) ||
            tbl_source(&g->source, &t, row, G_SOURCE, e))
            goto free_lines;
        g->eff_source = tbl_opt_text(row, src_col);
        lines[cat->ngpus] = row->line;
        cat->ngpus++;
    }
    rc = 0;

free_lines:
    x_free(lines);
    tbl_close(&t);
    return rc;
}

/* ---------------------------------------------------------------------------
 * instances.csv
 */

enum {
    I_CLOUD, I_NAME, I_VCPUS, I_MEM, I_GPU_MODEL, I_GPU_COUNT, I_GPU_MEM, I_LINK, I_NET,
    I_EFA, I_PRICE, I_SPOT, I_REGION, I_SOURCE, I_N
};
static const char *const inst_cols[I_N] = {
    "cloud", "instance_type", "vcpus", "memory_gib", "gpu_model", "gpu_count",
    "gpu_mem_gib", "intra_node_link", "network_gbps", "efa", "price_ondemand_usd_h",
    "price_spot_usd_h", "region", "source"};

static int get_efa(int *out, const struct cat_table *t, const struct csv_row *r, struct dt_err *e)
{
    const struct csv_field *fld = tbl_cell(t, r, I_EFA);

    if (fld->text[0] == '\0')
        *out = -1;
    else if (!strcasecmp(fld->text, "yes") || !strcasecmp(fld->text, "ib"))
        *out = 1;      /* the caller tells EFA ("yes") from InfiniBand */
    else if (!strcasecmp(fld->text, "no"))
        *out = 0;
    else
        return tbl_err(e, t, fld, t->cols[I_EFA], "one of yes, no, IB or empty");
    return 0;
}

/* Resolve gpu_model against gpus.csv (already loaded). */
static int resolve_gpu(struct cat_instance *in, const struct catalog *cat,
                       const struct cat_table *t, const struct csv_row *r, const char *gpus_path,
                       struct dt_err *e)
{
    const struct csv_field *fld = tbl_cell(t, r, I_GPU_MODEL);
    char what[512];
    size_t o;
    int g;

    in->gpu = NULL;
    if (strncmp(in->gpu_model, "unknown:", 8) == 0 && in->gpu_model[8] && in->gpu_count > 0) {
        /* an accelerator dtplan does not know, kept by name (catalog_write_instances) */
        memmove(in->gpu_model, in->gpu_model + 8, strlen(in->gpu_model + 8) + 1);
        in->gpu_unknown = 1;
        return 0;
    }
    if (in->gpu_model[0] == '\0') {
        if (in->gpu_count > 0) {
            snprintf(what, sizeof what, "a GPU model for gpu_count %d", in->gpu_count);
            return tbl_err(e, t, fld, t->cols[I_GPU_MODEL], what);
        }
        return 0;
    }
    in->gpu = catalog_find_gpu(cat, in->gpu_model);
    if (in->gpu) {
        if (in->gpu_count == 0)
            in->gpu = NULL;
        return 0;
    }
    o = (size_t)snprintf(what, sizeof what, "a GPU named in %s (", gpus_path);
    for (g = 0; g < cat->ngpus && o < sizeof what; g++)
        o += (size_t)snprintf(what + o, sizeof what - o, "%s%s", g ? ", " : "",
                              cat->gpus[g].name);
    if (o < sizeof what)
        snprintf(what + o, sizeof what - o, ")");
    return tbl_err(e, t, fld, t->cols[I_GPU_MODEL], what);
}

void catalog_instance_strings_free(struct cat_instance *in)
{
    x_free(in->intra_link_text);
    x_free(in->source);
    x_free(in->profile);
    in->intra_link_text = NULL;
    in->source = NULL;
    in->profile = NULL;
}

/* The optional fabric column (field k): a fabric's name (fabric.h), or
 * empty for what the efa column says ("IB": ib).  A fabric agrees with the
 * efa column: EFA's with "yes", the others with "IB" or empty. */
static int get_fabric(struct cat_instance *in, const struct cat_table *t, const struct csv_row *r,
                      int k, struct dt_err *e)
{
    const struct csv_field *fld;
    char what[320], names[256];

    in->fabric = NULL;
    if (k < 0 || k >= r->nfields || !r->fields[k].text[0]) {
        if (in->efa == 1 && !in->aws_efa)
            in->fabric = catalog_fabric("ib");
        return 0;
    }
    fld = &r->fields[k];
    if (!(in->fabric = catalog_fabric(fld->text))) {
        catalog_fabric_names(names, sizeof names);
        snprintf(what, sizeof what, "one of %s, or empty", names);
        return tbl_err(e, t, fld, "fabric", what);
    }
    if ((in->fabric->kind == CAT_FAB_EFA) != (in->aws_efa != 0)) {
        snprintf(what, sizeof what, "a fabric that agrees with efa \"%s\" (%s)",
                 tbl_cell(t, r, I_EFA)->text,
                 in->aws_efa ? "an efa-* fabric" : "not an efa-* fabric");
        return tbl_err(e, t, fld, "fabric", what);
    }
    return 0;
}

/* The optional price_date column (field k): YYYY-MM-DD, or empty. */
static int get_price_date(struct cat_instance *in, const struct cat_table *t,
                          const struct csv_row *r, int k, struct dt_err *e)
{
    const struct csv_field *fld;

    in->price_date[0] = '\0';
    if (k < 0 || k >= r->nfields || !r->fields[k].text[0])
        return 0;
    fld = &r->fields[k];
    if (!catalog_date_ok(fld->text))
        return tbl_err(e, t, fld, "price_date", "a date as YYYY-MM-DD, or empty");
    memcpy(in->price_date, fld->text, 11);
    return 0;
}

/* The optional nvlink_domain column (field k): a whole number of the
 * instance's GPUs, or empty (its own). */
static int get_domain(struct cat_instance *in, const struct cat_table *t, const struct csv_row *r,
                      int k, struct dt_err *e)
{
    double v;
    char what[96];

    in->nvlink_domain = 0;
    if (tbl_opt_col(&v, t, r, k, e))
        return -1;
    if (isnan(v))
        return 0;
    if (in->gpu_count < 1 || (int)v < in->gpu_count || (int)v % in->gpu_count != 0) {
        snprintf(what, sizeof what, "a multiple of gpu_count (%d), or empty", in->gpu_count);
        return tbl_err(e, t, &r->fields[k], "nvlink_domain", what);
    }
    in->nvlink_domain = (int)v;
    return 0;
}

/* The optional spot_interrupt column (field k): one of the Advisor's bands
 * (spot.h), or empty. */
static int get_spot(struct cat_instance *in, const struct cat_table *t, const struct csv_row *r,
                    int k, struct dt_err *e)
{
    char what[96];

    in->spot_interrupt[0] = '\0';
    if (k < 0 || k >= r->nfields || !r->fields[k].text[0])
        return 0;
    if (isnan(cat_spot_month(r->fields[k].text))) {
        snprintf(what, sizeof what, "an interruption band, %s, or empty", cat_spot_bands());
        return tbl_err(e, t, &r->fields[k], "spot_interrupt", what);
    }
    snprintf(in->spot_interrupt, sizeof in->spot_interrupt, "%s", r->fields[k].text);
    return 0;
}

static int load_instances(struct catalog *cat, const char *dir, struct dt_err *e)
{
    struct cat_table t;
    char *gpus_path = tbl_join_path(dir, "gpus.csv");
    int r, rc = -1, *lines, prof_col, ghz_col, nics_col, cpu_col, fab_col, date_col, dom_col;
    int spot_col;
    double nics;

    if (tbl_open(&t, dir, "instances.csv", inst_cols, I_N, e) != 0) {
        x_free(gpus_path);
        return -1;
    }
    lines = x_calloc((size_t)t.csv.nrows, sizeof *lines);
    cat->instances = x_calloc((size_t)t.csv.nrows, sizeof *cat->instances);
    prof_col = tbl_optional_col(&t, "profile");
    ghz_col = tbl_optional_col(&t, "cpu_ghz");
    nics_col = tbl_optional_col(&t, "nics");
    cpu_col = tbl_optional_col(&t, "cpu_source");
    fab_col = tbl_optional_col(&t, "fabric");
    date_col = tbl_optional_col(&t, "price_date");
    dom_col = tbl_optional_col(&t, "nvlink_domain");
    spot_col = tbl_optional_col(&t, "spot_interrupt");
    for (r = 1; r < t.csv.nrows; r++) {
        const struct csv_row *row = &t.csv.rows[r];
        struct cat_instance *in = &cat->instances[cat->ninstances];

        if (tbl_text(in->cloud, sizeof in->cloud, 0, &t, row, I_CLOUD, e) ||
            tbl_text(in->name, sizeof in->name, 1, &t, row, I_NAME, e) ||
            tbl_unique(cat->instances[0].name, cat->ninstances, sizeof *in, lines, &t, row,
                       I_NAME, e) ||
            tbl_int(&in->vcpus, &t, row, I_VCPUS, e) ||
            tbl_num(&in->mem_gib, &t, row, I_MEM, e) ||
            tbl_text(in->gpu_model, sizeof in->gpu_model, 0, &t, row, I_GPU_MODEL, e) ||
            tbl_int(&in->gpu_count, &t, row, I_GPU_COUNT, e) ||
            tbl_num(&in->gpu_mem_gib, &t, row, I_GPU_MEM, e) ||
            tbl_num(&in->net_gbps, &t, row, I_NET, e) ||
            get_efa(&in->efa, &t, row, e) ||
            tbl_num(&in->price_usd_h, &t, row, I_PRICE, e) ||
            tbl_num(&in->spot_usd_h, &t, row, I_SPOT, e) ||
            tbl_text(in->region, sizeof in->region, 0, &t, row, I_REGION, e) ||
            resolve_gpu(in, cat, &t, row, gpus_path, e) ||
            tbl_opt_col(&in->cpu_ghz, &t, row, ghz_col, e) ||
            tbl_opt_col(&nics, &t, row, nics_col, e) ||
            get_price_date(in, &t, row, date_col, e) || get_domain(in, &t, row, dom_col, e) ||
            get_spot(in, &t, row, spot_col, e) || tbl_source(&in->source, &t, row, I_SOURCE, e))
            goto free_lines;
        in->nics = isnan(nics) ? -1 : (int)nics;
        in->aws_efa = in->efa == 1 && !strcasecmp(tbl_cell(&t, row, I_EFA)->text, "yes");
        if (get_fabric(in, &t, row, fab_col, e)) {
            catalog_instance_strings_free(in);
            goto free_lines;
        }
        if (cpu_col >= 0 && cpu_col < row->nfields) {
            const char *c = row->fields[cpu_col].text;
            size_t n = strcspn(c, "(:");
            while (n > 0 && c[n - 1] == ' ')
                n--;
            in->cpu_amd = strstr(c, "AMD") != NULL;
            snprintf(in->cpu_model, sizeof in->cpu_model, "%.*s", (int)n, c);
        }
        in->intra_link_text = x_strdup(tbl_cell(&t, row, I_LINK)->text);
        in->link = catalog_parse_link(in->intra_link_text);
        in->cpu_speed = NAN;            /* not a CSV column: set inline or by a profile */
        if (prof_col >= 0 && prof_col < row->nfields && row->fields[prof_col].text[0]) {
            const struct csv_field *fld = &row->fields[prof_col];
            const char *p = fld->text, *why;
            char msg[160];
            in->profile = p[0] == '/' ? x_strdup(p) : tbl_join_path(dir, p);
            if ((why = file_problem(in->profile))) {
                snprintf(msg, sizeof msg, "a readable profile file (%.100s)", why);
                tbl_err(e, &t, fld, "profile", msg);
                catalog_instance_strings_free(in);
                goto free_lines;
            }
        }
        lines[cat->ninstances] = row->line;
        cat->ninstances++;
    }
    rc = 0;

free_lines:
    x_free(lines);
    x_free(gpus_path);
    tbl_close(&t);
    return rc;
}

/* ---------------------------------------------------------------------------
 * models.csv
 */

enum { M_NAME, M_FAMILY, M_PARAMS, M_FWD, M_INPUT, M_SPARSE, M_SPARSE_BPS, M_SOURCE, M_N };
static const char *const model_cols[M_N] = {
    "name", "family", "params", "fwd_gflops", "input", "sparse_params",
    "sparse_bytes_per_sample", "source"};

static int get_family(char *dst, size_t cap, const struct cat_table *t, const struct csv_row *r,
                      struct dt_err *e)
{
    const struct csv_field *fld = tbl_cell(t, r, M_FAMILY);
    char oneof[96] = "one of ";

    if (catalog_family_parse(fld->text) >= 0) {
        snprintf(dst, cap, "%s", fld->text);
        return 0;
    }
    names_join(catalog_family_name, oneof + 7, sizeof oneof - 7);
    return tbl_err(e, t, fld, t->cols[M_FAMILY], oneof);
}

/* The optional shape columns of models.csv (shape.h), in struct order. */
static const char *const shape_cols[] = {
    "layers", "hidden", "heads", "kv_heads", "ffn_hidden", "vocab", "gated_ffn",
    "tied_embeddings", "seq_len", "head_dim", "q_lora_rank", "kv_lora_rank", "qk_rope_dim",
    "qk_nope_dim", "v_head_dim", "experts", "top_k", "moe_ffn_hidden", "shared_experts",
    "shared_ffn_hidden", "first_dense_layers", "moe_every", "window", "window_every",
    "router_groups", "router_group_topk", "expert_bias", "expert_clamp", "mtp_layers"};
#define NSHAPE ((int)(sizeof shape_cols / sizeof shape_cols[0]))

/* The row's shape (empty cells 0, an empty kv_heads heads), checked whole
 * (a row is read without a workload, so it gives its seq_len); then params and
 * fwd_gflops from it where the row leaves them empty.  col[NSHAPE],
 * col[NSHAPE + 1] and col[NSHAPE + 2] are the lm_head, dropout and causal
 * columns (lm_head and causal 1 when empty), col[NSHAPE + 3] and
 * col[NSHAPE + 4] rms_norm and rotary (0 when empty), col[NSHAPE + 5] capacity_factor
 * (0, dropless, when empty). */
static int get_shape(struct cat_model *m, const struct cat_table *t, const struct csv_row *r,
                     const int *col, struct dt_err *e)
{
    int *dst[NSHAPE] = {&m->layers, &m->hidden, &m->heads, &m->kv_heads, &m->ffn_hidden,
                        &m->vocab, &m->gated_ffn, &m->tied_embeddings, &m->seq_len,
                        &m->head_dim, &m->q_lora_rank, &m->kv_lora_rank, &m->qk_rope_dim,
                        &m->qk_nope_dim, &m->v_head_dim, &m->experts, &m->top_k,
                        &m->moe_ffn_hidden, &m->shared_experts, &m->shared_ffn_hidden,
                        &m->first_dense_layers, &m->moe_every, &m->window, &m->window_every,
                        &m->router_groups, &m->router_group_topk, &m->expert_bias,
                        &m->expert_clamp, &m->mtp_layers};
    const char *key;
    char what[160];
    double v = NAN;

    for (int k = 0; k < NSHAPE; k++) {
        v = NAN;
        if (col[k] >= 0 && tbl_opt_num(&v, t, r, col[k], e))
            return -1;
        *dst[k] = isnan(v) ? 0 : (int)v;
    }
    m->lm_head = 1;
    if (col[NSHAPE] >= 0 && tbl_opt_num(&v, t, r, col[NSHAPE], e))
        return -1;
    if (col[NSHAPE] >= 0 && !isnan(v))
        m->lm_head = (int)v;
    if (col[NSHAPE + 1] >= 0 && tbl_opt_num(&m->dropout, t, r, col[NSHAPE + 1], e))
        return -1;
    if (isnan(m->dropout))
        m->dropout = 0;
    v = NAN;
    if (col[NSHAPE + 2] >= 0 && tbl_opt_num(&v, t, r, col[NSHAPE + 2], e))
        return -1;
    m->causal = isnan(v) ? 1 : (int)v;
    for (int k = 0; k < 2; k++) {
        v = NAN;
        if (col[NSHAPE + 3 + k] >= 0 && tbl_opt_num(&v, t, r, col[NSHAPE + 3 + k], e))
            return -1;
        *(k ? &m->rotary : &m->rms_norm) = isnan(v) ? 0 : (int)v;
    }
    if (col[NSHAPE + 5] >= 0 && tbl_opt_num(&m->capacity_factor, t, r, col[NSHAPE + 5], e))
        return -1;
    if (isnan(m->capacity_factor))
        m->capacity_factor = 0;
    if (!shape_known(m))
        return 0;
    shape_defaults(m);      /* kv_heads: heads when the cell is empty */
    if ((key = shape_check(m, what, sizeof what))) {
        /* the cell at fault: the key's, params' (a table column) or layers' */
        const struct csv_field *fld = &r->fields[col[0]];
        if (!strcmp(key, "params"))
            fld = tbl_cell(t, r, M_PARAMS);
        for (int k = 0; k < NSHAPE; k++)       /* a column the file has */
            if (!strcmp(key, shape_cols[k]) && col[k] >= 0 && col[k] < r->nfields)
                fld = &r->fields[col[k]];
        if (!*key)
            return dt_errf(e, "%s:%d:%d: layers: %s", t->csv.path, fld->line, fld->col, what);
        if (!strcmp(key, "layers")) /* what names the missing columns */
            return dt_errf(e, "%s:%d:%d: layers: expected %s", t->csv.path, fld->line, fld->col,
                           what);
        return tbl_err(e, t, fld, key, what);
    }
    if (isnan(m->params))
        m->params = shape_params(m);
    if (isnan(m->fwd_gflops))
        m->fwd_gflops = shape_fwd_flops(m, m->seq_len) / 1e9;
    return 0;
}

/* The optional arch column: a network catalog/ops.c can lay out. */
static int get_arch(struct cat_model *m, const struct cat_table *t, const struct csv_row *r, int k,
                    struct dt_err *e)
{
    char oneof[128] = "one of ";

    if (k < 0 || k >= r->nfields || !r->fields[k].text[0])
        return 0;
    if (ops_arch_known(r->fields[k].text)) {
        snprintf(m->arch, sizeof m->arch, "%s", r->fields[k].text);
        return 0;
    }
    names_join(ops_arch_name, oneof + 7, sizeof oneof - 7);
    return tbl_err(e, t, &r->fields[k], "arch", oneof);
}

static int load_models(struct catalog *cat, const char *dir, struct dt_err *e)
{
    struct cat_table t;
    int r, rc = -1, *lines, act_col, arch_col, scol[NSHAPE + 6];

    if (tbl_open(&t, dir, "models.csv", model_cols, M_N, e) != 0)
        return -1;
    act_col = tbl_optional_col(&t, "act_mib_per_sample");
    for (int k = 0; k < NSHAPE; k++)
        scol[k] = tbl_optional_col(&t, shape_cols[k]);
    scol[NSHAPE] = tbl_optional_col(&t, "lm_head");
    scol[NSHAPE + 1] = tbl_optional_col(&t, "dropout");
    scol[NSHAPE + 2] = tbl_optional_col(&t, "causal");
    scol[NSHAPE + 3] = tbl_optional_col(&t, "rms_norm");
    scol[NSHAPE + 4] = tbl_optional_col(&t, "rotary");
    scol[NSHAPE + 5] = tbl_optional_col(&t, "capacity_factor");
    arch_col = tbl_optional_col(&t, "arch");
    lines = x_calloc((size_t)t.csv.nrows, sizeof *lines);
    cat->models = x_calloc((size_t)t.csv.nrows, sizeof *cat->models);
    for (r = 1; r < t.csv.nrows; r++) {
        const struct csv_row *row = &t.csv.rows[r];
        struct cat_model *m = &cat->models[cat->nmodels];

        m->act_mib_per_sample = NAN;
        if (act_col >= 0 && tbl_opt_num(&m->act_mib_per_sample, &t, row, act_col, e))
            goto free_lines;
        if (tbl_text(m->name, sizeof m->name, 1, &t, row, M_NAME, e) ||
            tbl_unique(cat->models[0].name, cat->nmodels, sizeof *m, lines, &t, row, M_NAME,
                       e) ||
            get_family(m->family, sizeof m->family, &t, row, e) ||
            tbl_num(&m->params, &t, row, M_PARAMS, e) ||
            tbl_num(&m->fwd_gflops, &t, row, M_FWD, e) ||
            tbl_text(m->input, sizeof m->input, 0, &t, row, M_INPUT, e) ||
            tbl_num(&m->sparse_params, &t, row, M_SPARSE, e) ||
            tbl_num(&m->sparse_bytes_per_sample, &t, row, M_SPARSE_BPS, e) ||
            get_shape(m, &t, row, scol, e) ||
            get_arch(m, &t, row, arch_col, e) ||
            tbl_source(&m->source, &t, row, M_SOURCE, e))
            goto free_lines;
        lines[cat->nmodels] = row->line;
        cat->nmodels++;
    }
    rc = 0;

free_lines:
    x_free(lines);
    tbl_close(&t);
    return rc;
}

/* ---------------------------------------------------------------------------
 * storage.csv (optional: a catalog without it has no storage types)
 */

enum { ST_NAME, ST_CLOUD, ST_PER_TIB, ST_GBS, ST_SOURCE, ST_N };
static const char *const storage_cols[ST_N] = {"name", "cloud", "per_tib_mbs", "gbs", "source"};

/* The optional local column (field k): "yes" for a store on each node's own
 * disks, which has a node's rate alone (node_gbs, neither per_tib_mbs nor
 * gbs); "no" or empty otherwise. */
static int get_local(struct cat_storage *s, const struct cat_table *t, const struct csv_row *r,
                     int k, struct dt_err *e)
{
    const struct csv_field *f = k >= 0 && k < r->nfields ? &r->fields[k] : NULL;

    s->local = 0;
    if (!f || !f->text[0] || !strcasecmp(f->text, "no"))
        return 0;
    if (strcasecmp(f->text, "yes"))
        return tbl_err(e, t, f, "local", "yes, no or empty");
    if (isnan(s->node_gbs) || !isnan(s->per_tib_mbs) || !isnan(s->gbs))
        return tbl_err(e, t, f, "local",
                       "a node's node_gbs alone with local yes (a node's own disks have no "
                       "store-wide rate)");
    s->local = 1;
    return 0;
}

static int load_storage(struct catalog *cat, const char *dir, struct dt_err *e)
{
    struct cat_table t;
    char *path = tbl_join_path(dir, "storage.csv");
    int r, rc = -1, *lines, absent = access(path, F_OK) != 0, node_col, local_col;

    x_free(path);
    if (absent)
        return 0;
    if (tbl_open(&t, dir, "storage.csv", storage_cols, ST_N, e) != 0)
        return -1;
    node_col = tbl_optional_col(&t, "node_gbs");
    local_col = tbl_optional_col(&t, "local");
    lines = x_calloc((size_t)t.csv.nrows, sizeof *lines);
    cat->storage = x_calloc((size_t)t.csv.nrows, sizeof *cat->storage);
    for (r = 1; r < t.csv.nrows; r++) {
        const struct csv_row *row = &t.csv.rows[r];
        struct cat_storage *s = &cat->storage[cat->nstorage];

        if (tbl_text(s->name, sizeof s->name, 1, &t, row, ST_NAME, e) ||
            tbl_unique(cat->storage[0].name, cat->nstorage, sizeof *s, lines, &t, row,
                       ST_NAME, e) ||
            tbl_text(s->cloud, sizeof s->cloud, 0, &t, row, ST_CLOUD, e) ||
            tbl_num(&s->per_tib_mbs, &t, row, ST_PER_TIB, e) ||
            tbl_num(&s->gbs, &t, row, ST_GBS, e) ||
            tbl_opt_col(&s->node_gbs, &t, row, node_col, e))
            goto free_lines;
        if (!isnan(s->per_tib_mbs) && !isnan(s->gbs)) {
            tbl_err(e, &t, tbl_cell(&t, row, ST_PER_TIB), "per_tib_mbs",
                    "a rate per TiB or a whole store's gbs, one of the two");
            goto free_lines;
        }
        if (isnan(s->per_tib_mbs) && isnan(s->gbs) && isnan(s->node_gbs)) {
            tbl_err(e, &t, tbl_cell(&t, row, ST_PER_TIB), "per_tib_mbs",
                    "a rate per TiB, a whole store's gbs or a node's node_gbs");
            goto free_lines;
        }
        if (get_local(s, &t, row, local_col, e) || tbl_source(&s->source, &t, row, ST_SOURCE, e))
            goto free_lines;
        lines[cat->nstorage] = row->line;
        cat->nstorage++;
    }
    rc = 0;

free_lines:
    x_free(lines);
    tbl_close(&t);
    return rc;
}

/* ---------------------------------------------------------------------------
 * Public API
 */

int catalog_load(struct catalog *cat, const char *dir, struct dt_err *e)
{
    memset(cat, 0, sizeof *cat);
    if (load_gpus(cat, dir, e) != 0 || load_instances(cat, dir, e) != 0 ||
        load_models(cat, dir, e) != 0 || load_storage(cat, dir, e) != 0) {
        catalog_free(cat);
        return -1;
    }
    catalog_add_domains(cat);
    return 0;
}

void catalog_free(struct catalog *cat)
{
    int k;

    if (!cat)
        return;
    for (k = 0; k < cat->ngpus; k++) {
        x_free(cat->gpus[k].source);
        x_free(cat->gpus[k].eff_source);
    }
    for (k = 0; k < cat->ninstances; k++)
        catalog_instance_strings_free(&cat->instances[k]);
    for (k = 0; k < cat->nmodels; k++)
        x_free(cat->models[k].source);
    for (k = 0; k < cat->nstorage; k++)
        x_free(cat->storage[k].source);
    x_free(cat->storage);
    x_free(cat->gpus);
    x_free(cat->instances);
    x_free(cat->models);
    memset(cat, 0, sizeof *cat);
}
