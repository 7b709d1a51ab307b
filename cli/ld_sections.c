/*
 * ld_sections.c - the scenario's sections: workload, input, gradients,
 * clusters and their groups, fabric, objective and simulation, with the
 * cross-field rules (train groups, parameter-server placement, prices, the
 * measured cluster).  docs/scenario.md documents every field.
 */
#include "ld.h"
#include "../catalog/ops.h"
#include "../catalog/shape.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/names.h"
#include "../base/units.h"
#include "../scenario/sc_field.h"

/* ------------------------------------------------------------- sections */

static int measured_compute_code(struct ld *ld, const struct sc_field *f, yaml_node_t *v,
                                 yaml_node_t *k, yaml_mark_t at)
{
    struct scenario *sc = ld->sc;
    const char *key = sc_field_key(f);
    int rc;

    (void)k;
    if (strcmp(key, "gpu") == 0) {
        if (!v)
            return ld_missing(ld, at, "workload.measured_compute.gpu");
        if (ld_gpu(ld, v, "workload.measured_compute.gpu", &sc->workload.measured_gpu))
            return -1;
        snprintf(ld->gpu_name, sizeof ld->gpu_name, "%s", sc->workload.measured_gpu->name);
    } else if (strcmp(key, "model") == 0 && v) {
        if (ld_model_ref(ld, v, "workload.measured_compute.model", &sc->workload.measured_model))
            return -1;
        snprintf(ld->measured_model_name, sizeof ld->measured_model_name, "%s",
                 sc->workload.measured_model->name);
    } else if (strcmp(key, "recompute") == 0 && v) {
        if (ld_enum(ld, v, "workload.measured_compute.recompute", scenario_recompute_name, &rc))
            return -1;
        if (rc == SC_RECOMPUTE_AUTO)
            return ld_fail(ld, v->start_mark, "workload.measured_compute.recompute",
                           "expected one of none, selective, full, selective_op (what the "
                           "measured run recomputed), found \"auto\"");
        sc->workload.measured_recompute = (enum sc_recompute)rc;
    }
    return 0;
}

static int ld_measured_compute(struct ld *ld, yaml_node_t *m, yaml_mark_t at)
{
    struct scenario *sc = ld->sc;

    /* the measurement's batch is the workload's, and its pass recomputed
     * as the workload says (auto: none), unless told */
    sc->workload.measured_batch = sc->parallel.micro_batch;
    sc->workload.measured_recompute = sc->parallel.recompute;
    if (ld_section(ld, m, "workload.measured_compute", at, measured_compute_code))
        return -1;
    if (sc->parallel.micro_batch_auto && !ld_get(ld, m, "batch", NULL))
        return ld_missing(ld, at, "workload.measured_compute.batch");
    return 0;
}

static int measured_step_code(struct ld *ld, const struct sc_field *f, yaml_node_t *v,
                              yaml_node_t *k, yaml_mark_t at)
{
    struct scenario *sc = ld->sc;
    int solve;

    (void)k;
    if (!v)
        return ld_missing(ld, at, f->path);
    if (strcmp(sc_field_key(f), "cluster") == 0) {
        ld->ms_cluster = v; /* resolved once the clusters are known */
        return 0;
    }
    if (ld_enum(ld, v, f->path, f->names, &solve))
        return -1;
    sc->workload.solve_for = solve == 0 ? SC_SOLVE_CPU : SC_SOLVE_COMPUTE;
    ld->solve_node = v;
    return 0;
}

static int ld_measured_step(struct ld *ld, yaml_node_t *m, yaml_mark_t at)
{
    return ld_section(ld, m, "workload.measured_step", at, measured_step_code);
}

/* A list of 1 to max names of field f (node v) as a set of their bits into
 * *out: workload.recompute_modules, workload.lora_targets. */
static int name_set(struct ld *ld, yaml_node_t *v, const struct sc_field *f, int max,
                    const char *what, unsigned *out)
{
    char fb[FIELD_LEN];
    int i;

    if (ld_list(ld, v, f->path, 1, max, what))
        return -1;
    *out = 0;
    for (int j = 0; j < ld_list_len(v); j++) {
        ld_path_idx(fb, sizeof fb, f->path, j);
        if (ld_enum(ld, ld_list_item(ld, v, j), fb, f->names, &i))
            return -1;
        *out |= 1u << i;
    }
    return 0;
}

/* The workload's fields that take more than a value read into a slot. */
static int workload_code(struct ld *ld, const struct sc_field *f, yaml_node_t *v, yaml_node_t *k,
                         yaml_mark_t at)
{
    struct scenario *sc = ld->sc;
    const char *key = sc_field_key(f);
    int i;

    (void)k;
    if (strcmp(key, "model") == 0) {
        if (!v)
            return ld_missing(ld, at, "workload.model");
        if (ld_model_ref(ld, v, "workload.model", &sc->workload.model))
            return -1;
        snprintf(ld->model_name, sizeof ld->model_name, "%s", sc->workload.model->name);
        return 0;
    }
    if (strcmp(key, "batch_per_gpu") == 0) {
        if (!v) {
            if (!ld_parallel_micro_batch(ld))
                return ld_missing(ld, at, "workload.batch_per_gpu");
            sc->parallel.micro_batch = 1;  /* parallel.micro_batch gives it (ld_parallel.c) */
        } else if (ld_scalar_is(v, "auto")) {
            sc->parallel.micro_batch_auto = 1;     /* chosen per cluster (planner/layout.c) */
            sc->parallel.micro_batch = 1;
        } else if (ld_field(ld, v, f->path, f, &sc->parallel.micro_batch)) {
            return -1;
        }
        return 0;
    }
    if (!v)
        return 0;
    if (strcmp(key, "seq_len") == 0) {
        /* tokens per sample: a transformer given by its shape (shape.h) */
        char fb[FOUND_LEN];
        double gflops, gflops_hi = fields_yaml("fwd_gflops")->hi;
        if (!shape_known(sc->workload.model))
            return ld_fail(ld, v->start_mark, "workload.seq_len",
                           "expected a model given by its shape (layers, hidden, heads, ...), "
                           "found %s for model %s", ld_found(v, fb, sizeof fb),
                           sc->workload.model->name);
        if (ld_field(ld, v, f->path, f, &sc->workload.seq_len))
            return -1;
        /* the FLOPs the shape gives at that length, bounded as a model's
         * fwd_gflops is (catalog/fields.c) */
        gflops = shape_fwd_flops(sc->workload.model, sc->workload.seq_len) / 1e9;
        if (!(gflops <= gflops_hi))
            return ld_fail(ld, v->start_mark, "workload.seq_len",
                           "model %s's shape gives %.1e GFLOP a sample at seq_len %d, expected "
                           "at most %g", sc->workload.model->name, gflops,
                           sc->workload.seq_len, gflops_hi);
        return 0;
    }
    if (strcmp(key, "measured_compute") == 0 || strcmp(key, "measured_step") == 0)
        return 0;   /* once the whole section is read (ld_workload) */
    if (strcmp(key, "recompute_modules") == 0)
        return name_set(ld, v, f, OPS_NMOD, "modules", &sc->workload.recompute_modules);
    if (strcmp(key, "lora_targets") == 0)
        return name_set(ld, v, f, OPS_NPROJ - 1, "products", &sc->workload.lora_targets);
    if (ld_enum(ld, v, f->path, f->names, &i))
        return -1;
    if (strcmp(key, "precision") == 0) {
        scenario_prec_set(sc, i);
    } else if (strcmp(key, "recompute") == 0) {
        sc->parallel.recompute = (enum sc_recompute)i;
        if (sc->parallel.recompute == SC_RECOMPUTE_AUTO) {
            sc->parallel.recompute = SC_RECOMPUTE_NONE;
            sc->parallel.recompute_auto = 1;     /* chosen per cluster (planner/layout.c) */
        }
    }
    return 0;
}

/* workload.offload_layers (node v): a shaped model, fewer than its layers,
 * and no recompute (Megatron-Core refuses offloading with either a
 * pipeline or recompute; the pipeline is refused where it is set,
 * resolve_pp_fits). */
static int ld_offload(struct ld *ld, yaml_node_t *v)
{
    const struct scenario *sc = ld->sc;
    const struct cat_model *md = sc->workload.model;

    if (!shape_known(md))
        return ld_fail(ld, v->start_mark, "workload.offload_layers",
                       "expected 0 for model %s, which is not given by its shape (layers, "
                       "hidden, ...), found %d", md->name, sc->workload.offload_layers);
    if (sc->workload.offload_layers >= md->layers)
        return ld_fail(ld, v->start_mark, "workload.offload_layers",
                       "expected fewer than %s's %d layers (the last layer's activations are "
                       "used as soon as they are made), found %d", md->name, md->layers,
                       sc->workload.offload_layers);
    if (sc->parallel.recompute != SC_RECOMPUTE_NONE)
        return ld_fail(ld, v->start_mark, "workload.offload_layers",
                       "expected 0 with workload.recompute %s (offloading keeps what recompute "
                       "would redo), found %d", scenario_recompute_name(sc->parallel.recompute),
                       sc->workload.offload_layers);
    return 0;
}

/* workload.recompute_layers (node v): under full recompute, at most the
 * model's layers, of a model given by its shape. */
static int ld_recompute_layers(struct ld *ld, yaml_node_t *v)
{
    const struct scenario *sc = ld->sc;
    const struct cat_model *md = sc->workload.model;
    int n = sc->workload.recompute_layers;

    if (sc->parallel.recompute != SC_RECOMPUTE_FULL)
        return ld_fail(ld, v->start_mark, "workload.recompute_layers",
                       "expected no recompute_layers without workload.recompute full (the "
                       "layers it names redo their whole forward), found %d with recompute %s",
                       n, sc->parallel.recompute_auto ? "auto"
                                                      : scenario_recompute_name(sc->parallel.recompute));
    if (!shape_known(md))
        return ld_fail(ld, v->start_mark, "workload.recompute_layers",
                       "expected a model given by its shape (layers, hidden, ...), found %d for "
                       "model %s", n, md->name);
    if (n > md->layers)
        return ld_fail(ld, v->start_mark, "workload.recompute_layers",
                       "expected at most %s's %d layers, found %d", md->name, md->layers, n);
    return 0;
}

int ld_workload(struct ld *ld, yaml_node_t *m, yaml_mark_t at)
{
    struct scenario *sc = ld->sc;
    yaml_node_t *v, *k;

    if (ld_section(ld, m, "workload", at, workload_code) || ld_catalog_seq_len(ld))
        return -1;
    if (sc->parallel.recompute == SC_RECOMPUTE_FULL && sc->workload.recompute_modules &&
        (v = ld_get(ld, m, "recompute_modules", NULL)))
        return ld_fail(ld, v->start_mark, "workload.recompute_modules",
                       "expected none with workload.recompute full (it redoes every module), "
                       "found a list");
    if (sc->workload.global_batch > 0 && (v = ld_get(ld, m, "grad_accum", NULL)))
        return ld_fail(ld, v->start_mark, "workload.grad_accum",
                       "expected no grad_accum with global_batch (it follows from the workers), "
                       "found %d", sc->workload.grad_accum);
    if (sc->parallel.micro_batch_auto && sc->workload.global_batch <= 0 &&
        (v = ld_get(ld, m, "batch_per_gpu", NULL)))
        return ld_fail(ld, v->start_mark, "workload.batch_per_gpu",
                       "expected a positive integer, or auto with workload.global_batch (the "
                       "micro-batch is chosen to reach it), found \"auto\"");
    if ((v = ld_get(ld, m, "measured_compute", &k)) && ld_measured_compute(ld, v, k->start_mark))
        return -1;
    if ((v = ld_get(ld, m, "measured_step", &k)) && ld_measured_step(ld, v, k->start_mark))
        return -1;
    if (sc->workload.offload_layers > 0 && ld_offload(ld, ld_get(ld, m, "offload_layers", NULL)))
        return -1;
    if (sc->workload.recompute_layers > 0 &&
        ld_recompute_layers(ld, ld_get(ld, m, "recompute_layers", NULL)))
        return -1;
    if (!isnan(sc->workload.moe_host_pass_s) && (v = ld_get(ld, m, "moe_host_pass_s", NULL))) {
        if (sc->workload.cuda_graphs == SC_GRAPHS_FULL)
            return ld_fail(ld, v->start_mark, "workload.moe_host_pass_s",
                           "expected none under workload.cuda_graphs full (the graphs replay "
                           "the step without the host), found %g", sc->workload.moe_host_pass_s);
        if (!shape_known(sc->workload.model) || sc->workload.model->experts <= 0)
            return ld_fail(ld, v->start_mark, "workload.moe_host_pass_s",
                           "expected none for %s, a model without experts, found %g",
                           sc->workload.model->name, sc->workload.moe_host_pass_s);
    }
    if (sc->workload.expert_mlp != SC_EXPERT_FUSED && (v = ld_get(ld, m, "expert_mlp", NULL)) &&
        (!shape_known(sc->workload.model) || sc->workload.model->experts <= 0))
        return ld_fail(ld, v->start_mark, "workload.expert_mlp",
                       "expected fused (the default) for %s, a model without experts, found %s",
                       sc->workload.model->name, scenario_expert_mlp_name(sc->workload.expert_mlp));
    if (sc->workload.fp8_params && sc->workload.precision != CAT_FP8 &&
        (v = ld_get(ld, m, "fp8_params", NULL)))
        return ld_fail(ld, v->start_mark, "workload.fp8_params",
                       "expected false unless workload.precision is fp8 (the weights held in "
                       "fp8), found true with precision %s",
                       scenario_prec_name(sc->workload.precision));
    if (sc->workload.lora_targets && !sc->workload.lora_rank &&
        (v = ld_get(ld, m, "lora_targets", NULL)))
        return ld_fail(ld, v->start_mark, "workload.lora_targets",
                       "expected none without workload.lora_rank (the targets of LoRA's "
                       "adapters), found a list");
    if (sc->workload.lora_rank > 0 && (v = ld_get(ld, m, "lora_rank", NULL))) {
        const struct cat_model *md = sc->workload.model;
        if (!shape_known(md))
            return ld_fail(ld, v->start_mark, "workload.lora_rank",
                           "expected a model given by its shape (layers, hidden, heads, ...), "
                           "found %d for model %s", sc->workload.lora_rank, md->name);
        if (sc->workload.lora_rank > md->hidden)
            return ld_fail(ld, v->start_mark, "workload.lora_rank",
                           "expected at most %s's hidden width %d (a low-rank adapter), found %d",
                           md->name, md->hidden, sc->workload.lora_rank);
    }
    if (sc->workload.solve_for == SC_SOLVE_COMPUTE && sc->workload.measured_gpu)
        return ld_fail(ld, ld->solve_node->start_mark, "workload.measured_step.solve_for",
                       "expected cpu_cost when workload.measured_compute is given, found "
                       "\"compute\"");
    return 0;
}

/* input.cpu_s_per_sample, unless solved for, and cpu_measured_on. */
static int input_code(struct ld *ld, const struct sc_field *f, yaml_node_t *v, yaml_node_t *k,
                      yaml_mark_t at)
{
    struct scenario *sc = ld->sc;
    char fb[FOUND_LEN];

    (void)k;
    if (strcmp(sc_field_key(f), "cpu_s_per_sample") == 0) {
        if (v && sc->workload.solve_for == SC_SOLVE_CPU)
            return ld_fail(ld, v->start_mark, "input.cpu_s_per_sample",
                           "expected no value when workload.measured_step.solve_for is "
                           "cpu_cost (the measurement determines it), found %s",
                           ld_found(v, fb, sizeof fb));
        if (!v && sc->workload.solve_for != SC_SOLVE_CPU)
            return ld_missing(ld, at, "input.cpu_s_per_sample");
        return v ? ld_field(ld, v, f->path, f, &sc->input.cpu_s_per_sample) : 0;
    }
    if (!v)
        return 0;
    if (sc->workload.solve_for == SC_SOLVE_CPU)
        return ld_fail(ld, v->start_mark, "input.cpu_measured_on",
                       "expected no value when workload.measured_step.solve_for is cpu_cost "
                       "(the solved cost is in reference cores), found %s",
                       ld_found(v, fb, sizeof fb));
    if (ld_instance_ref(ld, v, "input.cpu_measured_on", &sc->input.cpu_measured_on))
        return -1;
    snprintf(ld->cpu_on_name, sizeof ld->cpu_on_name, "%s", sc->input.cpu_measured_on->name);
    return 0;
}

/* input may be NULL (section absent); at marks the section's key or the document. */
int ld_input(struct ld *ld, yaml_node_t *m, yaml_mark_t at)
{
    if (!m)
        return input_code(ld, sc_field_find("input.cpu_s_per_sample"), NULL, NULL, at);
    return ld_section(ld, m, "input", at, input_code);
}

/*
 * The most gradient buckets a step may hold: each is an event chain in the
 * simulator (about 2 KB and 8 us apiece), and no framework shares its
 * gradients in more (PyTorch DDP's 25 MiB buckets give 31,000 for a 405B
 * model).  Checked at load whatever sets the count (ld_buckets), before
 * anything is allocated by it.
 */
#define MAX_BUCKETS_PER_STEP 1e5

/* Buckets of grad bytes cut as gradients.buckets_mb lists, then in
 * bucket bytes (as sim_bucket_count does, in doubles: no int to overflow). */
static double buckets_of(const struct scenario *sc, double grad, double bucket)
{
    double left = grad;

    for (int b = 0; b < sc->gradients.nbucket_list; b++) {
        left -= sc->gradients.bucket_list[b];
        if (left <= 1e-9 * grad)
            return b + 1;
    }
    return sc->gradients.nbucket_list + ceil(left / bucket - 1e-9);
}

/* A written bucket size (node v at field) that cuts m's grad bytes into n
 * buckets, more than a step may have: one line, -1. */
static int bucket_size_fail(struct ld *ld, yaml_node_t *v, const char *field,
                            const struct cat_model *m, double grad, double bucket, double n)
{
    return ld_fail(ld, v->start_mark, field,
                   "expected a size in MiB of at least %.4g (at most %.0f buckets per step for "
                   "%s's %.4g MiB of gradients), found %.4g, %.4g buckets",
                   grad / MAX_BUCKETS_PER_STEP / DT_MIB, MAX_BUCKETS_PER_STEP, m->name,
                   grad / DT_MIB, bucket / DT_MIB, n);
}

/* The node and field that give the workload's model its parameters: an
 * inline entry's params, or the entry itself when its shape gives them;
 * workload.model for a model of the catalog's files. */
static yaml_node_t *model_params_node(struct ld *ld, const struct cat_model *m, char *f,
                                      size_t cap)
{
    yaml_node_t *w = ld_get(ld, ld->root, "workload", NULL), *cat, *list, *entry, *v;
    long i = m - ld->models;

    if (ld->nmodels > 0 && i >= 0 && i < ld->nmodels &&
        (cat = ld_get(ld, ld->root, "catalog", NULL)) &&
        (list = ld_get(ld, cat, "models", NULL)) && (entry = ld_list_item(ld, list, (int)i))) {
        char at[FIELD_LEN];
        ld_path_idx(at, sizeof at, "catalog.models", (int)i);
        if ((v = ld_get(ld, entry, "params", NULL))) {
            ld_path_key(f, cap, at, "params");
            return v;
        }
        snprintf(f, cap, "%s", at);
        return entry;
    }
    snprintf(f, cap, "workload.model");
    return ld_get(ld, w, "model", NULL);
}

int ld_buckets(struct ld *ld)
{
    const struct cat_model *m = ld_model_named(ld, ld->model_name);
    const struct scenario *sc = ld->sc;
    yaml_node_t *g = ld_get(ld, ld->root, "gradients", NULL);
    yaml_node_t *p = ld_get(ld, ld->root, "plan", NULL), *v;
    char f[FIELD_LEN];
    double grad, n;

    if (sc->gradients.bucket_rule == SC_BUCKETS_MEGATRON) {
        /* the rule sizes every bucket: a size written beside it is refused */
        static const char *const sized[][2] = { {"gradients", "bucket_mb"},
                                                {"gradients", "buckets_mb"}, {"plan", "bucket_mb"} };
        for (int i = 0; i < 3; i++) {
            yaml_node_t *sec = sized[i][0][0] == 'g' ? g : p;
            if (sec && (v = ld_get(ld, sec, sized[i][1], NULL))) {
                snprintf(f, sizeof f, "%s.%s", sized[i][0], sized[i][1]);
                return ld_fail(ld, v->start_mark, f,
                               "expected no bucket size under gradients.buckets megatron "
                               "(Megatron-Core sizes each bucket from the data-parallel ranks), "
                               "found %s%s%s; drop it or set gradients.buckets fixed",
                               v->type == YAML_SCALAR_NODE ? "\"" : "",
                               v->type == YAML_SCALAR_NODE ? (const char *)v->data.scalar.value
                                                           : "a list",
                               v->type == YAML_SCALAR_NODE ? "\"" : "");
            }
        }
        return 0;   /* buckets of at least 40M parameters: never too many */
    }
    if (!m || !(m->params > 0))
        return 0;
    grad = m->params * (sc->gradients.precision == CAT_FP32 ? 4.0 : 2.0);
    /* a catalog search's bucket sizes, each a candidate of its own */
    for (int i = 0; p && (v = ld_get(ld, p, "bucket_mb", NULL)) && i < sc->plan.nbuckets; i++) {
        if (buckets_of(sc, grad, sc->plan.bucket_bytes[i]) <= MAX_BUCKETS_PER_STEP)
            continue;
        ld_path_idx(f, sizeof f, "plan.bucket_mb", i);
        return bucket_size_fail(ld, ld_list_item(ld, v, i), f, m, grad,
                                sc->plan.bucket_bytes[i],
                                buckets_of(sc, grad, sc->plan.bucket_bytes[i]));
    }
    if (!(sc->gradients.bucket_bytes > 0) || (n = buckets_of(sc, grad, sc->gradients.bucket_bytes)) <= MAX_BUCKETS_PER_STEP)
        return 0;
    if (g && (v = ld_get(ld, g, "bucket_mb", NULL)))
        return bucket_size_fail(ld, v, "gradients.bucket_mb", m, grad, sc->gradients.bucket_bytes, n);
    v = model_params_node(ld, m, f, sizeof f);
    return ld_fail(ld, v ? v->start_mark : ld->root->start_mark, f,
                   "expected at most %.0f gradient buckets a step, found %.4g: %s's %.4g MiB of "
                   "gradients in the default %.4g MiB buckets (set gradients.bucket_mb to at "
                   "least %.4g)", MAX_BUCKETS_PER_STEP, n, m->name, grad / DT_MIB,
                   sc->gradients.bucket_bytes / DT_MIB, grad / MAX_BUCKETS_PER_STEP / DT_MIB);
}

static int ps_code(struct ld *ld, const struct sc_field *f, yaml_node_t *v, yaml_node_t *k,
                   yaml_mark_t at)
{
    int i;

    (void)k;
    (void)at;
    if (!v)
        return 0;
    /* gradients.ps.receive, kept for the check across sections */
    if (ld_enum(ld, v, f->path, f->names, &i))
        return -1;
    ld->sc->gradients.ps_receive = (enum sc_ps_receive)i;
    ld->receive_node = v;
    return 0;
}

static int gradients_code(struct ld *ld, const struct sc_field *f, yaml_node_t *v,
                          yaml_node_t *k, yaml_mark_t at)
{
    struct scenario *sc = ld->sc;
    const char *key = sc_field_key(f);
    int i;

    if (!v)
        return 0;
    if (strcmp(key, "buckets_mb") == 0) {
        char p[64];
        double mib;
        if (ld_list(ld, v, "gradients.buckets_mb", 1, SC_MAX_BUCKET_LIST, "sizes"))
            return -1;
        sc->gradients.nbucket_list = ld_list_len(v);
        for (i = 0; i < sc->gradients.nbucket_list; i++) {
            ld_path_idx(p, sizeof p, "gradients.buckets_mb", i);
            if (ld_num(ld, ld_list_item(ld, v, i), p, f->lo, f->lo_open, f->hi, f->words, &mib))
                return -1;
            sc->gradients.bucket_list[i] = mib * f->scale;
        }
        return 0;
    }
    if (strcmp(key, "ps") == 0)
        return ld_section(ld, v, "gradients.ps", k ? k->start_mark : at, ps_code);
    if (ld_enum(ld, v, f->path, f->names, &i))
        return -1;
    if (strcmp(key, "precision") == 0) {
        sc->gradients.precision = scenario_grad_prec_value(i);
        return 0;
    }
    /* sharding */
    sc->parallel.sharding = (enum sc_sharding)i;
    if (sc->parallel.sharding == SC_SHARD_AUTO) {
        sc->parallel.sharding = SC_SHARD_NONE;
        sc->parallel.sharding_auto = 1;
    }
    if ((sc->parallel.sharding != SC_SHARD_NONE || sc->parallel.sharding_auto) &&
        sim_is_ps(sc->gradients.strategy))
        return ld_fail(ld, v->start_mark, "gradients.sharding",
                       "expected none with parameter servers (gradients.strategy %s), "
                       "found \"%s\"", sim_strategy_name(sc->gradients.strategy),
                       scenario_sharding_name(i));
    return 0;
}

int ld_gradients(struct ld *ld, yaml_node_t *m, yaml_mark_t at)
{
    return ld_section(ld, m, "gradients", at, gradients_code);
}

/*
 * One group of a cluster.  strategy is the cluster's effective strategy and
 * strategy_field names where it was set, for messages.
 */
static int ld_group(struct ld *ld, yaml_node_t *m, const char *path, enum sim_strategy strategy,
                    const char *strategy_field, struct sc_group *g, char *inst_name)
{
    static const char *const keys[] = { "role", "instance", "count", "spot", NULL };
    struct scenario *sc = ld->sc;
    char f[FIELD_LEN];
    yaml_node_t *v, *iv, *sv;
    const struct cat_instance *in;
    int role = SIM_TRAIN;

    if (ld_map(ld, m, path, keys))
        return -1;
    g->count = 1;
    g->spot = 0;

    ld_path_key(f, sizeof f, path, "role");
    if ((v = ld_get(ld, m, "role", NULL)) && ld_enum(ld, v, f, sim_role_name, &role))
        return -1;
    g->role = (enum sim_role)role;
    if (g->role == SIM_PS && !sim_is_ps(strategy))
        return ld_fail(ld, v->start_mark, f,
                       "a ps group needs %s ps_sync or ps_async, found \"%s\"", strategy_field,
                       sim_strategy_name(strategy));
    if (g->role == SIM_PS && sc->gradients.ps_place != SC_PS_DEDICATED)
        return ld_fail(ld, v->start_mark, f,
                       "a ps group needs gradients.ps.placement dedicated, found \"colocated\"");

    ld_path_key(f, sizeof f, path, "instance");
    if (!(iv = ld_get(ld, m, "instance", NULL)))
        return ld_missing(ld, m->start_mark, f);
    if (ld_instance_ref(ld, iv, f, &in))
        return -1;
    snprintf(inst_name, 64, "%s", in->name);
    g->inst = in; /* provisional: resolved again once the catalog is final */
    if (isnan(in->price_usd_h))
        return ld_fail(ld, iv->start_mark, f,
                       "on-demand price of \"%s\" is unknown in the catalog, define it under "
                       "catalog.instances with price_usd_h", in->name);
    if (in->vcpus < 0)
        return ld_fail(ld, iv->start_mark, f,
                       "vCPU count of \"%s\" is unknown in the catalog, define it under "
                       "catalog.instances with vcpus", in->name);
    if (g->role == SIM_TRAIN && in->gpu_count < 0)
        return ld_fail(ld, iv->start_mark, f,
                       "GPU count of \"%s\" is unknown in the catalog, define it under "
                       "catalog.instances with gpu_count", in->name);
    if (g->role == SIM_TRAIN && in->gpu_count > 0 && !in->gpu)
        return ld_fail(ld, iv->start_mark, f,
                       "GPU model \"%s\" of \"%s\" is not in the catalog's GPUs", in->gpu_model,
                       in->name);

    ld_path_key(f, sizeof f, path, "count");
    if ((v = ld_get(ld, m, "count", NULL)) &&
        ld_int(ld, v, f, 1, 100000, "a positive integer", &g->count))
        return -1;

    ld_path_key(f, sizeof f, path, "spot");
    if ((sv = ld_get(ld, m, "spot", NULL)) && ld_bool(ld, sv, f, &g->spot))
        return -1;
    if (g->spot && isnan(in->spot_usd_h))
        return ld_fail(ld, sv->start_mark, f,
                       "spot price of \"%s\" is unknown in the catalog, define spot_usd_h under "
                       "catalog.instances or use spot: false", in->name);
    return 0;
}

/* clusters[].batch_per_gpu and grad_accum (mapping m at path) into c: the
 * workload's ranges; an accumulation only where the global batch does not
 * set it. */
static int ld_cluster_batch(struct ld *ld, yaml_node_t *m, const char *path, struct sc_cluster *c)
{
    const struct sc_field *fb = sc_field_find("workload.batch_per_gpu");
    const struct sc_field *fa = sc_field_find("workload.grad_accum");
    char f[FIELD_LEN];
    yaml_node_t *v;

    ld_path_key(f, sizeof f, path, "batch_per_gpu");
    if ((v = ld_get(ld, m, "batch_per_gpu", NULL)) &&
        ld_int(ld, v, f, (int)fb->lo, (int)fb->hi, "a positive integer", &c->micro_batch))
        return -1;
    ld_path_key(f, sizeof f, path, "grad_accum");
    if (!(v = ld_get(ld, m, "grad_accum", NULL)))
        return 0;
    if (ld_int(ld, v, f, (int)fa->lo, (int)fa->hi, fa->words, &c->grad_accum))
        return -1;
    if (ld->sc->workload.global_batch > 0)
        return ld_fail(ld, v->start_mark, f,
                       "expected no grad_accum with workload.global_batch (it follows from the "
                       "workers), found %d", c->grad_accum);
    return 0;
}

static int ld_cluster(struct ld *ld, yaml_node_t *m, int ci)
{
    static const char *const keys[] = { "name", "strategy", "groups", "parallel", "batch_per_gpu",
                                        "grad_accum", NULL };
    struct scenario *sc = ld->sc;
    struct sc_cluster *c = &sc->clusters[ci];
    char path[FIELD_LEN], f[FIELD_LEN], gp[FIELD_LEN], sf[FIELD_LEN];
    enum sim_strategy strategy = sc->gradients.strategy;
    yaml_node_t *v, *gl;
    int i, ntrain = 0, nps = 0;

    ld_path_idx(path, sizeof path, "clusters", ci);
    if (ld_map(ld, m, path, keys))
        return -1;

    ld_path_key(f, sizeof f, path, "name");
    if (!(v = ld_get(ld, m, "name", NULL)))
        return ld_missing(ld, m->start_mark, f);
    if (ld_str(ld, v, f, c->name, sizeof c->name, 1, "a cluster name"))
        return -1;
    for (i = 0; i < ci; i++)
        if (strcmp(sc->clusters[i].name, c->name) == 0)
            return ld_fail(ld, v->start_mark, f,
                           "duplicate cluster name \"%s\", already used by clusters[%d]",
                           c->name, i);

    ld_path_key(f, sizeof f, path, "parallel");
    if ((v = ld_get(ld, m, "parallel", NULL)) &&
        ld_cluster_parallel(ld, v, f, ci))
        return -1;
    if (ld_cluster_batch(ld, m, path, c))
        return -1;
    c->gradients.strategy = -1;
    snprintf(sf, sizeof sf, "gradients.strategy");
    ld_path_key(f, sizeof f, path, "strategy");
    if ((v = ld_get(ld, m, "strategy", NULL))) {
        if (ld_enum(ld, v, f, sim_strategy_name, &c->gradients.strategy))
            return -1;
        strategy = (enum sim_strategy)c->gradients.strategy;
        snprintf(sf, sizeof sf, "%s", f);
    }

    ld_path_key(f, sizeof f, path, "groups");
    if (!(gl = ld_get(ld, m, "groups", NULL)))
        return ld_missing(ld, m->start_mark, f);
    if (ld_list(ld, gl, f, 1, SC_MAX_GROUPS, "groups"))
        return -1;
    c->ngroups = ld_list_len(gl);
    for (i = 0; i < c->ngroups; i++) {
        ld_path_idx(gp, sizeof gp, f, i);
        if (ld_group(ld, ld_list_item(ld, gl, i), gp, strategy, sf, &c->groups[i],
                     ld->group_inst[ci * SC_MAX_GROUPS + i]))
            return -1;
        ntrain += c->groups[i].role == SIM_TRAIN;
        nps += c->groups[i].role == SIM_PS;
        if (c->groups[i].role == SIM_PS && nps > 1)
            return ld_fail(ld, ld_list_item(ld, gl, i)->start_mark, gp,
                           "expected at most one group with role ps in a cluster, found a second");
        /* More than one node: gradients or batches cross the network, whose
         * bandwidth must be known (planner/resolve.c checks the same for the
         * clusters a search builds). */
        if ((c->ngroups > 1 || c->groups[i].count > 1) && isnan(c->groups[i].inst->net_gbps)) {
            yaml_node_t *iv = ld_get(ld, ld_list_item(ld, gl, i), "instance", NULL);
            char ip[FIELD_LEN];
            ld_path_key(ip, sizeof ip, gp, "instance");
            return ld_fail(ld, iv ? iv->start_mark : gl->start_mark, ip,
                           "network bandwidth of \"%s\" is unknown in the catalog and the cluster "
                           "spans more than one node, define network_gbps under catalog.instances",
                           c->groups[i].inst->name);
        }
    }
    if (!ntrain)
        return ld_fail(ld, gl->start_mark, f,
                       "expected at least one group with role train, found none");
    /* In turn is modelled for synchronous dedicated servers; a plan's search
     * may still try the others (planner/resolve.c keeps them together). */
    if (strategy == SIM_PS_ASYNC && sc->gradients.ps_receive == SC_PS_IN_TURN)
        return ld_fail(ld, ld->receive_node->start_mark, "gradients.ps.receive",
                       "expected together with %s ps_async (in_turn is modelled for ps_sync), "
                       "found \"in_turn\"", sf);
    if (strategy == SIM_PS_SYNC && sc->gradients.ps_receive == SC_PS_IN_TURN && sc->gradients.ps_place != SC_PS_DEDICATED)
        return ld_fail(ld, ld->receive_node->start_mark, "gradients.ps.receive",
                       "expected together with gradients.ps.placement colocated (in_turn is "
                       "modelled for dedicated servers), found \"in_turn\"");
    if (sim_is_ps(strategy) && sc->gradients.ps_place == SC_PS_DEDICATED && !nps)
        return ld_fail(ld, gl->start_mark, f,
                       "expected a group with role ps (%s %s with gradients.ps.placement "
                       "dedicated), found none", sf, sim_strategy_name(strategy));
    return 0;
}

int ld_clusters(struct ld *ld, yaml_node_t *l)
{
    struct scenario *sc = ld->sc;
    int i;

    if (ld_list(ld, l, "clusters", 1, SC_MAX_CLUSTERS, "clusters"))
        return -1;
    sc->nclusters = ld_list_len(l);
    sc->clusters = x_calloc((size_t)sc->nclusters, sizeof *sc->clusters);
    ld->group_inst = x_calloc((size_t)sc->nclusters * SC_MAX_GROUPS, sizeof *ld->group_inst);
    for (i = 0; i < sc->nclusters; i++)
        if (ld_cluster(ld, ld_list_item(ld, l, i), i))
            return -1;
    return 0;
}

int ld_fabric(struct ld *ld, yaml_node_t *m, yaml_mark_t at)
{
    return ld_section(ld, m, "fabric", at, NULL);
}

/* objective.minimize and deadline_h, which need the input's dataset. */
static int objective_code(struct ld *ld, const struct sc_field *f, yaml_node_t *v,
                          yaml_node_t *k, yaml_mark_t at)
{
    struct scenario *sc = ld->sc;
    int o;

    (void)k;
    (void)at;
    if (!v)
        return 0;
    if (strcmp(sc_field_key(f), "minimize") == 0) {
        if (ld_enum(ld, v, f->path, f->names, &o))
            return -1;
        sc->objective.minimize = (enum sc_objective)o;
        if (sc->objective.minimize == SC_OBJ_COST_TRAIN && isnan(sc->input.dataset_samples))
            return ld_fail(ld, v->start_mark, "objective.minimize",
                           "cost_to_train needs input.dataset_samples, found none");
        return 0;
    }
    if (ld_field(ld, v, f->path, f, &sc->objective.deadline_h))
        return -1;
    if (isnan(sc->input.dataset_samples))
        return ld_fail(ld, v->start_mark, "objective.deadline_h",
                       "a deadline needs input.dataset_samples, found none");
    return 0;
}

int ld_objective(struct ld *ld, yaml_node_t *m, yaml_mark_t at)
{
    return ld_section(ld, m, "objective", at, objective_code);
}

int ld_simulation(struct ld *ld, yaml_node_t *m, yaml_mark_t at)
{
    return ld_section(ld, m, "simulation", at, NULL);
}

/* goodput.storage: a storage type of the catalog, by name. */
static int goodput_code(struct ld *ld, const struct sc_field *f, yaml_node_t *v, yaml_node_t *k,
                        yaml_mark_t at)
{
    char name[64], names[512];
    size_t o = 0;

    (void)f;
    (void)k;
    (void)at;
    if (!v)
        return 0;
    if (ld_str(ld, v, "goodput.storage", name, sizeof name, 1, "a storage type's name"))
        return -1;
    if ((ld->sc->goodput.storage = catalog_find_storage(ld->cat, name)))
        return 0;
    names[0] = '\0';
    for (int i = 0; i < ld->cat->nstorage && o < sizeof names; i++)
        o += (size_t)snprintf(names + o, sizeof names - o, "%s%s", i ? ", " : "",
                              ld->cat->storage[i].name);
    return ld_fail(ld, v->start_mark, "goodput.storage",
                   "expected a storage type of the catalog (%s), found \"%s\"",
                   names[0] ? names : "it has none", name);
}

int ld_goodput(struct ld *ld, yaml_node_t *m, yaml_mark_t at)
{
    const struct sc_goodput *gp = &ld->sc->goodput;
    yaml_node_t *v;

    ld->sc->goodput.present = 1;
    if (ld_section(ld, m, "goodput", at, goodput_code))
        return -1;
    /* a per-TiB store needs its size; a size needs a per-TiB store */
    if (gp->storage && !isnan(gp->storage->per_tib_mbs) && isnan(gp->storage_tib))
        return ld_fail(ld, ld_get(ld, m, "storage", NULL)->start_mark, "goodput.storage",
                       "expected storage_tib with %s (its rate is %g MB/s a TiB provisioned), "
                       "found none", gp->storage->name, gp->storage->per_tib_mbs);
    if (!isnan(gp->storage_tib) && (!gp->storage || isnan(gp->storage->per_tib_mbs)) &&
        (v = ld_get(ld, m, "storage_tib", NULL)))
        return ld_fail(ld, v->start_mark, "goodput.storage_tib",
                       "expected a storage type rated per TiB (goodput.storage), found %s",
                       gp->storage ? gp->storage->name : "none");
    return 0;
}

/* workload.measured_step.cluster names one of the clusters. */
int ld_measured_cluster(struct ld *ld)
{
    struct scenario *sc = ld->sc;
    char name[64], list[LIST_LEN] = "";
    int i;

    if (!ld->ms_cluster)
        return 0;
    if (ld_str(ld, ld->ms_cluster, "workload.measured_step.cluster", name, sizeof name, 1,
               "a cluster name"))
        return -1;
    for (i = 0; i < sc->nclusters; i++) {
        if (strcmp(sc->clusters[i].name, name) == 0) {
            sc->workload.measured_cluster = i;
            return 0;
        }
        ld_list_add(list, sizeof list, sc->clusters[i].name);
    }
    return ld_fail(ld, ld->ms_cluster->start_mark, "workload.measured_step.cluster",
                   "unknown cluster \"%s\", expected one of %s", name, list);
}
