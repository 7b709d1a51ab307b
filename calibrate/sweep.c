/*
 * sweep.c - the harness of the collective benchmarks (sweep.h): sizes,
 * warm-up, progress, --resume, points with algbw and busbw, checkpoints and
 * the fit.  Cost: the benchmarks' own time; the harness adds O(points) of
 * cJSON work per point for --resume.
 */
#include "sweep.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../base/xmem.h"

/*
 * --resume: the time of the point of `bytes` in the earlier profile's entry
 * with the same name, transport, ranks and hosts as `entry`, and the same
 * command when either has one (--coll-cmd), or -1.
 */
static double previous_time(const cJSON *prev, const cJSON *entry, double bytes)
{
    const cJSON *e, *p, *was, *is;
    const char *keys[] = {"name", "transport", "ranks", "hosts"};

    cJSON_ArrayForEach(e, prev) {
        int same = 1;
        for (int k = 0; k < 4; k++)
            if (!cJSON_Compare(cJSON_GetObjectItemCaseSensitive(e, keys[k]),
                               cJSON_GetObjectItemCaseSensitive(entry, keys[k]), 1))
                same = 0;
        was = cJSON_GetObjectItemCaseSensitive(e, "command");
        is = cJSON_GetObjectItemCaseSensitive(entry, "command");
        if (!same || ((was || is) && !cJSON_Compare(was, is, 1)))
            continue;
        cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(e, "points")) {
            const cJSON *pb = cJSON_GetObjectItemCaseSensitive(p, "bytes");
            const cJSON *pt = cJSON_GetObjectItemCaseSensitive(p, "time_s");
            if (cJSON_IsNumber(pb) && pb->valuedouble == bytes && cJSON_IsNumber(pt) &&
                pt->valuedouble > 0)
                return pt->valuedouble;
        }
    }
    return -1;
}

void sweep_duration(char *buf, size_t len, double s)
{
    if (s < 60)
        snprintf(buf, len, "%.2g s", s);
    else
        snprintf(buf, len, "%d:%02d", (int)s / 60, (int)s % 60);
}

double sweep_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The start of one point on rank 0: progress, and --resume's earlier time
 * of it (or -1 to measure it); -1 on other ranks. */
static double point_start(struct calib_ctx *c, const cJSON *entry, const char *part,
                          const char *name, size_t bytes, double done, double total)
{
    char what[96];

    if (c->rank != 0)
        return -1;
    snprintf(what, sizeof what, "%s %s %zu B", part, name, bytes);
    c->progress(c->progress_arg, what, done / total);
    return c->previous && entry ? previous_time(c->previous, entry, (double)bytes) : -1;
}

/*
 * Append one measured point to a collective's points[] with nccl-tests'
 * algbw (bytes / time) and busbw (algbw x the collective's bus factor),
 * then let the command checkpoint.
 */
static void add_point(struct calib_ctx *c, cJSON *pts, double bytes, double time_s, double bus)
{
    cJSON *p = cJSON_CreateObject();
    cJSON_AddNumberToObject(p, "bytes", bytes);
    cJSON_AddNumberToObject(p, "time_s", time_s);
    cJSON_AddNumberToObject(p, "algbw_GBps", bytes / time_s / 1e9);
    cJSON_AddNumberToObject(p, "busbw_GBps", bytes / time_s / 1e9 * bus);
    cJSON_AddItemToArray(pts, p);
    if (c->checkpoint)
        c->checkpoint(c->checkpoint_arg);
}

/*
 * Fit a collectives[] entry's points (calib_fit_alpha_beta), add the link
 * rate the fit implies (link_GBps = bus_factor / beta), and append
 * "PART NAME: poor fit (REASON)" to msg when the fit is poor.  Returns 1
 * for a poor fit, else 0.
 */
static int fit_entry(cJSON *e, const char *part, char *msg, size_t msglen)
{
    const cJSON *pts = cJSON_GetObjectItemCaseSensitive(e, "points"), *p;
    const cJSON *bf = cJSON_GetObjectItemCaseSensitive(e, "bus_factor");
    double bus = cJSON_IsNumber(bf) ? bf->valuedouble : 1;
    struct calib_xy *xy = x_malloc(sizeof *xy * (size_t)(cJSON_GetArraySize(pts) + 1));
    int n = 0, poor = 0;

    cJSON_ArrayForEach(p, pts) {
        xy[n].bytes = cJSON_GetObjectItem(p, "bytes")->valuedouble;
        xy[n].time_s = cJSON_GetObjectItem(p, "time_s")->valuedouble;
        n++;
    }
    if (calib_fit_alpha_beta(xy, n, e) == 0) {
        double beta = cJSON_GetObjectItem(e, "beta_s_per_byte")->valuedouble;
        cJSON_AddNumberToObject(e, "link_GBps", beta > 0 ? bus / beta / 1e9 : 0);
        if (cJSON_IsTrue(cJSON_GetObjectItem(e, "poor_fit"))) {
            size_t used = strlen(msg);
            poor = 1;
            snprintf(msg + used, msglen - used, "%s%s %s: poor fit (%s)", used ? "; " : "", part,
                     cJSON_GetObjectItem(e, "name")->valuestring,
                     cJSON_GetObjectItem(e, "poor_fit_reason")->valuestring);
        }
    }
    x_free(xy);
    return poor;
}

int sweep_run(struct calib_ctx *c, const struct sweep_sizes *z, const struct sweep_bench *b,
              cJSON *e, cJSON *pts, double *done, double total, char *msg, size_t msglen)
{
    /* nccl-tests' warm-up: every size, before any is timed. */
    double t0 = sweep_now();

    if (b->warm)
        for (double s = z->lo; s <= z->hi * (1 + 1e-9); s *= z->step)
            if (b->bytes(b->arg, s) > 0)
                b->warm(b->arg, s);
    if (b->settle)
        b->settle(b->arg);
    if (b->warm && b->timed_per_warm > 0 && c->rank == 0) {
        /* the estimate before the first point: the warm-up, scaled */
        char what[128], when[32];
        double left = (sweep_now() - t0) * b->timed_per_warm;
        int n = 0;
        for (double s = z->lo; s <= z->hi * (1 + 1e-9); s *= z->step)
            n += b->bytes(b->arg, s) > 0;
        sweep_duration(when, sizeof when, left);
        snprintf(what, sizeof what, "estimate: %s over %d sizes, about %s to measure", b->name,
                 n, when);
        c->progress(c->progress_arg, what, *done / total);
    }
    for (double s = z->lo; s <= z->hi * (1 + 1e-9); s *= z->step) {
        size_t bytes = b->bytes(b->arg, s);
        double t;

        if (bytes == 0) {
            *done += 1;
            continue;
        }
        t = point_start(c, e, b->part, b->name, bytes, *done, total);
        if (b->share)
            b->share(b->arg, &t);
        if (t < 0)
            t = b->time(b->arg, bytes, msg, msglen);
        if (t < 0) {
            if (t > -2)
                snprintf(msg, msglen, "%s: %s of %zu B failed", b->label, b->name, bytes);
            return CALIB_ERROR;
        }
        if (pts)
            add_point(c, pts, (double)bytes, t, b->bus);
        *done += 1;
    }
    if (e)
        fit_entry(e, b->part, msg, msglen);
    return CALIB_OK;
}
