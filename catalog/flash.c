/*
 * flash.c - FlashAttention-2's published rates (flash.h).  O(1).
 */
#include "flash.h"

#include "../base/interp.h"
#include "catalog.h"

#include <math.h>

/* Sequence lengths of the benchmark: 512, 1k, 2k, 4k, 8k, 16k. */
#define NSEQ 6
static const double seqs[NSEQ] = {512, 1024, 2048, 4096, 8192, 16384};

/*
 * Forward plus backward TFLOP/s, read off the bar labels of the two
 * figures (flash.h), FlashAttention-2's bars: [GPU][head dim 64, 128]
 * [no mask, causal][sequence].  The A100's head-dimension-128 bar at 512
 * is hidden by the legend: 172 x 132 / 153, the 1k-to-512 ratio of the
 * head-dimension-64 bars, is taken in its place.
 */
static const double tflops[2][2][2][NSEQ] = {
    {   /* A100 80GB SXM4 */
        {{132, 153, 162, 171, 175, 176}, {88, 119, 140, 156, 165, 171}},
        {{148.4, 172, 187, 196, 201, 203}, {99, 133, 155, 173, 182, 189}},
    },
    {   /* H100 80GB SXM5 */
        {{215, 254, 274, 288, 294, 296}, {141, 192, 232, 257, 273, 284}},
        {{248, 294, 320, 326, 335, 338}, {163, 221, 265, 294, 308, 328}},
    },
};

/* The same figure's "FlashAttention Triton" bars (the Triton kernel of
 * flash_attn_triton.py, as MosaicML's MPT runs used it), A100 only. */
static const double triton_tflops[2][2][NSEQ] = {
    {{90, 102, 98, 98, 100, 100}, {59, 75, 79, 76, 79, 80}},
    {{78, 85, 90, 93, 95, 95}, {50, 61, 68, 74, 78, 80}},
};

/*
 * cuDNN's fused attention against FlashAttention-2, forward plus backward
 * TFLOP/s on the same GPU and harness: PyTorch 2.11's
 * scaled_dot_product_attention (cuDNN 9.19) under its cuDNN and its
 * FlashAttention-2 backends, bf16, FlashAttention-2's benchmark shapes
 * (16k tokens, hidden 2048), counted as flash.h counts them, on an H200
 * SXM (validate/attn_bench.py; results/gpu-profiles/h200-attention.jsonl,
 * 2026-11-26).  [head dim 64, 128][no mask, causal][sequence].  Hopper's
 * FlashAttention-2 is cudnn_fa2_tflops, as a share of the H100 SXM's GEMM
 * rate below; cudnn_tflops carries the published cuDNN curves (h200_cudnn,
 * bw_cudnn_tflops) to other head dimensions, masks and short sequences.  The same
 * harness on a lent H100 SXM (h100-attention.jsonl, a fifth loan) is within
 * 4% of these from 4k tokens up (cuDNN, hd 128, causal: 460, 510 and 559 at
 * 4k, 8k and 16k) and 1% to 24% below them at 512 to 2k; its FlashAttention-2
 * agrees with the H200's (258 and 280 at 4k and 8k), 12% and 9% under the
 * published H100 bars above.  One sequence of 16k to 128k tokens keeps the
 * 16k rate on the H100 (cuDNN 531 to 558, FlashAttention-2 316 to 322, 8
 * heads, causal; validate/attn_long.py, h100-attention-long.jsonl).
 */
static const double cudnn_tflops[2][2][NSEQ] = {
    {{277, 357, 410, 447, 450, 443}, {152, 242, 319, 379, 427, 437}},
    {{286, 427, 529, 558, 589, 554}, {177, 291, 385, 480, 531, 548}},
};
static const double cudnn_fa2_tflops[2][2][NSEQ] = {
    {{181, 220, 252, 272, 282, 291}, {107, 157, 205, 239, 259, 276}},
    {{189, 238, 276, 299, 309, 316}, {119, 173, 219, 259, 284, 311}},
};

/* The 16-bit GEMM rate the catalog gives the two GPUs (gpus.csv: the
 * dense peak times mm_eff): A100 SXM 312 x 0.786, H100 SXM 719.7. */
static const double gemm_tflops[2] = {245.2, 719.7};

/*
 * cuDNN's fused attention on Blackwell as NVIDIA publishes it: cudnn-
 * frontend's training benchmark (NVIDIA/cudnn-frontend@3929da2e,
 * benchmark/sdpa_benchmark_training/results/llama3.1/gb200/
 * llama3.1_20260424_100750.csv and gb300/llama3.1_20260424_100757.csv;
 * cuDNN 9.22, bf16, Llama 3.1's 64 query and 8 key-value heads of 128,
 * batch 2, non-deterministic backward), each forward rate f and backward
 * rate b combined as 3.5 / (1/f + 2.5/b), the forward plus backward rate
 * as flash.h counts it (the file counts the same: two products forward,
 * five backward, the causal mask's half).  [GB200, GB300][no mask, causal]
 * [sequence 2k, 4k, 8k, 16k, 32k].  The same benchmark's H200 file (cuDNN
 * 9.19, h200_919_only_cudnn/) is within 3% to 10% above cudnn_tflops's
 * causal head-dimension-128 row at 2k to 16k, measured here apart.
 */
#define NBSEQ 5
static const double bw_seqs[NBSEQ] = {2048, 4096, 8192, 16384, 32768};
static const double bw_cudnn_tflops[2][2][NBSEQ] = {
    {{1198, 1413, 1492, 1453, 1350}, {937, 1212, 1393, 1418, 1318}},
    {{1338, 1538, 1644, 1648, 1524}, {1056, 1351, 1534, 1605, 1598}},
};
/* The same benchmark on the H200 (h200_919_only_cudnn/llama3.1_20260227_
 * 034703.csv: cuDNN 9.19, batch 1, causal only), combined as above:
 * [sequence 2k to 32k].  Hopper's cuDNN rate (cc 90 to 99) is this curve,
 * carried to other head dimensions, the unmasked case and under 2k by the
 * measured cudnn_tflops, as a share of the H100 SXM's GEMM rate (the H200's
 * compute is the H100's).  Transformer Engine calls cuDNN as this benchmark
 * does; PyTorch's scaled_dot_product_attention, measured apart
 * (cudnn_tflops), runs 3% to 10% below it at 2k to 32k. */
static const double h200_cudnn[NBSEQ] = {396.7, 502.4, 566.9, 603.1, 608.0};
/* The same benchmark's DeepSeek-V3 shape (dsv3/gb200/dsv3_20260424_101009.csv
 * and dsv3/gb300/dsv3_20260424_101002.csv: MLA, 128 heads, queries' and
 * keys' head dimension 192, values' 128), combined as above (its backward
 * counts 3 x 192 + 2 x 128 a score against forward's 192 + 128, 2.6x, near
 * enough flash.h's 2.5x): the rate at head dimension 192, between which and
 * 128 a head dimension is interpolated.  [GB200, GB300][no mask, causal]
 * [sequence 2k to 32k]. */
static const double bw_mla_tflops[2][2][NBSEQ] = {
    {{1145, 1283, 1254, 1228, 1193}, {900, 1138, 1284, 1250, 1208}},
    {{1249, 1406, 1448, 1408, 1384}, {996, 1243, 1409, 1441, 1433}},
};
/* Their 16-bit GEMM rates in the catalog (gpus.csv: 2500 x mm_eff), which a
 * share is of; kept with the catalog's mm_eff (tests/unit/test_compute.c
 * reads it from there), so that the two GPUs get these rates back and the
 * B200 and B300 these times their GEMM rates over the GB200's and the
 * GB300's. */
static const double bw_gemm_tflops[2] = {2500 * 0.5874, 2500 * 0.730};

/* row, given at the n sequence lengths xs, at s: on a log scale between
 * them, held at the ends. */
static double at_len(const double *xs, int n, const double *row, double s)
{
    return interp_held(xs, row, n, s, 1);
}

static double at_seq(const double *row, double s)
{
    return at_len(seqs, NSEQ, row, s);
}

/* Rate at head dimension d between the rows for 64 and 128. */
static double at_dim(const double *r64, const double *r128, double d, double s)
{
    double x = (d - 64) / 64;

    x = x < 0 ? 0 : x > 1 ? 1 : x;
    return at_seq(r64, s) + x * (at_seq(r128, s) - at_seq(r64, s));
}

/* cuDNN's rate on Blackwell (cat_cc_blackwell: the GB300's figures from
 * cc 103 on, the GB200's below) as a share of the measured GPU's GEMM
 * rate: the published head-dimension-128 figure at the sequence, times
 * Hopper's measured cuDNN rate at head_dim over its rate at 128 (the head
 * dimension's effect, carried) and, below 2k, over its rate at 2k (the
 * short sequence's fall-off, carried). */
/* A published cuDNN curve at head dimension 128 (pub, under the mask pub_c),
 * carried to head_dim, mask c and seq by Hopper's measured cuDNN rates: times
 * the measured rate at (head_dim, c, seq) over the measured rate at (128,
 * pub_c, seq), seq taken at 2k at least in the latter (below 2k the measured
 * fall-off is carried). */
static double published_cudnn(const double *pub, int pub_c, double head_dim, int c, double seq)
{
    double at2k = seq < bw_seqs[0] ? bw_seqs[0] : seq;
    double hop = at_dim(cudnn_tflops[0][c], cudnn_tflops[1][c], head_dim, seq);
    double hop128 = at_seq(cudnn_tflops[1][pub_c], at2k);

    return at_len(bw_seqs, NBSEQ, pub, seq) * hop / hop128;
}

/*
 * cuDNN's Blackwell attention by release.  NVIDIA's cudnn-frontend published
 * the same causal shape on a B200 twice in 2025 (benchmark/
 * sdpa_benchmark_training/artifacts/sdpa_fp8_benchmark_results_NVIDIA_B200.csv,
 * its bf16 rows, cudnn-frontend's own call: batch 1, 128 query and 8
 * key-value heads of 128): cuDNN 9.10.2 at NVIDIA/cudnn-frontend@9793df5
 * (2025-07-16, NGC PyTorch 25.06) and 9.13.1 at @0b1577c (2025-10-10, NGC
 * 25.09).  Each forward f and backward b combined as above, 3.5 / (1/f +
 * 2.5/b), over the rate dtplan gives a B200 at the current release (the
 * GB200's cuDNN 9.22 curve times the B200's GEMM rate over the GB200's,
 * 0.957): [2k, 4k, 8k, 16k, 32k].  9.10.2: 539, 849, 1050, 1194, 1239
 * TFLOP/s against 897, 1160, 1333, 1357, 1261; 9.13.1: 615, 903, 1082,
 * 1229, 1260.  The gap is the short sequences' and the backward's (9.22's
 * GB200 backward at 8k 1,332 TFLOP/s, 9.13.1's B200 995): a release gains
 * most where the kernel has least work.  Carried to every Blackwell GPU,
 * head dimension and mask, an assumption; an older container than 9.10 (NeMo
 * 25.02 to 25.07) takes 9.10's, the oldest published, as an upper bound.
 */
static const double rel_910[NBSEQ] = {0.601, 0.732, 0.788, 0.880, 0.983};
static const double rel_913[NBSEQ] = {0.686, 0.778, 0.812, 0.906, 0.999};

int flash_is_cudnn(int impl)
{
    return impl == FLASH_CUDNN || impl == FLASH_CUDNN_910 || impl == FLASH_CUDNN_913;
}

/* The release's share of the current release's Blackwell rate at seq. */
static double release_share(int impl, double seq)
{
    if (impl == FLASH_CUDNN_910)
        return at_len(bw_seqs, NBSEQ, rel_910, seq);
    if (impl == FLASH_CUDNN_913)
        return at_len(bw_seqs, NBSEQ, rel_913, seq);
    return 1;
}

static double blackwell_cudnn(int cc, double head_dim, int c, double seq)
{
    int g = cc >= 103 ? 1 : 0;
    double r = published_cudnn(bw_cudnn_tflops[g][c], c, fmin(head_dim, 128), c, seq), x;

    if (head_dim > 128) {   /* MLA's 192: the DeepSeek-V3 figures */
        x = fmin(1, (head_dim - 128) / 64);
        r += x * (published_cudnn(bw_mla_tflops[g][c], c, 128, c, seq) - r);
    }
    return r / bw_gemm_tflops[g];
}

double flash_share(int impl, int cc, double head_dim, int causal, double seq)
{
    int g = cc >= 90 ? 1 : 0, c = causal ? 1 : 0;
    double fa2;

    if (cc < 80)
        return NAN;
    if (flash_is_cudnn(impl) && cat_cc_blackwell(cc))
        return blackwell_cudnn(cc, head_dim, c, seq) * release_share(impl, seq);
    if (cc >= 90 && cc < 100 && flash_is_cudnn(impl))
        return published_cudnn(h200_cudnn, 1, head_dim, c, seq) / gemm_tflops[1];
    if (cc >= 90 && cc < 100 && impl == FLASH_FA2)
        return at_dim(cudnn_fa2_tflops[0][c], cudnn_fa2_tflops[1][c], head_dim, seq) / gemm_tflops[1];
    fa2 = at_dim(tflops[g][0][c], tflops[g][1][c], head_dim, seq) / gemm_tflops[g];
    if (impl != FLASH_TRITON)
        return fa2;
    /* Triton's share of FlashAttention-2 on the A100, carried to the GPU */
    return fa2 * at_dim(triton_tflops[0][c], triton_tflops[1][c], head_dim, seq) /
           at_dim(tflops[0][0][c], tflops[0][1][c], head_dim, seq);
}

int cudnn_measured(int cc) { return (cc >= 90 && cc < 100) || cat_cc_blackwell(cc); }

/*
 * Fused attention in fp8 (Transformer Engine's fp8_dpa), as NVIDIA's cuDNN
 * training benchmark publishes it beside the 16-bit runs: on Blackwell the
 * same files as bw_cudnn_tflops and bw_mla_tflops (NVIDIA/cudnn-frontend@
 * 3929da2e, cuDNN 9.22, causal), their fp8 (per-tensor scales: delayed and
 * current scaling) and mxfp8 (a scale a block of 32: MXFP8 and, assumed,
 * NVFP4 recipes) rows, combined as flash.h counts them: [GB200, GB300][head
 * dimension 128, 192][fp8, mxfp8][sequence 2k to 32k].  On Hopper a run of
 * the same benchmark's first versions (NVIDIA/cudnn-frontend@de355c7
 * benchmark/benchmark_results.csv, September 2024: the file names no GPU,
 * its README sets an H200's clocks; 16 heads of 128, causal, its own
 * forward-plus-backward column), bf16 and fp8: [sequence 4k to 64k].
 * The factor is fp8's rate over the same file's 16-bit one at the sequence;
 * head dimensions under 128 take 128's, between 128 and 192 interpolated.
 */
static const double bw_fp8_tflops[2][2][2][NBSEQ] = {
    {{{943, 1308, 1585, 1753, 1807}, {852, 1180, 1418, 1562, 1560}},
     {{1395, 1790, 2067, 2093, 1994}, {1152, 1488, 1648, 1720, 1698}}},
    {{{1108, 1601, 2001, 2249, 2339}, {958, 1332, 1613, 1780, 1812}},
     {{1674, 2160, 2497, 2653, 2619}, {1325, 1716, 1991, 2072, 2083}}},
};
#define NHSEQ 5
static const double h200_fp8_seqs[NHSEQ] = {4096, 8192, 16384, 32768, 65536};
static const double h200_fp8_bf16[2][NHSEQ] = {
    {477.36, 502.82, 525.88, 535.90, 538.06},
    {508.73, 678.05, 704.33, 712.11, 700.29},
};

double flash_fp8_factor(int cc, double head_dim, int mx, double seq)
{
    int g = cc >= 103 ? 1 : 0, k = mx ? 1 : 0;
    double x = fmin(1, fmax(0, (head_dim - 128) / 64)), f128, f192;

    if (cat_cc_blackwell(cc)) {
        f128 = at_len(bw_seqs, NBSEQ, bw_fp8_tflops[g][0][k], seq) /
               at_len(bw_seqs, NBSEQ, bw_cudnn_tflops[g][1], seq);
        f192 = at_len(bw_seqs, NBSEQ, bw_fp8_tflops[g][1][k], seq) /
               at_len(bw_seqs, NBSEQ, bw_mla_tflops[g][1], seq);
        return f128 + x * (f192 - f128);
    }
    if (cc >= 90 && cc < 100 && !mx)
        return at_len(h200_fp8_seqs, NHSEQ, h200_fp8_bf16[1], seq) /
               at_len(h200_fp8_seqs, NHSEQ, h200_fp8_bf16[0], seq);
    return 1;
}

/*
 * Sliding-window attention, as NVIDIA's cuDNN training benchmark publishes
 * it twice (NVIDIA/cudnn-frontend@fb682ce, benchmark/sdpa_benchmark_training/
 * results/): on a GB200 (cuDNN 9.22, gpt_oss/gb200/gpt_oss_20260424_100011.csv:
 * GPT-OSS's 128-token window, head dimension 64, 128 heads, batch 2, causal)
 * 161 TFLOP/s forward and 182 backward at 4k tokens, and on an H200 (cuDNN
 * 9.19, h200_919_only_cudnn/gpt_oss_20260227_034819.csv: a 1024-token window,
 * 64 query and 8 key-value heads of 64) 336 and 289; both files count the
 * FLOPs of the keys each query sees, the window's, and both rates hold within
 * 10% from 2k to 16k tokens (a query's work is the window's whatever the
 * sequence).  Combined as flash.h counts them, each over its GPU's causal
 * rate here at head dimension 64 and 4k tokens: the window's efficiency,
 * about 0.18 at 128 keys and 0.76 at 1024 (a band a tile or two wide wastes
 * the masked half of its tiles and pays each query tile's set-up over few
 * keys), 1 at 4k (a window as long as the reference is causal attention), on
 * a log scale between and held under 128.  Carried across GPUs and kernels.
 * A lent H200 measured the curve through the same cuDNN kernel (cuDNN 9.19,
 * GPT-OSS's heads at 4k tokens, batch 1 and 4; results/gpu-profiles/
 * h200-attention-window.jsonl): 0.19 and 0.21 at 128 keys, 0.33 and 0.36 at
 * 256, 0.52 and 0.55 at 512, 0.73 and 0.74 at 1024, 0.88 at 2048; this curve
 * is within 14% of each (tests/unit/test_compute.c).
 */
#define WIN_REF 4096.0

static double fwd_bwd(double f, double b) { return 3.5 / (1 / f + 2.5 / b); }

static double window_eff(double w)
{
    double e128 = fwd_bwd(161, 182) / (blackwell_cudnn(100, 64, 1, WIN_REF) * bw_gemm_tflops[0]);
    double e1024 = fwd_bwd(336, 289) / published_cudnn(h200_cudnn, 1, 64, 1, WIN_REF);
    double x = log2(w);

    if (w <= 128)
        return e128;
    if (w <= 1024)
        return e128 + (x - 7) / 3 * (e1024 - e128);
    return e1024 + (x - 10) / 2 * (1 - e1024);
}

/*
 * A sliding window's kernel in fp8 (workload.fp8_attention) on Blackwell,
 * from the same published files as window_eff (NVIDIA/cudnn-frontend@fb682ce
 * benchmark/sdpa_benchmark_training/results/gpt_oss/{gb200,gb300}/, cuDNN
 * 9.22, GPT-OSS's 128-token window, head dimension 64, 128 heads, batch 2):
 * the times in ms, [GB200, GB300][bf16, fp8 per-tensor, MXFP8][forward,
 * backward] at 2k to 32k tokens (bw_seqs).  The fp8 forward keeps to the
 * window (its time grows with the sequence as the bf16 one does); the fp8
 * and MXFP8 backward does not: its time grows about fourfold a doubling, with
 * the square of the sequence, as the whole causal backward's would (90 ms at
 * 32k against 3.7 in bf16 on the GB200).  Whether a later cuDNN keeps the fp8
 * backward to its window is not published.
 */
static const double win_ms[2][3][2][NBSEQ] = {
    {{{0.109, 0.210, 0.414, 0.822, 2.634}, {0.237, 0.465, 0.911, 1.818, 3.692}},
     {{0.101, 0.195, 0.385, 0.766, 1.529}, {0.536, 1.731, 6.176, 23.231, 90.348}},
     {{0.109, 0.210, 0.417, 0.826, 1.637}, {0.642, 2.080, 7.427, 27.940, 108.370}}},
    {{{0.104, 0.202, 0.397, 0.790, 2.530}, {0.227, 0.442, 0.862, 1.712, 3.450}},
     {{0.086, 0.167, 0.327, 0.650, 1.296}, {0.467, 1.480, 5.189, 19.354, 74.763}},
     {{0.092, 0.175, 0.342, 0.676, 1.345}, {0.581, 1.871, 6.648, 24.996, 96.913}}},
};

double flash_fp8_window_factor(int cc, int mx, double seq, int bwd)
{
    int g = cc >= 103 ? 1 : 0, k = mx ? 2 : 1;
    double r, top = bw_seqs[NBSEQ - 1];

    if (!cat_cc_blackwell(cc))
        return 1;
    r = at_len(bw_seqs, NBSEQ, win_ms[g][0][bwd], seq) / at_len(bw_seqs, NBSEQ, win_ms[g][k][bwd], seq);
    /* past 32k the backward's ratio keeps falling as the sequence grows (the
     * window's time with it, the fp8 one with its square) */
    if (bwd && seq > top)
        r *= top / seq;
    return r;
}

double flash_window_share(int impl, int cc, double head_dim, double window)
{
    if (window >= WIN_REF)
        return flash_share(impl, cc, head_dim, 1, window);
    return window_eff(window) * flash_share(impl, cc, head_dim, 1, WIN_REF);
}

/*
 * Attention dropout's cost in a fused kernel: forward plus backward time
 * with dropout 0.1 over the time without, measured on the H200 of
 * cudnn_tflops (validate/attn_bench.py --dropout 0.1 beside a run without,
 * results/gpu-profiles/h200-attention-dropout.jsonl and -nodrop.jsonl),
 * [kernel: FlashAttention-2, cuDNN][head dim 64, 128][no mask, causal]
 * [sequence 1k, 2k, 4k, 8k].  The kernel draws its mask from a random
 * generator inside; cuDNN's pays far more for it than FlashAttention-2's.
 */
#define NDSEQ 4
static const double dropout_seqs[NDSEQ] = {1024, 2048, 4096, 8192};
static const double dropout_factor[2][2][2][NDSEQ] = {
    {{{1.19, 1.21, 1.21, 1.23}, {1.15, 1.19, 1.17, 1.20}},
     {{1.08, 1.12, 1.11, 1.10}, {1.10, 1.14, 1.15, 1.15}}},
    {{{1.61, 1.71, 1.71, 1.67}, {1.24, 1.52, 1.64, 1.70}},
     {{1.49, 1.61, 1.55, 1.44}, {1.25, 1.46, 1.42, 1.46}}},
};

static double at_dseq(const double *row, double s)
{
    return at_len(dropout_seqs, NDSEQ, row, s);
}

double flash_dropout_factor(int impl, int cc, double head_dim, int causal, double seq)
{
    int k = flash_is_cudnn(impl) && cudnn_measured(cc) ? 1 : 0, c = causal ? 1 : 0;
    double x = (head_dim - 64) / 64;

    x = x < 0 ? 0 : x > 1 ? 1 : x;
    return at_dseq(dropout_factor[k][0][c], seq) +
           x * (at_dseq(dropout_factor[k][1][c], seq) - at_dseq(dropout_factor[k][0][c], seq));
}

/*
 * AMD's published fused-attention rates (flash_share_amd): ROCm/aiter@0403bcdf
 * op_tests/cpp/mha/README.md (the asm fmha_v3 kernels' table, PR #1270,
 * 2025-10-28: bf16, BSHD, 64 query and 8 key-value heads of 128, batch 8 at
 * 2k to 8k, batch 1 at 16k; causal rows counted at half the FLOPs, as
 * FlashAttention counts them), TFLOP/s [CDNA 3 (MI300X), CDNA 4
 * (MI355X)][non-causal, causal][forward, backward with bf16 atomics][2k,
 * 4k, 8k, 16k].
 */
static const double amd_tflops[2][2][2][4] = {
    {{{556.35, 578.99, 577.45, 547.78}, {479.74, 482.86, 537.04, 519.21}},
     {{452.03, 509.255, 550.67, 541.55}, {382.1, 457.05, 474.02, 458.075}}},
    {{{1250.96, 1361.66, 1322.77, 1437.62}, {1044.77, 1125.48, 1182.59, 1212.72}},
     {{963.165, 1190.295, 1311.955, 1392.485}, {817.49, 972.25, 1067.89, 1162.805}}}};
/* the catalog's bf16 GEMM rate of the GPUs measured (gpus.csv: MI300X 1300 x
 * 0.545, MI355X 2500 x 0.626), TFLOP/s */
static const double amd_gemm_tflops[2] = {708.5, 1565.0};

double flash_share_amd(int cdna, int causal, double seq)
{
    int g = cdna - 3, c = causal ? 1 : 0, i;
    double x, rate[2];

    if (g < 0 || g > 1)
        return NAN;
    x = log2(fmin(fmax(seq, 2048), 16384) / 2048);     /* 0 .. 3 */
    i = x >= 3 ? 2 : (int)x;
    for (int d = 0; d < 2; d++) {
        const double *v = amd_tflops[g][c][d];
        rate[d] = v[i] + (v[i + 1] - v[i]) * (x - i);
    }
    /* one forward and 2.5 forwards' FLOPs backward */
    return 3.5 / (1 / rate[0] + 2.5 / rate[1]) / amd_gemm_tflops[g];
}
