/*
 * gpu.cu - the GPU part of "dtplan calibrate": a cuBLAS GEMM sweep over
 * square sizes and four precisions (fp32, tf32, fp16, bf16; fp32
 * accumulation) giving achieved TFLOP/s (2 n^3 flops per GEMM), the
 * device-to-device copy rate, pinned host-to-device and device-to-host
 * rates, and the host's cost to launch an empty kernel and to synchronise
 * with one, on the first visible device of rank 0.  Fills gpu.model,
 * driver, cuda, gemm[], bandwidth and launch.  Times come from CUDA events around
 * back-to-back repetitions after warm-up, as nccl-tests times collectives.
 * Without a device: CALIB_SKIPPED with one line.
 */
#include "gpu_common.h"

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

/* Does nothing: what a launch costs the host (gpu.launch). */
__global__ static void gpu_empty(void) {}

static double wall_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct gpu_prec {
    const char *name;
    cudaDataType_t type;            /* A, B and C */
    cublasComputeType_t compute;
    size_t elem_bytes;
};

static const struct gpu_prec gpu_precs[] = {
    {"fp32", CUDA_R_32F, CUBLAS_COMPUTE_32F, 4},
    {"tf32", CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 4},
    {"fp16", CUDA_R_16F, CUBLAS_COMPUTE_32F, 2},
    {"bf16", CUDA_R_16BF, CUBLAS_COMPUTE_32F, 2},
};

/* Seconds per call of fn over iters calls after warm, by CUDA events. */
template <class F> static double gpu_time(F fn, int warm, int iters)
{
    cudaEvent_t a, b;
    float ms = 0;

    for (int i = 0; i < warm; i++)
        fn();
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventRecord(a);
    for (int i = 0; i < iters; i++)
        fn();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    cudaEventElapsedTime(&ms, a, b);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return ms * 1e-3 / iters;
}

extern "C" int dtgpu_gpu_run(struct calib_ctx *c, cJSON *gpu, char *msg, size_t msglen)
{
    int rc = CALIB_OK, ndev = 0, drv = 0, rt = 0, cublas_ver = 0;
    cudaError_t err = cudaGetDeviceCount(&ndev);
    cudaDeviceProp prop;
    cublasHandle_t h = NULL;
    void *A = NULL, *B = NULL, *C = NULL, *host = NULL;
    size_t max_n = c->quick ? 2048 : 8192, bw_bytes = c->quick ? (64u << 20) : (512u << 20);
    cJSON *gemm, *bw;
    double done = 0, total;
    char what[96];

    msg[0] = 0;
    if (err != cudaSuccess || ndev == 0) {
        snprintf(msg, msglen, "GPU calibration skipped: no CUDA device (%s)",
                 err != cudaSuccess ? cudaGetErrorString(err) : "0 devices");
        return CALIB_SKIPPED;
    }
    if (!gpu)
        return CALIB_OK; /* ranks other than 0: nothing to measure or write */
    GPU_TRY(cudaSetDevice(0) == cudaSuccess, "cudaSetDevice", "device 0");
    cudaGetDeviceProperties(&prop, 0);
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    GPU_TRY(cublasCreate(&h) == CUBLAS_STATUS_SUCCESS, "cublasCreate", "failed");
    cublasGetVersion(h, &cublas_ver);
    cJSON_AddStringToObject(gpu, "model", prop.name);
    cJSON_AddNumberToObject(gpu, "driver", drv);
    cJSON_AddNumberToObject(gpu, "cuda", rt);
    cJSON_AddNumberToObject(gpu, "cublas", cublas_ver);
    cJSON_AddNumberToObject(gpu, "memory_bytes", (double)prop.totalGlobalMem);
    cJSON_AddNumberToObject(gpu, "sms", prop.multiProcessorCount);

    GPU_TRY(cudaMalloc(&A, max_n * max_n * 4) == cudaSuccess, "cudaMalloc", "GEMM matrix A");
    GPU_TRY(cudaMalloc(&B, max_n * max_n * 4) == cudaSuccess, "cudaMalloc", "GEMM matrix B");
    GPU_TRY(cudaMalloc(&C, max_n * max_n * 4) == cudaSuccess, "cudaMalloc", "GEMM matrix C");
    /* Bytes of 0x1c: small finite values in every precision (fp16 0x1c1c = 0.0041). */
    cudaMemset(A, 0x1c, max_n * max_n * 4);
    cudaMemset(B, 0x1c, max_n * max_n * 4);
    cudaMemset(C, 0, max_n * max_n * 4);

    gemm = cJSON_AddArrayToObject(gpu, "gemm");
    total = 4.0 * 6 + 4;
    for (size_t p = 0; p < sizeof gpu_precs / sizeof gpu_precs[0]; p++) {
        const struct gpu_prec *pr = &gpu_precs[p];
        for (size_t n = 256; n <= max_n; n *= 2) {
            const float one = 1.0f, zero = 0.0f;
            cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
            int in = (int)n;
            double t, flops = 2.0 * n * n * n;
            auto run = [&]() {
                st = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, in, in, in, &one, A, pr->type, in, B,
                                  pr->type, in, &zero, C, pr->type, in, pr->compute,
                                  CUBLAS_GEMM_DEFAULT);
            };
            snprintf(what, sizeof what, "gpu gemm %s n=%zu", pr->name, n);
            c->progress(c->progress_arg, what, done / total);
            /* About 0.2 s of work per point, at least 5 and at most 200 calls. */
            t = gpu_time(run, 2, 5);
            GPU_TRY(st == CUBLAS_STATUS_SUCCESS, "cublasGemmEx", pr->name);
            {
                int iters = (int)(0.2 / (t > 0 ? t : 1e-6));
                iters = iters < 5 ? 5 : iters > 200 ? 200 : iters;
                t = gpu_time(run, 1, iters);
            }
            GPU_TRY(cudaGetLastError() == cudaSuccess, "GEMM", cudaGetErrorString(cudaGetLastError()));
            {
                cJSON *o = cJSON_CreateObject();
                cJSON_AddStringToObject(o, "precision", pr->name);
                cJSON_AddNumberToObject(o, "m", (double)n);
                cJSON_AddNumberToObject(o, "n", (double)n);
                cJSON_AddNumberToObject(o, "k", (double)n);
                cJSON_AddNumberToObject(o, "time_s", t);
                cJSON_AddNumberToObject(o, "tflops", flops / t / 1e12);
                cJSON_AddItemToArray(gemm, o);
            }
            done += 1;
            if (c->checkpoint)
                c->checkpoint(c->checkpoint_arg);
        }
    }

    /* Copy rates: bytes moved / time (a device copy reads and writes each byte once). */
    cudaFree(C);
    C = NULL;
    cudaFree(B);
    B = NULL;
    cudaFree(A);
    GPU_TRY(cudaMalloc(&A, bw_bytes) == cudaSuccess, "cudaMalloc", "copy source");
    GPU_TRY(cudaMalloc(&B, bw_bytes) == cudaSuccess, "cudaMalloc", "copy destination");
    GPU_TRY(cudaMallocHost(&host, bw_bytes) == cudaSuccess, "cudaMallocHost", "pinned buffer");
    bw = cJSON_AddObjectToObject(gpu, "bandwidth");
    cJSON_AddNumberToObject(bw, "bytes", (double)bw_bytes);
    {
        double t;
        c->progress(c->progress_arg, "gpu device-to-device copy", done / total);
        t = gpu_time([&]() { cudaMemcpyAsync(B, A, bw_bytes, cudaMemcpyDeviceToDevice); }, 2, 10);
        cJSON_AddNumberToObject(bw, "d2d_GBps", bw_bytes / t / 1e9);
        c->progress(c->progress_arg, "gpu pinned host-to-device", (done + 1) / total);
        t = gpu_time([&]() { cudaMemcpyAsync(A, host, bw_bytes, cudaMemcpyHostToDevice); }, 2, 10);
        cJSON_AddNumberToObject(bw, "h2d_GBps", bw_bytes / t / 1e9);
        c->progress(c->progress_arg, "gpu pinned device-to-host", (done + 2) / total);
        t = gpu_time([&]() { cudaMemcpyAsync(host, A, bw_bytes, cudaMemcpyDeviceToHost); }, 2, 10);
        cJSON_AddNumberToObject(bw, "d2h_GBps", bw_bytes / t / 1e9);
        GPU_TRY(cudaGetLastError() == cudaSuccess, "copy", cudaGetErrorString(cudaGetLastError()));
    }
    {
        /* launches back to back, the host's clock around them (an empty
         * kernel runs shorter than its launch: the host sets the pace), and
         * a launch followed by a synchronisation, as a training loop's
         * loss.item() waits at the end of each step */
        cJSON *ln = cJSON_AddObjectToObject(gpu, "launch");
        int n = c->quick ? 2000 : 20000, ns = c->quick ? 200 : 2000;
        double t0;

        c->progress(c->progress_arg, "gpu kernel launches", (done + 3) / total);
        for (int i = 0; i < 100; i++)
            gpu_empty<<<1, 1>>>();
        cudaDeviceSynchronize();
        t0 = wall_s();
        for (int i = 0; i < n; i++)
            gpu_empty<<<1, 1>>>();
        cudaDeviceSynchronize();
        cJSON_AddNumberToObject(ln, "kernel_s", (wall_s() - t0) / n);
        t0 = wall_s();
        for (int i = 0; i < ns; i++) {
            gpu_empty<<<1, 1>>>();
            cudaDeviceSynchronize();
        }
        cJSON_AddNumberToObject(ln, "sync_s", (wall_s() - t0) / ns);
        GPU_TRY(cudaGetLastError() == cudaSuccess, "launch", cudaGetErrorString(cudaGetLastError()));
    }
    c->progress(c->progress_arg, "gpu done", 1);
out:
    if (host)
        cudaFreeHost(host);
    cudaFree(A);
    cudaFree(B);
    cudaFree(C);
    if (h)
        cublasDestroy(h);
    return rc;
}
