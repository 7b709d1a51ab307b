/*
 * cpu_kern.h - the built-in input-pipeline kernels that "dtplan calibrate
 * --cpu" times: the work an image loader does per sample, on synthetic
 * images generated from a seed.
 *
 *   synthesise   a smooth RGB image with texture and noise (not timed)
 *   encode       left-neighbour prediction, then canonical Huffman coding
 *                of the residuals, as a lossless image codec does (not timed)
 *   decode       Huffman decoding bit by bit and prediction undone
 *   crop         random resized crop (scale 0.08-1, aspect 3/4-4/3, as
 *                torchvision's RandomResizedCrop) with bilinear resize to
 *                224 x 224
 *   flip         horizontal, with probability 1/2
 *   jitter       brightness, contrast and saturation, each a factor in
 *                [0.6, 1.4]
 *   normalise    to float, minus the ImageNet channel means, over the
 *                channel standard deviations, planar (CHW)
 *   collate      copy into its place in a batch (cpu.c)
 *
 * Every random choice comes from a splitmix64 stream seeded by (seed,
 * sample index), so a sample's output does not depend on which worker made
 * it or when.  Library code: no printing, no globals.
 */
#ifndef DT_CPU_KERN_H
#define DT_CPU_KERN_H

#include <stddef.h>
#include <stdint.h>

#define CPUK_OUT 224                                 /* output side, pixels */
#define CPUK_OUT_FLOATS ((size_t)3 * CPUK_OUT * CPUK_OUT)

/* One encoded image. */
struct cpuk_enc {
    int w, h;                  /* pixels */
    unsigned char len[256];    /* Huffman code length of each residual byte, 0 = unused */
    unsigned char *bits;       /* code stream, MSB first; owned */
    size_t nbytes;             /* bytes in bits */
};

/* Scratch a worker keeps between samples (the decoded image). */
struct cpuk_scratch {
    unsigned char *rgb;        /* w x h x 3, owned */
    size_t cap;                /* bytes */
};

uint64_t cpuk_splitmix64(uint64_t *state);

/* Deterministic w x h RGB image number idx of the seed into rgb (w*h*3 bytes). */
void cpuk_synth(uint64_t seed, int idx, int w, int h, unsigned char *rgb);

/* Encode rgb; out owns its stream afterwards (cpuk_enc_free). */
void cpuk_encode(const unsigned char *rgb, int w, int h, struct cpuk_enc *out);
void cpuk_enc_free(struct cpuk_enc *e);

/* Decode into rgb (w*h*3 bytes).  Returns 0, or -1 on a corrupt stream. */
int cpuk_decode(const struct cpuk_enc *e, unsigned char *rgb);

/* Crop, resize, flip, jitter and normalise decoded rgb into out
 * (CPUK_OUT_FLOATS floats), choices drawn for (seed, idx). */
void cpuk_augment(const unsigned char *rgb, int w, int h, uint64_t seed, long idx, float *out);
/* The same to a side x side output (3 x side x side floats): the trainer of
 * the validation loop feeds its small model with it. */
void cpuk_augment_to(const unsigned char *rgb, int w, int h, uint64_t seed, long idx, int side,
                     float *out);

/* Decode then augment: one sample.  Returns 0 or -1 (corrupt stream). */
int cpuk_sample(const struct cpuk_enc *e, struct cpuk_scratch *s, uint64_t seed, long idx,
                float *out);
void cpuk_scratch_free(struct cpuk_scratch *s);

/* FNV-1a 64 over n bytes, continuing from h (start with CPUK_FNV_INIT). */
#define CPUK_FNV_INIT 0xcbf29ce484222325ULL
uint64_t cpuk_fnv(uint64_t h, const void *p, size_t n);

#endif
