/*
 * nccl_broadcast.cu - ncclBroadcast of S bytes from rank 0; busbw = algbw
 * (the root must send all S: nccl-tests' BroadcastGetBw, factor 1).
 */
#include "nccl_coll.h"

static void bc_counts(size_t bytes, int nranks, size_t *send, size_t *recv)
{
    (void)nranks;
    *send = *recv = bytes / sizeof(float);
}

static ncclResult_t bc_run(const void *send, void *recv, size_t bytes, int nranks, ncclComm_t comm,
                           cudaStream_t s)
{
    (void)nranks;
    return ncclBroadcast(send, recv, bytes / sizeof(float), ncclFloat, 0, comm, s);
}

static double bc_bus(int n)
{
    (void)n;
    return 1.0;
}

const struct nccl_coll nccl_broadcast = {"nccl_broadcast", bc_counts, bc_run, bc_bus};
