/*
 * mpi.c - MPI collective calibration (placeholder until it lands).
 */
#include "calib.h"

#include <stdio.h>

int calib_mpi_run(struct calib_ctx *c, cJSON *collectives, char *msg, size_t msglen)
{
    (void)c;
    (void)collectives;
    snprintf(msg, msglen, "MPI calibration not built yet");
    return CALIB_SKIPPED;
}
