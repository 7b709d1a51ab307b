/*
 * report_prices.c - the dates of the prices a report used (report.h
 * report_prices_line, report_prices_json; docs/output.md "Prices").
 *
 * Each instance type of the catalog carries the date its price was read
 * (instances.csv price_date).  A report names every type its clusters rent,
 * with that date or "undated", and says which are over a year older than
 * the report's date (plan_report.today: the CLI's, from SOURCE_DATE_EPOCH
 * when set, as reproducible builds do, else the clock).
 */
#include "report.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../base/clock.h"
#include "../catalog/catalog.h"

#define STALE_DAYS 365

/* Days since 1970-01-01 of "YYYY-MM-DD" (the civil calendar, proleptic
 * Gregorian); -1 when it is not such a date. */
static long days_of(const char *ymd)
{
    int y, m, d, n = 0;
    long era, yoe, doy, doe;

    if (!ymd || sscanf(ymd, "%4d-%2d-%2d%n", &y, &m, &d, &n) != 3 || n != 10)
        return -1;
    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = y - era * 400;
    doy = (153L * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* The distinct instance types the report's clusters rent, in order of
 * first use, into v (at most max); their count. */
static int types_used(const struct plan_report *rep, const struct cat_instance **v, int max)
{
    int n = 0;

    for (int i = 0; i < rep->nclusters; i++) {
        const struct sc_cluster *cl = rep->clusters[i].cl;
        for (int g = 0; cl && g < cl->ngroups; g++) {
            const struct cat_instance *in = cl->groups[g].inst;
            int k = 0;
            while (k < n && v[k] != in)
                k++;
            if (k == n && n < max)
                v[n++] = in;
        }
    }
    return n;
}

/* Days between a type's price date and the report's; -1 unknown. */
static long age_of(const struct plan_report *rep, const struct cat_instance *in)
{
    long t = days_of(rep->today), d = days_of(in->price_date);

    return t >= 0 && d >= 0 && t >= d ? t - d : -1;
}

void report_prices_line(FILE *f, const struct plan_report *rep)
{
    const struct cat_instance *v[64];
    int n = types_used(rep, v, 64), stale = 0, undated = 0;

    if (n == 0)
        return;
    fprintf(f, "Prices:");
    if (rep->today[0])
        fprintf(f, " as of %s:", rep->today);
    for (int k = 0; k < n; k++) {
        long age = age_of(rep, v[k]);
        fprintf(f, "%s %s %s", k ? "," : "", v[k]->name,
                v[k]->price_date[0] ? v[k]->price_date : "undated");
        if (age > STALE_DAYS)
            fprintf(f, " (%.1f years old)", age / 365.25);
        stale += age > STALE_DAYS;
        undated += !v[k]->price_date[0];
    }
    if (stale || undated)
        fprintf(f, "; %s may no longer hold: check them against the clouds' pages or "
                "refresh them (dtplan catalog import)",
                stale && undated ? "prices over a year old or undated"
                : stale          ? "prices over a year old"
                                 : "undated prices");
    fprintf(f, "\n");
}

struct cJSON *report_prices_json(const struct plan_report *rep)
{
    const struct cat_instance *v[64];
    int n = types_used(rep, v, 64);
    cJSON *o = cJSON_CreateObject(), *a;

    if (rep->today[0])
        cJSON_AddStringToObject(o, "as_of", rep->today);
    else
        cJSON_AddNullToObject(o, "as_of");
    a = cJSON_AddArrayToObject(o, "types");
    for (int k = 0; k < n; k++) {
        cJSON *e = cJSON_CreateObject();
        long age = age_of(rep, v[k]);
        cJSON_AddStringToObject(e, "instance", v[k]->name);
        if (v[k]->price_date[0])
            cJSON_AddStringToObject(e, "date", v[k]->price_date);
        else
            cJSON_AddNullToObject(e, "date");
        if (age >= 0)
            cJSON_AddNumberToObject(e, "age_days", (double)age);
        else
            cJSON_AddNullToObject(e, "age_days");
        cJSON_AddBoolToObject(e, "stale", age > STALE_DAYS || !v[k]->price_date[0]);
        cJSON_AddItemToArray(a, e);
    }
    return o;
}

void report_today(char *buf, size_t len)
{
    time_t t;
    struct tm tm;

    buf[0] = '\0';
    if (clock_now(&t) != 0)
        return;         /* a malformed SOURCE_DATE_EPOCH: no date, no ages */
    if (gmtime_r(&t, &tm))
        strftime(buf, len, "%Y-%m-%d", &tm);
}
