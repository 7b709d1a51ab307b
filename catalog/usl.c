/*
 * usl.c - the universal scalability law (usl.h): evaluate a fitted curve and
 * name a fit's quality.  The fit itself is calibrate/usl_fit.c.
 */
#include "usl.h"

#include "../base/names.h"

double usl_eval(double lambda, double sigma, double kappa, double n)
{
    return lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1));
}

static const char *const qualities[] = { "good", "poor", "underdetermined", NULL };

const char *usl_quality_name(int q) { return NAMES_AT(qualities, q); }
