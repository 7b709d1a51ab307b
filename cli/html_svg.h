/*
 * html_svg.h - what the HTML report's charts share (html_svg.c): text
 * escaped for HTML, and axes.  A linear axis runs from 0 to a "nice" value
 * with ticks of 1, 2 or 5 times a power of ten; a base-2 logarithmic one
 * (log2 set by its caller) ticks at each doubling.  Tick labels from 10,000
 * up are written in k, M or G.
 */
#ifndef DT_HTML_SVG_H
#define DT_HTML_SVG_H

#include <stdio.h>

/* s with &, <, >, " and ' escaped and control bytes left out; NULL: nothing. */
void html_escape(FILE *f, const char *s);

struct axis {
    double lo, hi;          /* data range shown */
    double step;            /* tick step (linear) */
    int log2;               /* 1: base-2 logarithmic */
    double p0, p1;          /* pixel positions of lo and hi */
};

/* A linear axis from 0 to a nice value at or above max, drawn from pixel
 * p0 to p1; the pixel of value v. */
void axis_linear(struct axis *a, double max, double p0, double p1);
double axis_px(const struct axis *a, double v);
/* Ticks, grid lines and the title of a horizontal axis at pixel row y (grid
 * up to row ytop), or a vertical one at pixel column x (grid to xright). */
void axis_x(FILE *f, const struct axis *a, double y, double ytop, const char *title);
void axis_y(FILE *f, const struct axis *a, double x, double xright, const char *title);

#endif
