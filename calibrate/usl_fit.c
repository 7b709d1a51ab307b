/*
 * usl_fit.c - the universal scalability law (catalog/usl.h) fitted with GSL's
 * nonlinear least squares.  Residuals are absolute (samples/s); the
 * covariance of the parameters is (J^T J)^-1 scaled by chi^2 / dof, as
 * gsl_multifit_nlinear's documentation prescribes for unweighted data, and
 * the 95% half-widths are t(0.975, dof) times the standard errors.
 */
#include "usl_fit.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define USL_NPAR 3
#define USL_MAX_ITER 200

struct usl_data {
    const double *n, *x;
    int npts;
};

static int usl_f(const gsl_vector *p, void *arg, gsl_vector *f)
{
    const struct usl_data *d = arg;
    double l = gsl_vector_get(p, 0), s = gsl_vector_get(p, 1), k = gsl_vector_get(p, 2);

    for (int i = 0; i < d->npts; i++)
        gsl_vector_set(f, (size_t)i, usl_eval(l, s, k, d->n[i]) - d->x[i]);
    return GSL_SUCCESS;
}

/* dX/dlambda = n/D; dX/dsigma = -lambda n (n-1)/D^2; dX/dkappa = -lambda n^2 (n-1)/D^2. */
static int usl_df(const gsl_vector *p, void *arg, gsl_matrix *J)
{
    const struct usl_data *d = arg;
    double l = gsl_vector_get(p, 0), s = gsl_vector_get(p, 1), k = gsl_vector_get(p, 2);

    for (int i = 0; i < d->npts; i++) {
        double n = d->n[i], den = 1 + s * (n - 1) + k * n * (n - 1);
        gsl_matrix_set(J, (size_t)i, 0, n / den);
        gsl_matrix_set(J, (size_t)i, 1, -l * n * (n - 1) / (den * den));
        gsl_matrix_set(J, (size_t)i, 2, -l * n * n * (n - 1) / (den * den));
    }
    return GSL_SUCCESS;
}

static int count_levels(const double *n, int npts)
{
    int levels = 0;
    for (int i = 0; i < npts; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++)
            if (n[j] == n[i])
                seen = 1;
        levels += !seen;
    }
    return levels;
}

int usl_fit(const double *n, const double *x, int npts, struct usl_fit *out)
{
    struct usl_data d = {n, x, npts};
    gsl_multifit_nlinear_fdf fdf;
    gsl_multifit_nlinear_parameters par = gsl_multifit_nlinear_default_parameters();
    gsl_multifit_nlinear_workspace *w;
    gsl_matrix *covar;
    gsl_vector *p0;
    gsl_error_handler_t *old;
    double lambda0 = 0, mean = 0, ss_tot = 0, chi2, tq;
    int info = 0, status;

    memset(out, 0, sizeof *out);
    for (int j = 0; j < USL_NPAR; j++)
        out->ci95[j] = NAN;
    out->r2 = NAN;
    out->levels = count_levels(n, npts);
    out->dof = npts - USL_NPAR;
    /* Starting point: the best per-worker rate seen, little contention. */
    for (int i = 0; i < npts; i++)
        if (n[i] > 0 && x[i] / n[i] > lambda0)
            lambda0 = x[i] / n[i];
    out->lambda = lambda0;
    out->sigma = NAN;
    out->kappa = NAN;
    out->quality = USL_UNDERDETERMINED;
    if (npts < USL_NPAR || out->levels < 2) {
        snprintf(out->note, sizeof out->note,
                 "%d point(s) at %d worker count(s): the 3 parameters cannot be fitted; "
                 "lambda is the best per-worker rate seen", npts, out->levels);
        return -1;
    }

    fdf.f = usl_f;
    fdf.df = usl_df;
    fdf.fvv = NULL;
    fdf.n = (size_t)npts;
    fdf.p = USL_NPAR;
    fdf.params = &d;
    w = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &par, (size_t)npts, USL_NPAR);
    covar = gsl_matrix_alloc(USL_NPAR, USL_NPAR);
    p0 = gsl_vector_alloc(USL_NPAR);
    gsl_vector_set(p0, 0, lambda0);
    gsl_vector_set(p0, 1, 0.05);
    gsl_vector_set(p0, 2, 0.001);

    old = gsl_set_error_handler_off();
    gsl_multifit_nlinear_init(p0, &fdf, w);
    status = gsl_multifit_nlinear_driver(USL_MAX_ITER, 1e-10, 1e-10, 1e-10, NULL, NULL, &info, w);
    gsl_multifit_nlinear_covar(w->J, 0.0, covar);
    gsl_set_error_handler(old);

    out->lambda = gsl_vector_get(w->x, 0);
    out->sigma = gsl_vector_get(w->x, 1);
    out->kappa = gsl_vector_get(w->x, 2);
    gsl_blas_ddot(w->f, w->f, &chi2);
    for (int i = 0; i < npts; i++)
        mean += x[i] / npts;
    for (int i = 0; i < npts; i++)
        ss_tot += (x[i] - mean) * (x[i] - mean);
    out->r2 = ss_tot > 0 ? 1 - chi2 / ss_tot : NAN;

    if (out->dof > 0) {
        tq = gsl_cdf_tdist_Pinv(0.975, out->dof);
        for (int j = 0; j < USL_NPAR; j++) {
            double v = gsl_matrix_get(covar, (size_t)j, (size_t)j) * chi2 / out->dof;
            out->ci95[j] = v >= 0 ? tq * sqrt(v) : NAN;
        }
    }

    if (out->levels < 4 || out->dof < 1) {
        out->quality = USL_UNDERDETERMINED;
        snprintf(out->note, sizeof out->note,
                 "%d point(s) at %d worker count(s): 3 parameters need 4 or more worker counts; "
                 "sigma and kappa are not determined", npts, out->levels);
    } else if (status != GSL_SUCCESS || !isfinite(out->lambda) || !(out->lambda > 0)) {
        out->quality = USL_POOR;
        snprintf(out->note, sizeof out->note, "the fit did not converge (%s)", gsl_strerror(status));
    } else if (!(out->r2 >= 0.9)) {
        out->quality = USL_POOR;
        snprintf(out->note, sizeof out->note, "R^2 %.3f below 0.9: the scaling law does not "
                 "describe these points", out->r2);
    } else if (!(out->ci95[0] <= 0.2 * out->lambda)) {
        out->quality = USL_POOR;
        snprintf(out->note, sizeof out->note, "lambda known only to +-%.0f%% (95%%)",
                 100 * out->ci95[0] / out->lambda);
    } else {
        out->quality = USL_GOOD;
        out->note[0] = '\0';
    }

    gsl_vector_free(p0);
    gsl_matrix_free(covar);
    gsl_multifit_nlinear_free(w);
    return 0;
}
