/*
 * bucket.c - how a step's gradients are cut into buckets (sim.h): the
 * listed sizes first (PyTorch DDP's, say), then bucket_bytes each.  The
 * collective chain (sim.c) and the collectives' listing (sim_collectives.c)
 * cut them the same way.
 */
#include "sim.h"

#include <math.h>

double sim_bucket_cap(const struct sim_comm *c, int b)
{
    return b < c->nbucket_list ? c->bucket_list[b] : c->bucket_bytes;
}

int sim_bucket_count(const struct sim_comm *c, double grad_bytes)
{
    double left = grad_bytes, n;
    int b;

    if (!(c->bucket_bytes > 0))
        return 1;
    for (b = 0; b < c->nbucket_list; b++) {
        left -= c->bucket_list[b];
        if (left <= 1e-9 * grad_bytes)
            return b + 1;
    }
    /* sim_check refuses more than SIM_MAX_BUCKETS, and the loaders fewer;
     * the count is clamped in double first, so that no caller before the
     * check converts a value an int cannot hold (NaN included) */
    n = ceil(left / c->bucket_bytes - 1e-9);
    n = n >= 0 ? (n < SIM_MAX_BUCKETS ? n : SIM_MAX_BUCKETS) : 0;
    b += (int)n;
    return b > 0 ? b : 1;
}
