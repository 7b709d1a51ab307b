/*
 * nccl_bench.h - the NCCL part's communicators and buffers (nccl.cu), and
 * what nccl_overlap.cu needs of them: launching one collective on every
 * local GPU and waiting for it.
 */
#ifndef DT_NCCL_BENCH_H
#define DT_NCCL_BENCH_H

#include "nccl_coll.h"

#include <cjson/cJSON.h>

#define NCCL_MAX_DEV 16

struct nccl_bench {
    int mpi;                      /* 1 when ranks are MPI processes */
    int rank, size;               /* MPI rank and size (0 and 1 without MPI) */
    int nd;                       /* GPUs driven by this process */
    int nranks;                   /* NCCL ranks in all */
    int dev[NCCL_MAX_DEV];
    ncclComm_t comm[NCCL_MAX_DEV];
    cudaStream_t stream[NCCL_MAX_DEV];
    void *send[NCCL_MAX_DEV], *recv[NCCL_MAX_DEV];
};

/* One operation of m on every local GPU (grouped when several). */
ncclResult_t nccl_launch(struct nccl_bench *b, const struct nccl_coll *m, size_t bytes);
/* Wait for every local GPU's NCCL stream; 0, or -1 on an error. */
int nccl_sync(struct nccl_bench *b);

/*
 * How much slower a GEMM runs while all-reduces of `bytes` are in flight
 * on the same GPUs: into entry (the nccl_all_reduce entry of the profile's
 * collectives[]) as comm_slowdown and an `overlap` object.  Returns a
 * CALIB_* status with msg set on an error.
 */
int nccl_overlap(struct nccl_bench *b, size_t bytes, cJSON *entry, char *msg, size_t msglen);

#endif
