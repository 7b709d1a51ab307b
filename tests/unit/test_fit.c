/*
 * test_fit.c - the alpha-beta fit of calibrate/fit.c against synthetic
 * points whose true alpha and beta are known: exact lines, seeded noise, a
 * change of regime at one size, and points that follow no line at all.
 */
#include "t.h"

#include <cJSON.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "../../calibrate/calib.h"
#include "../../calibrate/sweep.h"

static double num(const cJSON *o, const char *a, const char *b)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, a);
    if (b)
        v = cJSON_GetObjectItemCaseSensitive(v, b);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static int poor(const cJSON *o)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "poor_fit"));
}

/* Sizes 8 B, 32 B, ... 128 MiB (x4 steps): 13 points. */
static int sweep(struct calib_xy *p, double alpha, double beta)
{
    int n = 0;
    for (double b = 8; b <= 128.0 * 1024 * 1024; b *= 4, n++) {
        p[n].bytes = b;
        p[n].time_s = alpha + beta * b;
    }
    return n;
}

static void an_exact_line_gives_back_its_alpha_and_beta(void)
{
    struct calib_xy p[32];
    int n = sweep(p, 50e-6, 1 / 1.25e9);
    cJSON *o = cJSON_CreateObject();

    T_CHECK(calib_fit_alpha_beta(p, n, o) == 0, "the fit of %d exact points succeeds", n);
    T_NEAR(num(o, "alpha_s", NULL) / 50e-6, 1, 1e-9, "alpha 50 us recovered");
    T_NEAR(num(o, "beta_s_per_byte", NULL) * 1.25e9, 1, 1e-9, "beta of 1.25 GB/s recovered");
    T_NEAR(num(o, "r2", NULL), 1, 1e-9, "R^2 of an exact line is 1");
    T_CHECK(!poor(o), "an exact line is not a poor fit");
    T_CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(o, "residuals")) == n, "one residual per point");
    T_CHECK(!cJSON_GetObjectItem(o, "pieces"), "one line needs no pieces");
    cJSON_Delete(o);
}

static void noisy_points_give_intervals_that_hold_the_truth(void)
{
    /* 5% lognormal-ish noise (seed 42); the 95% intervals must contain the
     * true alpha and beta, and be narrower than the values themselves. */
    struct calib_xy p[32];
    double a = 30e-6, b = 1 / 3e9;
    int n = sweep(p, a, b);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    cJSON *o = cJSON_CreateObject();

    gsl_rng_set(r, 42);
    for (int i = 0; i < n; i++)
        p[i].time_s *= 1 + gsl_ran_gaussian(r, 0.05);
    calib_fit_alpha_beta(p, n, o);
    {
        double fa = num(o, "alpha_s", NULL), ca = num(o, "ci95", "alpha_s");
        double fb = num(o, "beta_s_per_byte", NULL), cb = num(o, "ci95", "beta_s_per_byte");
        T_CHECK(fabs(fa - a) <= ca && ca < a, "alpha %.3g +- %.2g holds the true %.3g", fa, ca, a);
        T_CHECK(fabs(fb - b) <= cb && cb < b, "beta %.4g +- %.2g holds the true %.4g", fb, cb, b);
    }
    T_CHECK(!poor(o), "5%% noise is not a poor fit");
    gsl_rng_free(r);
    cJSON_Delete(o);
}

static void a_change_of_regime_is_fitted_in_two_pieces(void)
{
    /* Eager below 64 KiB: 5 us + S / 2 GB/s; rendezvous above: 80 us + S / 10 GB/s. */
    struct calib_xy p[32];
    int n = 0;
    cJSON *o = cJSON_CreateObject(), *pieces;

    for (double s = 8; s <= 256.0 * 1024 * 1024; s *= 4, n++) {
        p[n].bytes = s;
        p[n].time_s = s < 65536 ? 5e-6 + s / 2e9 : 80e-6 + s / 10e9;
    }
    calib_fit_alpha_beta(p, n, o);
    pieces = cJSON_GetObjectItem(o, "pieces");
    T_CHECK(cJSON_GetArraySize(pieces) == 2, "two pieces");
    /* Sizes go 8, 32, ... 32 KiB, 128 KiB: the first above the switch is 128 KiB. */
    T_NEAR(num(cJSON_GetArrayItem(pieces, 1), "from_bytes", NULL), 131072, 0,
           "the second piece starts at the first size above the switch, 128 KiB");
    T_NEAR(num(o, "alpha_s", NULL) / 5e-6, 1, 1e-6, "alpha from the small sizes: 5 us");
    T_NEAR(num(o, "beta_s_per_byte", NULL) * 10e9, 1, 1e-6, "beta from the large sizes: 10 GB/s");
    T_CHECK(!poor(o), "two exact pieces are not a poor fit");
    cJSON_Delete(o);
}

static void three_regimes_are_fitted_in_three_pieces(void)
{
    /* Latency-bound up to 2 KiB (20 us + S / 1 GB/s), a burst regime up to
     * 128 KiB (60 us + S / 4 GB/s), the link rate above (0.5 ms + S / 40 MB/s):
     * sizes x2 from 8 B to 32 MiB, 23 points. */
    struct calib_xy p[32];
    int n = 0;
    cJSON *o = cJSON_CreateObject(), *pieces;

    for (double s = 8; s <= 32.0 * 1024 * 1024; s *= 2, n++) {
        p[n].bytes = s;
        p[n].time_s = s <= 2048 ? 20e-6 + s / 1e9 : s <= 131072 ? 60e-6 + s / 4e9 : 0.5e-3 + s / 40e6;
    }
    calib_fit_alpha_beta(p, n, o);
    pieces = cJSON_GetObjectItem(o, "pieces");
    T_CHECK(cJSON_GetArraySize(pieces) == 3, "three pieces (%d)", cJSON_GetArraySize(pieces));
    T_NEAR(num(cJSON_GetArrayItem(pieces, 2), "from_bytes", NULL), 262144, 0,
           "the last piece starts at 256 KiB");
    T_NEAR(num(o, "alpha_s", NULL) / 20e-6, 1, 1e-6, "alpha from the first piece: 20 us");
    T_NEAR(num(o, "beta_s_per_byte", NULL) * 40e6, 1, 1e-6, "beta from the last piece: 40 MB/s");
    cJSON_Delete(o);
}

static void points_that_follow_no_line_are_marked_poor(void)
{
    struct calib_xy p[32];
    int n = sweep(p, 1e-5, 1e-9);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    cJSON *o = cJSON_CreateObject();

    gsl_rng_set(r, 7);
    for (int i = 0; i < n; i++)
        p[i].time_s = 1e-3 * (0.1 + gsl_rng_uniform(r));
    calib_fit_alpha_beta(p, n, o);
    T_CHECK(poor(o), "random times are a poor fit");
    T_CHECK(cJSON_IsString(cJSON_GetObjectItem(o, "poor_fit_reason")), "the profile says why: %s",
            cJSON_GetStringValue(cJSON_GetObjectItem(o, "poor_fit_reason")));
    gsl_rng_free(r);
    cJSON_Delete(o);
}

static void too_few_or_bad_points_are_refused(void)
{
    struct calib_xy p[3] = {{8, 1e-5}, {16, 1.1e-5}, {32, -1}};
    cJSON *o = cJSON_CreateObject();

    T_CHECK(calib_fit_alpha_beta(p, 2, o) == -1, "two points are refused");
    T_CHECK(calib_fit_alpha_beta(p, 3, o) == -1, "a negative time is refused");
    p[2] = (struct calib_xy){8, 1e-5};
    p[1] = (struct calib_xy){8, 1e-5};
    T_CHECK(calib_fit_alpha_beta(p, 3, o) == -1, "one size measured three times is refused");
    T_CHECK(cJSON_GetArraySize(o) == 0, "nothing is written on refusal");
    cJSON_Delete(o);
}

/* ---- the sweep harness (sweep.h) with a benchmark that needs no network ---- */

/* A link of 10 us + 1 ns/B; sizes under 16 B move nothing (skipped). */
struct fake {
    int warmed, settled, timed, fail_at;
};

static size_t fake_bytes(void *arg, double s)
{
    (void)arg;
    return s < 16 ? 0 : (size_t)s;
}

static void fake_warm(void *arg, double s)
{
    (void)s;
    ((struct fake *)arg)->warmed++;
}

static void fake_settle(void *arg)
{
    ((struct fake *)arg)->settled++;
}

static double fake_time(void *arg, size_t bytes, char *msg, size_t msglen)
{
    struct fake *f = arg;
    (void)msg;
    (void)msglen;
    f->timed++;
    return (int)bytes == f->fail_at ? -1 : 10e-6 + 1e-9 * (double)bytes;
}

static void noop_progress(void *arg, const char *what, double done)
{
    (void)what;
    (void)done;
    (*(int *)arg)++;
}

static void the_sweep_times_every_size_once_after_warming_all(void)
{
    struct fake f = {0, 0, 0, -1};
    int progress = 0;
    struct calib_ctx c = {0};
    struct sweep_sizes z;
    struct sweep_bench b = {"fake", "Fake calibration", "allreduce", 2.0, &f, fake_bytes,
                            fake_warm, fake_settle, NULL, fake_time, 0};
    cJSON *e = cJSON_CreateObject(), *pts, *prev;
    char msg[256] = "";
    double done = 0;

    c.progress = noop_progress;
    c.progress_arg = &progress;
    c.min_bytes = 8;
    c.max_bytes = 1 << 20;
    c.step_factor = 4;
    T_CHECK(sweep_sizes(&c, 1, 2, 2, "fake", &z, msg, sizeof msg) == CALIB_OK &&
                sweep_count(&z) == 9,
            "8 B to 1 MiB by x4 is 9 sizes (got %d)", sweep_count(&z));
    cJSON_AddStringToObject(e, "name", "allreduce");
    cJSON_AddStringToObject(e, "transport", "fake");
    cJSON_AddNumberToObject(e, "ranks", 2);
    cJSON_AddNumberToObject(e, "hosts", 2);
    cJSON_AddNumberToObject(e, "bus_factor", 2.0);
    pts = cJSON_AddArrayToObject(e, "points");
    T_CHECK(sweep_run(&c, &z, &b, e, pts, &done, 9, msg, sizeof msg) == CALIB_OK,
            "the sweep runs%s", msg);
    /* 8 B moves nothing: 8 sizes warmed and timed, 9 counted done */
    T_CHECK(f.warmed == 8 && f.settled == 1 && f.timed == 8 && done == 9 &&
                cJSON_GetArraySize(pts) == 8 && progress == 8,
            "every moving size is warmed once before any is timed and timed once (%d, %d)",
            f.warmed, f.timed);
    {
        const cJSON *p = cJSON_GetArrayItem(pts, 0);
        double t = cJSON_GetObjectItem(p, "time_s")->valuedouble;
        /* 32 B: algbw = 32 / t, busbw = 2 algbw, in GB/s */
        T_NEAR(cJSON_GetObjectItem(p, "busbw_GBps")->valuedouble, 2 * 32 / t / 1e9, 1e-12,
               "a point carries nccl-tests' busbw");
    }
    /* the fit of 10 us + 1 ns/B */
    T_NEAR(cJSON_GetObjectItem(e, "alpha_s")->valuedouble, 10e-6, 1e-9, "alpha from the points");
    T_NEAR(cJSON_GetObjectItem(e, "link_GBps")->valuedouble, 2.0, 1e-6,
           "link rate = bus factor / beta");

    /* --resume: the same entry's points are taken, nothing is timed again */
    prev = cJSON_CreateArray();
    cJSON_AddItemToArray(prev, cJSON_Duplicate(e, 1));
    c.previous = prev;
    f.timed = 0;
    {
        cJSON *e2 = cJSON_CreateObject(), *pts2;
        cJSON_AddStringToObject(e2, "name", "allreduce");
        cJSON_AddStringToObject(e2, "transport", "fake");
        cJSON_AddNumberToObject(e2, "ranks", 2);
        cJSON_AddNumberToObject(e2, "hosts", 2);
        pts2 = cJSON_AddArrayToObject(e2, "points");
        done = 0;
        T_CHECK(sweep_run(&c, &z, &b, e2, pts2, &done, 9, msg, sizeof msg) == CALIB_OK &&
                    f.timed == 0 && cJSON_GetArraySize(pts2) == 8,
                "a resumed sweep measures none of the points it has (timed %d)", f.timed);
        cJSON_Delete(e2);
    }
    c.previous = NULL;

    /* a failed point: the benchmark's words, the points so far kept */
    f.fail_at = 512;
    {
        cJSON *e3 = cJSON_CreateObject(), *pts3 = cJSON_AddArrayToObject(e3, "points");
        done = 0;
        T_CHECK(sweep_run(&c, &z, &b, e3, pts3, &done, 9, msg, sizeof msg) == CALIB_ERROR &&
                    strcmp(msg, "Fake calibration: allreduce of 512 B failed") == 0 &&
                    cJSON_GetArraySize(pts3) == 2,
                "a failed size stops the sweep with one line: %s", msg);
        cJSON_Delete(e3);
    }
    c.min_bytes = 2;
    T_CHECK(sweep_sizes(&c, 8, 16, 2, "Fake calibration", &z, msg, sizeof msg) == CALIB_ERROR &&
                strstr(msg, "Fake calibration: sizes from 2 B to"),
            "sizes under 4 B are refused: %s", msg);
    cJSON_Delete(prev);
    cJSON_Delete(e);
}

int main(void)
{
    T_RUN(an_exact_line_gives_back_its_alpha_and_beta);
    T_RUN(noisy_points_give_intervals_that_hold_the_truth);
    T_RUN(a_change_of_regime_is_fitted_in_two_pieces);
    T_RUN(three_regimes_are_fitted_in_three_pieces);
    T_RUN(the_sweep_times_every_size_once_after_warming_all);
    T_RUN(points_that_follow_no_line_are_marked_poor);
    T_RUN(too_few_or_bad_points_are_refused);
    return T_DONE();
}
