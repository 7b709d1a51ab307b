/*
 * ld_parallel.c - the model-parallel layout (docs/scenario.md "parallel"):
 * the scenario's parallel: section, and a cluster's own, which overrides
 * it: tensor parallelism, Megatron style, and its sequence-parallel form;
 * pipeline parallelism, its interleaving and micro-batch.  Data
 * parallelism fills the rest of the GPUs.
 */
#include "ld.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../catalog/shape.h"
#include "../planner/resolve.h"
#include "../scenario/sc_field.h"

/* A parallel: mapping as read: 0 for an absent number, -1 for auto. */
struct par {
    int tp, pp, interleave, mb, cp, ep, etp, epsms, sp, ov, order, layout, split, disp,
        epov, cpc, cpkv, fp8d, sched;  /* sp ... sched -1 absent */
    int epov_auto;               /* ep_overlap: auto */
    yaml_node_t *tp_node, *pp_node, *cp_node, *ep_node, *etp_node;
};

/* parallel.KEY of m (path the mapping's, for messages) as the field table
 * gives it: an integer in its range, or auto (-1) where the field takes
 * it, into *out (0 absent). */
static int int_or_auto(struct ld *ld, yaml_node_t *m, const char *path, const char *key,
                       int *out, yaml_node_t **node)
{
    char f[FIELD_LEN], row[32];
    const struct sc_field *fd;
    yaml_node_t *v;

    snprintf(row, sizeof row, "parallel.%s", key);
    fd = sc_field_find(row);
    ld_path_key(f, sizeof f, path, key);
    *out = 0;
    if (node)
        *node = NULL;
    if (!(v = ld_get(ld, m, key, NULL)))
        return 0;
    if (node)
        *node = v;
    if (fd->type == SC_FIELD_INT_AUTO && ld_scalar_is(v, "auto")) {
        *out = -1;
        return 0;
    }
    return ld_int(ld, v, f, (int)fd->lo, (int)fd->hi, fd->words, out);
}

/* The keys of a word (an enum, or true and false where names is NULL), into
 * the struct par member at off, and from there (given) into the scenario's
 * struct sc_parallel member at sc_off; cluster 1: a cluster's section takes
 * it too. */
struct word {
    const char *key;
    const char *(*names)(int);
    size_t off, sc_off;
    int cluster;
};
#define WORD(k, n, m, scm, c) {k, n, offsetof(struct par, m), offsetof(struct sc_parallel, scm), c}
static const struct word words[] = {
    WORD("sequence_parallel", NULL, sp, sequence_parallel, 1),
    WORD("tp_overlap", NULL, ov, tp_overlap, 0),
    WORD("order", scenario_pp_order_name, order, order, 0),
    WORD("tp_layout", scenario_tp_layout_name, layout, tp_layout, 0),
    WORD("pp_split", scenario_pp_split_name, split, pp_split, 0),
    WORD("pp_schedule", scenario_pp_schedule_name, sched, pp_schedule, 0),
    WORD("cp_comm", scenario_cp_comm_name, cpc, cp_comm, 0),
    WORD("cp_kv_repeat", NULL, cpkv, cp_kv_repeat, 0),
    WORD("ep_dispatch", scenario_ep_dispatch_name, disp, ep_dispatch, 0),
    WORD("ep_fp8_dispatch", NULL, fp8d, ep_fp8_dispatch, 0),
    WORD("ep_overlap", NULL, epov, ep_overlap, 0),
};

static int ld_parallel_map(struct ld *ld, yaml_node_t *m, const char *path, int top,
                           struct par *p)
{
    const char *keys[LD_MAX_KEYS];
    char f[FIELD_LEN];
    yaml_node_t *v;

    memset(p, 0, sizeof *p);
    p->sp = p->ov = p->order = p->layout = p->split = p->disp = p->epov = p->cpc = p->cpkv =
        p->fp8d = p->sched = -1;
    ld_field_keys("parallel", !top, keys, LD_MAX_KEYS);
    if (ld_map(ld, m, path, keys) ||
        int_or_auto(ld, m, path, "tp", &p->tp, &p->tp_node) ||
        int_or_auto(ld, m, path, "pp", &p->pp, &p->pp_node) ||
        int_or_auto(ld, m, path, "interleave", &p->interleave, NULL) ||
        (top && int_or_auto(ld, m, path, "micro_batch", &p->mb, NULL)) ||
        (top && int_or_auto(ld, m, path, "cp", &p->cp, &p->cp_node)) ||
        (top && int_or_auto(ld, m, path, "ep", &p->ep, &p->ep_node)) ||
        (top && int_or_auto(ld, m, path, "etp", &p->etp, &p->etp_node)) ||
        (top && int_or_auto(ld, m, path, "ep_sms", &p->epsms, NULL)))
        return -1;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        const struct word *w = &words[i];
        int *out = (int *)((char *)p + w->off);
        if (!top && !w->cluster)
            continue;
        ld_path_key(f, sizeof f, path, w->key);
        v = ld_get(ld, m, w->key, NULL);
        if (v && w->off == offsetof(struct par, epov)) {
            char fb[FOUND_LEN];
            if (ld_scalar_is(v, "auto")) {
                p->epov_auto = 1;   /* chosen per cluster by the layout search */
                continue;
            }
            if (ld_bool(ld, v, f, out))
                return ld_fail(ld, v->start_mark, f, "expected true, false or auto, found %s",
                               ld_found(v, fb, sizeof fb));
            continue;
        }
        if (v && (w->names ? ld_enum(ld, v, f, w->names, out) : ld_bool(ld, v, f, out)))
            return -1;
    }
    return 0;
}

yaml_node_t *ld_parallel_micro_batch(struct ld *ld)
{
    yaml_node_t *p = ld_get(ld, ld->root, "parallel", NULL);
    return p && p->type == YAML_MAPPING_NODE ? ld_get(ld, p, "micro_batch", NULL) : NULL;
}

static void batch_str(char *buf, size_t len, int auto_, int n)
{
    if (auto_)
        snprintf(buf, len, "auto");
    else
        snprintf(buf, len, "%d", n);
}

/* parallel.micro_batch: the workload's batch_per_gpu, which it may repeat
 * but not contradict (and measured_compute's batch when that has none). */
static int micro_batch(struct ld *ld, yaml_node_t *m, int mb)
{
    struct scenario *sc = ld->sc;
    yaml_node_t *w = ld_get(ld, ld->root, "workload", NULL);
    yaml_node_t *b = ld_get(ld, w, "batch_per_gpu", NULL);
    yaml_node_t *mc = ld_get(ld, w, "measured_compute", NULL);
    yaml_node_t *v = ld_get(ld, m, "micro_batch", NULL);
    char x[16], y[16];

    if (mb == 0)
        return 0;
    if (b && ((mb < 0) != (sc->parallel.micro_batch_auto != 0) || (mb > 0 && mb != sc->parallel.micro_batch))) {
        batch_str(x, sizeof x, sc->parallel.micro_batch_auto, sc->parallel.micro_batch);
        batch_str(y, sizeof y, mb < 0, mb);
        return ld_fail(ld, v->start_mark, "parallel.micro_batch",
                       "expected the workload's batch_per_gpu (%s) or no micro_batch, found %s",
                       x, y);
    }
    sc->parallel.micro_batch_auto = mb < 0;
    sc->parallel.micro_batch = mb < 0 ? 1 : mb;
    if (mb < 0 && sc->workload.global_batch <= 0)
        return ld_fail(ld, v->start_mark, "parallel.micro_batch",
                       "expected a positive integer, or auto with workload.global_batch (the "
                       "micro-batch is chosen to reach it), found \"auto\"");
    if (mc && mc->type == YAML_MAPPING_NODE && !ld_get(ld, mc, "batch", NULL)) {
        if (mb < 0)
            return ld_missing(ld, mc->start_mark, "workload.measured_compute.batch");
        sc->workload.measured_batch = mb;
    }
    return 0;
}

int ld_parallel(struct ld *ld, yaml_node_t *m)
{
    struct scenario *sc = ld->sc;
    struct par p;

    if (ld_parallel_map(ld, m, "parallel", 1, &p))
        return -1;
    ld->tp_node = p.tp_node;
    ld->pp_node = p.pp_node;
    ld->cp_node = p.cp_node;
    ld->ep_node = p.ep_node;
    sc->parallel.tp_auto = p.tp < 0;
    sc->parallel.tp = p.tp > 0 ? p.tp : 1;
    sc->parallel.pp_auto = p.pp < 0;
    sc->parallel.pp = p.pp > 0 ? p.pp : 1;
    sc->parallel.interleave = p.interleave > 0 ? p.interleave : 1;
    sc->parallel.interleave_set = p.interleave > 0;
    sc->parallel.cp = p.cp > 0 ? p.cp : 1;
    sc->parallel.ep = p.ep > 0 ? p.ep : 1;
    sc->parallel.etp = p.etp > 0 ? p.etp : 0;
    sc->parallel.ep_sms = p.epsms > 0 ? p.epsms : 0;
    sc->parallel.ep_overlap_auto = p.epov_auto;
    sc->parallel.cp_auto = p.cp < 0;
    sc->parallel.ep_auto = p.ep < 0;
    sc->parallel.etp_auto = p.etp < 0;
    ld->etp_node = p.etp_node;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        int v = *(const int *)((const char *)&p + words[i].off);
        if (v >= 0)
            *(int *)((char *)&sc->parallel + words[i].sc_off) = v;
    }
    if (micro_batch(ld, m, p.mb))
        return -1;
    if ((ld->pp_layers_node = ld_get(ld, m, "pp_layers", NULL))) {
        yaml_node_t *v = ld->pp_layers_node;
        const struct sc_field *fd = sc_field_find("parallel.pp_layers");
        char f[FIELD_LEN];
        if (ld_list(ld, v, "parallel.pp_layers", 1, SC_MAX_PP_CHUNKS, "layer counts"))
            return -1;
        sc->parallel.npp_layers = ld_list_len(v);
        for (int i = 0; i < sc->parallel.npp_layers; i++) {
            ld_path_idx(f, sizeof f, "parallel.pp_layers", i);
            if (ld_int(ld, ld_list_item(ld, v, i), f, (int)fd->lo, (int)fd->hi, fd->words,
                       &sc->parallel.pp_layers[i]))
                return -1;
        }
    }
    if ((sc->parallel.tp > 1 || sc->parallel.tp_auto || sc->parallel.pp > 1 || sc->parallel.pp_auto) && sim_is_ps(sc->gradients.strategy))
        return ld_fail(ld, (p.tp_node ? p.tp_node : p.pp_node)->start_mark,
                       p.tp_node ? "parallel.tp" : "parallel.pp",
                       "expected 1 with parameter servers (gradients.strategy %s), found %s",
                       sim_strategy_name(sc->gradients.strategy),
                       (p.tp_node ? sc->parallel.tp_auto : sc->parallel.pp_auto) ? "auto" : "more");
    if (sc->parallel.interleave > 1 && sc->parallel.pp == 1 && !sc->parallel.pp_auto)
        return ld_fail(ld, ld_get(ld, m, "interleave", NULL)->start_mark, "parallel.interleave",
                       "expected 1 without pipeline parallelism (parallel.pp), found %d",
                       sc->parallel.interleave);
    /* DualPipe mirrors the stages in pairs, one model chunk each */
    if (sc->parallel.pp_schedule == SC_PP_DUALPIPE &&
        (sc->parallel.pp_auto || sc->parallel.pp < 2 || sc->parallel.pp % 2 != 0))
        return ld_fail(ld, ld_get(ld, m, "pp_schedule", NULL)->start_mark, "parallel.pp_schedule",
                       "expected 1f1b with parallel.pp %s (dualpipe pairs the stages: an even pp "
                       "of 2 or more), found dualpipe",
                       sc->parallel.pp_auto ? "auto" : sc->parallel.pp < 2 ? "1" : "odd");
    if (sc->parallel.pp_schedule == SC_PP_DUALPIPE && sc->parallel.interleave > 1)
        return ld_fail(ld, ld_get(ld, m, "pp_schedule", NULL)->start_mark, "parallel.pp_schedule",
                       "expected 1f1b with parallel.interleave %d (dualpipe runs one chunk a "
                       "stage), found dualpipe", sc->parallel.interleave);
    return 0;
}

int ld_cluster_parallel(struct ld *ld, yaml_node_t *m, const char *path, int ci)
{
    struct sc_cluster *c = &ld->sc->clusters[ci];
    struct par p;

    if (ld_parallel_map(ld, m, path, 0, &p))
        return -1;
    ld->cluster_tp_node[ci] = p.tp_node;
    ld->cluster_pp_node[ci] = p.pp_node;
    c->parallel.tp = p.tp;
    c->parallel.pp = p.pp;
    c->parallel.interleave = p.interleave;
    c->parallel.sp = p.sp < 0 ? 0 : p.sp ? 2 : 1;
    return 0;
}

/* parallel.pp_layers against the layout and the model: a count for each of
 * every cluster's pp x interleave chunks, adding up to the model's layers,
 * with pp fixed and the even split's keys left out. */
static int ld_pp_layers(struct ld *ld)
{
    const struct scenario *sc = ld->sc;
    const struct cat_model *md = sc->workload.model;
    yaml_mark_t at = ld->pp_layers_node->start_mark;
    int n = sc->parallel.npp_layers, sum = 0;

    if (sc->parallel.pp_auto || sc->parallel.pp < 2)
        return ld_fail(ld, at, "parallel.pp_layers",
                       "expected none without a fixed parallel.pp of 2 or more (the layers of "
                       "each model chunk), found a list of %d", n);
    if (sc->parallel.pp_split == SC_PP_SPLIT_EMBEDDING_LOSS)
        return ld_fail(ld, at, "parallel.pp_layers",
                       "expected none with parallel.pp_split embedding_loss (the list gives "
                       "each chunk's layers itself), found a list of %d", n);
    if (sc->parallel.pp_schedule == SC_PP_DUALPIPE)
        return ld_fail(ld, at, "parallel.pp_layers",
                       "expected none with parallel.pp_schedule dualpipe, found a list of %d", n);
    for (int i = 0; i < sc->nclusters; i++) {
        const struct sc_cluster *c = &sc->clusters[i];
        int pp = c->parallel.pp > 0 ? c->parallel.pp : sc->parallel.pp;
        int v = c->parallel.interleave > 0 ? c->parallel.interleave : sc->parallel.interleave;
        if (c->parallel.pp < 0 || pp * (v > 1 ? v : 1) != n)
            return ld_fail(ld, at, "parallel.pp_layers",
                           "expected %d counts, one for each of cluster %s's pp x interleave "
                           "chunks (%d x %d), found %d", pp * (v > 1 ? v : 1), c->name, pp,
                           v > 1 ? v : 1, n);
    }
    if (!shape_known(md))
        return ld_fail(ld, at, "parallel.pp_layers",
                       "expected a model given by its shape (layers, hidden, ...), found %s",
                       md->name);
    for (int i = 0; i < n; i++)
        sum += sc->parallel.pp_layers[i];
    if (sum != md->layers)
        return ld_fail(ld, at, "parallel.pp_layers",
                       "expected counts adding up to %s's %d layers, found %d", md->name,
                       md->layers, sum);
    return 0;
}

int ld_parallel_fits(struct ld *ld)
{
    struct scenario *sc = ld->sc;
    char why[320];

    for (int i = 0; i < sc->nclusters; i++) {
        const struct sc_cluster *c = &sc->clusters[i];
        struct scenario saved = *sc;
        int tp_auto = c->parallel.tp < 0 || (c->parallel.tp == 0 && sc->parallel.tp_auto);
        int pp_auto = c->parallel.pp < 0 || (c->parallel.pp == 0 && sc->parallel.pp_auto);
        int bad;
        const char *key;
        yaml_node_t *at;
        char f[FIELD_LEN];

        sc->parallel.tp = tp_auto ? 1 : c->parallel.tp > 0 ? c->parallel.tp : sc->parallel.tp;
        sc->parallel.pp = pp_auto ? 1 : c->parallel.pp > 0 ? c->parallel.pp : sc->parallel.pp;
        sc->parallel.interleave = c->parallel.interleave > 0 ? c->parallel.interleave : sc->parallel.interleave;
        /* a layout the planner chooses fits by construction */
        bad = (!tp_auto && !resolve_tp_fits(sc, c, why, sizeof why)) ? 1
              : (!pp_auto && !resolve_pp_fits(sc, c, why, sizeof why)) ? 2
              : (!tp_auto && !pp_auto && !sc->parallel.cp_auto &&
                 !resolve_cp_fits(sc, c, why, sizeof why)) ? 3
              : (!tp_auto && !pp_auto && !sc->parallel.cp_auto && !sc->parallel.ep_auto &&
                 !sc->parallel.etp_auto && !resolve_ep_fits(sc, c, why, sizeof why)) ? 4 : 0;
        *sc = saved;
        if (!bad)
            continue;
        if (bad >= 3) {
            /* ep's refusals name etp where it is etp's */
            int etp = bad == 4 && strncmp(why, "parallel.etp", 12) == 0 && ld->etp_node;
            yaml_node_t *n = bad == 3 ? ld->cp_node : etp ? ld->etp_node : ld->ep_node;
            return ld_fail(ld, n ? n->start_mark : ld->root->start_mark,
                           bad == 3 ? "parallel.cp" : etp ? "parallel.etp" : "parallel.ep",
                           "cluster %s: %s", c->name, why);
        }
        key = bad == 1 ? "tp" : "pp";
        at = bad == 1 ? (c->parallel.tp != 0 ? ld->cluster_tp_node[i] : ld->tp_node)
                      : (c->parallel.pp != 0 ? ld->cluster_pp_node[i] : ld->pp_node);
        if ((bad == 1 ? c->parallel.tp : c->parallel.pp) != 0)
            snprintf(f, sizeof f, "clusters[%d].parallel.%s", i, key);
        else
            snprintf(f, sizeof f, "parallel.%s", key);
        return ld_fail(ld, at ? at->start_mark : ld->root->start_mark, f, "cluster %s: %s",
                       c->name, why);
    }
    if (ld->pp_layers_node && ld_pp_layers(ld))
        return -1;
    /* the model's heads, whatever the clusters (a plan: searches without) */
    if (!sc->parallel.tp_auto && !shape_tp_fits(sc->workload.model, sc->parallel.tp))
        return ld_fail(ld, ld->tp_node ? ld->tp_node->start_mark : ld->root->start_mark,
                       "parallel.tp", "expected a divisor of %s's heads (%d) and KV heads (%d): "
                       "Megatron-LM splits both evenly over tp, found %d", sc->workload.model->name,
                       sc->workload.model->heads, sc->workload.model->kv_heads, sc->parallel.tp);
    return 0;
}
