/*
 * resolve_shaped.c - the check the tensor-, pipeline- and context-parallel
 * resolvers share: a parallel dimension above 1 needs a model given by its
 * shape.  Calls none of the other resolver files.
 */
#include "resolve.h"

#include <stdio.h>

#include "../catalog/shape.h"

int resolve_shaped(const struct scenario *sc, const char *dim, int n, char *why, size_t len)
{
    if (shape_known(sc->workload.model))
        return 1;
    snprintf(why, len, "parallel.%s %d needs a model given by its shape (layers, hidden, ...); "
             "%s is not", dim, n, sc->workload.model->name);
    return 0;
}
