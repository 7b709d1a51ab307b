/*
 * interp.c - a row of figures read between its points (interp.h).
 */
#include "interp.h"

#include <math.h>

double interp_held(const double *xs, const double *ys, int n, double x, int logx)
{
    double f;
    int i;

    if (x <= xs[0])
        return ys[0];
    if (x >= xs[n - 1])
        return ys[n - 1];
    for (i = 1; i < n - 1 && x > xs[i]; i++)
        ;
    f = logx ? log(x / xs[i - 1]) / log(xs[i] / xs[i - 1])
             : (x - xs[i - 1]) / (xs[i] - xs[i - 1]);
    return ys[i - 1] + f * (ys[i] - ys[i - 1]);
}
