/*
 * cluster.h - internal to the planner: facts about one cluster that the
 * files evaluating it, bounding it, banding it, ranking it and advising on
 * it all read (cluster.c).  It sits below them and calls none of them, so
 * that plan_cluster.c can call bound.c and band.c without either calling
 * back into it.
 */
#ifndef DT_PLANNER_CLUSTER_H
#define DT_PLANNER_CLUSTER_H

#include "planner.h"

/* The first train group of cl, or NULL when it has none. */
const struct sc_group *cluster_first_train(const struct sc_cluster *cl);

/* 1 when cl has a group of role r. */
int cluster_has_role(const struct sc_cluster *cl, enum sim_role r);

/* Train nodes of cl, all train groups together. */
int cluster_train_nodes(const struct sc_cluster *cl);

/* The first train group of cl that ok() refuses, given its GPUs (its nodes
 * without one) and arg; NULL when ok() takes them all. */
const struct sc_group *cluster_train_refused(const struct sc_cluster *cl,
                                             int (*ok)(const struct sc_group *g, int gpus,
                                                       const void *arg),
                                             const void *arg);

/*
 * The objective of pc, smaller is better.  per_sample: 1 when the clusters
 * compared were enumerated with different worker counts (the catalog
 * search), so that cost per step is compared per sample.
 */
double cluster_objective(const struct scenario *sc, const struct plan_cluster *pc,
                         int per_sample);

#endif
