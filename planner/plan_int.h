/*
 * plan_int.h - internal to the planner: what plan.c knows about a cluster
 * and an instance type that the catalog search (search.c) uses too.
 */
#ifndef DT_PLAN_INT_H
#define DT_PLAN_INT_H

#include <stddef.h>

#include "planner.h"

/* The first train group of cl, or NULL when it has none. */
const struct sc_group *plan_first_train(const struct sc_cluster *cl);

/* 1 when cl has a group of role r. */
int plan_has_role(const struct sc_cluster *cl, enum sim_role r);

/* Train nodes of cl, all train groups together. */
int plan_train_nodes(const struct sc_cluster *cl);

/* vCPUs per GPU of an instance type (its vCPUs for a CPU instance). */
double plan_vcpu_per_gpu(const struct cat_instance *in);

/*
 * The same-family instance of cat with the same GPU model and more vCPUs per
 * GPU than in, the smallest such step up; NULL when none (or cat is NULL).
 * same_count: 1 to keep to in's GPUs per node, 0 for any GPU count >= 1.
 */
const struct cat_instance *plan_bigger_ratio(const struct catalog *cat,
                                             const struct cat_instance *in, int same_count);

#endif
