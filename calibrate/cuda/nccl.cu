/*
 * nccl.cu - the NCCL part of "dtplan calibrate": the shared harness that
 * times each collective of nccl_coll.h (all-reduce, all-gather,
 * reduce-scatter, broadcast) from 8 B to 1 GiB, as nccl-tests does, and
 * fills collectives[] entries with transport "nccl".
 *
 * Ranks: without MPI (or with one MPI rank) one process drives every local
 * GPU (ncclCommInitAll, like nccl-tests -g N); under mpirun each rank drives
 * one GPU (its local rank modulo the GPUs it sees), bootstrapped by an
 * ncclUniqueId broadcast over MPI, across hosts.
 *
 * Timing follows nccl-tests' BenchTime: warm-up at every size first; then
 * per size one untimed operation, a stream synchronize and a barrier; a CPU
 * timer around `iters` operations enqueued back to back and one
 * synchronize; time = elapsed / iters, averaged over MPI ranks.  algbw =
 * S / t, busbw = algbw x the collective's factor, GB = 1e9 bytes, S as
 * nccl-tests defines it per collective.  Each entry gets the alpha-beta fit
 * of fit.c.  Without a device: CALIB_SKIPPED with one line.
 */
#include "gpu_common.h"
#include "../hosts.h"
#include "nccl_bench.h"

#include <cuda_runtime.h>
#include <nccl.h>
#include <stdlib.h>
#include <string.h>

static const struct nccl_coll *const nccl_colls[] = {&nccl_all_reduce, &nccl_all_gather,
                                                     &nccl_reduce_scatter, &nccl_broadcast};

ncclResult_t nccl_launch(struct nccl_bench *b, const struct nccl_coll *m, size_t bytes)
{
    ncclResult_t r = ncclSuccess;

    if (b->nd > 1)
        ncclGroupStart();
    for (int d = 0; d < b->nd && r == ncclSuccess; d++)
        r = m->run(b->send[d], b->recv[d], bytes, b->nranks, b->comm[d], b->stream[d]);
    if (b->nd > 1) {
        ncclResult_t g = ncclGroupEnd();
        if (r == ncclSuccess)
            r = g;
    }
    return r;
}

int nccl_sync(struct nccl_bench *b)
{
    int bad = 0;
    for (int d = 0; d < b->nd; d++) {
        cudaSetDevice(b->dev[d]);
        bad |= cudaStreamSynchronize(b->stream[d]) != cudaSuccess;
    }
    return bad ? -1 : 0;
}

/* Average seconds per operation over ranks; -1 on failure (on any rank). */
static double nccl_time(struct nccl_bench *b, const struct nccl_coll *m, size_t bytes, int iters)
{
    double t0, dt, sum = 0;
    int bad = nccl_launch(b, m, bytes) != ncclSuccess || nccl_sync(b), all = bad;

    if (b->mpi)
        MPI_Barrier(MPI_COMM_WORLD);
    t0 = gpu_now_s();
    for (int i = 0; i < iters; i++)
        bad |= nccl_launch(b, m, bytes) != ncclSuccess;
    bad |= nccl_sync(b);
    dt = (gpu_now_s() - t0) / iters;
    if (!b->mpi)
        return bad ? -1 : dt;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD);
    MPI_Allreduce(&dt, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return all ? -1 : sum / b->size;
}


static int nccl_hosts(int mpi)
{
    return mpi ? hosts_count(MPI_COMM_WORLD) : 1;
}

static int nccl_local_rank(int mpi)
{
    MPI_Comm local;
    int lr = 0;

    if (mpi && MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local) ==
                   MPI_SUCCESS) {
        MPI_Comm_rank(local, &lr);
        MPI_Comm_free(&local);
    }
    return lr;
}

/* Bytes an operation of nominally S bytes really moves: whole floats per rank. */
static size_t nccl_bytes(const struct nccl_coll *m, size_t s, int nranks)
{
    size_t send, recv;
    m->counts(s, nranks, &send, &recv);
    return (send > recv ? send : recv) * sizeof(float);
}

/* One collective as the sweep harness (sweep.h) sees it. */
struct nccl_sweep {
    struct nccl_bench *b;
    const struct nccl_coll *m;
    int warmup, iters;
};

static size_t nccl_sweep_bytes(void *arg, double s)
{
    struct nccl_sweep *w = (struct nccl_sweep *)arg;
    return nccl_bytes(w->m, (size_t)s, w->b->nranks);
}

static void nccl_sweep_warm(void *arg, double s)
{
    struct nccl_sweep *w = (struct nccl_sweep *)arg;
    for (int i = 0; i < w->warmup; i++)
        nccl_launch(w->b, w->m, (size_t)s);
}

static void nccl_sweep_settle(void *arg)
{
    nccl_sync(((struct nccl_sweep *)arg)->b);
}

static void nccl_sweep_share(void *arg, double *t)
{
    if (((struct nccl_sweep *)arg)->b->mpi)
        MPI_Bcast(t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

static double nccl_sweep_time(void *arg, size_t bytes, char *msg, size_t msglen)
{
    struct nccl_sweep *w = (struct nccl_sweep *)arg;
    (void)msg;
    (void)msglen;
    return nccl_time(w->b, w->m, bytes, w->iters);
}

extern "C" int dtgpu_nccl_run(struct calib_ctx *c, cJSON *collectives, char *msg, size_t msglen)
{
    struct nccl_bench b;
    int rc = CALIB_OK, ndev = 0, inited = 0, hosts, version = 0, iters = c->quick ? 5 : 20;
    int warmup = c->quick ? 1 : 5;
    double done = 0, total;
    struct sweep_sizes z;
    ncclResult_t nr = ncclSuccess;

    msg[0] = 0;
    memset(&b, 0, sizeof b);
    MPI_Initialized(&inited);
    b.mpi = inited && c->size > 1;
    b.rank = c->rank;
    b.size = b.mpi ? c->size : 1;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess)
        ndev = 0;
    if (b.mpi) {
        int least = ndev;
        MPI_Allreduce(&ndev, &least, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        ndev = least;
    }
    if (ndev == 0) {
        snprintf(msg, msglen, "NCCL calibration skipped: no CUDA device%s", b.mpi ? " on some rank" : "");
        return CALIB_SKIPPED;
    }
    b.nd = b.mpi ? 1 : (ndev < NCCL_MAX_DEV ? ndev : NCCL_MAX_DEV);
    b.nranks = b.mpi ? b.size : b.nd;
    if (b.nranks < 2) {
        snprintf(msg, msglen, "NCCL calibration skipped: needs 2 or more GPUs (found 1)");
        return CALIB_SKIPPED;
    }
    if (sweep_sizes(c, 8, c->quick ? 4.0 * (1 << 20) : 1024.0 * (1 << 20), c->quick ? 4 : 2,
                    "NCCL calibration", &z, msg, msglen))
        return CALIB_ERROR;
    hosts = nccl_hosts(b.mpi);
    ncclGetVersion(&version);

    if (b.mpi) {
        ncclUniqueId id;
        b.dev[0] = nccl_local_rank(1) % ndev;
        if (b.rank == 0)
            ncclGetUniqueId(&id);
        MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
        cudaSetDevice(b.dev[0]);
        nr = ncclCommInitRank(&b.comm[0], b.nranks, id, b.rank);
    } else {
        for (int d = 0; d < b.nd; d++)
            b.dev[d] = d;
        nr = ncclCommInitAll(b.comm, b.nd, b.dev);
    }
    GPU_TRY(nr == ncclSuccess, "NCCL calibration: ncclCommInit", ncclGetErrorString(nr));
    for (int d = 0; d < b.nd; d++) {
        cudaSetDevice(b.dev[d]);
        GPU_TRY(cudaStreamCreateWithFlags(&b.stream[d], cudaStreamNonBlocking) == cudaSuccess,
                "NCCL calibration", "cudaStreamCreate failed");
        GPU_TRY(cudaMalloc(&b.send[d], (size_t)z.hi) == cudaSuccess, "NCCL calibration",
                "cudaMalloc of the send buffer failed");
        GPU_TRY(cudaMalloc(&b.recv[d], (size_t)z.hi) == cudaSuccess, "NCCL calibration",
                "cudaMalloc of the receive buffer failed");
        cudaMemset(b.send[d], 0, (size_t)z.hi);
    }
    total = (double)sweep_count(&z) * (sizeof nccl_colls / sizeof nccl_colls[0]);

    for (size_t k = 0; k < sizeof nccl_colls / sizeof nccl_colls[0] && rc == CALIB_OK; k++) {
        const struct nccl_coll *m = nccl_colls[k];
        double bus = m->bus_factor(b.nranks);
        cJSON *e = NULL, *pts = NULL;

        if (collectives) {
            e = sweep_entry(collectives, m->name, "nccl", b.nranks, hosts, bus);
            cJSON_AddNumberToObject(e, "nccl_version", version);
            pts = sweep_entry_points(e, warmup, iters);
        }
        {
            struct nccl_sweep w = {&b, m, warmup, iters};
            struct sweep_bench sb = {"nccl", "NCCL calibration", m->name, bus, &w,
                                     nccl_sweep_bytes, nccl_sweep_warm, nccl_sweep_settle,
                                     nccl_sweep_share, nccl_sweep_time,
                                     (double)iters / warmup};
            rc = sweep_run(c, &z, &sb, e, pts, &done, total, msg, msglen);
        }
        /* how much an all-reduce of the sweep's largest size slows a GEMM */
        if (rc == CALIB_OK && m == &nccl_all_reduce && e) {
            if (b.rank == 0)
                c->progress(c->progress_arg, "nccl overlap: a GEMM beside all-reduces", done / total);
            rc = nccl_overlap(&b, (size_t)z.hi, e, msg, msglen);
        }
    }
    if (b.rank == 0 && rc == CALIB_OK)
        c->progress(c->progress_arg, "nccl done", 1);
out:
    for (int d = 0; d < b.nd; d++) {
        cudaSetDevice(b.dev[d]);
        if (b.comm[d])
            ncclCommDestroy(b.comm[d]);
        if (b.stream[d])
            cudaStreamDestroy(b.stream[d]);
        cudaFree(b.send[d]);
        cudaFree(b.recv[d]);
    }
    return rc;
}
