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

/* 1 when a's and b's objective values (per_sample as cluster_objective)
 * lie within each other's bands. */
int plan_band_tie(const struct scenario *sc, const struct plan_cluster *a,
                  const struct plan_cluster *b, int per_sample);

/* The tie-break: 1 when b beats a on the objective's second criterion
 * (step time for the cost objectives, cost per step for step time);
 * *what names it ("time" or "cost"). */
int plan_band_prefer(const struct scenario *sc, const struct plan_cluster *a,
                     const struct plan_cluster *b, const char **what);

#endif
