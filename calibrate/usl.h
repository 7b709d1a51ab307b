/*
 * usl.h - the universal scalability law fitted to throughput against
 * parallelism (Gunther):
 *
 *   X(n) = lambda n / (1 + sigma (n - 1) + kappa n (n - 1))
 *
 * lambda is the throughput of one worker (samples/s per core), sigma the
 * contention (serial fraction), kappa the coherency cost.  usl_fit() is a
 * GSL nonlinear least-squares fit (gsl_multifit_nlinear, trust region with
 * Levenberg-Marquardt steps) with 95% confidence intervals from the
 * covariance matrix scaled by the residual variance and Student's t with
 * n - 3 degrees of freedom.  Library code: never prints.
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

/*
 * Fit X(n) to npts points (n[i] workers, x[i] samples/s).  Always fills
 * *out (lambda from the best single-worker point when the fit cannot run).
 * Returns 0 when a nonlinear fit ran, -1 when there were too few points to
 * try (out->quality is then USL_UNDERDETERMINED).  Cost: O(iterations x
 * npts).
 */
int usl_fit(const double *n, const double *x, int npts, struct usl_fit *out);

/* X(n) of a fit. */
double usl_eval(double lambda, double sigma, double kappa, double n);

const char *usl_quality_name(enum usl_quality q);

#endif
