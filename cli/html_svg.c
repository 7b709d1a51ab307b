/*
 * html_svg.c - the pieces of the HTML report's SVG charts that every chart
 * shares (html_svg.h): text escaped for HTML, and axes with their ticks,
 * grid lines and titles.  Below html.c, which draws the charts.
 */
#include "html_svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void html_escape(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default:
            if ((c >= 0x20 && c != 0x7f) || c == '\t' || c == '\n')
                fputc(c, f);
        }
    }
}

/* thousands separated: "2931941.5" -> "2,931,941.5" */
void html_group_digits(char *out, size_t cap, const char *num)
{
    const char *dot = strchr(num, '.'), *p = num;
    size_t n = 0, digits;

    if (*p == '-' && n + 1 < cap)
        out[n++] = *p++;
    digits = (size_t)((dot ? dot : num + strlen(num)) - p);
    for (size_t k = 0; k < digits && n + 2 < cap; k++) {
        if (k && (digits - k) % 3 == 0)
            out[n++] = ',';
        out[n++] = p[k];
    }
    for (p += digits; *p && n + 1 < cap; p++)
        out[n++] = *p;
    out[n] = '\0';
}

/* ---- axes ----------------------------------------------------------------- */


/* A tick step of 1, 2 or 5 x 10^k giving about n ticks over range. */
static double nice_step(double range, int n)
{
    double raw = range / n, mag, norm;

    if (!(raw > 0) || !isfinite(raw))
        return 1;
    mag = pow(10, floor(log10(raw)));
    norm = raw / mag;
    return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
}

/* Linear axis from 0 to a nice value at or above max. */
void axis_linear(struct axis *a, double max, double p0, double p1)
{
    if (!(max > 0) || !isfinite(max))
        max = 1;
    a->log2 = 0;
    a->money = 0;
    a->lo = 0;
    a->step = nice_step(max, 5);
    a->hi = ceil(max / a->step - 1e-9) * a->step;
    a->p0 = p0;
    a->p1 = p1;
}

void axis_log2(struct axis *a, double lo, double hi, double p0, double p1)
{
    a->log2 = 1;
    a->money = 0;
    a->lo = pow(2, floor(log2(lo)));
    a->hi = pow(2, ceil(log2(hi)));
    if (!(a->hi > a->lo))
        a->hi = a->lo * 2;
    a->step = 0;
    a->p0 = p0;
    a->p1 = p1;
}

double axis_px(const struct axis *a, double v)
{
    double u = a->log2 ? (log2(v) - log2(a->lo)) / (log2(a->hi) - log2(a->lo))
                       : (v - a->lo) / (a->hi - a->lo);
    return a->p0 + u * (a->p1 - a->p0);
}

/* A tick label with as many decimals as the step needs; from 10,000 up in
 * thousands, millions or billions (k, M, G), so that a cost axis reads $4M,
 * not 4000000; below, a money axis separates thousands ($2,500). */
static void tick_label(char *buf, size_t n, const struct axis *a, double v)
{
    static const char *const unit[] = {"", "k", "M", "G"};
    double d = 0, top = a->log2 ? a->hi : fmax(fabs(a->hi), fabs(a->lo)), scale = 1;
    int dec, u = 0;
    char num[24], grouped[32];

    if (top >= 1e4)
        while (u < 3 && top / scale >= 1e3) {
            scale *= 1e3;
            u++;
        }
    if (!a->log2 && a->step / scale < 1)
        d = ceil(-log10(a->step / scale) - 1e-9);
    dec = d > 0 ? (d < 8 ? (int)d : 8) : 0;  /* NaN: none; a zero step: 8 */
    snprintf(num, sizeof num, "%.*f", dec, v / scale);
    if (a->money)
        html_group_digits(grouped, sizeof grouped, num);
    else
        snprintf(grouped, sizeof grouped, "%s", num);
    snprintf(buf, n, "%s%s%s", a->money ? "$" : "", grouped, v != 0 ? unit[u] : "");
}

/* Ticks, grid lines and the title of a horizontal axis at pixel row y,
 * grid up to row ytop. */
void axis_x(FILE *f, const struct axis *a, double y, double ytop, const char *title)
{
    char lab[48];

    fprintf(f, "<g class=\"axis axis-x\">\n");
    fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#333\"/>\n", a->p0, y,
            a->p1, y);
    if (a->log2) {
        for (double v = a->lo; v <= a->hi * (1 + 1e-9); v *= 2) {
            double x = axis_px(a, v);
            tick_label(lab, sizeof lab, a, v);
            fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#ddd\"/>\n",
                    x, ytop, x, y);
            fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">%s</text>\n", x, y + 18, lab);
        }
    } else {
        for (int k = 0; a->lo + k * a->step <= a->hi * (1 + 1e-9) + 1e-300; k++) {
            double v = a->lo + k * a->step, x = axis_px(a, v);
            tick_label(lab, sizeof lab, a, v);
            fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#ddd\"/>\n",
                    x, ytop, x, y);
            fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">%s</text>\n", x, y + 18, lab);
        }
    }
    fprintf(f, "<text class=\"axis-title\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">", (a->p0 + a->p1) / 2,
            y + 38);
    html_escape(f, title);
    fprintf(f, "</text>\n</g>\n");
}

/* A vertical axis at pixel column x, grid to column xright. */
void axis_y(FILE *f, const struct axis *a, double x, double xright, const char *title)
{
    char lab[48];

    fprintf(f, "<g class=\"axis axis-y\">\n");
    fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#333\"/>\n", x, a->p0, x,
            a->p1);
    for (int k = 0; a->lo + k * a->step <= a->hi * (1 + 1e-9) + 1e-300; k++) {
        double v = a->lo + k * a->step, y = axis_px(a, v);
        tick_label(lab, sizeof lab, a, v);
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#ddd\"/>\n", x, y,
                xright, y);
        fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">%s</text>\n", x - 9, y + 4, lab);
    }
    fprintf(f, "<text class=\"axis-title\" transform=\"translate(%.2f %.2f) rotate(-90)\" "
               "text-anchor=\"middle\">", x - 58, (a->p0 + a->p1) / 2);
    html_escape(f, title);
    fprintf(f, "</text>\n</g>\n");
}

/* One legend entry at (x, y): a swatch drawn by the caller's shape, then text. */
