/*
 * t.h - the unit-test harness: each test is a function named as a sentence,
 * each check prints "ok - ..." or "FAIL - ...", and main returns the number of
 * failures.  tests/run.sh counts the lines of every test program and prints
 * the closing "N passed, N failed".
 */
#ifndef DT_T_H
#define DT_T_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int t_failed, t_passed;

#define T_CHECK(cond, ...)                                                     \
    do {                                                                       \
        if (cond) {                                                            \
            t_passed++;                                                        \
            printf("ok - ");                                                   \
        } else {                                                               \
            t_failed++;                                                        \
            printf("FAIL - %s:%d: ", __FILE__, __LINE__);                      \
        }                                                                      \
        printf(__VA_ARGS__);                                                   \
        printf("\n");                                                          \
    } while (0)

/* |got - want| <= tol * max(1, |want|): a relative tolerance for numbers
 * above 1, absolute below.  The message is a printf format. */
#define T_NEAR(got, want, tol, ...)                                            \
    do {                                                                       \
        double t_g_ = (got), t_w_ = (want);                                    \
        int t_ok_ = fabs(t_g_ - t_w_) <= (tol) * (fabs(t_w_) > 1 ? fabs(t_w_) : 1); \
        T_CHECK(t_ok_, __VA_ARGS__);                                           \
        if (!t_ok_)                                                            \
            printf("#   got %.9g, want %.9g, tolerance %g\n", t_g_, t_w_, (double)(tol)); \
    } while (0)

#define T_RUN(fn)                                                              \
    do {                                                                       \
        printf("# %s\n", #fn);                                                 \
        fn();                                                                  \
    } while (0)

#define T_DONE() (t_failed ? 1 : 0)

#endif
