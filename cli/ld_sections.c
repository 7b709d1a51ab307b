/*
 * ld_sections.c - the scenario's sections: workload, input, gradients,
 * clusters and their groups, fabric, objective and simulation, with the
 * cross-field rules (train groups, parameter-server placement, prices, the
 * measured cluster).  docs/scenario.md documents every field.
 */
#include "ld.h"
#include "../catalog/shape.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/names.h"
#include "../base/units.h"

/* ------------------------------------------------------------- sections */

static int ld_measured_compute(struct ld *ld, yaml_node_t *m, yaml_mark_t at)
{
    static const char *const keys[] = { "gpu", "step_s", "batch", "model", "recompute", NULL };
    static const struct key_spec keyv[] = {
        {"step_s", KEY_NUM, 1, 0, 1, 1e6, "a time in seconds in (0, 1e6]",
         offsetof(struct scenario, workload.measured_compute_s)},
        {"batch", KEY_INT, 0, 1, 0, 10000000, "a positive integer",
         offsetof(struct scenario, workload.measured_batch)},
    };
    struct scenario *sc = ld->sc;
    yaml_node_t *v;

    if (ld_map(ld, m, "workload.measured_compute", keys))
        return -1;
    if (!(v = ld_get(ld, m, "gpu", NULL)))
        return ld_missing(ld, at, "workload.measured_compute.gpu");
    if (ld_gpu(ld, v, "workload.measured_compute.gpu", &sc->workload.measured_gpu))
        return -1;
    snprintf(ld->gpu_name, sizeof ld->gpu_name, "%s", sc->workload.measured_gpu->name);
    sc->workload.measured_batch = sc->workload.batch_per_gpu;
    if ((v = ld_get(ld, m, "model", NULL))) {
        if (ld_model_ref(ld, v, "workload.measured_compute.model", &sc->workload.measured_model))
            return -1;
        snprintf(ld->measured_model_name, sizeof ld->measured_model_name, "%s",
                 sc->workload.measured_model->name);
    }
    /* the measured pass recomputed as the workload says (auto: none), unless told */
    sc->workload.measured_recompute = sc->workload.recompute;
    if ((v = ld_get(ld, m, "recompute", NULL))) {
        int rc;
        if (ld_enum(ld, v, "workload.measured_compute.recompute", scenario_recompute_name, &rc))
            return -1;
        if (rc == SC_RECOMPUTE_AUTO)
            return ld_fail(ld, v->start_mark, "workload.measured_compute.recompute",
                           "expected one of none, selective, full (what the measured run "
                           "recomputed), found \"auto\"");
        sc->workload.measured_recompute = (enum sc_recompute)rc;
    }
    if (sc->workload.batch_auto && !ld_get(ld, m, "batch", NULL))
        return ld_missing(ld, at, "workload.measured_compute.batch");
    return ld_keys(ld, m, "workload.measured_compute", at, keyv, 2, sc);
}

static int ld_measured_step(struct ld *ld, yaml_node_t *m, yaml_mark_t at)
{
    static const char *const keys[] = { "cluster", "step_s", "solve_for", NULL };
    struct scenario *sc = ld->sc;
    yaml_node_t *v;
    int solve;

    if (ld_map(ld, m, "workload.measured_step", keys))
        return -1;
    if (!(v = ld_get(ld, m, "cluster", NULL)))
        return ld_missing(ld, at, "workload.measured_step.cluster");
    ld->ms_cluster = v; /* resolved once the clusters are known */
    if (!(v = ld_get(ld, m, "step_s", NULL)))
        return ld_missing(ld, at, "workload.measured_step.step_s");
    if (ld_num(ld, v, "workload.measured_step.step_s", 0, 1, 1e6,
               "a time in seconds in (0, 1e6]", &sc->workload.measured_step_s))
        return -1;
    if (!(v = ld_get(ld, m, "solve_for", NULL)))
        return ld_missing(ld, at, "workload.measured_step.solve_for");
    if (ld_enum(ld, v, "workload.measured_step.solve_for", scenario_solve_name, &solve))
        return -1;
    sc->workload.solve_for = solve == 0 ? SC_SOLVE_CPU : SC_SOLVE_COMPUTE;
    ld->solve_node = v;
    return 0;
}

int ld_workload(struct ld *ld, yaml_node_t *m, yaml_mark_t at)
{
    static const char *const keys[] = {
        "model", "batch_per_gpu", "precision", "grad_accum", "mfu",
        "optimizer_bytes_per_param", "measured_compute", "measured_step", "seq_len", "attention",
        "memory_format", "recompute", "global_batch", "optimizer_state_bytes", "amp", "kernels",
        NULL
    };
    static const struct key_spec keyv[] = {
        {"grad_accum", KEY_INT, 0, 1, 0, 100000, "a positive integer",
         offsetof(struct scenario, workload.grad_accum)},
        {"global_batch", KEY_INT, 0, 1, 0, 1000000000, "an integer from 1 to 1000000000",
         offsetof(struct scenario, workload.global_batch)},
        {"mfu", KEY_NUM, 0, 0, 1, 1, "a fraction in (0, 1]", offsetof(struct scenario, workload.mfu)},
        {"optimizer_bytes_per_param", KEY_NUM, 0, 0, 1, 1e4, "bytes per parameter in (0, 1e4]",
         offsetof(struct scenario, workload.optimizer_bytes_per_param)},
        {"optimizer_state_bytes", KEY_NUM, 0, 0, 0, 1000, "bytes per parameter in [0, 1000]",
         offsetof(struct scenario, workload.optimizer_state_bytes)},
    };
    struct scenario *sc = ld->sc;
    yaml_node_t *v, *k;
    int prec;

    if (ld_map(ld, m, "workload", keys))
        return -1;
    if (!(v = ld_get(ld, m, "model", NULL)))
        return ld_missing(ld, at, "workload.model");
    if (ld_model_ref(ld, v, "workload.model", &sc->workload.model))
        return -1;
    snprintf(ld->model_name, sizeof ld->model_name, "%s", sc->workload.model->name);

    if (!(v = ld_get(ld, m, "batch_per_gpu", NULL))) {
        if (!ld_parallel_micro_batch(ld))
            return ld_missing(ld, at, "workload.batch_per_gpu");
        sc->workload.batch_per_gpu = 1;  /* parallel.micro_batch gives it (ld_parallel.c) */
    } else if (v->type == YAML_SCALAR_NODE && strcmp((const char *)v->data.scalar.value, "auto") == 0) {
        sc->workload.batch_auto = 1;     /* chosen per cluster (planner/layout.c) */
        sc->workload.batch_per_gpu = 1;
    } else if (ld_int(ld, v, "workload.batch_per_gpu", 1, 10000000, "a positive integer or auto",
                      &sc->workload.batch_per_gpu)) {
        return -1;
    }

    if ((v = ld_get(ld, m, "precision", NULL))) {
        if (ld_enum(ld, v, "workload.precision", scenario_prec_name, &prec))
            return -1;
        scenario_prec_set(sc, prec);
    }
    if ((v = ld_get(ld, m, "attention", NULL))) {
        if (ld_enum(ld, v, "workload.attention", scenario_attention_name, &prec))
            return -1;
        sc->workload.attention_unfused = prec == 1;
        sc->workload.attention_triton = prec == 2;
    }
    if ((v = ld_get(ld, m, "amp", NULL))) {
        if (ld_enum(ld, v, "workload.amp", scenario_amp_name, &prec))
            return -1;
        sc->workload.amp_pure = prec == 1;
    }
    if ((v = ld_get(ld, m, "kernels", NULL))) {
        if (ld_enum(ld, v, "workload.kernels", scenario_kernels_name, &prec))
            return -1;
        sc->workload.kernels_fused = prec == 1;
    }
    if ((v = ld_get(ld, m, "recompute", NULL))) {
        if (ld_enum(ld, v, "workload.recompute", scenario_recompute_name, &prec))
            return -1;
        sc->workload.recompute = (enum sc_recompute)prec;
        if (sc->workload.recompute == SC_RECOMPUTE_AUTO) {
            sc->workload.recompute = SC_RECOMPUTE_NONE;
            sc->workload.recompute_auto = 1;     /* chosen per cluster (planner/layout.c) */
        }
    }
    if ((v = ld_get(ld, m, "memory_format", NULL))) {
        if (ld_enum(ld, v, "workload.memory_format", scenario_memory_format_name, &prec))
            return -1;
        sc->workload.channels_last = prec == 1;
    }
    if (ld_keys(ld, m, "workload", at, keyv, sizeof keyv / sizeof *keyv, sc))
        return -1;
    if (sc->workload.global_batch > 0 && (v = ld_get(ld, m, "grad_accum", NULL)))
        return ld_fail(ld, v->start_mark, "workload.grad_accum",
                       "expected no grad_accum with global_batch (it follows from the workers), "
                       "found %d", sc->workload.grad_accum);
    if ((v = ld_get(ld, m, "seq_len", NULL))) {
        /* tokens per sample: a transformer given by its shape (shape.h) */
        const struct cat_field *f = fields_yaml("seq_len");
        char fb[FOUND_LEN];
        if (!shape_known(sc->workload.model))
            return ld_fail(ld, v->start_mark, "workload.seq_len",
                           "expected a model given by its shape (layers, hidden, heads, ...), "
                           "found %s for model %s", ld_found(v, fb, sizeof fb), sc->workload.model->name);
        if (ld_int(ld, v, "workload.seq_len", (int)f->lo, (int)f->hi, "a positive integer",
                   &sc->workload.seq_len))
            return -1;
        /* the FLOPs the shape gives at that length, bounded as a model's
         * fwd_gflops is (catalog/fields.c) */
        double gflops = shape_fwd_flops(sc->workload.model, sc->workload.seq_len) / 1e9;
        double gflops_hi = fields_yaml("fwd_gflops")->hi;
        if (!(gflops <= gflops_hi))
            return ld_fail(ld, v->start_mark, "workload.seq_len",
                           "model %s's shape gives %.1e GFLOP a sample at seq_len %d, expected "
                           "at most %g", sc->workload.model->name, gflops, sc->workload.seq_len, gflops_hi);
    }
    if (sc->workload.batch_auto && sc->workload.global_batch <= 0 && ld_get(ld, m, "batch_per_gpu", NULL))
        return ld_fail(ld, ld_get(ld, m, "batch_per_gpu", NULL)->start_mark, "workload.batch_per_gpu",
                       "expected a positive integer, or auto with workload.global_batch (the "
                       "micro-batch is chosen to reach it), found \"auto\"");
    if ((v = ld_get(ld, m, "measured_compute", &k)) && ld_measured_compute(ld, v, k->start_mark))
        return -1;
    if ((v = ld_get(ld, m, "measured_step", &k)) && ld_measured_step(ld, v, k->start_mark))
        return -1;
    if (sc->workload.solve_for == SC_SOLVE_COMPUTE && sc->workload.measured_gpu)
        return ld_fail(ld, ld->solve_node->start_mark, "workload.measured_step.solve_for",
                       "expected cpu_cost when workload.measured_compute is given, found "
                       "\"compute\"");
    return 0;
}

/* input may be NULL (section absent); at marks the section's key or the document. */
int ld_input(struct ld *ld, yaml_node_t *m, yaml_mark_t at)
{
    static const char *const keys[] = {
        "cpu_s_per_sample", "cpu_measured_on", "raw_bytes", "prep_bytes", "loader_workers",
        "prefetch", "reserved_vcpus_per_gpu", "data_workers", "local_with_data_nodes",
        "service_send_cpu_s_per_byte", "service_recv_cpu_s_per_byte", "dataset_samples", "epochs",
        NULL
    };
    struct scenario *sc = ld->sc;
    char fb[FOUND_LEN];
    yaml_node_t *v;

    if (m && ld_map(ld, m, "input", keys))
        return -1;
    v = m ? ld_get(ld, m, "cpu_s_per_sample", NULL) : NULL;
    if (v && sc->workload.solve_for == SC_SOLVE_CPU)
        return ld_fail(ld, v->start_mark, "input.cpu_s_per_sample",
                       "expected no value when workload.measured_step.solve_for is cpu_cost "
                       "(the measurement determines it), found %s", ld_found(v, fb, sizeof fb));
    if (!v && sc->workload.solve_for != SC_SOLVE_CPU)
        return ld_missing(ld, at, "input.cpu_s_per_sample");
    if (v && ld_num(ld, v, "input.cpu_s_per_sample", 0, 0, 3600, "seconds in [0, 3600]",
                    &sc->input.cpu_s_per_sample))
        return -1;
    if (!m)
        return 0;

    if ((v = ld_get(ld, m, "cpu_measured_on", NULL))) {
        if (sc->workload.solve_for == SC_SOLVE_CPU)
            return ld_fail(ld, v->start_mark, "input.cpu_measured_on",
                           "expected no value when workload.measured_step.solve_for is cpu_cost "
                           "(the solved cost is in reference cores), found %s",
                           ld_found(v, fb, sizeof fb));
        if (ld_instance_ref(ld, v, "input.cpu_measured_on", &sc->input.cpu_measured_on))
            return -1;
        snprintf(ld->cpu_on_name, sizeof ld->cpu_on_name, "%s", sc->input.cpu_measured_on->name);
    }
    if ((v = ld_get(ld, m, "raw_bytes", NULL)) &&
        ld_num(ld, v, "input.raw_bytes", 0, 0, 1e10, "a number of bytes in [0, 1e10]",
               &sc->input.raw_bytes))
        return -1;
    if ((v = ld_get(ld, m, "prep_bytes", NULL)) &&
        ld_num(ld, v, "input.prep_bytes", 0, 0, 1e10, "a number of bytes in [0, 1e10]",
               &sc->input.prep_bytes))
        return -1;
    if ((v = ld_get(ld, m, "loader_workers", NULL)) && !ld_scalar_is(v, "auto") &&
        ld_int(ld, v, "input.loader_workers", 0, 4096, "a non-negative integer or auto",
               &sc->input.loader_workers))
        return -1;
    if ((v = ld_get(ld, m, "prefetch", NULL)) &&
        ld_int(ld, v, "input.prefetch", 0, 1000, "a non-negative integer", &sc->input.prefetch))
        return -1;
    if ((v = ld_get(ld, m, "reserved_vcpus_per_gpu", NULL)) &&
        ld_int(ld, v, "input.reserved_vcpus_per_gpu", 0, 4096, "a non-negative integer",
               &sc->input.reserved_vcpus_per_gpu))
        return -1;
    if ((v = ld_get(ld, m, "data_workers", NULL)) && !ld_scalar_is(v, "auto") &&
        ld_int(ld, v, "input.data_workers", 1, 4096, "a positive integer or auto",
               &sc->input.data_workers))
        return -1;
    if ((v = ld_get(ld, m, "local_with_data_nodes", NULL)) &&
        ld_bool(ld, v, "input.local_with_data_nodes", &sc->input.local_with_data_nodes))
        return -1;
    if ((v = ld_get(ld, m, "service_send_cpu_s_per_byte", NULL)) &&
        ld_num(ld, v, "input.service_send_cpu_s_per_byte", 0, 0, 1, "seconds per byte in [0, 1]",
               &sc->input.service_send_cpu_s_per_byte))
        return -1;
    if ((v = ld_get(ld, m, "service_recv_cpu_s_per_byte", NULL)) &&
        ld_num(ld, v, "input.service_recv_cpu_s_per_byte", 0, 0, 1, "seconds per byte in [0, 1]",
               &sc->input.service_recv_cpu_s_per_byte))
        return -1;
    if ((v = ld_get(ld, m, "dataset_samples", NULL)) &&
        ld_num(ld, v, "input.dataset_samples", 0, 1, 1e15, "a sample count in (0, 1e15]",
               &sc->input.dataset_samples))
        return -1;
    if ((v = ld_get(ld, m, "epochs", NULL)) &&
        ld_num(ld, v, "input.epochs", 0, 1, 1e6, "a number of epochs in (0, 1e6]", &sc->input.epochs))
        return -1;
    return 0;
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

int ld_gradients(struct ld *ld, yaml_node_t *m)
{
    static const char *const keys[] = {
        "strategy", "bucket_mb", "buckets_mb", "overlap", "cycle_ms", "precision", "ps",
        "sharding", NULL
    };
    static const char *const ps_keys[] = { "count", "placement", "pipeline", "receive", NULL };
    struct scenario *sc = ld->sc;
    yaml_node_t *v, *w;
    double mib;
    int i;

    if (ld_map(ld, m, "gradients", keys))
        return -1;
    if ((v = ld_get(ld, m, "strategy", NULL))) {
        if (ld_enum(ld, v, "gradients.strategy", sim_strategy_name, &i))
            return -1;
        sc->gradients.strategy = (enum sim_strategy)i;
    }
    if ((v = ld_get(ld, m, "sharding", NULL))) {
        if (ld_enum(ld, v, "gradients.sharding", scenario_sharding_name, &i))
            return -1;
        sc->gradients.sharding = (enum sc_sharding)i;
        if (sc->gradients.sharding == SC_SHARD_AUTO) {
            sc->gradients.sharding = SC_SHARD_NONE;
            sc->gradients.sharding_auto = 1;
        }
        if ((sc->gradients.sharding != SC_SHARD_NONE || sc->gradients.sharding_auto) && sim_is_ps(sc->gradients.strategy))
            return ld_fail(ld, v->start_mark, "gradients.sharding",
                           "expected none with parameter servers (gradients.strategy %s), "
                           "found \"%s\"", sim_strategy_name(sc->gradients.strategy),
                           scenario_sharding_name(i));
    }
    if ((v = ld_get(ld, m, "bucket_mb", NULL))) {
        if (ld_num(ld, v, "gradients.bucket_mb", 0, 1, 65536, "a size in MiB in (0, 65536]",
                   &mib))
            return -1;
        sc->gradients.bucket_bytes = mib * DT_MIB;
    }
    if ((v = ld_get(ld, m, "buckets_mb", NULL))) {
        char f[64];
        if (ld_list(ld, v, "gradients.buckets_mb", 1, SC_MAX_BUCKET_LIST, "sizes"))
            return -1;
        sc->gradients.nbucket_list = ld_list_len(v);
        for (i = 0; i < sc->gradients.nbucket_list; i++) {
            ld_path_idx(f, sizeof f, "gradients.buckets_mb", i);
            if (ld_num(ld, ld_list_item(ld, v, i), f, 0, 1, 65536, "a size in MiB in (0, 65536]", &mib))
                return -1;
            sc->gradients.bucket_list[i] = mib * DT_MIB;
        }
    }
    if ((v = ld_get(ld, m, "overlap", NULL)) && ld_bool(ld, v, "gradients.overlap", &sc->gradients.overlap))
        return -1;
    if ((v = ld_get(ld, m, "cycle_ms", NULL)) &&
        ld_num(ld, v, "gradients.cycle_ms", 0, 0, 10000, "a period in ms in [0, 10000]", &sc->gradients.cycle_ms))
        return -1;
    if ((v = ld_get(ld, m, "precision", NULL))) {
        if (ld_enum(ld, v, "gradients.precision", scenario_grad_prec_name, &i))
            return -1;
        sc->gradients.precision = scenario_grad_prec_value(i);
    }
    if ((v = ld_get(ld, m, "ps", NULL))) {
        if (ld_map(ld, v, "gradients.ps", ps_keys))
            return -1;
        if ((w = ld_get(ld, v, "count", NULL)) &&
            ld_int(ld, w, "gradients.ps.count", 1, 4096, "a positive integer", &sc->gradients.ps_count))
            return -1;
        if ((w = ld_get(ld, v, "placement", NULL))) {
            if (ld_enum(ld, w, "gradients.ps.placement", scenario_ps_place_name, &i))
                return -1;
            sc->gradients.ps_place = (enum sc_ps_place)i;
        }
        if ((w = ld_get(ld, v, "pipeline", NULL)) &&
            ld_bool(ld, w, "gradients.ps.pipeline", &sc->gradients.ps_pipeline))
            return -1;
        if ((w = ld_get(ld, v, "receive", NULL))) {
            if (ld_enum(ld, w, "gradients.ps.receive", scenario_ps_receive_name, &i))
                return -1;
            sc->gradients.ps_receive = (enum sc_ps_receive)i;
            ld->receive_node = w;
        }
    }
    return 0;
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

static int ld_cluster(struct ld *ld, yaml_node_t *m, int ci)
{
    static const char *const keys[] = { "name", "strategy", "groups", "parallel", NULL };
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
    c->strategy = -1;
    snprintf(sf, sizeof sf, "gradients.strategy");
    ld_path_key(f, sizeof f, path, "strategy");
    if ((v = ld_get(ld, m, "strategy", NULL))) {
        if (ld_enum(ld, v, f, sim_strategy_name, &c->strategy))
            return -1;
        strategy = (enum sim_strategy)c->strategy;
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

int ld_fabric(struct ld *ld, yaml_node_t *m)
{
    static const char *const keys[] = { "oversubscription", NULL };
    yaml_node_t *v;

    if (ld_map(ld, m, "fabric", keys))
        return -1;
    if ((v = ld_get(ld, m, "oversubscription", NULL)) &&
        ld_num(ld, v, "fabric.oversubscription", 1, 0, 1000, "a ratio in [1, 1000]",
               &ld->sc->fabric.oversubscription))
        return -1;
    return 0;
}

int ld_objective(struct ld *ld, yaml_node_t *m)
{
    static const char *const keys[] = {
        "minimize", "deadline_h", "budget_usd_h", "max_data_channels", NULL
    };
    struct scenario *sc = ld->sc;
    yaml_node_t *v;
    int o;

    if (ld_map(ld, m, "objective", keys))
        return -1;
    if ((v = ld_get(ld, m, "minimize", NULL))) {
        if (ld_enum(ld, v, "objective.minimize", scenario_objective_name, &o))
            return -1;
        sc->objective.minimize = (enum sc_objective)o;
        if (sc->objective.minimize == SC_OBJ_COST_TRAIN && isnan(sc->input.dataset_samples))
            return ld_fail(ld, v->start_mark, "objective.minimize",
                           "cost_to_train needs input.dataset_samples, found none");
    }
    if ((v = ld_get(ld, m, "deadline_h", NULL))) {
        if (ld_num(ld, v, "objective.deadline_h", 0, 1, 1e6, "hours in (0, 1e6]",
                   &sc->objective.deadline_h))
            return -1;
        if (isnan(sc->input.dataset_samples))
            return ld_fail(ld, v->start_mark, "objective.deadline_h",
                           "a deadline needs input.dataset_samples, found none");
    }
    if ((v = ld_get(ld, m, "max_data_channels", NULL)) &&
        ld_int(ld, v, "objective.max_data_channels", 1, 1000000, "a positive integer",
               &sc->objective.max_data_channels))
        return -1;
    if ((v = ld_get(ld, m, "budget_usd_h", NULL)) &&
        ld_num(ld, v, "objective.budget_usd_h", 0, 1, 1e9, "USD per hour in (0, 1e9]",
               &sc->objective.budget_usd_h))
        return -1;
    if ((v = ld_get(ld, m, "max_data_channels", NULL)) &&
        ld_int(ld, v, "objective.max_data_channels", 1, 1000000, "a positive integer",
               &sc->objective.max_data_channels))
        return -1;
    return 0;
}

int ld_simulation(struct ld *ld, yaml_node_t *m)
{
    static const char *const keys[] = { "seed", "steps", "warmup", "jitter_cv", NULL };
    struct scenario *sc = ld->sc;
    yaml_node_t *v;
    double seed;

    if (ld_map(ld, m, "simulation", keys))
        return -1;
    if ((v = ld_get(ld, m, "seed", NULL))) {
        if (ld_integer(ld, v, "simulation.seed", 0, 4294967295.0, "a non-negative integer",
                       &seed))
            return -1;
        sc->simulation.seed = (unsigned long)seed;
    }
    if ((v = ld_get(ld, m, "steps", NULL)) &&
        ld_int(ld, v, "simulation.steps", 1, 100000, "a positive integer", &sc->simulation.steps))
        return -1;
    if ((v = ld_get(ld, m, "warmup", NULL)) &&
        ld_int(ld, v, "simulation.warmup", 0, 10000, "a non-negative integer", &sc->simulation.warmup))
        return -1;
    if ((v = ld_get(ld, m, "jitter_cv", NULL)) &&
        ld_num(ld, v, "simulation.jitter_cv", 0, 0, 1, "a coefficient of variation in [0, 1]",
               &sc->simulation.jitter_cv))
        return -1;
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
