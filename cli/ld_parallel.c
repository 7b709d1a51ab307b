/*
 * ld_parallel.c - the model-parallel layout (docs/scenario.md "parallel"):
 * the scenario's parallel: section, and a cluster's own, which overrides
 * it: tensor parallelism, Megatron style, and its sequence-parallel form.
 * Data parallelism fills the rest of the GPUs.
 */
#include "ld.h"

#include <stdio.h>

#include "../planner/resolve.h"

/* A parallel: mapping at `path` into *tp (0 when absent), *tp_auto and *sp
 * (-1 when absent); the tp node into *tp_node. */
static int ld_parallel_map(struct ld *ld, yaml_node_t *m, const char *path, int *tp,
                           int *tp_auto, int *sp, yaml_node_t **tp_node)
{
    static const char *const keys[] = { "tp", "sequence_parallel", NULL };
    char f[FIELD_LEN];
    yaml_node_t *v;

    if (ld_map(ld, m, path, keys))
        return -1;
    ld_path_key(f, sizeof f, path, "tp");
    if ((v = ld_get(ld, m, "tp", NULL)) && ld_scalar_is(v, "auto")) {
        *tp_auto = 1;       /* chosen per cluster (planner/layout.c) */
        *tp = 1;
    } else if (v && ld_int(ld, v, f, 1, 1024, "a positive integer or auto", tp)) {
        return -1;
    }
    *tp_node = v;
    ld_path_key(f, sizeof f, path, "sequence_parallel");
    if ((v = ld_get(ld, m, "sequence_parallel", NULL)) && ld_bool(ld, v, f, sp))
        return -1;
    return 0;
}

int ld_parallel(struct ld *ld, yaml_node_t *m)
{
    struct scenario *sc = ld->sc;
    int sp = -1;

    if (ld_parallel_map(ld, m, "parallel", &sc->tp, &sc->tp_auto, &sp, &ld->tp_node))
        return -1;
    if (sp >= 0)
        sc->sequence_parallel = sp;
    if ((sc->tp > 1 || sc->tp_auto) && sim_is_ps(sc->strategy))
        return ld_fail(ld, ld->tp_node ? ld->tp_node->start_mark : m->start_mark, "parallel.tp",
                       "expected 1 with parameter servers (gradients.strategy %s), found %s",
                       sim_strategy_name(sc->strategy), sc->tp_auto ? "auto" : "more");
    return 0;
}

int ld_cluster_parallel(struct ld *ld, yaml_node_t *m, const char *path, struct sc_cluster *c,
                        yaml_node_t **tp_node)
{
    int tp = 0, tp_auto = 0, sp = -1;

    if (ld_parallel_map(ld, m, path, &tp, &tp_auto, &sp, tp_node))
        return -1;
    c->tp = tp_auto ? -1 : tp;
    c->sp = sp < 0 ? 0 : sp ? 2 : 1;
    return 0;
}

int ld_parallel_fits(struct ld *ld)
{
    struct scenario *sc = ld->sc;
    char why[256];

    for (int i = 0; i < sc->nclusters; i++) {
        const struct sc_cluster *c = &sc->clusters[i];
        int saved = sc->tp;
        yaml_node_t *at = c->tp != 0 ? ld->cluster_tp_node[i] : ld->tp_node;
        int fits;
        if (c->tp < 0 || (c->tp == 0 && sc->tp_auto))
            continue;   /* the planner chooses a tp that fits */
        sc->tp = c->tp > 0 ? c->tp : sc->tp;
        fits = sc->tp <= 1 || resolve_tp_fits(sc, c, why, sizeof why);
        sc->tp = saved;
        if (!fits) {
            char f[FIELD_LEN];
            snprintf(f, sizeof f, "clusters[%d].parallel.tp", i);
            return ld_fail(ld, at ? at->start_mark : ld->root->start_mark,
                           c->tp != 0 ? f : "parallel.tp", "cluster %s: %s", c->name, why);
        }
    }
    return 0;
}
