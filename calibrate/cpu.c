/*
 * cpu.c - CPU input-pipeline calibration (placeholder until it lands).
 */
#include "calib.h"

#include <stdio.h>

int calib_cpu_run(struct calib_ctx *c, const char *user_cmd, cJSON *pipelines, char *msg, size_t msglen)
{
    (void)c;
    (void)user_cmd;
    (void)pipelines;
    snprintf(msg, msglen, "CPU calibration not built yet");
    return CALIB_SKIPPED;
}
