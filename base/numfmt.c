/*
 * numfmt.c - durations and dollar amounts as the reports write them
 * (numfmt.h).
 */
#include "numfmt.h"

#include <math.h>
#include <stdio.h>

enum numfmt_dur numfmt_dur_style(double s)
{
    if (!(s >= 0) || s < 59.95)
        return NUMFMT_S;
    if (s < 3599.5)
        return NUMFMT_MS;
    if (s < 48 * 3600.0)
        return NUMFMT_HM;
    return NUMFMT_D;
}

void numfmt_duration(char *out, size_t cap, double s, enum numfmt_dur st)
{
    long long t;

    if (!isfinite(s) || s < 0) {
        snprintf(out, cap, "-");
        return;
    }
    if (st == NUMFMT_OWN)
        st = numfmt_dur_style(s);
    switch (st) {
    case NUMFMT_S:
        snprintf(out, cap, "%.1f s", s);
        break;
    case NUMFMT_MS:
        t = llround(s);
        snprintf(out, cap, "%lldm%02llds", t / 60, t % 60);
        break;
    case NUMFMT_HM:
        t = llround(s / 60.0);
        snprintf(out, cap, "%lldh%02lldm", t / 60, t % 60);
        break;
    default:
        snprintf(out, cap, "%.1f d", s / 86400.0);
        break;
    }
}

int numfmt_usd_decimals(const double *v, int n)
{
    double lo = INFINITY;
    int d;

    for (int i = 0; i < n; i++)
        if (isfinite(v[i]) && v[i] != 0 && fabs(v[i]) < lo)
            lo = fabs(v[i]);
    if (!isfinite(lo) || lo >= 1)
        return 2;
    d = (int)ceil(-log10(lo)) + 2;  /* 3 significant digits of the smallest */
    if (d < 2)
        d = 2;
    return d > 8 ? -1 : d;
}

void numfmt_usd(char *out, size_t cap, double usd, int decimals)
{
    if (!isfinite(usd))
        snprintf(out, cap, "-");
    else if (decimals < 0)
        snprintf(out, cap, "%.3e", usd);
    else
        snprintf(out, cap, "%.*f", decimals, usd);
}
