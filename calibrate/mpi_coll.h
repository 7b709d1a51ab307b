/*
 * mpi_coll.h - the shared harness of the MPI collective benchmarks (mpi.c)
 * and the interface of each benchmark (mpi_ring.c, mpi_allreduce.c,
 * mpi_ps.c), after nccl-tests' struct testColl: a benchmark file says how to
 * run one operation of S bytes and what its bus-bandwidth factor is; the
 * harness owns buffers, sizes, timing, averaging across ranks and fits.
 */
#ifndef DT_MPI_COLL_H
#define DT_MPI_COLL_H

#include <mpi.h>
#include <stddef.h>

struct mpi_bench {
    MPI_Comm comm;
    int rank, size;
    int servers;          /* parameter-server ranks: the last `servers` ranks */
    float *a, *b, *c;     /* work buffers of cap_bytes each */
    size_t cap_bytes;
    double poll_sleep_s;  /* 0: MPI_Waitall; > 0: MPI_Testall and sleep (calib_ctx) */
};

struct mpi_coll {
    const char *name;     /* collectives[].name in the profile */
    /* 0 when this benchmark can run on b's ranks, else -1 with a reason. */
    int (*usable)(const struct mpi_bench *b, const char **why);
    /* One operation on a message of `bytes` (a multiple of 4: floats). */
    int (*run)(struct mpi_bench *b, size_t bytes);
    /*
     * Bus factor: busbw = algbw * factor is the rate the busiest link
     * direction must sustain (docs/collectives.md), so that a
     * bandwidth-bound run shows busbw equal to the link rate.
     */
    double (*bus_factor)(const struct mpi_bench *b);
};

extern const struct mpi_coll mpi_ring, mpi_allreduce, mpi_ps;

/*
 * The PS push/pull without the barrier that ends each of mpi_ps's
 * operations when there are two or more workers: timed back to back, a
 * worker whose pull ends first pushes the next operation while the others
 * still pull (mpi.c, pull_overlap; docs/collectives.md).
 */
extern const struct mpi_coll mpi_ps_open;

/* dst[i] += src[i] for n floats: the reduction of every benchmark. */
void mpi_sum(float *dst, const float *src, size_t n);

/*
 * The waits of every benchmark, so that b->poll_sleep_s applies to all:
 * MPI_Waitall, MPI_Sendrecv and MPI_Barrier, or with poll_sleep_s > 0
 * their nonblocking forms completed by MPI_Testall and nanosleep.  0, or -1
 * when MPI reports an error.
 */
int mpi_wait(const struct mpi_bench *b, int n, MPI_Request *req);
int mpi_sendrecv(const struct mpi_bench *b, const float *send, size_t send_n, int dst, float *recv,
                 size_t recv_n, int src, int tag);
int mpi_barrier(const struct mpi_bench *b);

#endif
