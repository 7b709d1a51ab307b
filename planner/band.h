/*
 * band.h - internal to the planner: how far a predicted step time may be
 * from the real one, from the validated error of the parts it rests on
 * (docs/model.md "Uncertainty"), and whether two clusters tie within it.
 */
#ifndef DT_BAND_H
#define DT_BAND_H

#include "planner.h"

/* The relative errors that apply to pc's compute, communication and input
 * pipeline, by what the scenario measured of each. */
struct plan_errors {
    double compute, comm, input;
    const char *compute_from;   /* "catalog", "carried", "measured" */
};
void plan_errors_of(const struct scenario *sc, const struct plan_cluster *pc,
                    struct plan_errors *pe);

/* pc->band_lo_s and band_hi_s from pc's step breakdown and bound. */
void plan_band_set(const struct scenario *sc, struct plan_cluster *pc);

/*
 * Ties.  Two clusters tie on the objective when their difference lies
 * within the part of the model's error they do not share (an error shared
 * by both, such as compute on the same GPU, moves both alike and cancels in
 * their comparison), and never beyond PLAN_TIE_MAX: a recommendation is at
 * most that much worse on the objective than the best candidate.
 */
#define PLAN_TIE_MAX 0.02

struct plan_tie {
    double gap;     /* b's objective over the best's, less 1 */
    double error;   /* the uncorrelated relative error of that ratio */
    double limit;   /* the gap allowed: error, at most PLAN_TIE_MAX */
};

/* The relative error of the ratio of a's and b's step times, first order
 * in each part's error, from what they do not share. */
double plan_band_pair_error(const struct scenario *sc, const struct plan_cluster *a,
                            const struct plan_cluster *b);

/* 1 when b ties with best, the objective's best (per_sample as
 * cluster_objective); *t (may be NULL) says by how much. */
int plan_band_tie(const struct scenario *sc, const struct plan_cluster *best,
                  const struct plan_cluster *b, int per_sample, struct plan_tie *t);

/* The tie-break: 1 when b beats a on the objective's second criterion
 * (step time for the cost objectives, cost per step for step time);
 * *what names it ("time" or "cost"). */
int plan_band_prefer(const struct scenario *sc, const struct plan_cluster *a,
                     const struct plan_cluster *b, const char **what);

#endif
