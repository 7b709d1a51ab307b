/*
 * test_calib_cpu.c - the CPU calibration: the universal scalability law fit
 * recovers known parameters, the built-in kernels do what they claim and
 * are deterministic, and the worker pool's output does not depend on the
 * number of workers.
 */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../calibrate/cpu_kern.h"
#include "../../calibrate/cpu_pipe.h"
#include "../../calibrate/usl_fit.h"
#include "t.h"

/*
 * Synthetic X(n) = 100 n / (1 + 0.05 (n-1) + 0.002 n (n-1)) for n = 1..16,
 * three repetitions each, with 1% Gaussian noise (GSL mt19937, seed 7).  The
 * fit must recover lambda within 2%, sigma within 0.02 and kappa within
 * 0.001 absolute, and each true value must lie in its 95% interval.
 */
static void usl_fit_recovers_known_parameters_from_noisy_points(void)
{
    const double L = 100, S = 0.05, K = 0.002;
    double n[48], x[48];
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    struct usl_fit f;
    int k = 0, rc;

    gsl_rng_set(r, 7);
    for (int w = 1; w <= 16; w++)
        for (int rep = 0; rep < 3; rep++, k++) {
            n[k] = w;
            x[k] = usl_eval(L, S, K, w) * (1 + gsl_ran_gaussian(r, 0.01));
        }
    gsl_rng_free(r);
    rc = usl_fit(n, x, k, &f);
    T_CHECK(rc == 0, "the fit runs on 48 points");
    T_NEAR(f.lambda, L, 0.02, "lambda recovered within 2%%");
    T_CHECK(fabs(f.sigma - S) <= 0.02, "sigma %.4f within 0.02 of %.2f", f.sigma, S);
    T_CHECK(fabs(f.kappa - K) <= 0.001, "kappa %.5f within 0.001 of %.3f", f.kappa, K);
    T_CHECK(fabs(f.lambda - L) <= f.ci95[0], "true lambda inside the 95%% interval (+-%.3g)", f.ci95[0]);
    T_CHECK(fabs(f.sigma - S) <= f.ci95[1], "true sigma inside the 95%% interval (+-%.3g)", f.ci95[1]);
    T_CHECK(fabs(f.kappa - K) <= f.ci95[2], "true kappa inside the 95%% interval (+-%.3g)", f.ci95[2]);
    T_CHECK(f.quality == USL_GOOD, "the fit is marked good (%s)", f.note);
    T_CHECK(f.dof == 45 && f.levels == 16, "45 degrees of freedom over 16 worker counts");
    T_CHECK(f.r2 > 0.99, "R^2 %.4f above 0.99", f.r2);
}

/* Exact points (no noise): the fit lands on the parameters to 1e-6. */
static void usl_fit_is_exact_on_exact_points(void)
{
    double n[8], x[8];
    struct usl_fit f;

    for (int i = 0; i < 8; i++) {
        n[i] = i + 1;
        x[i] = usl_eval(250, 0.1, 0.01, n[i]);
    }
    usl_fit(n, x, 8, &f);
    T_NEAR(f.lambda, 250, 1e-6, "lambda 250 exactly");
    T_NEAR(f.sigma, 0.1, 1e-6, "sigma 0.1 exactly");
    T_NEAR(f.kappa, 0.01, 1e-6, "kappa 0.01 exactly");
}

/* Two worker counts cannot pin three parameters: said, not invented. */
static void usl_fit_with_two_worker_counts_is_underdetermined(void)
{
    double n[4] = {1, 1, 2, 2}, x[4] = {100, 102, 190, 188};
    double n1[1] = {1}, x1[1] = {100};
    struct usl_fit f;

    usl_fit(n, x, 4, &f);
    T_CHECK(f.quality == USL_UNDERDETERMINED, "1..2 workers: underdetermined (%s)",
            usl_quality_name(f.quality));
    T_CHECK(strstr(f.note, "worker counts") != NULL, "the note says why: %s", f.note);
    T_CHECK(usl_fit(n1, x1, 1, &f) == -1 && f.quality == USL_UNDERDETERMINED,
            "one point: no fit tried, underdetermined");
    T_NEAR(f.lambda, 100, 1e-12, "one point: lambda is the rate seen");
    T_CHECK(isnan(f.sigma) && isnan(f.ci95[0]), "one point: sigma and intervals unknown");
}

/* Points that do not follow the law (throughput that zigzags) are marked poor. */
static void usl_fit_of_points_off_the_law_is_poor(void)
{
    double n[8] = {1, 2, 3, 4, 5, 6, 7, 8}, x[8] = {100, 20, 300, 15, 280, 10, 310, 5};
    struct usl_fit f;

    usl_fit(n, x, 8, &f);
    T_CHECK(f.quality == USL_POOR, "zigzag throughput: poor fit (R^2 %.3f: %s)", f.r2, f.note);
}

/* Encoding then decoding gives the image back, byte for byte. */
static void decoder_inverts_the_encoder(void)
{
    int w = 97, h = 61;
    unsigned char *a = malloc((size_t)w * h * 3), *b = malloc((size_t)w * h * 3);
    struct cpuk_enc e;

    cpuk_synth(42, 3, w, h, a);
    cpuk_encode(a, w, h, &e);
    T_CHECK(e.nbytes > 0 && e.nbytes < (size_t)w * h * 3,
            "the code is shorter than the raw image (%zu of %d bytes)", e.nbytes, w * h * 3);
    T_CHECK(cpuk_decode(&e, b) == 0, "decoding succeeds");
    T_CHECK(memcmp(a, b, (size_t)w * h * 3) == 0, "the decoded image equals the original");
    e.nbytes /= 2; /* truncated stream */
    T_CHECK(cpuk_decode(&e, b) == -1, "a truncated stream is reported, not overrun");
    cpuk_enc_free(&e);
    free(a);
    free(b);
}

/* Normalised output of a flat grey image: (v/255 - mean)/std whatever the crop. */
static void augment_of_a_flat_image_gives_the_normalised_grey(void)
{
    int w = 64, h = 48;
    unsigned char *a = malloc((size_t)w * h * 3);
    float *out = malloc(CPUK_OUT_FLOATS * sizeof(float));
    float lo = 1e9f, hi = -1e9f;

    memset(a, 128, (size_t)w * h * 3);
    cpuk_augment(a, w, h, 1, 0, out);
    for (size_t i = 0; i < (size_t)CPUK_OUT * CPUK_OUT; i++) {
        if (out[i] < lo)
            lo = out[i];
        if (out[i] > hi)
            hi = out[i];
    }
    /* Jitter scales grey 128 by a brightness factor b in [0.6, 1.4]; contrast
     * and saturation keep a flat grey; red: (128 b/255 - 0.485)/0.229. */
    T_CHECK(hi - lo < 1e-4, "the red plane is flat (spread %g)", (double)(hi - lo));
    T_CHECK(lo >= (128 * 0.6 / 255 - 0.485) / 0.229 - 1e-4 &&
            hi <= (128 * 1.4 / 255 - 0.485) / 0.229 + 1e-4,
            "its value %.4f is grey 128 under a brightness in [0.6, 1.4], normalised", (double)lo);
    free(a);
    free(out);
}

/*
 * The pipeline's output is a function of the seed alone: the same batches
 * with 1, 2 and 3 workers, the same on a second run, different for another
 * seed, and equal to the value recorded when the kernels were written.
 */
static void pipeline_output_depends_on_the_seed_only(void)
{
    struct cpu_pipe p, q;
    struct dt_err e;
    uint64_t s1 = 0, s2 = 0, s3 = 0, s1b = 0, other = 0;
    double t;

    cpu_pipe_init(&p, 1);
    cpu_pipe_init(&q, 2);
    T_CHECK(cpu_pipe_run(&p, 1, 16, 8, &t, &s1, &e) == 0, "1 worker runs");
    T_CHECK(cpu_pipe_run(&p, 2, 16, 8, &t, &s2, &e) == 0, "2 workers run");
    T_CHECK(cpu_pipe_run(&p, 3, 16, 8, &t, &s3, &e) == 0, "3 workers run");
    T_CHECK(cpu_pipe_run(&p, 1, 16, 8, &t, &s1b, &e) == 0, "1 worker again");
    T_CHECK(cpu_pipe_run(&q, 2, 16, 8, &t, &other, &e) == 0, "seed 2 runs");
    T_CHECK(s1 == s2 && s2 == s3, "same batches with 1, 2, 3 workers (%016llx)",
            (unsigned long long)s1);
    T_CHECK(s1 == s1b, "same batches on a second run");
    T_CHECK(s1 != other, "another seed gives other batches");
    T_CHECK(s1 == 0xe7ed29afe36e20a6ULL, "seed 1 batches hash to the recorded e7ed29afe36e20a6 (%016llx)", (unsigned long long)s1);
    {
        uint64_t a = 0, b = 0;
        /* More workers than a batch holds: batches still close in order. */
        T_CHECK(cpu_pipe_run(&p, 1, 48, 4, &t, &a, &e) == 0 &&
                cpu_pipe_run(&p, 7, 48, 4, &t, &b, &e) == 0 && a == b,
                "48 samples in batches of 4: 7 workers give what 1 gives (%016llx)",
                (unsigned long long)b);
    }
    T_CHECK(cpu_pipe_run(&p, 2, 12, 8, &t, NULL, &e) == -1 && strstr(e.msg, "bad run"),
            "samples not a multiple of the batch are refused: %s", e.msg);
    cpu_pipe_free(&p);
    cpu_pipe_free(&q);
}

int main(void)
{
    T_RUN(usl_fit_recovers_known_parameters_from_noisy_points);
    T_RUN(usl_fit_is_exact_on_exact_points);
    T_RUN(usl_fit_with_two_worker_counts_is_underdetermined);
    T_RUN(usl_fit_of_points_off_the_law_is_poor);
    T_RUN(decoder_inverts_the_encoder);
    T_RUN(augment_of_a_flat_image_gives_the_normalised_grey);
    T_RUN(pipeline_output_depends_on_the_seed_only);
    return T_DONE();
}
