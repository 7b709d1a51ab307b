/*
 * nccl_all_gather.cu - ncclAllGather: S is the gathered size (sendcount x
 * n x 4 bytes, nccl-tests' convention); busbw = algbw x (n-1)/n.
 */
#include "nccl_coll.h"

static void ag_counts(size_t bytes, int nranks, size_t *send, size_t *recv)
{
    *send = bytes / sizeof(float) / (size_t)nranks;
    *recv = *send * (size_t)nranks;
}

static ncclResult_t ag_run(const void *send, void *recv, size_t bytes, int nranks, ncclComm_t comm,
                           cudaStream_t s)
{
    return ncclAllGather(send, recv, bytes / sizeof(float) / (size_t)nranks, ncclFloat, comm, s);
}

static double ag_bus(int n)
{
    return (double)(n - 1) / n;
}

const struct nccl_coll nccl_all_gather = {"nccl_all_gather", ag_counts, ag_run, ag_bus};
