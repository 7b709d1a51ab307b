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
 * protocol switch: eager to rendezvous in MPI, LL to LL128 to Simple in
 * NCCL, a token bucket's burst on a shaped link), every split into two
 * contiguous ranges of at least three sizes is tried and the best kept if it
 * cuts the residual clearly; then likewise three ranges.  The profile's
 * top-level alpha then comes from the small-size piece and beta from the
 * large-size piece, as docs/collectives.md explains.  A fit whose final relative RMS residual
 * exceeds FIT_POOR_RMS, or whose beta is not positive, is marked poor_fit
 * with a reason.  Cost: O(n^4) for n points (n is a few dozen sizes).
 */
#include "calib.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xmem.h"

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

/*
 * Best split of the sorted points into k contiguous pieces (k = 2 or 3) of
 * at least FIT_MIN_PIECE points, by total weighted residual; INFINITY when
 * there is none.  O(n^k) fits of O(n) each.
 */
static double fit_split(const struct calib_xy *p, int n, int k, struct fit_line *out)
{
    struct fit_line f[3];
    double best = INFINITY;

    for (int i = FIT_MIN_PIECE; i <= n - (k - 1) * FIT_MIN_PIECE; i++) {
        int jlo = k == 3 ? i + FIT_MIN_PIECE : n, jhi = k == 3 ? n - FIT_MIN_PIECE : n;
        if (p[i].bytes == p[i - 1].bytes || fit_range(p, 0, i, &f[0]))
            continue;
        for (int j = jlo; j <= jhi; j++) {
            double sum;
            if (k == 3 && (p[j].bytes == p[j - 1].bytes || fit_range(p, i, j, &f[1]) ||
                           fit_range(p, j, n, &f[2])))
                continue;
            if (k == 2 && fit_range(p, i, n, &f[1]))
                continue;
            sum = f[0].chisq + f[1].chisq + (k == 3 ? f[2].chisq : 0);
            if (sum < best) {
                best = sum;
                memcpy(out, f, sizeof f[0] * (size_t)k);
            }
        }
    }
    return best;
}

int calib_fit_alpha_beta(const struct calib_xy *pts, int n, cJSON *obj)
{
    struct calib_xy *p;
    struct fit_line best[3], cand[3];
    double rms, sw = 0, swy = 0, sstot = 0, ssres;
    int np = 1, rc = -1;
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
    if (fit_range(p, 0, n, &best[0]))
        goto free_p;
    ssres = best[0].chisq;
    rms = sqrt(ssres / n);
    /* Two pieces, then three, each kept only when it clearly helps. */
    for (int k = 2; k <= 3 && rms > FIT_PIECE_RMS && n >= k * FIT_MIN_PIECE; k++) {
        double c = fit_split(p, n, k, cand);
        if (!(isfinite(c) && sqrt(c / n) < FIT_PIECE_GAIN * rms))
            break;
        memcpy(best, cand, sizeof cand[0] * (size_t)k);
        np = k;
        ssres = c;
        rms = sqrt(c / n);
    }
    for (int i = 0; i < n; i++) {
        double w = 1.0 / (p[i].time_s * p[i].time_s);
        sw += w;
        swy += w * p[i].time_s;
    }
    for (int i = 0; i < n; i++) {
        double d = p[i].time_s - swy / sw;
        sstot += d * d / (p[i].time_s * p[i].time_s);
    }

    fit_put_line(obj, &best[0], &best[np - 1]);
    cJSON_AddNumberToObject(obj, "r2", sstot > 0 ? 1 - ssres / sstot : 1);
    cJSON_AddNumberToObject(obj, "rms_rel_residual", rms);
    if (np > 1) {
        cJSON *arr = cJSON_AddArrayToObject(obj, "pieces");
        for (int j = 0; j < np; j++) {
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
    else if (!(best[np - 1].beta_s_per_byte > 0))
        snprintf(reason, sizeof reason, "beta %.3g s/B is not positive: time does not grow with size",
                 best[np - 1].beta_s_per_byte);
    cJSON_AddBoolToObject(obj, "poor_fit", reason[0] != 0);
    if (reason[0])
        cJSON_AddStringToObject(obj, "poor_fit_reason", reason);
    {
        cJSON *res = cJSON_AddArrayToObject(obj, "residuals");
        int j = 0;
        for (int i = 0; i < n; i++) {
            double fit;
            cJSON *o = cJSON_CreateObject();
            while (i >= best[j].hi && j < np - 1)
                j++;
            fit = fit_eval(&best[j], p[i].bytes);
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
