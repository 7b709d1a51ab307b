/*
 * fit.c - alpha-beta least-squares fits (placeholder until it lands).
 */
#include "calib.h"

int calib_fit_alpha_beta(const struct calib_xy *pts, int n, cJSON *obj)
{
    (void)pts;
    (void)obj;
    (void)n;
    return -1;
}
