/*
 * resolve_accum.c - gradient accumulation: the micro-batches a data-
 * parallel replica runs per optimizer step so that all replicas together
 * reach workload.global_batch.  The resolver, the pipeline schedule
 * (resolve_pp.c), the memory model and the planner's reported grad_accum
 * all take it from here, so that they agree; it calls nothing of the
 * planner.  O(1).
 */
#include "resolve.h"

#include <math.h>

int resolve_accum(const struct scenario *sc, int workers)
{
    double per_step = (double)sc->parallel.micro_batch * (workers > 0 ? workers : 1);
    double a = sc->workload.global_batch > 0 ? floor(sc->workload.global_batch / per_step + 0.5) : sc->workload.grad_accum;

    return a >= 1 ? (int)a : 1;
}
