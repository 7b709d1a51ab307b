/*
 * cpu_kern.c - built-in input-pipeline kernels (cpu_kern.h).
 *
 * The codec is deflate's canonical Huffman scheme (RFC 1951, 3.2.2) over the
 * residuals of a left-neighbour predictor; the decoder is the bit-at-a-time
 * canonical decoder of zlib's puff.c.  Code lengths are limited to 15 bits
 * by halving the counts and rebuilding, which costs a little compression
 * and nothing in correctness.  Cost per sample: O(w h) to decode (about
 * 3 w h symbols of a few bits each) and O(224^2) for the rest.
 */
#include "cpu_kern.h"

#include <math.h>
#include <string.h>

#include "../base/xmem.h"

#define MAXBITS 15

static const float chan_mean[3] = {0.485f, 0.456f, 0.406f};
static const float chan_std[3] = {0.229f, 0.224f, 0.225f};

uint64_t cpuk_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static double unif(uint64_t *st)
{
    return (double)(cpuk_splitmix64(st) >> 11) * (1.0 / 9007199254740992.0);
}

uint64_t cpuk_fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

void cpuk_synth(uint64_t seed, int idx, int w, int h, unsigned char *rgb)
{
    uint64_t st = seed * 0x2545f4914f6cdd1dULL + (uint64_t)idx;
    double fx[3], fy[3], ph[3];

    for (int c = 0; c < 3; c++) {
        fx[c] = 2 + 6 * unif(&st);
        fy[c] = 2 + 6 * unif(&st);
        ph[c] = 6.283185307179586 * unif(&st);
    }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < 3; c++) {
                double u = (double)x / w, v = (double)y / h;
                double s = 128 + 70 * sin(fx[c] * u * 3.14159 + ph[c]) * cos(fy[c] * v * 3.14159);
                int n = (int)(cpuk_splitmix64(&st) & 15) - 8; /* sensor noise */
                int val = (int)s + n;
                rgb[((size_t)y * w + x) * 3 + c] = (unsigned char)(val < 0 ? 0 : val > 255 ? 255 : val);
            }
}

/* Residual of byte i: value minus the same channel of the left pixel (the
 * pixel above in the first column, 128 for the very first pixel), mod 256. */
static unsigned pred(const unsigned char *rgb, int w, size_t i)
{
    size_t px = i / 3, x = px % (size_t)w;
    if (x > 0)
        return rgb[i - 3];
    if (px >= (size_t)w)
        return rgb[i - (size_t)w * 3];
    return 128;
}

/* Huffman code lengths for counts (0 = unused symbol), at most MAXBITS. */
static void huff_lengths(const unsigned long *count_in, unsigned char *len)
{
    unsigned long cnt[256];
    for (int i = 0; i < 256; i++)
        cnt[i] = count_in[i];
    for (;;) {
        /* O(n^2) two-smallest merging over at most 511 nodes: fine for 256 symbols. */
        unsigned long w[511];
        int parent[511], alive[511], nn = 0, used = 0, maxlen = 0;
        int leaf[256];
        for (int i = 0; i < 256; i++) {
            leaf[i] = -1;
            len[i] = 0;
            if (cnt[i]) {
                leaf[i] = nn;
                w[nn] = cnt[i];
                parent[nn] = -1;
                alive[nn] = 1;
                nn++;
                used++;
            }
        }
        if (used == 1) {
            for (int i = 0; i < 256; i++)
                if (cnt[i])
                    len[i] = 1;
            return;
        }
        for (int m = 0; m < used - 1; m++) {
            int a = -1, b = -1;
            for (int j = 0; j < nn; j++) {
                if (!alive[j])
                    continue;
                if (a < 0 || w[j] < w[a]) {
                    b = a;
                    a = j;
                } else if (b < 0 || w[j] < w[b]) {
                    b = j;
                }
            }
            w[nn] = w[a] + w[b];
            parent[nn] = -1;
            alive[nn] = 1;
            alive[a] = alive[b] = 0;
            parent[a] = parent[b] = nn;
            nn++;
        }
        for (int i = 0; i < 256; i++) {
            int d = 0;
            if (leaf[i] < 0)
                continue;
            for (int j = leaf[i]; parent[j] >= 0; j = parent[j])
                d++;
            len[i] = (unsigned char)d;
            if (d > maxlen)
                maxlen = d;
        }
        if (maxlen <= MAXBITS)
            return;
        for (int i = 0; i < 256; i++)
            if (cnt[i])
                cnt[i] = (cnt[i] + 1) / 2;
    }
}

/* Canonical codes from lengths (RFC 1951 3.2.2). */
static void huff_codes(const unsigned char *len, unsigned *code)
{
    unsigned bl_count[MAXBITS + 1] = {0}, next[MAXBITS + 2] = {0}, c = 0;
    for (int i = 0; i < 256; i++)
        bl_count[len[i]]++;
    bl_count[0] = 0;
    for (int b = 1; b <= MAXBITS; b++) {
        c = (c + bl_count[b - 1]) << 1;
        next[b] = c;
    }
    for (int i = 0; i < 256; i++)
        if (len[i])
            code[i] = next[len[i]]++;
}

void cpuk_encode(const unsigned char *rgb, int w, int h, struct cpuk_enc *out)
{
    size_t n = (size_t)w * h * 3, bitpos = 0;
    unsigned long count[256] = {0};
    unsigned code[256] = {0};
    size_t total_bits = 0;

    for (size_t i = 0; i < n; i++)
        count[(rgb[i] - pred(rgb, w, i)) & 255]++;
    huff_lengths(count, out->len);
    huff_codes(out->len, code);
    for (int s = 0; s < 256; s++)
        total_bits += (size_t)count[s] * out->len[s];
    out->w = w;
    out->h = h;
    out->nbytes = (total_bits + 7) / 8;
    out->bits = x_calloc(out->nbytes + 1, 1);
    for (size_t i = 0; i < n; i++) {
        unsigned s = (rgb[i] - pred(rgb, w, i)) & 255;
        for (int b = out->len[s] - 1; b >= 0; b--, bitpos++)
            if ((code[s] >> b) & 1)
                out->bits[bitpos >> 3] |= (unsigned char)(0x80 >> (bitpos & 7));
    }
}

void cpuk_enc_free(struct cpuk_enc *e)
{
    if (!e)
        return;
    x_free(e->bits);
    e->bits = NULL;
}

int cpuk_decode(const struct cpuk_enc *e, unsigned char *rgb)
{
    short count[MAXBITS + 1] = {0}, offs[MAXBITS + 1];
    short symbol[256];
    size_t n = (size_t)e->w * e->h * 3, pos = 0, maxpos = e->nbytes * 8;
    const unsigned char *bits = e->bits;

    for (int s = 0; s < 256; s++)
        count[e->len[s]]++;
    count[0] = 0;
    offs[1] = 0;
    for (int b = 1; b < MAXBITS; b++)
        offs[b + 1] = (short)(offs[b] + count[b]);
    for (int s = 0; s < 256; s++)
        if (e->len[s])
            symbol[offs[e->len[s]]++] = (short)s;

    for (size_t i = 0; i < n; i++) {
        int code = 0, first = 0, index = 0, sym = -1;
        for (int b = 1; b <= MAXBITS; b++) {
            if (pos >= maxpos)
                return -1;
            code |= (bits[pos >> 3] >> (7 - (pos & 7))) & 1;
            pos++;
            if (code - first < count[b]) {
                sym = symbol[index + code - first];
                break;
            }
            index += count[b];
            first += count[b];
            first <<= 1;
            code <<= 1;
        }
        if (sym < 0)
            return -1;
        rgb[i] = (unsigned char)(pred(rgb, e->w, i) + (unsigned)sym);
    }
    return 0;
}

/* Random resized crop box (torchvision RandomResizedCrop, 10 attempts,
 * then the whole image). */
static void crop_box(int w, int h, uint64_t *st, int *x0, int *y0, int *cw, int *ch)
{
    double area = (double)w * h;
    for (int t = 0; t < 10; t++) {
        double target = area * (0.08 + 0.92 * unif(st));
        double lr = log(3.0 / 4.0) + (log(4.0 / 3.0) - log(3.0 / 4.0)) * unif(st);
        double ar = exp(lr);
        int bw = (int)lround(sqrt(target * ar)), bh = (int)lround(sqrt(target / ar));
        if (bw > 0 && bw <= w && bh > 0 && bh <= h) {
            *x0 = (int)(unif(st) * (w - bw + 1));
            *y0 = (int)(unif(st) * (h - bh + 1));
            *cw = bw;
            *ch = bh;
            return;
        }
    }
    *x0 = *y0 = 0;
    *cw = w;
    *ch = h;
}

void cpuk_augment(const unsigned char *rgb, int w, int h, uint64_t seed, long idx, float *out)
{
    cpuk_augment_to(rgb, w, h, seed, idx, CPUK_OUT, out);
}

void cpuk_augment_to(const unsigned char *rgb, int w, int h, uint64_t seed, long idx, int side,
                     float *out)
{
    uint64_t st = seed ^ ((uint64_t)idx * 0xd1b54a32d192ed03ULL);
    const int O = side;
    const size_t plane = (size_t)O * O;
    int x0, y0, cw, ch;
    double bright, contrast, sat, gray_sum = 0;
    float mean_gray;

    cpuk_splitmix64(&st);
    crop_box(w, h, &st, &x0, &y0, &cw, &ch);

    /* Bilinear resize, half-pixel centres (align_corners = false). */
    for (int dy = 0; dy < O; dy++) {
        float sy = ((float)dy + 0.5f) * (float)ch / (float)O - 0.5f;
        int iy;
        float fy;
        if (sy < 0)
            sy = 0;
        iy = (int)sy;
        fy = sy - (float)iy;
        int iy1 = iy + 1 < ch ? iy + 1 : ch - 1;
        const unsigned char *r0 = rgb + ((size_t)(y0 + iy) * w + x0) * 3;
        const unsigned char *r1 = rgb + ((size_t)(y0 + iy1) * w + x0) * 3;
        for (int dx = 0; dx < O; dx++) {
            float sx = ((float)dx + 0.5f) * (float)cw / (float)O - 0.5f;
            int ix, ix1;
            float fx;
            if (sx < 0)
                sx = 0;
            ix = (int)sx;
            fx = sx - (float)ix;
            ix1 = ix + 1 < cw ? ix + 1 : cw - 1;
            for (int c = 0; c < 3; c++) {
                float a = r0[ix * 3 + c] + fx * (float)(r0[ix1 * 3 + c] - r0[ix * 3 + c]);
                float b = r1[ix * 3 + c] + fx * (float)(r1[ix1 * 3 + c] - r1[ix * 3 + c]);
                out[c * plane + (size_t)dy * O + dx] = a + fy * (b - a);
            }
        }
    }

    /* Horizontal flip with probability 1/2. */
    if (unif(&st) < 0.5)
        for (int c = 0; c < 3; c++)
            for (int y = 0; y < O; y++) {
                float *row = out + c * plane + (size_t)y * O;
                for (int x = 0; x < O / 2; x++) {
                    float t = row[x];
                    row[x] = row[O - 1 - x];
                    row[O - 1 - x] = t;
                }
            }

    /* Colour jitter: brightness, contrast (about the mean grey), saturation
     * (about each pixel's grey), clamped to [0, 255]. */
    bright = 0.6 + 0.8 * unif(&st);
    contrast = 0.6 + 0.8 * unif(&st);
    sat = 0.6 + 0.8 * unif(&st);
    for (size_t i = 0; i < plane; i++) {
        float r = out[i] * (float)bright, g = out[plane + i] * (float)bright,
              b = out[2 * plane + i] * (float)bright;
        out[i] = r;
        out[plane + i] = g;
        out[2 * plane + i] = b;
        gray_sum += 0.299f * r + 0.587f * g + 0.114f * b;
    }
    mean_gray = (float)(gray_sum / (double)plane);
    for (size_t i = 0; i < plane; i++) {
        float v[3], gray;
        for (int c = 0; c < 3; c++)
            v[c] = (out[c * plane + i] - mean_gray) * (float)contrast + mean_gray;
        gray = 0.299f * v[0] + 0.587f * v[1] + 0.114f * v[2];
        for (int c = 0; c < 3; c++) {
            float x = (v[c] - gray) * (float)sat + gray;
            x = x < 0 ? 0 : x > 255 ? 255 : x;
            /* Normalise: to [0, 1], minus the channel mean, over its deviation. */
            out[c * plane + i] = (x * (1.0f / 255.0f) - chan_mean[c]) / chan_std[c];
        }
    }
}

int cpuk_sample(const struct cpuk_enc *e, struct cpuk_scratch *s, uint64_t seed, long idx,
                float *out)
{
    size_t need = (size_t)e->w * e->h * 3;
    if (s->cap < need) {
        x_free(s->rgb);
        s->rgb = x_malloc(need);
        s->cap = need;
    }
    if (cpuk_decode(e, s->rgb))
        return -1;
    cpuk_augment(s->rgb, e->w, e->h, seed, idx, out);
    return 0;
}

void cpuk_scratch_free(struct cpuk_scratch *s)
{
    if (!s)
        return;
    x_free(s->rgb);
    s->rgb = NULL;
    s->cap = 0;
}
