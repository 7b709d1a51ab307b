#!/usr/bin/env python3
"""What eager PyTorch's memory-bound transformer kernels cost on this GPU.

Times, forward and forward-plus-backward, the pieces of a Llama block that
the compute model counts as memory-bound work, written as Hugging Face's
Llama writes them (eager, no fusion): RMSNorm (an fp32 upcast, the mean of
squares, rsqrt, the scale, the cast back), rotary embeddings on Q and K
(rotate_half: slices, a negation, a concatenation, two products and a sum),
SwiGLU's silu(x1) * x3, and a residual add.  Each line gives seconds and the
time over one pass of the 16-bit tensor at the GPU's copy bandwidth
(passes), so docs/model.md can say how many passes each really costs.

usage: eager_ops.py [--tokens 8192] [--hidden 4096] [--ffn 14336] > out.jsonl
"""
import argparse
import json
import sys

import torch

from lent import no_gpu, print_meta


def timed(fn, repeats=20):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    a = torch.cuda.Event(enable_timing=True)
    b = torch.cuda.Event(enable_timing=True)
    a.record()
    for _ in range(repeats):
        fn()
    b.record()
    b.synchronize()
    return a.elapsed_time(b) / 1e3 / repeats


def rmsnorm(x, w, eps=1e-5):
    dtype = x.dtype
    x = x.to(torch.float32)
    var = x.pow(2).mean(-1, keepdim=True)
    x = x * torch.rsqrt(var + eps)
    return w * x.to(dtype)


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def rope(q, k, cos, sin):
    return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tokens", type=int, default=8192)
    ap.add_argument("--hidden", type=int, default=4096)
    ap.add_argument("--ffn", type=int, default=14336)
    ap.add_argument("--heads", type=int, default=32)
    ap.add_argument("--kv-heads", type=int, default=8)
    args = ap.parse_args()
    if no_gpu("eager_ops"):
        return 0
    dev, bf = "cuda", torch.bfloat16
    s, h, f = args.tokens, args.hidden, args.ffn
    d = h // args.heads
    print_meta(tokens=s, hidden=h, ffn=f)
    big = torch.empty(256 << 20, dtype=torch.uint8, device=dev)
    copy_s = timed(lambda: big.clone())
    copy_Bps = 2 * big.numel() / copy_s          # read plus write
    print(json.dumps({"op": "copy", "bytes_per_s": copy_Bps}), flush=True)

    def measure(name, make, fn, elems):
        ins = make()
        t_f = timed(lambda: fn(*ins))

        def fb():
            outs = fn(*ins)
            outs = outs if isinstance(outs, tuple) else (outs,)
            torch.autograd.backward(outs, [torch.ones_like(o) for o in outs])
            for t in ins:
                t.grad = None
        t_fb = timed(fb)
        one = 2 * elems / copy_Bps              # one 16-bit pass over the tensor
        print(json.dumps({"op": name, "fwd_s": t_f, "fwd_bwd_s": t_fb, "elems": elems,
                          "fwd_passes": t_f / one, "bwd_passes": (t_fb - t_f) / one}),
              flush=True)

    def leaf(*shape, dtype=bf):
        return torch.randn(*shape, device=dev, dtype=dtype, requires_grad=True)

    measure("rmsnorm", lambda: (leaf(s, h), leaf(h)), rmsnorm, s * h)
    cos = torch.randn(s, d, device=dev, dtype=bf)
    sin = torch.randn(s, d, device=dev, dtype=bf)
    measure("rope_qk", lambda: (leaf(args.heads, s, d), leaf(args.kv_heads, s, d)),
            lambda q, k: rope(q, k, cos, sin), s * (h + h * args.kv_heads // args.heads))
    measure("swiglu", lambda: (leaf(s, f), leaf(s, f)),
            lambda a, b: torch.nn.functional.silu(a) * b, s * f)
    measure("residual_add", lambda: (leaf(s, h), leaf(s, h)), lambda a, b: a + b, s * h)
    return 0


if __name__ == "__main__":
    sys.exit(main())
