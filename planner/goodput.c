/*
 * goodput.c - failures, checkpoints and restarts in the time and cost to
 * train (goodput.h; docs/model.md "Goodput").
 */
#include "goodput.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory.h"
#include "planner.h"
#include "../base/xmem.h"
#include "../catalog/spot.h"

#define YEAR_S (365.25 * 86400)
/* goodput.samples draws at most this many interruptions in all (runs x a
 * run's expected interruptions): past it the spread is left out, a search's
 * time bounded.  The sampler's cost is its interruptions, not its
 * checkpoint intervals (goodput_sample passes the whole segments between two
 * interruptions at once). */
#define SAMPLED_DRAWS_MAX 5e7

double goodput_interval(double delta, double m)
{
    double x;

    if (!(delta > 0))
        return NAN;
    if (!isfinite(m))
        return INFINITY;
    if (delta >= 2 * m)
        return m;
    x = delta / (2 * m);
    return sqrt(2 * delta * m) * (1 + sqrt(x) / 3 + x / 9) - delta;
}

double goodput_wall(double work_s, double tau, double delta, double r, double m)
{
    if (!(tau > 0))
        return NAN;
    if (!isfinite(m))
        return work_s * (tau + delta) / tau;
    return m * exp(r / m) * expm1((tau + delta) / m) * work_s / tau;
}

double goodput_p_any(double rate, double t)
{
    return -expm1(-rate * t);
}

int goodput_sampled(int n, double wall_s, double m)
{
    return n > 0 && wall_s >= 0 && m > 0 && isfinite(wall_s) && isfinite(m) &&
           n * (wall_s / m + 1) <= SAMPLED_DRAWS_MAX;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* n runs of work_s sampled with seed: interruptions exponentially apart
 * (mean m), each losing the compute since the last save and costing r
 * (interruptions during a restart not drawn); the 10th and 90th
 * percentiles of their wall times.  A run is nseg segments of tau, each
 * but the last followed by a save of delta; between two interruptions the
 * whole segments that fit are counted at once, so a run costs its
 * interruptions, not its segments. */
void goodput_sample(int n, unsigned long seed, double work_s, double tau, double delta, double r,
                    double m, double *p10, double *p90)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    double *w = x_malloc((size_t)n * sizeof *w);
    double nseg = fmax(1, ceil(work_s / tau)), c = tau + delta;
    double last = work_s - (nseg - 1) * tau;    /* the last segment, no save after it */

    gsl_rng_set(rng, seed);
    for (int k = 0; k < n; k++) {
        double j = 0, wall = 0, next = gsl_ran_exponential(rng, m);
        while (j < nseg) {
            /* the saved segments before the last that fit in what is left */
            double fit = fmin(floor(next / c), nseg - 1 - j), cost;
            wall += fit * c;
            next -= fit * c;
            j += fit;
            cost = j == nseg - 1 ? last : c;
            if (next >= cost) {
                wall += cost;
                next -= cost;
                j++;
            } else {
                wall += next + r;       /* the segment is lost */
                next = gsl_ran_exponential(rng, m);
            }
        }
        w[k] = wall;
    }
    qsort(w, (size_t)n, sizeof *w, by_value);
    *p10 = w[n / 10];
    *p90 = w[(9 * n) / 10 < n ? (9 * n) / 10 : n - 1];
    x_free(w);
    gsl_rng_free(rng);
}

/* The checkpoint store's aggregate rate, bytes/s: goodput.storage_gbs, else
 * the storage type's (per TiB provisioned, or whole, and at most its rate a
 * node times the train nodes), else the default. */
static double store_Bps(const struct sc_goodput *gp, double train_nodes)
{
    const struct cat_storage *st = gp->storage;
    double all;

    if (!isnan(gp->storage_gbs))
        return gp->storage_gbs * 1e9;
    if (!st)
        return SC_GOODPUT_STORAGE_GBS * 1e9;
    all = !isnan(st->per_tib_mbs) ? st->per_tib_mbs * 1e6 * gp->storage_tib
          : !isnan(st->gbs)       ? st->gbs * 1e9 : INFINITY;
    /* a store that bounds what one node writes: the train nodes together */
    if (!isnan(st->node_gbs) && train_nodes > 0)
        all = fmin(all, train_nodes * st->node_gbs * 1e9);
    return all;
}

int goodput_store_local(const struct sc_goodput *gp)
{
    return gp->storage && gp->storage->local && isnan(gp->storage_gbs);
}

/* A spot node of type in: its preemptions a day, as the scenario sets them,
 * else from its type's interruption band, else the default; *from: which. */
static double spot_per_day(const struct sc_goodput *gp, const struct cat_instance *in,
                           int *from)
{
    double month = cat_spot_month(in->spot_interrupt);

    *from = !isnan(gp->spot_preemptions_per_day) ? PLAN_SPOT_SCENARIO
            : isnan(month)                       ? PLAN_SPOT_DEFAULT : PLAN_SPOT_BAND;
    if (*from == PLAN_SPOT_SCENARIO)
        return gp->spot_preemptions_per_day;
    return *from == PLAN_SPOT_DEFAULT ? SC_GOODPUT_SPOT_PER_DAY : cat_spot_per_day(month);
}

/* Preemptions a second of cluster cl's spot nodes that a save at the
 * notice their cloud gives covers (goodput.spot_notice_save): those whose
 * notice is at least the checkpoint's write, write_s. */
static double notice_saved(const struct sc_goodput *gp, const struct sc_cluster *cl,
                           double write_s)
{
    double saved = 0;
    int from;

    for (int i = 0; i < cl->ngroups; i++) {
        const struct sc_group *g = &cl->groups[i];
        if (g->spot && cat_spot_notice_s(g->inst->cloud) >= write_s)
            saved += g->count * spot_per_day(gp, g->inst, &from) / 86400;
    }
    return saved;
}

void goodput_spot_basis(const struct plan_goodput *g, char *buf, size_t len)
{
    if (len == 0)
        return;
    buf[0] = '\0';
    if (!isfinite(g->spot_per_day) || !g->spot_type[0])
        return;
    if (g->spot_from == PLAN_SPOT_SCENARIO)
        snprintf(buf, len, "the scenario's goodput.spot_preemptions_per_day");
    else if (g->spot_from == PLAN_SPOT_BAND)
        snprintf(buf, len, "%s's Spot Instance Advisor band, %s of capacity a month",
                 g->spot_type, g->spot_band);
    else
        snprintf(buf, len, "no band for %s: the Advisor's top band", g->spot_type);
}

const char *goodput_spot_from_name(int from)
{
    return from == PLAN_SPOT_SCENARIO ? "scenario" : from == PLAN_SPOT_BAND ? "band" : "default";
}

void goodput_of(const struct scenario *sc, struct plan_cluster *pc)
{
    const struct sc_goodput *gp = &sc->goodput;
    struct plan_goodput *o = &pc->goodput;
    double gpus = 0, nodes = 0, train_nodes = 0, spot = 0, spot_rate = 0, net_Bps = 0;
    double pcie_Bps = NAN, rate, m, write_Bps, saved;
    double step = pc->res.step_mean_s, work;

    o->on = 0;
    o->spot_type[0] = '\0';
    if (!gp->present || !pc->cl || !(step > 0))
        return;
    for (int i = 0; i < pc->cl->ngroups; i++) {
        const struct sc_group *g = &pc->cl->groups[i];
        const struct cat_instance *in = g->inst;
        nodes += g->count;
        if (g->spot) {
            int from;
            spot_rate += g->count * spot_per_day(gp, in, &from);
            if (spot == 0) {
                o->spot_from = from;
                snprintf(o->spot_type, sizeof o->spot_type, "%s", in->name);
                memcpy(o->spot_band, in->spot_interrupt, sizeof o->spot_band);
            }
            spot += g->count;
        }
        if (g->role == SIM_TRAIN && in->gpu_count > 0) {
            gpus += (double)g->count * in->gpu_count;
            if (in->gpu && in->gpu->pcie_gbs_dir > 0)
                pcie_Bps = in->gpu->pcie_gbs_dir * 1e9;
        }
        train_nodes += g->role == SIM_TRAIN ? g->count : 0;
        if (g->role == SIM_TRAIN && in->net_gbps > 0)
            net_Bps += g->count * in->net_gbps * 1e9 / 8;
    }
    o->on = 1;
    /* the model state saved whole, written by the train nodes at their NICs'
     * rate or the store's, the lower (a store on the nodes' own disks: its
     * rate alone); read back at the same rate */
    o->checkpoint_bytes = memory_checkpoint_bytes(sc);
    write_Bps = store_Bps(gp, train_nodes);
    if (net_Bps > 0 && net_Bps < write_Bps && !goodput_store_local(gp))
        write_Bps = net_Bps;        /* a node's own disks have no NIC on the way */
    o->checkpoint_write_s = o->checkpoint_bytes / write_Bps;
    /* asynchronous: the step waits for each GPU's share copied to the host
     * over PCIe; the write goes on beside the next steps */
    o->checkpoint_block_s = gp->checkpoint == SC_CKPT_ASYNC && pcie_Bps > 0 && gpus > 0
                                ? o->checkpoint_bytes / gpus / pcie_Bps : o->checkpoint_write_s;
    rate = (gpus * gp->gpu_failures_per_year + nodes * gp->node_failures_per_year) / YEAR_S +
           spot_rate / 86400;
    o->spot_per_day = spot > 0 ? spot_rate / spot : NAN;
    saved = spot > 0 && gp->spot_notice_save ? notice_saved(gp, pc->cl, o->checkpoint_write_s)
                                             : 0;
    o->spot_saved_per_day = gp->spot_notice_save && spot > 0 ? saved * 86400 : NAN;
    /* what loses work: all but the preemptions a save at their notice covers */
    m = rate - saved > 0 ? 1 / (rate - saved) : INFINITY;
    o->interruptions_per_day = rate * 86400;
    o->mtbf_s = rate > 0 ? 1 / rate : INFINITY;
    o->p_interrupt_30d = goodput_p_any(rate, 30 * 86400.0);
    o->checkpoint_interval_s = !isnan(gp->checkpoint_interval_s)
                                   ? gp->checkpoint_interval_s
                                   : goodput_interval(o->checkpoint_block_s, m);
    if (gp->checkpoint == SC_CKPT_ASYNC && o->checkpoint_interval_s < o->checkpoint_write_s)
        o->checkpoint_interval_s = o->checkpoint_write_s;    /* one write at a time */
    /* whole steps, at least one */
    o->checkpoint_interval_s = isfinite(o->checkpoint_interval_s)
                                   ? step * fmax(1, round(o->checkpoint_interval_s / step)) : NAN;
    o->restart_s = gp->restart_s + o->checkpoint_write_s;   /* read back at the write's rate */
    o->train_nofail_s = pc->train_s;
    o->cost_nofail_usd = pc->cost_to_train_usd;
    /* the ratio holds for any amount of work (the wall time is linear in
     * it): one interval's, when the run's length is unknown */
    work = isnan(pc->train_s) ? (isfinite(o->checkpoint_interval_s) ? o->checkpoint_interval_s : step)
                              : pc->train_s;
    if (!isfinite(o->checkpoint_interval_s)) {       /* no interruptions, no checkpoint cost */
        o->ettr = 1;
    } else {
        double wall = goodput_wall(work, o->checkpoint_interval_s, o->checkpoint_block_s,
                                   o->restart_s, m);
        o->ettr = wall > 0 ? work / wall : NAN;
    }
    o->train_p10_s = o->train_p90_s = NAN;
    if (!isnan(pc->train_s) && isfinite(o->checkpoint_interval_s) && o->ettr > 0 &&
        goodput_sampled(gp->samples, pc->train_s / o->ettr, m))
        goodput_sample(gp->samples, sc->simulation.seed, pc->train_s, o->checkpoint_interval_s,
                       o->checkpoint_block_s, o->restart_s, m, &o->train_p10_s, &o->train_p90_s);
    /* planned interruptions: the job saves first, so each costs a restart
     * and no work; so does a preemption saved at its notice, which also
     * waits for its save; they come on top of the wall time, at their daily
     * rate */
    if ((gp->planned_per_day > 0 || saved > 0) && o->ettr > 0) {
        double planned = gp->planned_per_day / 86400 * o->restart_s +
                         saved * (o->restart_s + o->checkpoint_write_s);
        o->ettr = planned < 1 ? o->ettr * (1 - planned) : 0;
        o->interruptions_per_day += gp->planned_per_day;
        o->train_p10_s = planned < 1 ? o->train_p10_s / (1 - planned) : INFINITY;
        o->train_p90_s = planned < 1 ? o->train_p90_s / (1 - planned) : INFINITY;
    }
    if (!isnan(pc->train_s)) {
        pc->train_s = o->ettr > 0 ? pc->train_s / o->ettr : INFINITY;   /* restarts all day */
        pc->cost_to_train_usd = pc->price_usd_h * pc->train_s / 3600;
    }
}
