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

extern "C" double calib_point_start(struct calib_ctx *c, const cJSON *entry, const char *part,
                                    const char *name, size_t bytes, double done, double total)
{
    return host.point_start(c, entry, part, name, bytes, done, total);
}

extern "C" int calib_fit_entry(cJSON *e, const char *part, char *msg, size_t msglen)
{
    return host.fit_entry(e, part, msg, msglen);
}

extern "C" void calib_add_point(struct calib_ctx *c, cJSON *pts, double bytes, double time_s, double bus)
{
    host.add_point(c, pts, bytes, time_s, bus);
}
