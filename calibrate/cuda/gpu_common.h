/*
 * gpu_common.h - what the CUDA parts of calibrate share: the C contract
 * (calib.h) with C linkage, MPI without its C++ bindings, a wall clock, and
 * a check macro that turns a failed CUDA, cuBLAS or NCCL call into an error
 * message and a jump to the function's cleanup label.
 */
#ifndef DT_GPU_COMMON_H
#define DT_GPU_COMMON_H

#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

extern "C" {
#include "../calib.h"
#include "../sweep.h"
}

#include <cstdio>
#include <time.h>

static inline double gpu_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* cond false: write "what: detail" to msg, set rc to CALIB_ERROR, goto out. */
#define GPU_TRY(cond, what, detail)                                              \
    do {                                                                         \
        if (!(cond)) {                                                           \
            snprintf(msg, msglen, "%s: %s", (what), (detail));                   \
            rc = CALIB_ERROR;                                                    \
            goto out;                                                            \
        }                                                                        \
    } while (0)

#endif
