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

/* dst[i] += src[i] for n floats: the reduction of every benchmark. */
void mpi_sum(float *dst, const float *src, size_t n);

#endif
