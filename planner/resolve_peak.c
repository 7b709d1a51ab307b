/*
 * resolve_peak.c - the dense peak FLOP/s of one worker: a GPU's from the
 * catalog at the precision (TF32 runs as fp32 on a GPU without TF32 units),
 * or an assumed rate per vCPU for a CPU worker (docs/model.md).  The
 * resolver's compute time and the planner's MFU both divide by it; it calls
 * nothing of the planner.
 */
#include "resolve.h"

#include <math.h>

/* A vCPU without a profile: AVX2, 2 FMA ports x 8 fp32 lanes x 2 FLOP at
 * 3 GHz, shared by two hyperthreads. */
#define CPU_VCPU_PEAK_FLOPS 48e9

double resolve_peak_flops(const struct cat_instance *in, enum cat_prec p, double vcpus)
{
    if (in->gpu_count > 0) {
        double t;
        if (!in->gpu)
            return NAN;
        t = in->gpu->peak_tflops[p];
        if (isnan(t) && p == CAT_TF32)
            t = in->gpu->peak_tflops[CAT_FP32]; /* no TF32 units: runs as fp32 */
        return t * 1e12;
    }
    return vcpus * CPU_VCPU_PEAK_FLOPS;
}
