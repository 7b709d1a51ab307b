/*
 * search_prune.c - what the catalog search leaves out before simulating
 * (search_prune.h): clusters that do not hold the model at the smallest
 * footprint the scenario allows, CPU types for a large transformer or that
 * miss the deadline even at peak, and data nodes where the input has no
 * work.  Below search.c, which enumerates the candidates.
 */
#include "search_prune.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plan_int.h"
#include "resolve.h"
#include "compute.h"
#include "../catalog/shape.h"

/* The first parameter-server strategy plan.strategies tries; -1 none. */
static int ps_strategy(unsigned set)
{
    for (int s = 0; s < SIM_NSTRATEGY; s++)
        if ((set & (1u << s)) && sim_is_ps(s))
            return s;
    return -1;
}

/*
 * Whether nodes x ti hold the model at the smallest footprint the scenario
 * allows (plan_layout_least_memory: recompute auto as full, tp and pp auto
 * up to the largest the cluster allows, sharding auto as the most sharded
 * stage that may run, at most zero1 under a pipeline); *unsharded_fits
 * whether it does under parameter servers too, which shard nothing.  The
 * closest that does not fit is kept in l.
 */
int search_memory_fits(const struct scenario *sc, struct search_list *l,
                       const struct cat_instance *ti, int nodes, int *unsharded_fits)
{
    struct sc_cluster cl;
    struct mem_use u;
    char name[sizeof l->closest_layout];
    double r;
    int ps = ps_strategy(sc->plan.strategies);

    memset(&cl, 0, sizeof cl);
    cl.groups[0] = (struct sc_group){SIM_TRAIN, ti, nodes, 0};
    cl.ngroups = 1;
    cl.gradients.bucket_bytes = sc->gradients.bucket_bytes;
    cl.gradients.own = 1;
    cl.gradients.strategy = SIM_RING;   /* any that shards: the most sharded stage */
    r = plan_layout_least_memory(sc, &cl, &u, name, sizeof name);
    if (!(r <= 1) && isfinite(r) && (!l->closest_nodes || r < l->closest_ratio)) {
        l->closest_ratio = r;
        l->closest_train = (int)(ti - sc->catalog->instances);
        l->closest_nodes = nodes;
        l->closest_mem = u;
        snprintf(l->closest_layout, sizeof l->closest_layout, "%s", name);
    }
    *unsharded_fits = 1;
    if (r <= 1 && ps >= 0) {
        cl.gradients.strategy = ps;
        *unsharded_fits = plan_layout_least_memory(sc, &cl, &u, name, sizeof name) <= 1;
    }
    return r <= 1;
}

/* 1 when plan.instances names in, as a type or its family. */
static int listed(const struct scenario *sc, const struct cat_instance *in)
{
    for (int i = 0; i < sc->plan.ninstances; i++)
        if (catalog_name_matches(sc->plan.instances[i], in->name))
            return 1;
    return 0;
}

/* A transformer over SEARCH_CPU_MAX_PARAMS is not trained on CPU types
 * that the plan does not list. */
int search_cpu_too_large(const struct scenario *sc, const struct cat_instance *in)
{
    const struct cat_model *m = sc->workload.model;

    return in->gpu_count == 0 && m && m->params > SEARCH_CPU_MAX_PARAMS &&
           (shape_known(m) || strcmp(m->family, "transformer") == 0) && !listed(sc, in);
}

/* 1 when even plan.max_nodes of CPU type in at their peak FLOP/s
 * (resolve_peak_flops: every vCPU at its assumed rate, the model FLOPs
 * utilisation 1, so a lower bound on the simulated time) take longer than
 * the deadline to run 3 x the forward FLOPs of every sample of the
 * dataset's epochs. */
int search_cpu_misses_deadline(const struct scenario *sc, const struct cat_instance *in)
{
    double fwd = scenario_fwd_gflops(sc) * 1e9, peak, samples;

    if (in->gpu_count != 0 || isnan(sc->objective.deadline_h) ||
        isnan(sc->input.dataset_samples) || !(fwd > 0))
        return 0;
    peak = sc->plan.max_nodes * resolve_peak_flops(in, sc->workload.precision, in->vcpus);
    samples = sc->input.dataset_samples * (sc->input.epochs > 0 ? sc->input.epochs : 1);
    return peak > 0 && 3 * fwd * samples / peak > sc->objective.deadline_h * 3600;
}

/* 1 when data nodes have work: preprocessing CPU time (or unknown, to be
 * solved), or bytes to move. */
int search_input_work(const struct scenario *sc)
{
    return !(sc->input.cpu_s_per_sample == 0) || sc->input.prep_bytes > 0;
}

int search_considered(const struct scenario *sc, const struct cat_instance *in)
{
    const struct sc_plan *p = &sc->plan;
    int ok = p->ninstances == 0;

    for (int i = 0; i < p->ninstances && !ok; i++)
        ok = catalog_name_matches(p->instances[i], in->name);
    if (ok && p->nregions > 0) {
        ok = 0;
        for (int i = 0; i < p->nregions && !ok; i++)
            ok = strcmp(p->regions[i], in->region) == 0;
    }
    return ok && in->vcpus > 0 && in->gpu_count >= 0 && !isnan(in->price_usd_h);
}

/* 1 when the GPU has a peak for the formats sc's precision runs at there
 * (its fallbacks included: bf16 runs fp16 on a V100), or auto finds one. */
int search_gpu_runs(const struct scenario *sc, const struct cat_gpu *g)
{
    struct compute_plan p;

    if (sc->workload.precision_auto)
        return compute_plan_of(g, CAT_FP16, 0, &p) == 0 ||
               compute_plan_of(g, CAT_FP32, 0, &p) == 0;
    return compute_plan_of(g, sc->workload.precision, sc->workload.precision_strict, &p) == 0;
}
