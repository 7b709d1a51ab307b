/*
 * fit.c - alpha-beta fits of measured transfer times (Hockney's model,
 * time = alpha + beta * bytes) for the calibration profile.
 *
 * The points span several decades of message size (8 B to hundreds of MiB),
 * so the fit minimises relative, not absolute, residuals: GSL's weighted
 * linear least squares (gsl_fit_wlinear) with weights 1/time^2.  An
 * unweighted fit would let the largest sizes decide alpha, whose true value
 * is smaller than their noise.  The covariance is scaled by the reduced
 * chi-square (the weights give the shape of the errors, not their size), and
 * the 95% intervals use Student's t with n-2 degrees of freedom.
 *
 * When one line leaves a relative RMS residual above FIT_PIECE_RMS (a
 * protocol switch: eager to rendezvous in MPI, LL to Simple in NCCL, a TCP
 * window filling), every split into two contiguous ranges of at least three
 * sizes is tried and the one with the smallest weighted residual kept, if it
 * improves the fit clearly.  The profile's top-level alpha then comes from
 * the small-size piece and beta from the large-size piece, as
 * docs/collectives.md explains.  A fit whose final relative RMS residual
 * exceeds FIT_POOR_RMS, or whose beta is not positive, is marked poor_fit
 * with a reason.  Cost: O(n^2) for n points.
 */
#include "calib.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../sim/xmem.h"

#define FIT_PIECE_RMS 0.05   /* try two pieces above this relative RMS residual */
#define FIT_PIECE_GAIN 0.7   /* keep two pieces when they cut the RMS to this fraction */
#define FIT_POOR_RMS 0.10    /* relative RMS residual of a poor fit */
#define FIT_MIN_PIECE 3      /* points per piece */

struct fit_line {
    double alpha_s, beta_s_per_byte;
    double ci_alpha_s, ci_beta_s_per_byte; /* half-widths of the 95% intervals */
    double chisq;                          /* sum of squared relative residuals */
    int lo, hi;                            /* points [lo, hi) of the sorted set */
};

static int fit_cmp_bytes(const void *a, const void *b)
{
    const struct calib_xy *p = a, *q = b;
    return (p->bytes > q->bytes) - (p->bytes < q->bytes);
}

/* Weighted fit of points [lo, hi); 0, or -1 when the sizes do not vary. */
static int fit_range(const struct calib_xy *p, int lo, int hi, struct fit_line *f)
{
    int n = hi - lo, rc = -1;
    double *x = x_malloc(sizeof(double) * (size_t)n * 3), *y = x + n, *w = y + n;
    double c0, c1, cov00, cov01, cov11, chisq, s2, t;

    for (int i = 0; i < n; i++) {
        x[i] = p[lo + i].bytes;
        y[i] = p[lo + i].time_s;
        w[i] = 1.0 / (y[i] * y[i]);
    }
    if (x[n - 1] <= x[0])
        goto free_xyw;
    if (gsl_fit_wlinear(x, 1, w, 1, y, 1, (size_t)n, &c0, &c1, &cov00, &cov01, &cov11, &chisq))
        goto free_xyw;
    s2 = n > 2 ? chisq / (n - 2) : 0;
    t = n > 2 ? gsl_cdf_tdist_Pinv(0.975, n - 2) : 0;
    f->alpha_s = c0;
    f->beta_s_per_byte = c1;
    f->ci_alpha_s = t * sqrt(cov00 * s2);
    f->ci_beta_s_per_byte = t * sqrt(cov11 * s2);
    f->chisq = chisq;
    f->lo = lo;
    f->hi = hi;
    rc = 0;
free_xyw:
    x_free(x);
    return rc;
}

static double fit_eval(const struct fit_line *f, double bytes)
{
    return f->alpha_s + f->beta_s_per_byte * bytes;
}

static void fit_put_line(cJSON *o, const struct fit_line *a, const struct fit_line *b)
{
    cJSON *ci = cJSON_AddObjectToObject(o, "ci95");

    cJSON_AddNumberToObject(o, "alpha_s", a->alpha_s);
    cJSON_AddNumberToObject(o, "beta_s_per_byte", b->beta_s_per_byte);
    cJSON_AddNumberToObject(ci, "alpha_s", a->ci_alpha_s);
    cJSON_AddNumberToObject(ci, "beta_s_per_byte", b->ci_beta_s_per_byte);
}

int calib_fit_alpha_beta(const struct calib_xy *pts, int n, cJSON *obj)
{
    struct calib_xy *p;
    struct fit_line one, two[2], best[2];
    double rms_one, rms, sw = 0, swy = 0, sstot = 0, ssres;
    int npieces = 1, rc = -1;
    char reason[160] = "";

    if (n < 3 || !pts)
        return -1;
    for (int i = 0; i < n; i++)
        if (!(pts[i].bytes >= 0) || !(pts[i].time_s > 0) || !isfinite(pts[i].time_s) ||
            !isfinite(pts[i].bytes))
            return -1;
    p = x_malloc(sizeof *p * (size_t)n);
    memcpy(p, pts, sizeof *p * (size_t)n);
    qsort(p, (size_t)n, sizeof *p, fit_cmp_bytes);
    gsl_set_error_handler_off();
    if (fit_range(p, 0, n, &one))
        goto free_p;
    rms_one = sqrt(one.chisq / n);
    rms = rms_one;
    best[0] = best[1] = one;
    if (rms_one > FIT_PIECE_RMS && n >= 2 * FIT_MIN_PIECE) {
        double best_chisq = INFINITY;
        for (int k = FIT_MIN_PIECE; k <= n - FIT_MIN_PIECE; k++) {
            if (p[k].bytes == p[k - 1].bytes)
                continue;
            if (fit_range(p, 0, k, &two[0]) || fit_range(p, k, n, &two[1]))
                continue;
            if (two[0].chisq + two[1].chisq < best_chisq) {
                best_chisq = two[0].chisq + two[1].chisq;
                best[0] = two[0];
                best[1] = two[1];
            }
        }
        if (isfinite(best_chisq) && sqrt(best_chisq / n) < FIT_PIECE_GAIN * rms_one) {
            npieces = 2;
            rms = sqrt(best_chisq / n);
        } else {
            best[0] = best[1] = one;
        }
    }
    ssres = npieces == 2 ? best[0].chisq + best[1].chisq : one.chisq;
    for (int i = 0; i < n; i++) {
        double w = 1.0 / (p[i].time_s * p[i].time_s);
        sw += w;
        swy += w * p[i].time_s;
    }
    for (int i = 0; i < n; i++) {
        double d = p[i].time_s - swy / sw;
        sstot += d * d / (p[i].time_s * p[i].time_s);
    }

    fit_put_line(obj, &best[0], &best[npieces - 1]);
    cJSON_AddNumberToObject(obj, "r2", sstot > 0 ? 1 - ssres / sstot : 1);
    cJSON_AddNumberToObject(obj, "rms_rel_residual", rms);
    if (npieces == 2) {
        cJSON *arr = cJSON_AddArrayToObject(obj, "pieces");
        for (int j = 0; j < 2; j++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "from_bytes", p[best[j].lo].bytes);
            cJSON_AddNumberToObject(o, "to_bytes", p[best[j].hi - 1].bytes);
            fit_put_line(o, &best[j], &best[j]);
            cJSON_AddItemToArray(arr, o);
        }
    }
    if (rms > FIT_POOR_RMS)
        snprintf(reason, sizeof reason, "relative RMS residual %.1f%% exceeds %.0f%%", 100 * rms,
                 100 * FIT_POOR_RMS);
    else if (!(best[npieces - 1].beta_s_per_byte > 0))
        snprintf(reason, sizeof reason, "beta %.3g s/B is not positive: time does not grow with size",
                 best[npieces - 1].beta_s_per_byte);
    cJSON_AddBoolToObject(obj, "poor_fit", reason[0] != 0);
    if (reason[0])
        cJSON_AddStringToObject(obj, "poor_fit_reason", reason);
    {
        cJSON *res = cJSON_AddArrayToObject(obj, "residuals");
        for (int i = 0; i < n; i++) {
            const struct fit_line *f = npieces == 2 && i >= best[1].lo ? &best[1] : &best[0];
            double fit = fit_eval(f, p[i].bytes);
            cJSON *o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "bytes", p[i].bytes);
            cJSON_AddNumberToObject(o, "fit_s", fit);
            cJSON_AddNumberToObject(o, "rel", (p[i].time_s - fit) / p[i].time_s);
            cJSON_AddItemToArray(res, o);
        }
    }
    rc = 0;
free_p:
    x_free(p);
    return rc;
}
