#!/usr/bin/env python3
"""Fused attention at long sequences, whole and cut as a context-parallel ring cuts it.

Three measurements on this GPU, bf16, head dimension 128, one JSON line each:

  kernel  PyTorch's scaled_dot_product_attention under its FlashAttention-2
          and cuDNN backends, one sequence of 8k to 128k tokens, causal and
          not, 8 and 32 heads: forward and forward-plus-backward TFLOP/s
          (counted as attn_bench.py counts them).  Does the rate hold past
          the 16k that attn_bench.py and catalog/flash.c stop at?
  ring    one rank's attention under a load-balanced ring of cp ranks as
          Transformer Engine runs it (its L local tokens in two chunks; step
          0 the causal L x L block, steps up to the rank L queries by the
          first L/2 keys of a chunk, later steps the last L/2 queries by L
          keys, all unmasked), each step's kernel timed forward and
          backward, their rate over the rank's work (L x cp L / 2 products)
          against the kernel lines' causal rate: what the cut costs the
          kernels, before any merge.
  merge   the merge of one step's partial output into the running one, in
          fp32 as PyTorch's ring attention writes it (out -= sigmoid(lse_b -
          lse) (out - out_b); lse -= logsigmoid(lse - lse_b)): seconds a step.

Nothing here is read by dtplan at run time; the lines go to
results/gpu-profiles/ and the model's rates cite them.

usage: attn_long.py [--repeats N] [--quick] > out.jsonl
"""
import argparse
import json
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from attn_bench import timed  # median of the timed repeats after warm-ups (CUDA events)

BACKENDS = {"flash2": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION}
HDIM = 128


def tensors(heads, sq, sk):
    """q (1, heads, sq, d), k and v (1, heads, sk, d), the output's gradient."""
    def t(s):
        return torch.randn((1, heads, s, HDIM), device="cuda", dtype=torch.bfloat16,
                           requires_grad=True)
    q, k, v = t(sq), t(sk), t(sk)
    return q, k, v, torch.randn((1, heads, sq, HDIM), device="cuda", dtype=torch.bfloat16)


def time_block(backend, heads, sq, sk, causal, repeats):
    """Forward and forward-plus-backward seconds of one attention call."""
    q, k, v, grad = tensors(heads, sq, sk)

    def fwd():
        with sdpa_kernel(BACKENDS[backend]):
            return F.scaled_dot_product_attention(q, k, v, is_causal=causal)

    def fwd_bwd():
        fwd().backward(grad)
        q.grad = k.grad = v.grad = None

    with torch.no_grad():
        t_f = timed(fwd, repeats)
    t_fb = timed(fwd_bwd, repeats)
    del q, k, v, grad
    return t_f, t_fb


def flops(heads, sq, sk, causal):
    return 4.0 * sq * sk * HDIM * heads * (0.5 if causal else 1.0)


def kernel_case(backend, seq, heads, causal, repeats):
    row = {"kind": "kernel", "backend": backend, "seq": seq, "heads": heads,
           "head_dim": HDIM, "causal": causal}
    try:
        t_f, t_fb = time_block(backend, heads, seq, seq, causal, repeats)
    except RuntimeError as e:
        row["error"] = str(e).splitlines()[0][:200]
        return row
    f = flops(heads, seq, seq, causal)
    row.update({"fwd_s": t_f, "fwd_bwd_s": t_fb, "fwd_tflops": f / t_f / 1e12,
                "bwd_tflops": 2.5 * f / (t_fb - t_f) / 1e12,
                "fwd_bwd_tflops": 3.5 * f / t_fb / 1e12})
    return row


def ring_case(backend, local, cp, heads, repeats):
    """Rank cp/2's steps of a load-balanced ring against one kernel."""
    rank = cp // 2
    half = local // 2
    steps = {"diag": (local, local, True, 1)}
    if rank >= 1:
        steps["early"] = (local, half, False, rank)
    if cp - 1 - rank >= 1:
        steps["late"] = (half, local, False, cp - 1 - rank)
    row = {"kind": "ring", "backend": backend, "local": local, "cp": cp, "rank": rank,
           "heads": heads, "head_dim": HDIM}
    try:
        t_f = t_fb = work = 0.0
        for name, (sq, sk, causal, n) in steps.items():
            f, fb = time_block(backend, heads, sq, sk, causal, repeats)
            row[name + "_fwd_s"], row[name + "_fwd_bwd_s"] = f, fb
            t_f += n * f
            t_fb += n * fb
            work += n * flops(heads, sq, sk, causal)
    except RuntimeError as e:
        row["error"] = str(e).splitlines()[0][:200]
        return row
    row.update({"steps_fwd_s": t_f, "steps_fwd_bwd_s": t_fb, "work_flop": work,
                "steps_fwd_tflops": work / t_f / 1e12,
                "steps_fwd_bwd_tflops": 3.5 * work / t_fb / 1e12})
    return row


def merge_case(local, heads, repeats):
    out = torch.randn((1, heads, local, HDIM), device="cuda", dtype=torch.float32)
    blk = torch.randn((1, heads, local, HDIM), device="cuda", dtype=torch.bfloat16)
    lse = torch.randn((1, heads, local, 1), device="cuda", dtype=torch.float32)
    blse = torch.randn((1, heads, local, 1), device="cuda", dtype=torch.float32)

    def merge():
        o = out - torch.sigmoid(blse - lse) * (out - blk.float())
        s = lse - F.logsigmoid(lse - blse)
        return o, s

    with torch.no_grad():
        t = timed(merge, repeats)
    return {"kind": "merge", "local": local, "heads": heads, "head_dim": HDIM,
            "fp32_out_bytes": out.numel() * 4, "merge_s": t}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="a few small cases (a smoke run)")
    args = ap.parse_args()
    if not torch.cuda.is_available():
        print("attn_long: no CUDA device: nothing measured", file=sys.stderr)
        return 0
    props = torch.cuda.get_device_properties(0)
    print(json.dumps({"meta": {"gpu": torch.cuda.get_device_name(), "sms": props.multi_processor_count,
                               "torch": torch.__version__, "cuda": torch.version.cuda,
                               "cudnn": torch.backends.cudnn.version()}}), flush=True)
    seqs = (4096, 8192) if args.quick else (8192, 16384, 32768, 65536, 131072)
    for seq in seqs:
        for heads in (8, 32):
            if heads == 32 and seq > 32768:
                continue
            for causal in (True, False):
                for backend in BACKENDS:
                    print(json.dumps(kernel_case(backend, seq, heads, causal, args.repeats)),
                          flush=True)
    local = 4096 if args.quick else 32768
    for heads in (4, 32):
        for cp in (2, 4, 8):
            for backend in BACKENDS:
                print(json.dumps(ring_case(backend, local, cp, heads, args.repeats)), flush=True)
        print(json.dumps(merge_case(local, heads, args.repeats)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
