/*
 * nccl_reduce_scatter.cu - ncclReduceScatter (sum of floats): S is the
 * input size (recvcount x n x 4 bytes, nccl-tests' convention);
 * busbw = algbw x (n-1)/n.
 */
#include "nccl_coll.h"

static void rs_counts(size_t bytes, int nranks, size_t *send, size_t *recv)
{
    *recv = bytes / sizeof(float) / (size_t)nranks;
    *send = *recv * (size_t)nranks;
}

static ncclResult_t rs_run(const void *send, void *recv, size_t bytes, int nranks, ncclComm_t comm,
                           cudaStream_t s)
{
    return ncclReduceScatter(send, recv, bytes / sizeof(float) / (size_t)nranks, ncclFloat, ncclSum,
                             comm, s);
}

static double rs_bus(int n)
{
    return (double)(n - 1) / n;
}

const struct nccl_coll nccl_reduce_scatter = {"nccl_reduce_scatter", rs_counts, rs_run, rs_bus};
