/*
 * html_svg.h - what the HTML report's charts share (html_svg.c): text
 * escaped for HTML, numbers with thousands separated, and axes.  A linear
 * axis runs from 0 to a "nice" value with ticks of 1, 2 or 5 times a power
 * of ten; a base-2 logarithmic one ticks at each doubling.  Tick labels from 10,000 up are written in k, M
 * or G; a money axis's labels start with '$' ("$4M", "$2,500").
 */
#ifndef DT_HTML_SVG_H
#define DT_HTML_SVG_H

#include <stddef.h>
#include <stdio.h>

/* s with &, <, >, " and ' escaped and control bytes left out; NULL: nothing. */
void html_escape(FILE *f, const char *s);

/* num (as printf writes it: optional '-', digits, optional '.' and more)
 * with a ',' between thousands: "2931941" -> "2,931,941". */
void html_group_digits(char *out, size_t cap, const char *num);

struct axis {
    double lo, hi;          /* data range shown */
    double step;            /* tick step (linear) */
    int log2;               /* 1: base-2 logarithmic */
    int money;              /* 1: US dollars, labels "$4M" */
    double p0, p1;          /* pixel positions of lo and hi */
};

/* A linear axis from 0 to a nice value at or above max, drawn from pixel
 * p0 to p1; the pixel of value v. */
void axis_linear(struct axis *a, double max, double p0, double p1);
/* A base-2 logarithmic axis from the power of two at or below lo to the one
 * at or above hi (at least one doubling); lo > 0. */
void axis_log2(struct axis *a, double lo, double hi, double p0, double p1);
double axis_px(const struct axis *a, double v);
/* Ticks, grid lines and the title of a horizontal axis at pixel row y (grid
 * up to row ytop), or a vertical one at pixel column x (grid to xright). */
void axis_x(FILE *f, const struct axis *a, double y, double ytop, const char *title);
void axis_y(FILE *f, const struct axis *a, double x, double xright, const char *title);

#endif
