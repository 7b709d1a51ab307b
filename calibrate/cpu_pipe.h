/*
 * cpu_pipe.h - the built-in input pipeline run with W worker threads over
 * a bounded queue, as a data loader runs: workers take sample indices,
 * decode and augment each into a free slot of a fixed pool, and queue it;
 * the calling thread collates samples into batches (sample i goes to
 * position i mod B of batch i / B) and returns slots to the pool.  At most
 * min(B, 2W) samples are in flight and only two batches are open at a time
 * (a worker waits before taking an index of a third), and batches close in
 * order, so the output does not depend on W or on timing.
 */
#ifndef DT_CPU_PIPE_H
#define DT_CPU_PIPE_H

#include <stdint.h>

#include "../base/xmem.h"
#include "cpu_kern.h"

#define CPU_PIPE_W 320   /* synthetic image width, pixels */
#define CPU_PIPE_H 240   /* synthetic image height, pixels */
#define CPU_PIPE_IMAGES 8

struct cpu_pipe {
    struct cpuk_enc img[CPU_PIPE_IMAGES]; /* sample i decodes image i mod CPU_PIPE_IMAGES */
    uint64_t seed;
    double enc_bytes_mean;                /* mean encoded size, bytes */
};

/* Synthesise and encode the images (not timed). */
void cpu_pipe_init(struct cpu_pipe *p, uint64_t seed);
void cpu_pipe_free(struct cpu_pipe *p);

/*
 * Produce `samples` samples (a multiple of batch) with `workers` threads.
 * *time_s: wall time from the first worker's start to the last batch
 * collated.  With sum non-NULL, *sum is an FNV-1a hash of every batch in
 * order (costs a pass over the output; leave NULL when timing).  Returns 0,
 * or -1 with e set (thread creation failed, corrupt stream).
 */
int cpu_pipe_run(const struct cpu_pipe *p, int workers, long samples, int batch,
                 double *time_s, uint64_t *sum, struct dt_err *e);

#endif
