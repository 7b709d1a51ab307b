#!/usr/bin/env python3
"""Multi-head latent attention's kernel (queries and keys of 192, values of 128) on this GPU.

DeepSeek-V3's attention runs cuDNN's fused kernel with a query-key head
dimension of 192 and a value head dimension of 128.  catalog/flash.c has
Blackwell's rate for that shape from NVIDIA's published benchmark; on Hopper
NVIDIA publishes it only with a deterministic backward (cudnn-frontend
benchmark/sdpa_benchmark_training/results/h200_919_only_cudnn/
dsv3_20260227_034744.csv: 128 heads, batch 1, causal, forward 522, 599 and
643 TFLOP/s at 2k, 4k and 8k, backward 352, 404 and 442), where training
stacks run the default, non-deterministic one.  This times PyTorch's cuDNN
attention (scaled_dot_product_attention under the cuDNN backend, bf16,
causal, batch 1) at that shape and at head dimension 128 for both, 128 and
64 heads, 2k to 16k tokens, with the default backward and, at 4k and 8k,
under torch.use_deterministic_algorithms (to set beside NVIDIA's figures).

FLOPs are counted as NVIDIA's files count them: forward 2 (dqk + dv) a
query-key pair, backward 2 (3 dqk + 2 dv), over the causal pairs s (s + 1) / 2
of each head.

Nothing here is read by dtplan at run time; the lines go to
results/gpu-profiles/ and the model's rates cite them.

usage: attn_mla.py [--repeats N] [--quick] > out.jsonl
"""
import argparse
import json
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from attn_bench import timed
from lent import no_gpu, print_meta


def one(heads, seq, dqk, dv, deterministic, repeats):
    q = torch.randn((1, heads, seq, dqk), device="cuda", dtype=torch.bfloat16, requires_grad=True)
    k = torch.randn((1, heads, seq, dqk), device="cuda", dtype=torch.bfloat16, requires_grad=True)
    v = torch.randn((1, heads, seq, dv), device="cuda", dtype=torch.bfloat16, requires_grad=True)
    do = torch.randn((1, heads, seq, dv), device="cuda", dtype=torch.bfloat16)

    def fwd():
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            return F.scaled_dot_product_attention(q, k, v, is_causal=True)

    def fwd_bwd():
        fwd().backward(do)

    torch.use_deterministic_algorithms(deterministic, warn_only=True)
    try:
        f = timed(fwd, repeats)
        fb = timed(fwd_bwd, repeats)
    finally:
        torch.use_deterministic_algorithms(False)
    pairs = heads * seq * (seq + 1) / 2
    ff, bf = 2 * (dqk + dv) * pairs, 2 * (3 * dqk + 2 * dv) * pairs
    return {"heads": heads, "seq": seq, "head_dim_qk": dqk, "head_dim_v": dv, "causal": True,
            "deterministic": deterministic, "fwd_s": f, "fwd_bwd_s": fb,
            "fwd_tflops": ff / f / 1e12, "bwd_tflops": bf / (fb - f) / 1e12,
            "fwd_bwd_tflops": (ff + bf) / fb / 1e12}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--quick", action="store_true", help="one shape, to try the harness")
    a = ap.parse_args()
    if no_gpu("attn_mla.py"):
        return 0
    print_meta(cudnn=torch.backends.cudnn.version())
    cases = [(h, s, dqk, dv, False) for h in (128, 64) for s in (2048, 4096, 8192, 16384)
             for dqk, dv in ((192, 128), (128, 128))]
    cases += [(128, s, 192, 128, True) for s in (4096, 8192)]
    if a.quick:
        cases = cases[:1]
    for h, s, dqk, dv, det in cases:
        try:
            print(json.dumps(one(h, s, dqk, dv, det, a.repeats)), flush=True)
        except Exception as e:
            print(json.dumps({"heads": h, "seq": s, "head_dim_qk": dqk, "head_dim_v": dv,
                              "deterministic": det, "error": str(e).splitlines()[0][:300]}), flush=True)
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
