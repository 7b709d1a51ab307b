/*
 * profile_sum.c - what the planner takes from a calibration profile
 * (profile.h): the numbers of a validated profile reduced to struct
 * prof_measured (the input pipeline's USL fit, the GEMM rates, the links
 * from the collectives' alpha-beta fits, with the hops of the layout
 * measured), and the link read at a message size.  profile.c reads,
 * validates and writes the file.
 */
#include "profile.h"

#include <cJSON.h>
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "usl.h"

static const cJSON *get(const cJSON *o, const char *k)
{
    return cJSON_GetObjectItemCaseSensitive(o, k);
}

static double num_or_nan(const cJSON *o, const char *k)
{
    const cJSON *v = get(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* Integer member k of o, dflt when absent or not an integer an int holds:
 * the value is checked before the conversion, never after. */
static int int_or(const cJSON *o, const char *k, int dflt)
{
    double x = num_or_nan(o, k);

    return x >= INT_MIN && x <= INT_MAX && x == floor(x) ? (int)x : dflt;
}

/* "all_reduce", "AllReduce", "all-reduce" -> "allreduce". */
static void norm_name(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    for (; *s && n + 1 < cap; s++)
        if (isalnum((unsigned char)*s))
            out[n++] = (char)tolower((unsigned char)*s);
    out[n] = '\0';
}

int profile_coll_shape(const char *name, int k, double *steps, double *factor)
{
    char n[64];

    norm_name(name, n, sizeof n);
    if (strstr(n, "allreduce")) {
        *steps = 2.0 * (k - 1);
        *factor = 2.0 * (k - 1) / k;
    } else if (strstr(n, "allgather") || strstr(n, "reducescatter")) {
        *steps = k - 1;
        *factor = (double)(k - 1) / k;
    } else if (strstr(n, "broadcast")) {
        *steps = 1;
        *factor = 1;
    } else if (strstr(n, "pushpull")) {
        /* push, then pull: one message each way; the part's bus factor
         * (2 max(1, w/s)) carries the servers' incast */
        *steps = 2;
        *factor = 2;
    } else {
        return -1;
    }
    return 0;
}

/* Per-hop latency and per-rank bus bandwidth from t = alpha + beta S of a
 * collective over k ranks (profile_coll_shape, docs/profile.md). */
static int coll_to_link(const char *name, int k, double alpha, double beta, double bus_factor,
                        double *hop_alpha, double *Bps)
{
    double steps, factor;

    if (profile_coll_shape(name, k, &steps, &factor))
        return -1;
    if (k < 2 || !(beta > 0) || isnan(alpha))
        return -1;
    if (alpha < 0)
        alpha = 0; /* an intercept below zero is the fit's noise: no latency */
    if (bus_factor > 0)
        factor = bus_factor; /* the part's own factor, when it wrote one */
    *hop_alpha = alpha / steps;
    *Bps = factor / beta;
    return 0;
}

/* The hops the intercept alpha of collective `name` over k ranks on `hosts`
 * hosts covers, as a ring runs it (sim/coll_ring.c): network and host-link
 * steps, into m (docs/profile.md "Reproducing the measured layout"). */
static void coll_hops(const char *name, int k, int hosts, double alpha, struct prof_measured *m)
{
    double steps, factor, per;

    m->net_hops = m->intra_hops = 0;
    m->net_fit_alpha_s = isnan(alpha) ? NAN : fmax(0, alpha);
    if (profile_coll_shape(name, k, &steps, &factor) || k < 2 || hosts < 2 || hosts > k)
        return;
    per = steps / (k - 1);          /* 2 an all-reduce, 1 a gather or scatter */
    if (per != 1 && per != 2) {     /* broadcast, push/pull: one message a step */
        m->net_hops = steps;
        return;
    }
    m->net_hops = per * (hosts - 1);
    m->intra_hops = per * (k - hosts);
}

/* An all-reduce entry's own fit and layout into f; none for the others. */
static void fit_of(const cJSON *it, const char *name, int k, int hosts, struct prof_fit *f)
{
    char n[64];
    double a = num_or_nan(it, "alpha_s"), b = num_or_nan(it, "beta_s_per_byte");

    memset(f, 0, sizeof *f);
    norm_name(name, n, sizeof n);
    if (!strstr(n, "allreduce") || isnan(a) || !(b > 0) || k < 2 || hosts < 1)
        return;
    f->alpha_s = fmax(0, a);
    f->beta_s = b;
    f->ranks = k;
    f->hosts = hosts;
}

/* Keep entry `it`'s points (sorted by size; the later of equal sizes wins). */
static void curve_from(const cJSON *it, int chunks, struct prof_curve *c)
{
    const cJSON *p;
    double alpha = num_or_nan(it, "alpha_s");

    memset(c, 0, sizeof *c);
    c->bus_factor = num_or_nan(it, "bus_factor");
    c->chunks = chunks > 0 ? chunks : 1;
    if (!(c->bus_factor > 0) || isnan(alpha))
        return;
    c->alpha_s = fmax(0, alpha); /* as coll_to_link: not below zero */
    cJSON_ArrayForEach(p, get(it, "points")) {
        double b = num_or_nan(p, "bytes"), t = num_or_nan(p, "time_s");
        int i, n = c->npts;
        if (!(b > 0) || !(t > 0) || n == PROF_MAX_POINTS)
            continue;
        for (i = 0; i < n && c->bytes[i] <= b; i++)
            ;
        if (i > 0 && c->bytes[i - 1] == b) { /* a size again: the later time wins */
            c->time_s[i - 1] = t;
            continue;
        }
        memmove(&c->bytes[i + 1], &c->bytes[i], sizeof(double) * (size_t)(n - i));
        memmove(&c->time_s[i + 1], &c->time_s[i], sizeof(double) * (size_t)(n - i));
        c->bytes[i] = b;
        c->time_s[i] = t;
        c->npts++;
    }
}

double profile_link_at(const struct prof_curve *c, double msg_bytes, double fitted, double line)
{
    double S = msg_bytes * c->chunks, t, f;
    int i;

    if (c->npts < 2 || !(S >= c->bytes[0]) || !(S <= c->bytes[c->npts - 1]))
        return fitted;
    for (i = 0; i + 2 < c->npts && c->bytes[i + 1] < S; i++)
        ;
    f = (log(S) - log(c->bytes[i])) / (log(c->bytes[i + 1]) - log(c->bytes[i]));
    t = exp(log(c->time_s[i]) + f * (log(c->time_s[i + 1]) - log(c->time_s[i])));
    /* A time shorter than the line takes to carry the bytes was a burst after
     * the idle gap between timed operations (a token bucket's), which
     * back-to-back buckets do not get: such a size takes the line's time.  A
     * time the line allows is kept as measured, whatever rate it implies
     * after alpha (an alpha fitted long leaves small sizes a rate above the
     * line, and capping it would add time the measurement never paid). */
    if (line > 0)
        t = fmax(t, c->bus_factor * S / line);
    if (!(t - c->alpha_s > 0))
        return fitted;
    return c->bus_factor * S / (t - c->alpha_s);
}

void profile_summarize(const cJSON *root, const char *path, struct prof_measured *m)
{
    const cJSON *v, *it, *arr;
    int best_net = -1, best_intra = -1, best_ps = -1;

    memset(m, 0, sizeof *m);
    snprintf(m->path, sizeof m->path, "%s", path);
    m->cpu_lambda = m->cpu_sigma = m->cpu_kappa = NAN;
    for (int p = 0; p < CAT_NPREC; p++)
        m->gemm_tflops[p] = NAN;
    m->net_alpha_s = m->net_Bps = m->intra_alpha_s = m->intra_Bps = m->net_fit_alpha_s = NAN;
    m->net_ps_alpha_s = m->net_ps_Bps = m->ps_first_pull_frac = NAN;
    if (cJSON_IsString(v = get(root, "instance")))
        snprintf(m->instance, sizeof m->instance, "%s", v->valuestring);
    if (cJSON_IsString(v = get(root, "host")))
        snprintf(m->host, sizeof m->host, "%s", v->valuestring);
    if (cJSON_IsString(v = get(root, "date")))
        snprintf(m->date, sizeof m->date, "%s", v->valuestring);

    arr = get(get(root, "cpu"), "pipelines");
    cJSON_ArrayForEach(it, arr) {
        const cJSON *fit = get(it, "fit"), *q;
        if (!cJSON_IsString(v = get(it, "name")) || strcmp(v->valuestring, "builtin-image") ||
            !cJSON_IsObject(fit))
            continue;
        m->cpu_lambda = num_or_nan(fit, "lambda_samples_per_s");
        m->cpu_sigma = num_or_nan(fit, "sigma");
        m->cpu_kappa = num_or_nan(fit, "kappa");
        m->cpu_cores = int_or(it, "cores", 0);
        if (cJSON_IsString(q = get(fit, "quality")))
            snprintf(m->cpu_quality, sizeof m->cpu_quality, "%s", q->valuestring);
    }

    m->comm_slowdown = NAN;
    m->launch_s = num_or_nan(get(get(root, "gpu"), "launch"), "kernel_s");
    arr = get(get(root, "gpu"), "gemm");
    cJSON_ArrayForEach(it, arr) {
        int p = catalog_prec_parse(get(it, "precision")->valuestring);
        double t = num_or_nan(it, "tflops");
        if (p >= 0 && (isnan(m->gemm_tflops[p]) || t > m->gemm_tflops[p]))
            m->gemm_tflops[p] = t;
    }

    /* Links: the user's own collective (transport "cmd", --coll-cmd) wins,
     * as it is what the workload shares its gradients with; then the
     * collective with the most ranks, a ring all-reduce on a tie (the
     * simulator's ring model).  Fits marked poor are not used. */
    arr = get(root, "collectives");
    cJSON_ArrayForEach(it, arr) {
        int k = int_or(it, "ranks", 0), hosts = int_or(it, "hosts", 0), score;
        const char *tr = get(it, "transport")->valuestring, *nm = get(it, "name")->valuestring;
        double a, B;
        /* a GEMM beside NCCL's all-reduce, over the GEMM alone (nccl_overlap.cu) */
        if (!strcmp(nm, "nccl_all_reduce") && num_or_nan(it, "comm_slowdown") > 0)
            m->comm_slowdown = num_or_nan(it, "comm_slowdown");
        if (cJSON_IsTrue(get(it, "poor_fit")) ||
            coll_to_link(nm, k, num_or_nan(it, "alpha_s"), num_or_nan(it, "beta_s_per_byte"),
                         num_or_nan(it, "bus_factor"), &a, &B)) {
            if (!m->unused[0])
                snprintf(m->unused, sizeof m->unused, "%s %s, %d ranks: %s", tr, nm, k,
                         cJSON_IsTrue(get(it, "poor_fit")) ? "a poor fit" : "no fit");
            continue;
        }
        if (hosts < 2 && strcmp(tr, "nccl") != 0 && !strstr(nm, "pushpull")) {
            /* the user's own stack or MPI on one host: no network in it, and
             * the GPU links come from NCCL's entries */
            if (!m->unused[0])
                snprintf(m->unused, sizeof m->unused, "%s %s, %d ranks on 1 host: no network "
                         "measured", tr, nm, k);
            continue;
        }
        score = 2 * k + (strstr(nm, "ring") != NULL) + (strcmp(tr, "cmd") ? 0 : 1 << 24);
        if (strstr(nm, "pushpull")) {
            /* parameter servers' one-way streams: the link of PS strategies */
            if (hosts > 1 && score > best_ps) {
                best_ps = score;
                curve_from(it, int_or(it, "servers", 0), &m->ps_curve);
                m->net_ps_alpha_s = a;
                m->net_ps_Bps = B;
                m->ps_first_pull_frac = num_or_nan(get(it, "pull_overlap"), "first_pull_frac");
                snprintf(m->net_ps_from, sizeof m->net_ps_from, "%s %s, %d ranks on %d hosts", tr,
                         nm, k, hosts);
            }
        } else if (hosts > 1 && score > best_net) {
            best_net = score;
            curve_from(it, k, &m->net_curve);
            m->net_alpha_s = a;
            m->net_Bps = B;
            coll_hops(nm, k, hosts, num_or_nan(it, "alpha_s"), m);
            fit_of(it, nm, k, hosts, &m->net_ar);
            snprintf(m->net_from, sizeof m->net_from, "%s %s, %d ranks on %d hosts", tr, nm, k,
                     hosts);
        } else if (hosts == 1 && !strcmp(tr, "nccl") && score > best_intra) {
            best_intra = score;
            m->intra_alpha_s = a;
            m->intra_Bps = B;
            fit_of(it, nm, k, hosts, &m->intra_ar);
            snprintf(m->intra_from, sizeof m->intra_from, "%s %s, %d GPUs", tr, nm, k);
        }
    }
}

int profile_load(const char *path, struct prof_measured *m, struct dt_err *e)
{
    cJSON *root;

    if (profile_read(path, &root, e))
        return -1;
    profile_summarize(root, path, m);
    cJSON_Delete(root);
    return 0;
}

double profile_cpu_speed(const struct prof_measured *m, double n)
{
    double x;

    if (!(m->cpu_lambda > 0))
        return NAN;
    if (n < 1)
        n = 1;
    if (isnan(m->cpu_sigma) || isnan(m->cpu_kappa))
        x = m->cpu_lambda;
    else
        x = usl_eval(m->cpu_lambda, m->cpu_sigma, m->cpu_kappa, n) / n;
    return x > 0 ? x / PROFILE_REF_SAMPLES_PER_S : NAN;
}
