/*
 * resolve_profile.c - which calibration profile (docs/profile.md) speaks
 * for an instance type: its own, or for the vCPUs' speed alone, one
 * measured on another type with the same processor.  The resolver, the
 * interference estimate, the uncertainty band and the assumptions all ask
 * here; it calls nothing of the planner.  O(profiles) a lookup.
 */
#include "resolve.h"

#include <string.h>

const struct prof_measured *resolve_profile_of(const struct scenario *sc,
                                               const struct cat_instance *in)
{
    for (int i = 0; i < sc->nprofiles; i++)
        if (strcmp(sc->profiles[i].instance, in->name) == 0)
            return &sc->profiles[i];
    return NULL;
}

const struct prof_measured *resolve_profile_cpu_of(const struct scenario *sc,
                                                   const struct cat_instance *in, int *shared)
{
    const struct prof_measured *m = resolve_profile_of(sc, in);

    *shared = 0;
    if (m || !in->cpu_model[0] || !sc->catalog)
        return m;
    /* another type's profile, of the same processor: its vCPUs' speed */
    for (int i = 0; i < sc->nprofiles; i++) {
        const struct cat_instance *o = catalog_find_instance(sc->catalog,
                                                             sc->profiles[i].instance);
        if (o && o != in && strcmp(o->cpu_model, in->cpu_model) == 0) {
            *shared = 1;
            return &sc->profiles[i];
        }
    }
    return NULL;
}
