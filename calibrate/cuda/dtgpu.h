/*
 * dtgpu.h - the contract between dtplan and its CUDA part.
 *
 * The GPU and NCCL calibration (gpu.cu, nccl*.cu) is built into a shared
 * object, libdtplan-gpu.so, that dtplan loads with dlopen only when
 * `dtplan calibrate` runs those parts (dl.c).  Linking cuBLAS, cuBLASLt,
 * NCCL and the CUDA runtime into the dtplan binary itself cost every run
 * about 90 ms of start-up to map them, --version included.
 *
 * The object exports three functions with C linkage: dtgpu_init, called
 * once with the ABI version and the few dtplan functions the CUDA code calls
 * back (host.cu forwards to them), and the two parts.
 */
#ifndef DT_DTGPU_H
#define DT_DTGPU_H

#include <stddef.h>

#include <cjson/cJSON.h>

#define DTGPU_ABI 2
#define DTGPU_LIB "libdtplan-gpu.so"

struct calib_ctx;
struct sweep_sizes;
struct sweep_bench;

/* What the CUDA code calls back in dtplan: the collective harness
 * (sweep.h), which the NCCL part shares with the MPI part and --coll-cmd. */
struct dtgpu_host {
    int (*sweep_run)(struct calib_ctx *c, const struct sweep_sizes *z,
                     const struct sweep_bench *b, cJSON *e, cJSON *pts, double *done,
                     double total, char *msg, size_t msglen);
};

/* 0, or -1 when abi is not the object's DTGPU_ABI. */
typedef int (*dtgpu_init_fn)(int abi, const struct dtgpu_host *host);
/* The parts, as calib_gpu_run and calib_nccl_run of calib.h. */
typedef int (*dtgpu_part_fn)(struct calib_ctx *c, cJSON *out, char *msg, size_t msglen);

#endif
