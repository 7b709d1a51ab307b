/*
 * none.c - the GPU and NCCL parts of "dtplan calibrate" in a build without
 * CUDA: both report themselves skipped.
 */
#include "../calib.h"

#include <stdio.h>

int calib_gpu_run(struct calib_ctx *c, cJSON *gpu, char *msg, size_t msglen)
{
    (void)c;
    (void)gpu;
    snprintf(msg, msglen, "GPU calibration skipped: dtplan was built without CUDA");
    return CALIB_SKIPPED;
}

int calib_nccl_run(struct calib_ctx *c, cJSON *collectives, char *msg, size_t msglen)
{
    (void)c;
    (void)collectives;
    snprintf(msg, msglen, "NCCL calibration skipped: dtplan was built without CUDA");
    return CALIB_SKIPPED;
}
