/*
 * cluster.c - facts about one cluster (cluster.h): which of its groups
 * train and how many nodes they have, and the objective an evaluated
 * cluster is ranked by.  Each is O(groups) or O(1) and computes nothing
 * the simulator gives; the planner's other files call these, and these
 * call nothing of the planner.
 */
#include "cluster.h"

#include <math.h>

const struct sc_group *cluster_first_train(const struct sc_cluster *cl)
{
    for (int i = 0; i < cl->ngroups; i++)
        if (cl->groups[i].role == SIM_TRAIN)
            return &cl->groups[i];
    return NULL;
}

int cluster_has_role(const struct sc_cluster *cl, enum sim_role r)
{
    for (int i = 0; i < cl->ngroups; i++)
        if (cl->groups[i].role == r)
            return 1;
    return 0;
}

int cluster_train_nodes(const struct sc_cluster *cl)
{
    int n = 0;
    for (int i = 0; i < cl->ngroups; i++)
        if (cl->groups[i].role == SIM_TRAIN)
            n += cl->groups[i].count;
    return n;
}

double cluster_objective(const struct scenario *sc, const struct plan_cluster *pc,
                         int per_sample)
{
    switch (sc->objective.minimize) {
    case SC_OBJ_TIME:
        /* Clusters with other worker counts take other numbers of steps:
         * rank by time to train, or by time per sample without a dataset. */
        return !isnan(pc->train_s) ? pc->train_s : 1.0 / pc->res.samples_per_s;
    case SC_OBJ_COST_STEP:
        /* Enumerated candidates differ in workers, so in samples per step:
         * the search compares cost per sample. */
        return per_sample ? pc->cost_per_step_usd / (pc->res.workers * pc->cfg.w.batch)
                          : pc->cost_per_step_usd;
    case SC_OBJ_COST_TRAIN:
        /* Without a dataset size cost per sample ranks the same way. */
        return !isnan(pc->cost_to_train_usd) ? pc->cost_to_train_usd
                                             : pc->cost_per_step_usd / pc->res.samples_per_s;
    }
    return pc->res.step_mean_s;
}

const struct sc_group *cluster_train_refused(const struct sc_cluster *cl,
                                             int (*ok)(const struct sc_group *g, int gpus,
                                                       const void *arg),
                                             const void *arg)
{
    for (int i = 0; i < cl->ngroups; i++) {
        const struct sc_group *g = &cl->groups[i];
        if (g->role == SIM_TRAIN &&
            !ok(g, g->count * (g->inst->gpu_count > 0 ? g->inst->gpu_count : 1), arg))
            return g;
    }
    return NULL;
}
