/*
 * sweep.h - the one harness every collective benchmark of "dtplan
 * calibrate" runs through, as nccl-tests' benchmarks all run through its
 * TimeTest: the MPI part (mpi.c), the NCCL part (cuda/nccl.cu, through the
 * table of cuda/dtgpu.h) and the user's own collective (cmdcoll.c).
 *
 * A benchmark says only how many bytes a size moves, how to warm it up and
 * how to time one size (struct sweep_bench); the harness walks the sizes
 * (nccl-tests' -b, -e, -f), warms every size up before any is timed,
 * reports progress, takes --resume's earlier points instead of measuring
 * them again, records each point with nccl-tests' algbw and busbw,
 * checkpoints after each, and fits alpha and beta (fit.c) at the end.
 * sweep_sizes() and sweep_count() are inline so that the CUDA object, which
 * reaches dtplan only through sweep_run's forwarder, needs nothing else.
 */
#ifndef DT_SWEEP_H
#define DT_SWEEP_H

#include <cJSON.h>
#include <stddef.h>
#include <stdio.h>

#include "calib.h"

/* Message sizes from lo to hi, each step times the last. */
struct sweep_sizes {
    double lo, hi, step;
};

/*
 * The sizes c asks for (min_bytes, max_bytes, step_factor), the part's
 * defaults where c leaves them 0.  CALIB_OK, or CALIB_ERROR with msg
 * "WHAT: sizes from LO B to HI B by xF: expected ..." when they make no
 * sense.
 */
static inline int sweep_sizes(const struct calib_ctx *c, double lo, double hi, double step,
                              const char *what, struct sweep_sizes *z, char *msg, size_t msglen)
{
    z->lo = c->min_bytes > 0 ? c->min_bytes : lo;
    z->hi = c->max_bytes > 0 ? c->max_bytes : hi;
    z->step = c->step_factor > 0 ? c->step_factor : step;
    if (z->lo < 4 || z->hi < z->lo || z->step <= 1) {
        snprintf(msg, msglen, "%s: sizes from %.0f B to %.0f B by x%g: expected 4 B <= min <= "
                 "max and a factor above 1", what, z->lo, z->hi, z->step);
        return CALIB_ERROR;
    }
    return CALIB_OK;
}

/* How many sizes z holds. */
static inline int sweep_count(const struct sweep_sizes *z)
{
    int n = 0;

    for (double s = z->lo; s <= z->hi * (1 + 1e-9); s *= z->step)
        n++;
    return n;
}

/*
 * A new collectives[] entry appended to arr (docs/profile.md): name,
 * transport, ranks, hosts and bus_factor.  The part adds what is its own,
 * then calls sweep_entry_points().  Inline, as sweep_sizes().
 */
static inline cJSON *sweep_entry(cJSON *arr, const char *name, const char *transport, int ranks,
                                 int hosts, double bus)
{
    cJSON *e = cJSON_CreateObject();

    cJSON_AddStringToObject(e, "name", name);
    cJSON_AddStringToObject(e, "transport", transport);
    cJSON_AddNumberToObject(e, "ranks", ranks);
    cJSON_AddNumberToObject(e, "hosts", hosts);
    cJSON_AddNumberToObject(e, "bus_factor", bus);
    cJSON_AddItemToArray(arr, e);
    return e;
}

/* The entry's repetitions (warmup_iters when warmup >= 0, iters) and the
 * points[] array the sweep fills. */
static inline cJSON *sweep_entry_points(cJSON *e, int warmup, int iters)
{
    if (warmup >= 0)
        cJSON_AddNumberToObject(e, "warmup_iters", warmup);
    cJSON_AddNumberToObject(e, "iters", iters);
    return cJSON_AddArrayToObject(e, "points");
}

struct sweep_bench {
    const char *part;       /* "mpi", "nccl", "cmd": progress and messages */
    const char *label;      /* "MPI calibration": the failure message's start */
    const char *name;       /* the collective: "allreduce", "ring_allreduce", ... */
    double bus;             /* nccl-tests' bus factor of the collective */
    void *arg;              /* the benchmark's own state */
    /* Bytes an operation of nominal size s moves; 0 skips the size. */
    size_t (*bytes)(void *arg, double s);
    /* The untimed warm-up operations of nominal size s; NULL: none. */
    void (*warm)(void *arg, double s);
    /* After every size's warm-up, before timing (a device sync); NULL: none. */
    void (*settle)(void *arg);
    /* Every rank's decision on a point: rank 0's earlier time (or -1) to
     * all ranks; NULL in one process. */
    void (*share)(void *arg, double *t);
    /* Seconds per operation of `bytes`: > 0; -1 on failure, or -2 when it
     * wrote its own message into msg. */
    double (*time)(void *arg, size_t bytes, char *msg, size_t msglen);
    /* > 0: the timed operations of a point over its warm-up operations, so
     * that the warm-up's time gives an estimate of the sweep's before the
     * first point; 0: none */
    double timed_per_warm;
};

/* Seconds on a monotonic clock. */
double sweep_now(void);

/* A duration for a progress line: "2.3 s" under a minute, else "M:SS". */
void sweep_duration(char *buf, size_t len, double s);

/*
 * Sweep b over z.  e is the collectives[] entry and pts its points[] (both
 * NULL on ranks other than 0); *done counts points across the part, of
 * total.  At the end e is fitted, and a poor fit is added to msg.
 * CALIB_OK, or CALIB_ERROR with msg ("LABEL: NAME of N B failed", or the
 * benchmark's own) and the points measured so far kept.
 */
int sweep_run(struct calib_ctx *c, const struct sweep_sizes *z, const struct sweep_bench *b,
              cJSON *e, cJSON *pts, double *done, double total, char *msg, size_t msglen);

#endif
