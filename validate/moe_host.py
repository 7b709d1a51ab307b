#!/usr/bin/env python3
"""How long a MoE layer's pass keeps the host busy, against the GPU's time.

A mixture-of-experts layer run eagerly launches a few kernels a local
expert (its products, activation, gather and scatter), so with many small
experts the host's launches, not the GPU, can set the pace.  This runs one
layer of Qwen3-30B-A3B's shape (hidden 2048, 128 experts of width 768, top 8,
4,096 tokens: 256 routed rows an expert; 16 experts a GPU at expert
parallelism 8) as a
Python loop over the local experts, bf16, forward and backward, and prints
one JSON line a case: the wall time a pass (the GPU synchronised after it),
the host's time to issue it (the wall time before the synchronisation), and
the GPU's time when the host is ahead (CUDA events over a pass issued after
a wait kernel holds the stream).  Cases: 4 to 64 local experts.

Nothing here is read by dtplan at run time; it is evidence for the MoE rows'
known gap (validate/published/llm_runs.csv: a floor of about 10 ms a layer
pass), the lines going to results/gpu-profiles/.

usage: moe_host.py [--repeats N] > out.jsonl
"""
import argparse
import json
import sys
import time

import torch
import torch.nn.functional as F

from lent import no_gpu, print_meta

HIDDEN, FFN, TOPK, TOKENS, EXPERTS = 2048, 768, 8, 4096, 128


def layer(x, router, w1, w3, w2, n_local):
    """Route x's tokens top-k over all EXPERTS, the local ones (the first
    n_local) each one loop step: TOKENS x TOPK / EXPERTS rows an expert."""
    logits = x @ router
    probs, idx = torch.topk(torch.softmax(logits.float(), dim=-1), TOPK, dim=-1)
    out = torch.zeros_like(x)
    flat = idx.flatten()
    tok = torch.arange(x.shape[0], device=x.device).repeat_interleave(TOPK)
    for e in range(n_local):
        sel = (flat == e).nonzero(as_tuple=True)[0]
        rows = tok[sel]
        h = x.index_select(0, rows)
        y = (F.silu(h @ w1[e]) * (h @ w3[e])) @ w2[e]
        out.index_add_(0, rows, y * probs.flatten()[sel, None].to(y.dtype))
    return out


def case(n_local, repeats):
    dev, dt = "cuda", torch.bfloat16
    x = torch.randn(TOKENS, HIDDEN, device=dev, dtype=dt, requires_grad=True)
    router = torch.randn(HIDDEN, EXPERTS, device=dev, dtype=dt, requires_grad=True)
    w1 = torch.randn(n_local, HIDDEN, FFN, device=dev, dtype=dt, requires_grad=True)
    w3 = torch.randn(n_local, HIDDEN, FFN, device=dev, dtype=dt, requires_grad=True)
    w2 = torch.randn(n_local, FFN, HIDDEN, device=dev, dtype=dt, requires_grad=True)

    def one():
        layer(x, router, w1, w3, w2, n_local).sum().backward()

    for _ in range(3):
        one()
    torch.cuda.synchronize()
    wall, host = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        one()
        t1 = time.perf_counter()
        torch.cuda.synchronize()
        t2 = time.perf_counter()
        host.append(t1 - t0)
        wall.append(t2 - t0)
    # the GPU's own time: hold the stream with a long wait, issue the pass
    # behind it, and time the pass with events once the host is far ahead
    gpu = []
    for _ in range(repeats):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(int(4e8))      # about 0.2 s of spinning at GPU clocks
        a.record()
        one()
        b.record()
        b.synchronize()
        gpu.append(a.elapsed_time(b) / 1e3)
    med = lambda v: sorted(v)[len(v) // 2]
    return {"local_experts": n_local, "tokens": TOKENS, "top_k": TOPK, "hidden": HIDDEN,
            "ffn": FFN, "wall_s": med(wall), "host_issue_s": med(host), "gpu_s": med(gpu)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    if no_gpu("moe_host"):
        return 0
    print_meta()
    for n in (4, 16, 64):
        print(json.dumps(case(n, args.repeats)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
