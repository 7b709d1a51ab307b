/*
 * nccl_coll.h - one NCCL collective as the harness (nccl.cu) sees it, after
 * nccl-tests' struct testColl: how many elements each buffer holds for an
 * operation of S bytes, how to launch it, and its bus-bandwidth factor
 * (nccl-tests' doc/PERFORMANCE.md; docs/collectives.md).  One file each:
 * nccl_all_reduce.cu, nccl_all_gather.cu, nccl_reduce_scatter.cu,
 * nccl_broadcast.cu.
 */
#ifndef DT_NCCL_COLL_H
#define DT_NCCL_COLL_H

#include <cuda_runtime.h>
#include <nccl.h>
#include <stddef.h>

struct nccl_coll {
    const char *name;
    /* Elements of float sent and received per rank for S bytes on n ranks. */
    void (*counts)(size_t bytes, int nranks, size_t *send, size_t *recv);
    ncclResult_t (*run)(const void *send, void *recv, size_t bytes, int nranks, ncclComm_t comm,
                        cudaStream_t s);
    double (*bus_factor)(int nranks);
};

extern const struct nccl_coll nccl_all_reduce, nccl_all_gather, nccl_reduce_scatter, nccl_broadcast;

#endif
