/*
 * usl_fit.h - fit the universal scalability law (catalog/usl.h) to measured
 * throughput: a GSL nonlinear least-squares fit (gsl_multifit_nlinear, trust
 * region with Levenberg-Marquardt steps) with 95% confidence intervals from
 * the covariance matrix scaled by the residual variance and Student's t with
 * n - 3 degrees of freedom.  Library code: never prints.
 */
#ifndef DT_USL_FIT_H
#define DT_USL_FIT_H

#include "../catalog/usl.h"

/*
 * Fit X(n) to npts points (n[i] workers, x[i] samples/s).  Always fills
 * *out (lambda from the best single-worker point when the fit cannot run).
 * Returns 0 when a nonlinear fit ran, -1 when there were too few points to
 * try (out->quality is then USL_UNDERDETERMINED).  Cost: O(iterations x
 * npts).
 */
int usl_fit(const double *n, const double *x, int npts, struct usl_fit *out);

#endif
