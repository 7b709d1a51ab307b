/*
 * flash.h - what a fused attention kernel (FlashAttention-2) achieves, as
 * published, per GPU generation, head dimension, mask and sequence length
 * (docs/model.md "Compute": fused attention).
 *
 * The figures are FlashAttention-2's own forward-plus-backward benchmark
 * (Dao-AILab/flash-attention@4f285b35, README "Performance",
 * assets/flash2_a100_fwd_bwd_benchmark.png and
 * assets/flash2_h100_fwd_bwd_benchmark.png; benchmarks/
 * benchmark_flash_attention.py: fp16, hidden 2048, batch x sequence 16k),
 * on an A100 80GB SXM4 and an H100 80GB SXM5.  They count forward FLOPs
 * as 4 s^2 d per head, halved under a causal mask, and backward as 2.5
 * times forward (its five products, the recomputed scores among them).
 */
#ifndef DT_FLASH_H
#define DT_FLASH_H

/* The kernels (workload.attention): FlashAttention-2, the Triton kernel of
 * the same project (flash_attn_triton.py), and cuDNN's fused attention
 * (what Transformer Engine prefers on Hopper and later, and what PyTorch's
 * scaled_dot_product_attention runs there by default). */
#define FLASH_FA2 1
#define FLASH_TRITON 2
#define FLASH_CUDNN 3
/* cuDNN's fused attention as an earlier release ran it on Blackwell
 * (workload.attention cudnn_9.10, cudnn_9.13): flash_share's Blackwell rate
 * times that release's measured B200 rate over the B200 rate dtplan gives
 * the current release; elsewhere as FLASH_CUDNN. */
#define FLASH_CUDNN_910 4
#define FLASH_CUDNN_913 5

/* 1 for cuDNN's fused attention, any release. */
int flash_is_cudnn(int impl);

/*
 * What kernel impl's forward plus backward reaches on a GPU of
 * compute capability cc (x 10), as a share of a large 16-bit GEMM's rate
 * on the GPU it was measured on (the catalog's A100 SXM and H100 SXM
 * rates): so a GPU's rate is this times its own 16-bit GEMM rate.
 * Ampere and Ada (80 to 89) take the A100's figures, Hopper and later the
 * H100's; head dimensions between 64 and 128 are interpolated, sequence
 * lengths between 512 and 16384 on a log scale, and both are held at the
 * ends outside.  NAN before Ampere, where FlashAttention-2 does not run.
 * The Triton kernel is measured on the A100 alone: elsewhere it keeps its
 * A100 share of FlashAttention-2's rate (an assumption).  On Hopper (cc 90
 * to 99) FlashAttention-2 runs at PyTorch's kernel as measured on a lent
 * H200 (results/gpu-profiles/h200-attention.jsonl; a lent H100 SXM within
 * 4%, h100-attention.jsonl), where the published H100 bars run 5% to 14%
 * above it at 1k to 8k, and cuDNN at NVIDIA's published H200 figures
 * (flash.c h200_cudnn), carried to other head dimensions, the unmasked case
 * and under 2k by that H200's measured cuDNN curve; both held past 16k, as
 * the lent H100 measured them to 128k (h100-attention-long.jsonl).  On
 * datacenter Blackwell
 * (cat_cc_blackwell) NVIDIA's published cuDNN rates on the GB200 and the
 * GB300 (flash.c bw_cudnn_tflops; B200 and B300 carried by their GEMM
 * rates, head dimensions and sequences under 2k by Hopper's measured cuDNN
 * curve);
 * elsewhere (Ampere, Ada, later parts: no cuDNN figure) it is
 * FlashAttention-2's share (cudnn_measured() says which).
 */
double flash_share(int impl, int cc, double head_dim, int causal, double seq);

/* The share of a kernel under a sliding window of `window` keys (fewer than
 * the sequence): below 4k keys flash_share's causal rate at 4k times the
 * window's efficiency from NVIDIA's published windowed runs (flash.c
 * window_eff: 0.18 at 128 keys, 0.76 at 1024), from 4k the causal rate at
 * the window's length.  Its FLOPs are those of the keys each query sees. */
double flash_window_share(int impl, int cc, double head_dim, double window);

/*
 * The same share on an AMD Instinct GPU of CDNA generation cdna (gpus.csv
 * cdna: 3 MI300X and MI325X, 4 MI350X and MI355X), whatever the kernel's
 * name: AMD's own aiter fmha_v3 kernels, the ones Transformer Engine's CK
 * backend runs (NVTE_CK_USES_FWD_V3, NVTE_CK_USES_BWD_V3), forward and
 * backward (bf16-atomic dQ, NVTE_CK_IS_V3_ATOMIC_FP32=0) combined as the
 * FLOPs weigh them (1 forward, 2.5 backward), over the catalog's bf16 GEMM
 * rate of the GPU they were measured on (MI300X 708.5, MI355X 1565.0
 * TFLOP/s: gpus.csv); head dimension 128 for every head dimension (no other
 * was published), sequences between 2k and 16k on a log scale, held at the
 * ends.  NAN for another generation.
 */
double flash_share_amd(int cdna, int causal, double seq);

/* How much faster cuDNN's fused attention runs in fp8 than in 16 bits on a
 * GPU of compute capability cc (x 10), head dimension head_dim, sequence
 * seq: per-tensor scales, or MXFP8's blocks where mx (Blackwell only), as
 * NVIDIA's training benchmark publishes both beside its 16-bit runs
 * (flash.c bw_fp8_tflops, h200_fp8_bf16).  1 where none is published. */
double flash_fp8_factor(int cc, double head_dim, int mx, double seq);
/* A sliding window's kernel in fp8 on Blackwell over its 16-bit time as
 * NVIDIA's benchmark publishes both (flash.c win_ms), forward (bwd 0) or
 * backward (bwd 1), per-tensor fp8 or MXFP8 (mx), at seq tokens: the
 * forward about 1, the backward far under 1 (its kernel does not keep to
 * the window).  1 off Blackwell, where none is published. */
double flash_fp8_window_factor(int cc, int mx, double seq, int bwd);

/* 1 where flash_share's FLASH_CUDNN rate rests on a cuDNN measurement
 * (Hopper, datacenter Blackwell), 0 where it takes FlashAttention-2's. */
int cudnn_measured(int cc);

/* How much longer kernel impl's forward plus backward takes with attention
 * dropout (measured at 0.1 on an H200; cuDNN's figures where
 * cudnn_measured(cc), carried to Blackwell, FlashAttention-2's otherwise,
 * the Triton kernel included): head dimensions between 64 and 128 interpolated, sequences
 * between 1k and 8k on a log scale, held at the ends. */
double flash_dropout_factor(int impl, int cc, double head_dim, int causal, double seq);

#endif
