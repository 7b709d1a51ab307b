/*
 * bench_cpu_kern.c - the built-in input-pipeline kernels of dtplan
 * calibrate, stage by stage on one core: milliseconds per sample for the
 * Huffman decode of a 320x240 image and for crop + resize + flip + jitter +
 * normalise to 224x224, then samples/s of the whole pipeline with 1 and 2
 * worker threads.  Prints figures; it does not pass or fail.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../calibrate/cpu_kern.h"
#include "../calibrate/cpu_pipe.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void)
{
    struct cpu_pipe p;
    struct dt_err e;
    unsigned char *rgb = malloc((size_t)CPU_PIPE_W * CPU_PIPE_H * 3);
    float *out = malloc(CPUK_OUT_FLOATS * sizeof(float));
    const int n = 200;
    double t0, dec, aug, t;

    cpu_pipe_init(&p, 1);
    t0 = now_s();
    for (int i = 0; i < n; i++)
        cpuk_decode(&p.img[i % CPU_PIPE_IMAGES], rgb);
    dec = (now_s() - t0) / n;
    t0 = now_s();
    for (int i = 0; i < n; i++)
        cpuk_augment(rgb, CPU_PIPE_W, CPU_PIPE_H, 1, i, out);
    aug = (now_s() - t0) / n;
    printf("bench_cpu_kern: %dx%d source, %.0f coded bytes mean, 224x224 float output\n",
           CPU_PIPE_W, CPU_PIPE_H, p.enc_bytes_mean);
    printf("  decode                            %7.3f ms/sample\n", dec * 1e3);
    printf("  crop+resize+flip+jitter+normalise %7.3f ms/sample\n", aug * 1e3);
    printf("  one core, both                    %7.1f samples/s\n", 1 / (dec + aug));
    for (int w = 1; w <= 2; w++)
        if (cpu_pipe_run(&p, w, 256, 32, &t, NULL, &e) == 0)
            printf("  pipeline, %d worker%s, batch 32    %7.1f samples/s\n", w, w > 1 ? "s" : " ",
                   256 / t);
    cpu_pipe_free(&p);
    free(rgb);
    free(out);
    return 0;
}
