/*
 * mpi.c - the MPI part of "dtplan calibrate": times each benchmark of
 * mpi_coll.h (ring all-reduce over MPI_Sendrecv, the
 * library's MPI_Allreduce, parameter-server push/pull) over message sizes
 * from 8 B to 256 MiB on every rank of MPI_COMM_WORLD, and fills
 * collectives[] entries with transport "mpi".
 *
 * Timing follows nccl-tests' BenchTime (docs/collectives.md): untimed
 * warm-up operations at every size first; then for each size one untimed
 * operation and a barrier, then `iters` operations
 * back to back between two MPI_Wtime calls; the time per operation is the
 * elapsed time over iters (the median of several such batches for small
 * sizes, below), the largest over ranks (nccl-tests' "-a 3";
 * its default averages, but an MPI send completes when the data are in the
 * sender's socket buffer, so a PS server would stop its clock early and
 * pull the average below what the link allows).  The sizes, warm-up,
 * points, --resume and the alpha-beta fit are the shared harness's
 * (sweep.h); this file adds the MPI timing, the local reduction cost per
 * byte (gamma) measured on rank 0, and the hosts.  With two or more PS workers,
 * the PS entry also gets the pull overlap (mpi_pull_overlap).
 *
 * Every rank must call calib_mpi_run (it is collective).  Only rank 0 gets
 * a non-NULL collectives array and writes into it; decisions that depend on
 * the previous profile (--resume) are made on rank 0 and broadcast.
 */
#include "calib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../base/xmem.h"
#include "hosts.h"
#include "mpi_coll.h"
#include "sweep.h"

#define MPI_MAX_DEFAULT (256.0 * 1024 * 1024)
#define MPI_MAX_QUICK (4.0 * 1024 * 1024)
#define MPI_MIN_BYTES 8
/*
 * Latency-bound sizes (below Open MPI's 64 KiB TCP eager limit) cost little
 * and scatter most: they get 10 times the iterations, as OSU's benchmarks
 * run 1000 iterations of small messages and 100 of large ones.  The extra
 * iterations run as MPI_SMALL_MORE timed batches of `iters` each, and each
 * rank keeps its median batch: a batch of 8 B operations lasts about a
 * millisecond, so one descheduling of a rank (a busy machine) would
 * otherwise move the point by a third and the fit past its poor-fit bound.
 */
#define MPI_SMALL_BYTES 65536
#define MPI_SMALL_MORE 10

static const struct mpi_coll *const mpi_colls[] = {&mpi_ring, &mpi_allreduce, &mpi_ps};

void mpi_sum(float *dst, const float *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] += src[i];
}

int mpi_wait(const struct mpi_bench *b, int n, MPI_Request *req)
{
    struct timespec ts;
    int done = 0;

    if (b->poll_sleep_s <= 0)
        return MPI_Waitall(n, req, MPI_STATUSES_IGNORE) == MPI_SUCCESS ? 0 : -1;
    ts.tv_sec = (time_t)b->poll_sleep_s;
    ts.tv_nsec = (long)((b->poll_sleep_s - (double)ts.tv_sec) * 1e9);
    for (;;) {
        if (MPI_Testall(n, req, &done, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
            return -1;
        if (done)
            return 0;
        nanosleep(&ts, NULL);
    }
}

int mpi_sendrecv(const struct mpi_bench *b, const float *send, size_t send_n, int dst, float *recv,
                 size_t recv_n, int src, int tag)
{
    MPI_Request req[2];

    if (b->poll_sleep_s <= 0)
        return MPI_Sendrecv(send, (int)send_n, MPI_FLOAT, dst, tag, recv, (int)recv_n, MPI_FLOAT, src,
                            tag, b->comm, MPI_STATUS_IGNORE) == MPI_SUCCESS ? 0 : -1;
    MPI_Irecv(recv, (int)recv_n, MPI_FLOAT, src, tag, b->comm, &req[0]);
    MPI_Isend(send, (int)send_n, MPI_FLOAT, dst, tag, b->comm, &req[1]);
    return mpi_wait(b, 2, req);
}

int mpi_barrier(const struct mpi_bench *b)
{
    MPI_Request req;

    if (b->poll_sleep_s <= 0)
        return MPI_Barrier(b->comm) == MPI_SUCCESS ? 0 : -1;
    MPI_Ibarrier(b->comm, &req);
    return mpi_wait(b, 1, &req);
}

/* Seconds per byte of dst for dst += src, on this rank (best of 5). */
static double mpi_gamma(struct mpi_bench *b)
{
    size_t bytes = b->cap_bytes < (16u << 20) ? b->cap_bytes : (16u << 20);
    size_t n = bytes / sizeof(float);
    double best = INFINITY;

    for (int r = 0; r < 5; r++) {
        double t0 = MPI_Wtime();
        mpi_sum(b->b, b->c, n);
        double t = MPI_Wtime() - t0;
        if (t < best)
            best = t;
    }
    return best / (double)(n * sizeof(float));
}


static int mpi_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/*
 * Time of one operation of `bytes` on the slowest rank, after one untimed
 * operation and a barrier: `iters` operations back to back, timed as one
 * batch, `batches` times (at most MPI_SMALL_MORE); each rank's median batch,
 * then the largest over ranks.  -1 on failure.
 */
static double mpi_time(struct mpi_bench *b, const struct mpi_coll *m, size_t bytes, int iters,
                       int batches)
{
    double t[MPI_SMALL_MORE], dt, slowest;
    int rc = m->run(b, bytes), all;

    rc |= mpi_barrier(b);
    for (int k = 0; k < batches; k++) {
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; i++)
            rc |= m->run(b, bytes);
        t[k] = (MPI_Wtime() - t0) / iters;
    }
    qsort(t, (size_t)batches, sizeof t[0], mpi_cmp_double);
    dt = batches % 2 ? t[batches / 2] : 0.5 * (t[batches / 2 - 1] + t[batches / 2]);
    MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_BOR, b->comm);
    MPI_Allreduce(&dt, &slowest, 1, MPI_DOUBLE, MPI_MAX, b->comm);
    return all ? -1 : slowest;
}

/*
 * The PS entry's pull_overlap at the largest size, at most 32 MiB: the
 * push/pull timed with a barrier after each operation (sync) and back to
 * back (mpi_ps_open), the two in a row so that they see the same link.  With
 * push and pull of P each, sync = 2P and b2b = f P + P when the first pull
 * ends at f of the pull, so f = 2 b2b / sync - 1, kept within [1/w, 1]: even
 * a first pull at once leaves the back-to-back operation the push and the
 * last worker's share of the pull (docs/model.md).
 * Collective; e is non-NULL on rank 0 only.  0, or -1 on an MPI error.
 */
#define MPI_OVERLAP_MAX_BYTES ((size_t)32 << 20)
static int mpi_pull_overlap(struct mpi_bench *b, cJSON *e, size_t bytes, int reps)
{
    int w = b->size - b->servers;
    double sync_s, b2b_s;

    if (bytes > MPI_OVERLAP_MAX_BYTES)
        bytes = MPI_OVERLAP_MAX_BYTES;
    sync_s = mpi_time(b, &mpi_ps, bytes, reps, 1);
    b2b_s = sync_s < 0 ? -1 : mpi_time(b, &mpi_ps_open, bytes, reps, 1);
    if (b2b_s < 0)
        return -1;
    if (e) {
        cJSON *o = cJSON_AddObjectToObject(e, "pull_overlap");
        cJSON_AddNumberToObject(o, "workers", w);
        cJSON_AddNumberToObject(o, "bytes", (double)bytes);
        cJSON_AddNumberToObject(o, "reps", reps);
        cJSON_AddNumberToObject(o, "sync_s", sync_s);
        cJSON_AddNumberToObject(o, "back_to_back_s", b2b_s);
        cJSON_AddNumberToObject(o, "first_pull_frac", fmin(1, fmax(1.0 / w, 2 * b2b_s / sync_s - 1)));
    }
    return 0;
}

/* One benchmark as the sweep harness (sweep.h) sees it. */
struct mpi_sweep {
    struct mpi_bench *b;
    const struct mpi_coll *m;
    int warmup, iters;
};

static size_t mpi_sweep_bytes(void *arg, double s)
{
    (void)arg;
    return (size_t)s & ~(size_t)3; /* whole floats */
}

static void mpi_sweep_warm(void *arg, double s)
{
    struct mpi_sweep *w = arg;
    for (int i = 0; i < w->warmup; i++)
        w->m->run(w->b, mpi_sweep_bytes(arg, s));
}

static void mpi_sweep_share(void *arg, double *t)
{
    struct mpi_sweep *w = arg;
    MPI_Bcast(t, 1, MPI_DOUBLE, 0, w->b->comm);
}

static double mpi_sweep_time(void *arg, size_t bytes, char *msg, size_t msglen)
{
    struct mpi_sweep *w = arg;
    (void)msg;
    (void)msglen;
    return mpi_time(w->b, w->m, bytes, w->iters, bytes < MPI_SMALL_BYTES ? MPI_SMALL_MORE : 1);
}

int calib_mpi_run(struct calib_ctx *c, cJSON *collectives, char *msg, size_t msglen)
{
    struct mpi_bench b;
    struct sweep_sizes z;
    double gamma = 0, done = 0, total;
    int inited = 0, warmup = c->quick ? 1 : 5, iters = c->quick ? 5 : 20, hosts, rc = CALIB_OK;
    unsigned long x = c->seed ? c->seed : 1;

    msg[0] = 0;
    if (c->size < 2) {
        /* Open MPI's mpirun refuses root unless told (--allow-run-as-root) */
        snprintf(msg, msglen, "MPI calibration skipped: needs 2 or more MPI ranks (run under "
                 "mpirun%s)", geteuid() == 0 ? "; as root: mpirun --allow-run-as-root, or "
                 "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 in the environment"
                 : "");
        return CALIB_SKIPPED;
    }
    MPI_Initialized(&inited);
    if (!inited) {
        snprintf(msg, msglen, "MPI calibration skipped: MPI is not started");
        return CALIB_SKIPPED;
    }
    if (sweep_sizes(c, MPI_MIN_BYTES, c->quick ? MPI_MAX_QUICK : MPI_MAX_DEFAULT,
                    c->quick ? 4 : 2, "MPI calibration", &z, msg, msglen))
        return CALIB_ERROR;
    memset(&b, 0, sizeof b);
    MPI_Comm_dup(MPI_COMM_WORLD, &b.comm);
    b.rank = c->rank;
    b.size = c->size;
    b.servers = c->ps_servers > 0 ? c->ps_servers : 1;
    b.poll_sleep_s = c->poll_sleep_s;
    b.cap_bytes = ((size_t)z.hi + 3) & ~(size_t)3;
    b.a = x_malloc(b.cap_bytes);
    b.b = x_malloc(b.cap_bytes);
    b.c = x_malloc(b.cap_bytes);
    /* Synthetic gradients from a per-rank LCG (seeded): values in [0, 1). */
    x += (unsigned long)c->rank * 7919;
    for (size_t i = 0; i < b.cap_bytes / sizeof(float); i++) {
        x = x * 6364136223846793005ul + 1442695040888963407ul;
        b.a[i] = b.b[i] = b.c[i] = (float)((x >> 40) & 0xffffff) / 16777216.0f;
    }
    hosts = hosts_count(b.comm);
    if (c->rank == 0)
        gamma = mpi_gamma(&b);
    total = (double)sweep_count(&z) * (sizeof mpi_colls / sizeof mpi_colls[0]);

    for (size_t k = 0; k < sizeof mpi_colls / sizeof mpi_colls[0] && rc == CALIB_OK; k++) {
        const struct mpi_coll *m = mpi_colls[k];
        const char *why = "";
        cJSON *e = NULL, *pts = NULL;
        double bus = m->bus_factor(&b);

        if (m->usable(&b, &why)) {
            size_t used = strlen(msg);
            snprintf(msg + used, msglen - used, "%smpi %s skipped: %s", used ? "; " : "", m->name, why);
            continue;
        }
        if (collectives) {
            e = sweep_entry(collectives, m->name, "mpi", b.size, hosts, bus);
            if (m == &mpi_ps)
                cJSON_AddNumberToObject(e, "servers", b.servers);
            cJSON_AddNumberToObject(e, "reduce_s_per_byte", gamma);
            pts = sweep_entry_points(e, warmup, iters);
        }
        {
            struct mpi_sweep w = {&b, m, warmup, iters};
            /* a point: one untimed operation and iters timed ones, against
             * warmup operations of the size before */
            struct sweep_bench sb = {"mpi", "MPI calibration", m->name, bus, &w,
                                     mpi_sweep_bytes, mpi_sweep_warm, NULL, mpi_sweep_share,
                                     mpi_sweep_time, (iters + 1.0) / warmup};
            rc = sweep_run(c, &z, &sb, e, pts, &done, total, msg, msglen);
        }
        if (m == &mpi_ps && rc == CALIB_OK && b.size - b.servers > 1 &&
            mpi_pull_overlap(&b, e, (size_t)z.hi & ~(size_t)3, iters))
            rc = CALIB_ERROR;
    }
    if (c->rank == 0 && rc == CALIB_OK)
        c->progress(c->progress_arg, "mpi done", 1);
    x_free(b.a);
    x_free(b.b);
    x_free(b.c);
    MPI_Comm_free(&b.comm);
    return rc;
}
