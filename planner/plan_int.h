/*
 * plan_int.h - internal to the planner: what its files share.  plan.c runs
 * the listed clusters, plan_cluster.c evaluates one cluster, plan_solve.c
 * solves for a measured unknown, plan_advice.c classifies and words the
 * recommendation, search.c searches the catalog.
 */
#ifndef DT_PLAN_INT_H
#define DT_PLAN_INT_H

#include <stddef.h>

#include "planner.h"

/* pc->bound and bound_text from pc's simulation (bound.c): by what-if
 * simulations when whatif is 1, else by what the workers wait for.  0, or
 * -1 with e set. */
int plan_bound_set(struct plan_cluster *pc, int whatif, struct dt_err *e);

/* vCPUs per GPU of an instance type (its vCPUs for a CPU instance). */
double plan_vcpu_per_gpu(const struct cat_instance *in);

/*
 * The same-family instance of cat with the same GPU model and more vCPUs per
 * GPU than in, the smallest such step up; NULL when none (or cat is NULL).
 * same_count: 1 to keep to in's GPUs per node, 0 for any GPU count >= 1.
 */
const struct cat_instance *plan_bigger_ratio(const struct catalog *cat,
                                             const struct cat_instance *in, int same_count);

/* plan_cluster_eval() for the layout sc states (plan_cluster.c). */
int plan_cluster_eval_one(const struct scenario *sc, const struct sc_cluster *cl,
                          const struct plan_eval_opts *o, struct plan_cluster *pc,
                          struct dt_err *e);

/*
 * The smallest footprint on a GPU (or CPU worker) that cluster cl's layouts
 * allow (layout.c): every combination the layout search would walk (tensor-
 * parallel size and pipeline depth up to the largest the cluster allows,
 * recompute, sharding stage: layout_dims.c), each at its smallest micro-
 * batch, the train group that fills its memory most.  Fills *u with the
 * combination whose use is the smallest share of the usable memory, names it
 * in name ("tp 8 x pp 8 + zero1, recompute full"; "" when the scenario fixes
 * the layout) and returns that share (<= 1: fits).  The search's pre-check:
 * a cluster over 1 here fits no layout.  O(combinations) memory_of() calls.
 */
double plan_layout_least_memory(const struct scenario *sc, const struct sc_cluster *cl,
                                struct mem_use *u, char *name, size_t len);

/*
 * What the writers print of an evaluated cluster besides its numbers, into
 * pc->collectives and pc->measured (plan_cluster.c): NCCL's choice for
 * each collective of its step, and the numbers its profiles gave.  Only
 * the results the planner returns get them (plan_run's clusters, the
 * search's picks), not the layouts and candidates it only ranks: under
 * strategy auto the choice costs as much as a short simulation.
 */
void plan_cluster_details(const struct scenario *sc, struct plan_cluster *pc);

/* Put "cluster NAME: " in front of e's message; returns -1. */
int plan_cluster_err(struct dt_err *e, const struct sc_cluster *cl);

/* The unknown's range when the measured step only bounds it; NAN, NAN when
 * the solve is exact.  In the units of plan_eval_opts (cpu_s_per_sample or
 * compute_scale). */
struct plan_solve_range {
    double lo, hi;
};

/*
 * Solve for the scenario's measured unknown (sc->solve_for on
 * sc->measured_cluster): the solved value goes into o (cpu_s_per_sample or
 * compute_scale) and into rep->solved_value and solved_what.  When the
 * cluster's step without the unknown already explains the measured one
 * (within measurement noise), the unknown is only bounded: o and
 * solved_value get the middle of [0, the most that does not show], *range
 * and rep->solved_lo, solved_hi its ends.  0 or -1.
 */
int plan_solve(const struct scenario *sc, struct plan_report *rep, struct plan_eval_opts *o,
               struct plan_solve_range *range, struct dt_err *e);

/* The action from cluster cur to best; same: 1 when best is cur. */
enum plan_action plan_advice_action(const struct sc_cluster *cur, const struct sc_cluster *best,
                                    int same);

/* Pick the best feasible cluster of rep by the objective, classify the move
 * from clusters[0] and write rep->best, action and reason. */
void plan_advice_listed(const struct scenario *sc, struct plan_report *rep);

/* What the catalog search's reason is written from. */
struct plan_advice_in {
    const struct plan_cluster *cur;   /* where the user starts */
    int cur_listed;                   /* 1: cur is the scenario's cluster; 0: the smallest start */
    const struct plan_cluster *best;  /* the recommended candidate */
    long candidates;                  /* how many were searched */
    enum plan_action action;          /* plan_advice_action(cur, best, ...) */
    const struct plan_cluster *tie_first; /* the objective's best when best won a tie
                                         within the model's error, else NULL */
    const struct plan_tie_report *tie;    /* the tie, n 0 when none */
    int keep_current;                 /* 1: cur does better than every candidate */
    const struct plan_cluster *const *table; /* the top the reason sits under, best first */
    int ntable;
};

/* The sentence that says best won a tie (tr), into buf ("" when none):
 * names, the clusters it ties with; first, the objective's best when
 * that is not the recommendation, else NULL. */
void plan_add_tie(char *buf, size_t cap, const struct scenario *sc,
                  const struct plan_tie_report *tr, const char *names, const char *first);

void plan_advice_search(const struct scenario *sc, const struct plan_advice_in *in, char *reason,
                        size_t cap);

#endif
