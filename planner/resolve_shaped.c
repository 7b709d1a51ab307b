/*
 * resolve_shaped.c - what the parallel dimensions' resolvers share: a
 * dimension above 1 needs a model given by its shape (tp, pp, cp), and the
 * activations' width their traffic moves (tp, pp, ep).  Calls none of the
 * other resolver files.
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

double resolve_act_width(const struct scenario *sc)
{
    return sc->workload.precision == CAT_FP32 || sc->workload.precision == CAT_TF32 ? 4 : 2;
}

double resolve_grad_width(const struct scenario *sc)
{
    return sc->gradients.precision == CAT_FP32 ? 4 : 2;
}
