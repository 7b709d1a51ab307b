/*
 * whatif.h - internal to the planner: what limits a simulated step, found
 * by asking (docs/output.md "Bottleneck").  Each resource the step may wait
 * for is made twice as fast in a copy of the cluster's simulator input, the
 * copy simulated with the same seed, and the share of the step it saves
 * kept.  The label of the step is the resource whose speed-up saves most.
 *
 * Cost: one simulation a resource (at most WHATIF_N, those the cluster
 * has), so the listed clusters and the search's picks ask; the search's
 * sweep does not (plan_eval_opts.whatif).
 */
#ifndef DT_PLANNER_WHATIF_H
#define DT_PLANNER_WHATIF_H

#include "../sim/sim.h"

enum whatif_res {
    WHATIF_COMPUTE = 0,     /* forward, backward and optimizer times halved */
    WHATIF_CPU,             /* every vCPU twice as fast (input pipeline, data service) */
    WHATIF_NIC,             /* every NIC's bandwidth doubled */
    WHATIF_LATENCY,         /* every message's latency halved (network and GPU link) */
    WHATIF_LINK,            /* the GPU-to-GPU link's bandwidth doubled */
    WHATIF_PCIE,            /* host-to-device bandwidth doubled */
    WHATIF_PS,              /* dedicated parameter servers' NICs and vCPUs twice as fast */
    WHATIF_CYCLE,           /* the background cycle's period halved */
    WHATIF_N
};

struct whatif {
    double saved[WHATIF_N]; /* share of the step saved (0..1); NAN not asked (the cluster
                               has no such resource) */
    enum whatif_res best;   /* the one that saves most */
};

/* Ask each resource of cfg, whose simulated mean step is step_s.  0, or -1
 * with e set when a copy cannot be simulated. */
int whatif_ask(const struct sim_config *cfg, double step_s, struct whatif *w, struct dt_err *e);

/* "2x NIC bandwidth", as the bottleneck label says it. */
const char *whatif_name(enum whatif_res r);

#endif
