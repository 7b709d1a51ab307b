/*
 * search_prune.h - internal to the planner: the candidates the catalog
 * search leaves out before simulating (search_prune.c).
 */
#ifndef DT_SEARCH_PRUNE_H
#define DT_SEARCH_PRUNE_H

#include "search.h"

/* Whether nodes x ti hold the model at the smallest footprint the layouts
 * allow; *unsharded_fits whether it does unsharded (parameter servers).
 * The closest that does not fit is kept in l. */
int search_memory_fits(const struct scenario *sc, struct search_list *l,
                       const struct cat_instance *ti, int nodes, int *unsharded_fits);
/* A CPU type not listed in plan.instances for a transformer over
 * SEARCH_CPU_MAX_PARAMS; one whose plan.max_nodes at peak miss the deadline. */
int search_cpu_too_large(const struct scenario *sc, const struct cat_instance *in);
int search_cpu_misses_deadline(const struct scenario *sc, const struct cat_instance *in);
/* 1 when data nodes have work: preprocessing, or bytes to move. */
int search_input_work(const struct scenario *sc);

/* Instance type in is one plan.instances and plan.regions allow; GPU g
 * runs the workload's precision (a fallback counts). */
int search_considered(const struct scenario *sc, const struct cat_instance *in);
int search_gpu_runs(const struct scenario *sc, const struct cat_gpu *g);

#endif
