/*
 * goodput.h - the time and money a training run takes with its failures,
 * checkpoints, restarts and spot preemptions (scenario goodput: section;
 * docs/model.md "Goodput").
 *
 * Interruptions arrive at a constant rate, the job's GPUs' and nodes' rates
 * added (Poisson: a GPU that fails stops the whole synchronous job).  Work
 * is saved every tau seconds of compute, each save blocking for delta; an
 * interruption loses the work since the last save and costs R to start
 * again (R: the restart itself and reading the checkpoint back).  Daly's
 * expected wall time (J. T. Daly, "A higher order estimate of the optimum
 * checkpoint interval for restart dumps", Future Generation Computer
 * Systems 22(3), 2006, eq. 20) for T seconds of work, mean time between
 * interruptions M:
 *
 *   wall = M e^(R/M) (e^((tau + delta)/M) - 1) T / tau
 *
 * and tau, unless the scenario fixes it, Daly's higher-order optimum (his
 * eq. 37): sqrt(2 delta M) [1 + sqrt(delta/(2M))/3 + delta/(18 M)] - delta
 * for delta < 2M, else M; Young's sqrt(2 delta M) (CACM 17(9), 1974) is its
 * first term.
 */
#ifndef DT_GOODPUT_H
#define DT_GOODPUT_H

/* Daly's optimum compute between checkpoints, seconds, for a blocking save
 * of delta and a mean time between interruptions m. */
double goodput_interval(double delta, double m);

/* Daly's expected wall time for work_s of compute, saved every tau at a
 * cost delta, restarts costing r, interruptions every m on average (m
 * infinite: work_s (1 + delta / tau)). */
double goodput_wall(double work_s, double tau, double delta, double r, double m);

/* n runs of work_s seconds of compute drawn with seed, as goodput_wall
 * counts them (interruptions exponentially apart, mean m; each loses the
 * compute since the last save and costs r; interruptions during a restart
 * not drawn): the 10th and 90th percentiles of their wall times into *p10
 * and *p90.  Its cost is the runs' interruptions. */
void goodput_sample(int n, unsigned long seed, double work_s, double tau, double delta, double r,
                    double m, double *p10, double *p90);

/* 1 when n runs of about wall_s seconds, interruptions every m on average,
 * are few enough draws to sample (n x (wall_s / m + 1) at most 5e7). */
int goodput_sampled(int n, double wall_s, double m);

/* The chance of at least one interruption in t seconds at `rate` a second. */
double goodput_p_any(double rate, double t);

struct scenario;
#include <stddef.h>

struct plan_cluster;

/* One cluster's goodput, into pc->goodput, and its time and cost to train
 * made the expected ones (pc->train_s, pc->cost_to_train_usd; the
 * failure-free ones kept in pc->goodput).  Nothing when the scenario has no
 * goodput: section. */
void goodput_of(const struct scenario *sc, struct plan_cluster *pc);

struct sc_goodput;

/* 1 when gp's checkpoints go to the nodes' own disks (a storage type with
 * local yes, its rate not overridden by goodput.storage_gbs): written
 * without the network, lost with their node. */
int goodput_store_local(const struct sc_goodput *gp);

struct plan_goodput;

/* Where g's spot rate comes from, in words, into buf: "the scenario's
 * goodput.spot_preemptions_per_day", "p5.48xlarge's Spot Instance Advisor
 * band, >20% of capacity a month" or "no band for p6-b200.48xlarge: the
 * Advisor's top band"; "" without spot nodes.  The JSON's name of it:
 * goodput_spot_from_name. */
void goodput_spot_basis(const struct plan_goodput *g, char *buf, size_t len);
const char *goodput_spot_from_name(int from);    /* scenario, band, default */

#endif
