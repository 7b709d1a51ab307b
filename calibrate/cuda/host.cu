/*
 * host.cu - the dtplan functions the CUDA part calls, inside
 * libdtplan-gpu.so: each forwards through the table dtgpu_init received
 * (dtgpu.h), so the object needs no symbol of the dtplan binary.
 */
#include "gpu_common.h"

extern "C" {
#include "dtgpu.h"
}

static struct dtgpu_host host;

extern "C" int dtgpu_init(int abi, const struct dtgpu_host *h)
{
    if (abi != DTGPU_ABI || !h)
        return -1;
    host = *h;
    return 0;
}

extern "C" int sweep_run(struct calib_ctx *c, const struct sweep_sizes *z,
                         const struct sweep_bench *b, cJSON *e, cJSON *pts, double *done,
                         double total, char *msg, size_t msglen)
{
    return host.sweep_run(c, z, b, e, pts, done, total, msg, msglen);
}
