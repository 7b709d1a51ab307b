/*
 * nccl_overlap.cu - a GEMM timed alone and while NCCL all-reduces run on
 * the same GPUs: the factor by which communication slows compute
 * (docs/model.md "Compute slowed by communication"; the profile's
 * comm_slowdown, which the planner prefers to its estimate).
 *
 * On every local GPU a cuBLAS fp16 GEMM of OVL_N^3 runs OVL_GEMMS times on
 * a stream of its own, timed by CUDA events on the first GPU: once alone,
 * then right after enough all-reduces of `bytes` were enqueued on NCCL's
 * streams to outlast the GEMMs twice over (from one all-reduce timed
 * first).  comm_slowdown = time beside the all-reduces / time alone.  The
 * entry also records whether the all-reduces did outlast the GEMMs: when
 * they did not, part of the GEMMs ran alone and the factor is low.  Under
 * MPI every rank does the same on its GPU, after a barrier, so the
 * all-reduces start together.
 */
#include "gpu_common.h"
#include "nccl_bench.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <math.h>

#define OVL_N 4096
#define OVL_GEMMS 20

int nccl_overlap(struct nccl_bench *b, size_t bytes, cJSON *entry, char *msg,
                 size_t msglen)
{
    int rc = CALIB_OK, reps;
    cublasHandle_t h[NCCL_MAX_DEV] = {0};
    cudaStream_t cs[NCCL_MAX_DEV] = {0};
    void *A[NCCL_MAX_DEV] = {0}, *C[NCCL_MAX_DEV] = {0};
    cudaEvent_t g0 = NULL, g1 = NULL, a1 = NULL;
    float alone_ms = 0, with_ms = 0, tail_ms = 0;
    const int n = OVL_N;
    const float one = 1.0f, zero = 0.0f;
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    double t0, t_ar;
    cJSON *o;
    auto gemms = [&](int k) {
        for (int i = 0; i < k; i++)
            for (int d = 0; d < b->nd; d++) {
                cudaSetDevice(b->dev[d]);
                st = cublasGemmEx(h[d], CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A[d], CUDA_R_16F,
                                  n, A[d], CUDA_R_16F, n, &zero, C[d], CUDA_R_16F, n,
                                  CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
            }
    };

    for (int d = 0; d < b->nd; d++) {
        cudaSetDevice(b->dev[d]);
        GPU_TRY(cudaStreamCreateWithFlags(&cs[d], cudaStreamNonBlocking) == cudaSuccess,
                "NCCL overlap", "cudaStreamCreate failed");
        GPU_TRY(cublasCreate(&h[d]) == CUBLAS_STATUS_SUCCESS, "NCCL overlap", "cublasCreate failed");
        cublasSetStream(h[d], cs[d]);
        GPU_TRY(cudaMalloc(&A[d], (size_t)n * n * 2) == cudaSuccess &&
                    cudaMalloc(&C[d], (size_t)n * n * 2) == cudaSuccess,
                "NCCL overlap", "cudaMalloc of the GEMM's matrices failed");
        cudaMemset(A[d], 0x1c, (size_t)n * n * 2);
    }
    cudaSetDevice(b->dev[0]);
    cudaEventCreate(&g0);
    cudaEventCreate(&g1);
    cudaEventCreate(&a1);

    /* the GEMMs alone, after a warm-up */
    gemms(2);
    for (int d = 0; d < b->nd; d++)
        cudaStreamSynchronize(cs[d]);
    cudaSetDevice(b->dev[0]);
    cudaEventRecord(g0, cs[0]);
    gemms(OVL_GEMMS);
    cudaSetDevice(b->dev[0]);
    cudaEventRecord(g1, cs[0]);
    cudaEventSynchronize(g1);
    cudaEventElapsedTime(&alone_ms, g0, g1);
    GPU_TRY(st == CUBLAS_STATUS_SUCCESS && alone_ms > 0, "NCCL overlap", "cublasGemmEx failed");

    /* one all-reduce, to know how many outlast the GEMMs twice over */
    if (b->mpi)
        MPI_Barrier(MPI_COMM_WORLD);
    t0 = gpu_now_s();
    GPU_TRY(nccl_launch(b, &nccl_all_reduce, bytes) == ncclSuccess && nccl_sync(b) == 0,
            "NCCL overlap", "ncclAllReduce failed");
    t_ar = gpu_now_s() - t0;
    if (b->mpi)
        MPI_Allreduce(MPI_IN_PLACE, &t_ar, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    reps = (int)ceil(2 * alone_ms * 1e-3 / (t_ar > 0 ? t_ar : 1e-6)) + 1;
    reps = reps > 1000 ? 1000 : reps;

    /* the GEMMs beside them */
    if (b->mpi)
        MPI_Barrier(MPI_COMM_WORLD);
    for (int r = 0; r < reps; r++)
        GPU_TRY(nccl_launch(b, &nccl_all_reduce, bytes) == ncclSuccess, "NCCL overlap",
                "ncclAllReduce failed");
    cudaSetDevice(b->dev[0]);
    cudaEventRecord(a1, b->stream[0]);
    cudaEventRecord(g0, cs[0]);
    gemms(OVL_GEMMS);
    cudaSetDevice(b->dev[0]);
    cudaEventRecord(g1, cs[0]);
    GPU_TRY(nccl_sync(b) == 0, "NCCL overlap", "the all-reduces failed");
    for (int d = 0; d < b->nd; d++)
        cudaStreamSynchronize(cs[d]);
    cudaEventElapsedTime(&with_ms, g0, g1);
    cudaEventElapsedTime(&tail_ms, g1, a1);
    GPU_TRY(st == CUBLAS_STATUS_SUCCESS && with_ms > 0, "NCCL overlap", "cublasGemmEx failed");

    o = cJSON_AddObjectToObject(entry, "overlap");
    cJSON_AddStringToObject(o, "gemm", "fp16, 4096 x 4096 x 4096, cuBLAS");
    cJSON_AddNumberToObject(o, "gemm_s", alone_ms * 1e-3 / OVL_GEMMS);
    cJSON_AddNumberToObject(o, "gemm_beside_allreduce_s", with_ms * 1e-3 / OVL_GEMMS);
    cJSON_AddNumberToObject(o, "allreduce_bytes", (double)bytes);
    cJSON_AddNumberToObject(o, "allreduces", reps);
    cJSON_AddBoolToObject(o, "allreduces_outlasted_gemms", tail_ms >= 0);
    cJSON_AddNumberToObject(entry, "comm_slowdown", with_ms / alone_ms);
out:
    for (int d = 0; d < b->nd; d++) {
        cudaSetDevice(b->dev[d]);
        if (h[d])
            cublasDestroy(h[d]);
        if (cs[d])
            cudaStreamDestroy(cs[d]);
        cudaFree(A[d]);
        cudaFree(C[d]);
    }
    if (g0)
        cudaEventDestroy(g0);
    if (g1)
        cudaEventDestroy(g1);
    if (a1)
        cudaEventDestroy(a1);
    return rc;
}
