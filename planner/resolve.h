/*
 * resolve.h - internal to the planner: resolve a cluster with the inputs the
 * solver varies (a CPU cost per sample, a scale on compute time).
 */
#ifndef DT_RESOLVE_H
#define DT_RESOLVE_H

#include "planner.h"

struct resolve_opts {
    double cpu_s_per_sample;   /* NAN: take the scenario's */
    double compute_scale;      /* multiplies compute time (1 = as resolved) */
};

/* Errors name the instance type, not the cluster: callers prefix it. */
int resolve_cluster(const struct scenario *sc, const struct sc_cluster *cl,
                    const struct resolve_opts *o, struct sim_config *cfg, struct dt_err *e);
/* Dense peak FLOP/s of one worker of instance `in` (a GPU, or `vcpus` vCPUs). */
double resolve_peak_flops(const struct cat_instance *in, enum cat_prec p, double vcpus);

#endif
