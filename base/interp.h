/*
 * interp.h - a row of figures given at rising points, read between them
 * (catalog/flash.c's attention curves by sequence, planner/resolve_ep.c's
 * dispatcher rates by ranks).
 */
#ifndef DT_INTERP_H
#define DT_INTERP_H

/* ys, given at the n rising points xs, at x: on the line between the two
 * points around it (on a log scale of x when logx), held at the ends. */
double interp_held(const double *xs, const double *ys, int n, double x, int logx);

#endif
