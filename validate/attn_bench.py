#!/usr/bin/env python3
"""Fused attention's forward and backward rates on this GPU, by kernel.

Runs PyTorch's scaled_dot_product_attention under each fused backend it
has (FlashAttention-2, cuDNN, memory-efficient) at FlashAttention-2's own
benchmark shapes (batch x sequence = 16k tokens, hidden 2048, bf16), head
dimensions 64 and 128, with and without a causal mask, sequences 512 to
16k, and prints one JSON line a case: forward and forward-plus-backward
seconds (median of the timed repeats) and TFLOP/s counted as that benchmark
counts them (forward 4 s^2 d a head, halved under the mask; backward 2.5
times forward).  catalog/flash.c's rates come from these lines
(results/gpu-profiles/); nothing here is read by dtplan at run time.

--dropout P runs each with attention dropout P (GPT-3's 0.1).

usage: attn_bench.py [--repeats N] [--seqs 512,1024,...] [--dropout P] > out.jsonl
"""
import argparse
import json
import sys

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel
import torch.nn.functional as F

BACKENDS = {
    "flash2": SDPBackend.FLASH_ATTENTION,
    "cudnn": SDPBackend.CUDNN_ATTENTION,
    "efficient": SDPBackend.EFFICIENT_ATTENTION,
}


def timed(fn, repeats):
    """Median seconds of fn over `repeats` runs after three warm-ups."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) / 1e3)
    times.sort()
    return times[len(times) // 2]


def case(backend, seq, hdim, causal, repeats, dropout=0.0):
    batch, heads = 16384 // seq, 2048 // hdim
    shape = (batch, heads, seq, hdim)
    q, k, v = (torch.randn(shape, device="cuda", dtype=torch.bfloat16, requires_grad=True)
               for _ in range(3))
    grad = torch.randn(shape, device="cuda", dtype=torch.bfloat16)

    def fwd():
        with sdpa_kernel(BACKENDS[backend]):
            return F.scaled_dot_product_attention(q, k, v, is_causal=causal, dropout_p=dropout)

    def fwd_bwd():
        out = fwd()
        out.backward(grad)
        q.grad = k.grad = v.grad = None

    flops = 4.0 * seq * seq * hdim * heads * batch * (0.5 if causal else 1.0)
    row = {"backend": backend, "seq": seq, "head_dim": hdim, "causal": causal,
           "batch": batch, "heads": heads, "dropout": dropout}
    try:
        with torch.no_grad():
            t_f = timed(fwd, repeats)
        t_fb = timed(fwd_bwd, repeats)
    except RuntimeError as e:         # the backend refuses the shape
        row["error"] = str(e).splitlines()[0][:200]
        return row
    row.update({"fwd_s": t_f, "fwd_bwd_s": t_fb,
                "fwd_tflops": flops / t_f / 1e12,
                "bwd_tflops": 2.5 * flops / (t_fb - t_f) / 1e12,
                "fwd_bwd_tflops": 3.5 * flops / t_fb / 1e12})
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--seqs", default="512,1024,2048,4096,8192,16384")
    ap.add_argument("--dropout", type=float, default=0.0)
    args = ap.parse_args()
    if not torch.cuda.is_available():
        print("attn_bench: no CUDA device: nothing measured", file=sys.stderr)
        return 0
    head = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
            "cuda": torch.version.cuda, "cudnn": torch.backends.cudnn.version()}
    print(json.dumps({"meta": head}), flush=True)
    for seq in (int(s) for s in args.seqs.split(",")):
        for hdim in (64, 128):
            for causal in (False, True):
                for backend in BACKENDS:
                    print(json.dumps(case(backend, seq, hdim, causal, args.repeats, args.dropout)),
                          flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
