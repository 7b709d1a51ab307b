/*
 * ld_parallel.c - the scenario's parallel: section, the model-parallel
 * layout (docs/scenario.md "parallel"): tensor parallelism, Megatron style,
 * and its sequence-parallel form.  Data parallelism fills the rest of the
 * GPUs.
 */
#include "ld.h"

#include "../planner/resolve.h"

int ld_parallel(struct ld *ld, yaml_node_t *m)
{
    static const char *const keys[] = { "tp", "sequence_parallel", NULL };
    struct scenario *sc = ld->sc;
    yaml_node_t *v;

    if (ld_map(ld, m, "parallel", keys))
        return -1;
    if ((v = ld_get(ld, m, "tp", NULL)) && ld_scalar_is(v, "auto")) {
        sc->tp_auto = 1;    /* chosen per cluster (planner/layout.c) */
        sc->tp = 1;
    } else if (v && ld_int(ld, v, "parallel.tp", 1, 1024, "a positive integer or auto", &sc->tp)) {
        return -1;
    }
    ld->tp_node = v;
    if ((v = ld_get(ld, m, "sequence_parallel", NULL)) &&
        ld_bool(ld, v, "parallel.sequence_parallel", &sc->sequence_parallel))
        return -1;
    if ((sc->tp > 1 || sc->tp_auto) && sim_is_ps(sc->strategy))
        return ld_fail(ld, v ? v->start_mark : m->start_mark, "parallel.tp",
                       "expected 1 with parameter servers (gradients.strategy %s), found %d",
                       sim_strategy_name(sc->strategy), sc->tp);
    return 0;
}

int ld_parallel_fits(struct ld *ld)
{
    const struct scenario *sc = ld->sc;
    char why[256];

    for (int i = 0; i < sc->nclusters && sc->tp > 1; i++)
        if (!resolve_tp_fits(sc, &sc->clusters[i], why, sizeof why))
            return ld_fail(ld, ld->tp_node->start_mark, "parallel.tp", "cluster %s: %s",
                           sc->clusters[i].name, why);
    return 0;
}
