/*
 * nccl_all_reduce.cu - ncclAllReduce (sum of floats): S bytes in and out on
 * every rank; busbw = algbw x 2(n-1)/n (nccl-tests' AllReduceGetBw).
 */
#include "nccl_coll.h"

static void ar_counts(size_t bytes, int nranks, size_t *send, size_t *recv)
{
    (void)nranks;
    *send = *recv = bytes / sizeof(float);
}

static ncclResult_t ar_run(const void *send, void *recv, size_t bytes, int nranks, ncclComm_t comm,
                           cudaStream_t s)
{
    (void)nranks;
    return ncclAllReduce(send, recv, bytes / sizeof(float), ncclFloat, ncclSum, comm, s);
}

static double ar_bus(int n)
{
    return 2.0 * (n - 1) / n;
}

const struct nccl_coll nccl_all_reduce = {"nccl_all_reduce", ar_counts, ar_run, ar_bus};
