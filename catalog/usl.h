/*
 * usl.h - the universal scalability law fitted to throughput against
 * parallelism (Gunther):
 *
 *   X(n) = lambda n / (1 + sigma (n - 1) + kappa n (n - 1))
 *
 * lambda is the throughput of one worker (samples/s per core), sigma the
 * contention (serial fraction), kappa the coherency cost.  A calibration
 * profile carries a fit (calibrate/usl_fit.h makes one); the planner
 * evaluates it.  Library code: never prints.
 */
#ifndef DT_USL_H
#define DT_USL_H

enum usl_quality {
    USL_GOOD = 0,
    USL_POOR,             /* did not converge, low R^2 or lambda known to worse than 20% */
    USL_UNDERDETERMINED   /* fewer than 4 distinct worker counts: 3 parameters cannot be pinned */
};

struct usl_fit {
    double lambda;        /* samples/s of one worker */
    double sigma;         /* contention, dimensionless */
    double kappa;         /* coherency, dimensionless */
    double ci95[3];       /* half-widths of the 95% intervals of lambda, sigma, kappa; NAN unknown */
    double r2;            /* coefficient of determination of X(n) */
    int dof;              /* points - 3 */
    int levels;           /* distinct worker counts */
    enum usl_quality quality;
    char note[160];       /* why the fit is poor or underdetermined; "" when good */
};

/* X(n) of a fit. */
double usl_eval(double lambda, double sigma, double kappa, double n);

/* The i-th quality name (enum usl_quality), NULL past the end. */
const char *usl_quality_name(int q);

#endif
