/*
 * cpu.c - the CPU part of "dtplan calibrate": input-pipeline throughput
 * against parallelism, fitted with the universal scalability law.
 *
 * Two kinds of pipeline fill cpu.pipelines[] (docs/profile.md):
 *   builtin-image  the kernels of cpu_kern.c run by cpu_pipe.c with W
 *                  worker threads;
 *   cmd            the user's own command (--cmd), run by /bin/sh with
 *                  DTPLAN_WORKERS=W and DTPLAN_SAMPLES=N in its environment
 *                  and timed from fork to exit.
 * W runs over 1..2N for N online cores (oversubscribed levels give the fit
 * points beyond N; above 8 the levels thin out geometrically), each level
 * measured `reps` times.  Every point is checkpointed as it lands; with
 * --resume a point (same pipeline, command, workers and repetition) found in
 * the earlier profile is copied, not measured.  Library code: never prints;
 * progress goes through the context's callback.
 */
#include "calib.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cpu_pipe.h"
#include "usl_fit.h"

#define MAX_LEVELS 24
#define BATCH_FULL 32
#define BATCH_QUICK 8
#define TARGET_POINT_S 1.0     /* wall time aimed at per point in a full run */
#define CMD_SAMPLES_FULL 64
#define CMD_SAMPLES_QUICK 16

struct plan {
    int levels[MAX_LEVELS];
    int nlevels;
    int reps;
    int cores;
};

static int online_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 4096 ? 4096 : (int)n;
}

/* 1..min(8, 2N), then x1.5 steps, always with N and 2N. */
static void make_plan(struct plan *p, int quick)
{
    int top;

    memset(p, 0, sizeof *p);
    p->cores = online_cores();
    p->reps = quick ? 1 : 3;
    top = 2 * p->cores;
    for (int n = 1; n <= top && p->nlevels < MAX_LEVELS - 2; ) {
        p->levels[p->nlevels++] = n;
        if (n < 8)
            n++;
        else
            n = n * 3 / 2;
        if (n > p->cores && p->levels[p->nlevels - 1] < p->cores)
            n = p->cores;
    }
    if (p->levels[p->nlevels - 1] != top)
        p->levels[p->nlevels++] = top;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The earlier profile's pipeline with this name and command, or NULL. */
static const cJSON *prev_pipeline(const cJSON *previous, const char *name, const char *cmd)
{
    const cJSON *pl;

    if (!cJSON_IsArray(previous))
        return NULL;
    cJSON_ArrayForEach(pl, previous) {
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(pl, "name");
        const cJSON *cm = cJSON_GetObjectItemCaseSensitive(pl, "command");
        if (!cJSON_IsString(nm) || strcmp(nm->valuestring, name))
            continue;
        if (cmd ? !(cJSON_IsString(cm) && !strcmp(cm->valuestring, cmd)) : cJSON_IsString(cm))
            continue;
        return pl;
    }
    return NULL;
}

static const cJSON *prev_point(const cJSON *pl, int workers, int rep)
{
    const cJSON *pts = cJSON_GetObjectItemCaseSensitive(pl, "points"), *pt;

    cJSON_ArrayForEach(pt, pts) {
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(pt, "workers");
        const cJSON *r = cJSON_GetObjectItemCaseSensitive(pt, "rep");
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(pt, "samples_per_s");
        if (cJSON_IsNumber(w) && cJSON_IsNumber(r) && cJSON_IsNumber(x) &&
            w->valuedouble == workers && r->valuedouble == rep && x->valuedouble > 0)
            return pt;
    }
    return NULL;
}

/* Run the user's command once; *t wall seconds.  0 or -1 with msg. */
static int run_cmd(const char *cmd, int workers, long samples, double *t, char *msg, size_t msglen)
{
    pid_t pid;
    int st;
    double t0 = now_s();

    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        snprintf(msg, msglen, "--cmd: cannot fork: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        char w[32], s[32];
        int devnull = open("/dev/null", O_WRONLY);
        snprintf(w, sizeof w, "%d", workers);
        snprintf(s, sizeof s, "%ld", samples);
        setenv("DTPLAN_WORKERS", w, 1);
        setenv("DTPLAN_SAMPLES", s, 1);
        if (devnull >= 0) {
            dup2(devnull, STDOUT_FILENO);
            close(devnull);
        }
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            snprintf(msg, msglen, "--cmd: waitpid: %s", strerror(errno));
            return -1;
        }
    *t = now_s() - t0;
    {
        char ctx[48];
        snprintf(ctx, sizeof ctx, "DTPLAN_WORKERS=%d", workers);
        return calib_cmd_failed(st, "--cmd", ctx, msg, msglen) ? -1 : 0;
    }
}

/* Fit the USL to the pipeline's points and (re)write its "fit" object. */
static void add_fit(cJSON *pl, int cores)
{
    const cJSON *pts = cJSON_GetObjectItemCaseSensitive(pl, "points"), *pt;
    int n = cJSON_GetArraySize(pts), k = 0;
    double *w = x_calloc((size_t)n + 1, sizeof *w), *x = x_calloc((size_t)n + 1, sizeof *x);
    struct usl_fit f;
    cJSON *fit, *ci;

    cJSON_ArrayForEach(pt, pts) {
        w[k] = cJSON_GetObjectItemCaseSensitive(pt, "workers")->valuedouble;
        x[k] = cJSON_GetObjectItemCaseSensitive(pt, "samples_per_s")->valuedouble;
        k++;
    }
    usl_fit(w, x, k, &f);
    cJSON_DeleteItemFromObjectCaseSensitive(pl, "fit");
    fit = cJSON_AddObjectToObject(pl, "fit");
    cJSON_AddStringToObject(fit, "model", "usl");
    cJSON_AddNumberToObject(fit, "lambda_samples_per_s", f.lambda);
    if (isfinite(f.sigma)) {
        cJSON_AddNumberToObject(fit, "sigma", f.sigma);
        cJSON_AddNumberToObject(fit, "kappa", f.kappa);
    } else {
        cJSON_AddNullToObject(fit, "sigma");
        cJSON_AddNullToObject(fit, "kappa");
    }
    ci = cJSON_AddObjectToObject(fit, "ci95");
    {
        static const char *const names[3] = {"lambda_samples_per_s", "sigma", "kappa"};
        for (int j = 0; j < 3; j++)
            if (isfinite(f.ci95[j]))
                cJSON_AddNumberToObject(ci, names[j], f.ci95[j]);
            else
                cJSON_AddNullToObject(ci, names[j]);
    }
    if (isfinite(f.r2))
        cJSON_AddNumberToObject(fit, "r2", f.r2);
    else
        cJSON_AddNullToObject(fit, "r2");
    cJSON_AddNumberToObject(fit, "dof", f.dof);
    cJSON_AddNumberToObject(fit, "levels", f.levels);
    /* Per core when all N cores work: X(N)/N of the fit (of the best point
     * when the fit is underdetermined). */
    if (isfinite(f.sigma))
        cJSON_AddNumberToObject(fit, "per_core_samples_per_s_at_cores",
                                usl_eval(f.lambda, f.sigma, f.kappa, cores) / cores);
    else
        cJSON_AddNullToObject(fit, "per_core_samples_per_s_at_cores");
    cJSON_AddStringToObject(fit, "quality", usl_quality_name(f.quality));
    cJSON_AddBoolToObject(fit, "poor_fit", f.quality != USL_GOOD);
    cJSON_AddStringToObject(fit, "note", f.note);
    x_free(w);
    x_free(x);
}

static cJSON *new_pipeline(cJSON *pipelines, const char *name, const char *cmd, int batch,
                           long samples, int cores, const struct cpu_pipe *pp)
{
    cJSON *pl = cJSON_CreateObject(), *img;

    cJSON_AddStringToObject(pl, "name", name);
    cJSON_AddStringToObject(pl, "kind", cmd ? "cmd" : "builtin");
    if (cmd)
        cJSON_AddStringToObject(pl, "command", cmd);
    else
        cJSON_AddNullToObject(pl, "command");
    cJSON_AddNumberToObject(pl, "cores", cores);
    cJSON_AddNumberToObject(pl, "batch", batch);
    cJSON_AddNumberToObject(pl, "samples_per_point", (double)samples);
    if (pp) {
        img = cJSON_AddObjectToObject(pl, "image");
        cJSON_AddNumberToObject(img, "width", CPU_PIPE_W);
        cJSON_AddNumberToObject(img, "height", CPU_PIPE_H);
        cJSON_AddNumberToObject(img, "out_side", CPUK_OUT);
        cJSON_AddNumberToObject(img, "encoded_bytes_mean", pp->enc_bytes_mean);
        cJSON_AddStringToObject(img, "stages", "huffman decode, random resized crop + bilinear "
                                "224x224, flip, colour jitter, normalise, collate");
    }
    cJSON_AddArrayToObject(pl, "points");
    cJSON_AddItemToArray(pipelines, pl);
    return pl;
}

static void add_point(cJSON *pl, int workers, int rep, long samples, double t)
{
    cJSON *pt = cJSON_CreateObject();
    double x = (double)samples / t;

    cJSON_AddNumberToObject(pt, "workers", workers);
    cJSON_AddNumberToObject(pt, "rep", rep);
    cJSON_AddNumberToObject(pt, "samples", (double)samples);
    cJSON_AddNumberToObject(pt, "time_s", t);
    cJSON_AddNumberToObject(pt, "samples_per_s", x);
    cJSON_AddNumberToObject(pt, "per_worker_samples_per_s", x / workers);
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(pl, "points"), pt);
}

/* Measure (or copy from prev) every point of one pipeline. */
static int sweep(struct calib_ctx *c, const struct plan *p, cJSON *pl, const cJSON *prev,
                 const char *label, const struct cpu_pipe *pp, const char *cmd, int batch,
                 long samples, int *reused, int *total, char *msg, size_t msglen)
{
    int npts = p->nlevels * p->reps, k = 0;

    for (int li = 0; li < p->nlevels; li++)
        for (int rep = 1; rep <= p->reps; rep++, k++) {
            int w = p->levels[li];
            const cJSON *old = prev ? prev_point(prev, w, rep) : NULL;
            char what[96];
            double t;

            (*total)++;
            snprintf(what, sizeof what, "cpu %s: %d worker%s, repetition %d/%d", label, w,
                     w == 1 ? "" : "s", rep, p->reps);
            c->progress(c->progress_arg, what, (double)k / npts);
            if (old) {
                cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(pl, "points"),
                                     cJSON_Duplicate(old, 1));
                (*reused)++;
                continue;
            }
            if (pp) {
                struct dt_err e;
                if (cpu_pipe_run(pp, w, samples, batch, &t, NULL, &e)) {
                    snprintf(msg, msglen, "%s", e.msg);
                    return -1;
                }
            } else if (run_cmd(cmd, w, samples, &t, msg, msglen)) {
                return -1;
            }
            if (!(t > 0))
                t = 1e-9;
            add_point(pl, w, rep, samples, t);
            if (c->checkpoint)
                c->checkpoint(c->checkpoint_arg);
        }
    c->progress(c->progress_arg, label, 1.0);
    add_fit(pl, p->cores);
    if (c->checkpoint)
        c->checkpoint(c->checkpoint_arg);
    return 0;
}

int calib_cpu_run(struct calib_ctx *c, const char *user_cmd, cJSON *pipelines, char *msg, size_t msglen)
{
    struct plan p;
    struct cpu_pipe pp;
    const cJSON *prev;
    cJSON *pl;
    int batch = c->quick ? BATCH_QUICK : BATCH_FULL, reused = 0, total = 0, rc = CALIB_OK;
    long samples;
    const cJSON *ps;

    msg[0] = '\0';
    if (!pipelines)
        return CALIB_OK; /* ranks other than 0 */
    make_plan(&p, c->quick);
    cpu_pipe_init(&pp, (uint64_t)c->seed);

    /* Samples per point: from the earlier run when resuming (points must
     * stay comparable); else a pilot run sizes a point to about
     * TARGET_POINT_S at one worker. */
    prev = prev_pipeline(c->previous, "builtin-image", NULL);
    ps = prev ? cJSON_GetObjectItemCaseSensitive(prev, "samples_per_point") : NULL;
    if (cJSON_IsNumber(ps) && ps->valuedouble >= batch &&
        (long)ps->valuedouble % batch == 0) {
        samples = (long)ps->valuedouble;
    } else if (c->quick) {
        samples = 2 * batch;
        prev = NULL;
    } else {
        double t = 0;
        struct dt_err e;
        c->progress(c->progress_arg, "cpu builtin-image: pilot run", 0);
        if (cpu_pipe_run(&pp, 1, batch, batch, &t, NULL, &e)) {
            snprintf(msg, msglen, "%s", e.msg);
            rc = CALIB_ERROR;
            goto free_pipe;
        }
        samples = (long)ceil(TARGET_POINT_S / (t / batch) / batch) * batch;
        if (samples < 2 * batch)
            samples = 2 * batch;
        prev = NULL;
    }
    pl = new_pipeline(pipelines, "builtin-image", NULL, batch, samples, p.cores, &pp);
    if (sweep(c, &p, pl, prev, "builtin-image", &pp, NULL, batch, samples, &reused, &total, msg,
              msglen)) {
        rc = CALIB_ERROR;
        goto free_pipe;
    }

    if (user_cmd) {
        samples = c->quick ? CMD_SAMPLES_QUICK : CMD_SAMPLES_FULL;
        prev = prev_pipeline(c->previous, "cmd", user_cmd);
        ps = prev ? cJSON_GetObjectItemCaseSensitive(prev, "samples_per_point") : NULL;
        if (!cJSON_IsNumber(ps) || ps->valuedouble != samples)
            prev = NULL;
        pl = new_pipeline(pipelines, "cmd", user_cmd, 1, samples, p.cores, NULL);
        if (sweep(c, &p, pl, prev, "cmd", NULL, user_cmd, 1, samples, &reused, &total, msg,
                  msglen)) {
            rc = CALIB_ERROR;
            goto free_pipe;
        }
    }
    snprintf(msg, msglen, "%d point%s, %d reused from the earlier run", total,
             total == 1 ? "" : "s", reused);

free_pipe:
    cpu_pipe_free(&pp);
    return rc;
}
