#!/usr/bin/env python3
"""What a MoE layer's expert products and token moves cost on one GPU.

A rank of a mixture-of-experts layer runs its L local experts' products over
R routed rows each: the first product (R x h by h x n1, n1 = 2f for gated
experts), the second (R x f by f x h), each forward, as an input gradient and
as a weight gradient: six products an expert.  This times them four ways,
each captured in a CUDA graph and replayed, so that the host's launches do
not count (full-iteration graphs' case):

  loop4    one product an expert, the experts spread over 4 streams
           (Transformer Engine's grouped linear, multi_stream.cpp)
  loop1    the same on one stream
  grouped  PyTorch's grouped GEMM (torch._grouped_mm: one kernel a kind of
           product over all experts, as a fused grouped MLP runs them)
  dense    one product of all L x R rows (the weight gradient a batched
           product of L): the same FLOPs in the fewest kernels

and, where the GPU has fp8 (e4m3, per-tensor scales, bf16 out), loop4 with
torch._scaled_mm.  It also times the token moves around the experts at T
tokens a micro-batch: the router's product, its softmax and top-k, the
permutation (a gather of T x top_k rows of h) and the unpermutation (a
weighted scatter-add back to T rows, and as a gather-sum in token order,
as a fused unpermute works), forward kernels each.  And the host's
issue time of one eager torch.mm (what a launch an expert costs when no graph
runs).  One JSON line a case, TFLOP/s over the products' FLOPs, seconds.

Nothing here is read by dtplan at run time: it is evidence for the expert
products' model (planner/compute.c grouped_s), kept in results/gpu-profiles/.

usage: moe_gemm.py [--iters N] [--quick] > out.jsonl
"""
import argparse
import json
import sys
import time

import torch

from lent import no_gpu, print_meta

# (name, hidden, expert width f, gated, experts E, top_k) from models.csv
MODELS = [
    ("qwen3-30b-a3b", 2048, 768, 1, 128, 8),
    ("qwen3-235b-a22b", 4096, 1536, 1, 128, 8),
    ("deepseek-v3", 7168, 2048, 1, 256, 8),
    ("gpt-oss-120b", 2880, 2880, 1, 128, 4),
    ("mixtral-8x7b", 4096, 14336, 1, 8, 2),
]
TOKENS = 4096           # a rank's tokens a micro-batch (sequence 4,096, micro-batch 1)


def cases(quick):
    """(model, h, f, n1, local experts L, rows R) at expert parallelism ep:
    R = TOKENS top_k ep / E on an even load."""
    out = []
    for name, h, f, gated, E, k in MODELS:
        eps = [e for e in (1, 8, 16, 64) if e <= E and E % e == 0]
        if quick:
            eps = eps[1:2] or eps[:1]
        for ep in eps:
            L, R = E // ep, TOKENS * k * ep // E
            if R < 16 or L * h * (n1 := f * (1 + gated)) > 2.5e9:
                continue
            out.append((name, ep, h, f, n1, L, R))
    return out


def graph_time(torch, body, iters, reps=3):
    """Median seconds of one body() replayed from a CUDA graph."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(2):
            body()
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        body()
    g.replay()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(iters):
            g.replay()
        b.record()
        torch.cuda.synchronize()
        ts.append(a.elapsed_time(b) / 1e3 / iters)
    del g
    return sorted(ts)[len(ts) // 2]


def products(torch, h, f, n1, L, R, dt):
    """The six products' operands of L experts: list of (kind, a, b) with
    a @ b the product (b may be a transposed view)."""
    dev = "cuda"
    x = torch.randn(L, R, h, device=dev, dtype=dt)
    w1 = torch.randn(L, h, n1, device=dev, dtype=dt) * 0.02
    dy1 = torch.randn(L, R, n1, device=dev, dtype=dt)
    a2 = torch.randn(L, R, f, device=dev, dtype=dt)
    w2 = torch.randn(L, f, h, device=dev, dtype=dt) * 0.02
    dy2 = torch.randn(L, R, h, device=dev, dtype=dt)
    return {
        "fc1_fwd": (x, w1), "fc1_dgrad": (dy1, w1.transpose(1, 2)),
        "fc1_wgrad": (x.transpose(1, 2), dy1),
        "fc2_fwd": (a2, w2), "fc2_dgrad": (dy2, w2.transpose(1, 2)),
        "fc2_wgrad": (a2.transpose(1, 2), dy2),
    }


def flops_of(ops):
    return sum(2 * a.shape[0] * a.shape[1] * a.shape[2] * b.shape[2] for a, b in ops.values())


def run_loop(torch, ops, streams):
    outs = {k: torch.empty(a.shape[0], a.shape[1], b.shape[2], device="cuda", dtype=a.dtype)
            for k, (a, b) in ops.items()}
    def body():
        main = torch.cuda.current_stream()
        for s in streams:
            s.wait_stream(main)
        for kind, (a, b) in ops.items():
            for e in range(a.shape[0]):
                st = streams[e % len(streams)] if streams else main
                with torch.cuda.stream(st):
                    torch.mm(a[e], b[e], out=outs[kind][e])
        for s in streams:
            main.wait_stream(s)
    return body


def run_dense(torch, ops):
    """The same FLOPs: forward and input gradients as one product of L R
    rows, weight gradients as one batched product."""
    flat = {}
    for kind, (a, b) in ops.items():
        if kind.endswith("wgrad"):
            flat[kind] = ("bmm", a, b)
        else:
            flat[kind] = ("mm", a.reshape(-1, a.shape[2]), b[0])

    def body():
        for how, a, b in flat.values():
            if how == "mm":
                torch.mm(a, b)
            else:
                torch.bmm(a, b)
    return body


def run_grouped(torch, ops, L, R):
    """torch._grouped_mm: 2-D rows by 3-D weights with offsets for forward
    and input gradients, 2-D by 2-D with offsets along the reduction for
    weight gradients."""
    offs = torch.arange(R, L * R + 1, R, device="cuda", dtype=torch.int32)
    calls = []
    for kind, (a, b) in ops.items():
        if kind.endswith("wgrad"):
            # a: (L, k, R) view of X^T; as 2-D: (k, L R), b: (L R, n)
            xa = a.transpose(1, 2).reshape(L * R, a.shape[1]).t()
            xb = b.reshape(L * R, b.shape[2])
            calls.append((xa, xb))
        else:
            calls.append((a.reshape(L * R, a.shape[2]), b))

    for i, (xa, xb) in enumerate(calls):    # a layout it refuses: row-major copies
        try:
            torch._grouped_mm(xa, xb, offs=offs)
        except RuntimeError:
            calls[i] = (xa.contiguous(), xb.contiguous())
            torch._grouped_mm(*calls[i], offs=offs)

    def body():
        for xa, xb in calls:
            torch._grouped_mm(xa, xb, offs=offs)
    return body


def run_fp8_loop(torch, ops, streams):
    """fp8 (e4m3) products with per-tensor scales, bf16 out, one an expert
    over the streams; b in column-major order as _scaled_mm asks."""
    e4 = torch.float8_e4m3fn
    one = torch.ones((), device="cuda", dtype=torch.float32)
    prepared = []
    for kind, (a, b) in ops.items():
        L = a.shape[0]
        fa = a.contiguous().to(e4)
        fb = b.transpose(1, 2).contiguous().to(e4).transpose(1, 2)   # column-major
        out = torch.empty(L, a.shape[1], b.shape[2], device="cuda", dtype=torch.bfloat16)
        prepared.append((fa, fb, out))

    def body():
        main = torch.cuda.current_stream()
        for s in streams:
            s.wait_stream(main)
        for fa, fb, out in prepared:
            for e in range(fa.shape[0]):
                with torch.cuda.stream(streams[e % len(streams)]):
                    torch._scaled_mm(fa[e], fb[e], one, one, out_dtype=torch.bfloat16)
        for s in streams:
            main.wait_stream(s)
    return body


def moves(torch, h, E, k, iters):
    """The router and the token moves at TOKENS tokens, forward kernels."""
    dev, dt = "cuda", torch.bfloat16
    x = torch.randn(TOKENS, h, device=dev, dtype=dt)
    wr = torch.randn(h, E, device=dev, dtype=dt) * 0.02
    idx = torch.randint(0, E, (TOKENS * k,), device=dev)
    order = torch.argsort(idx, stable=True)
    src = order // k
    y = torch.randn(TOKENS * k, h, device=dev, dtype=dt)
    wts = torch.rand(TOKENS * k, 1, device=dev, dtype=dt)
    out = torch.zeros(TOKENS, h, device=dev, dtype=dt)
    res = {}
    res["router_mm_s"] = graph_time(torch, lambda: torch.mm(x, wr), iters)
    res["router_topk_s"] = graph_time(
        torch, lambda: torch.topk(torch.softmax(torch.mm(x, wr).float(), dim=-1), k, dim=-1), iters)
    res["sort_s"] = graph_time(torch, lambda: torch.argsort(idx, stable=True), iters)
    res["permute_s"] = graph_time(torch, lambda: x.index_select(0, src), iters)
    res["unpermute_s"] = graph_time(
        torch, lambda: out.zero_().index_add_(0, src, y * wts), iters)
    # as a fused unpermute works: each token gathers its top_k rows and sums
    # them by weight, no atomics (rows in token order: inverse of the sort)
    inv = torch.argsort(order)
    wk = wts.view(TOKENS, k, 1)
    res["unpermute_gather_s"] = graph_time(
        torch, lambda: (y.index_select(0, inv).view(TOKENS, k, h) * wk).sum(dim=1), iters)
    res["elems"] = TOKENS * k * h
    return res


def host_launch(torch):
    """Seconds the host takes to issue one eager torch.mm of a small shape."""
    a = torch.randn(256, 2048, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(2048, 768, device="cuda", dtype=torch.bfloat16)
    c = torch.empty(256, 768, device="cuda", dtype=torch.bfloat16)
    for _ in range(50):
        torch.mm(a, b, out=c)
    torch.cuda.synchronize()
    torch.cuda._sleep(200_000_000)      # hold the stream: the host runs ahead
    n = 2000
    t0 = time.perf_counter()
    for _ in range(n):
        torch.mm(a, b, out=c)
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    return (t1 - t0) / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iters", type=int, default=10)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    if no_gpu("moe_gemm"):
        return 0
    cc = torch.cuda.get_device_capability()
    fp8 = cc >= (8, 9) and hasattr(torch, "_scaled_mm")
    print_meta(capability=list(cc), tokens=TOKENS)
    torch.manual_seed(1)
    streams4 = [torch.cuda.Stream() for _ in range(4)]
    streams1 = []               # the capturing stream itself
    print(json.dumps({"host_mm_issue_s": host_launch(torch)}), flush=True)
    for name, ep, h, f, n1, L, R in cases(args.quick):
        ops = products(torch, h, f, n1, L, R, torch.bfloat16)
        fl = flops_of(ops)
        row = {"model": name, "ep": ep, "hidden": h, "ffn": f, "n1": n1,
               "local_experts": L, "rows": R, "flops": fl}
        ways = [("loop4", lambda: run_loop(torch, ops, streams4)),
                ("loop1", lambda: run_loop(torch, ops, streams1)),
                ("dense", lambda: run_dense(torch, ops)),
                ("grouped", lambda: run_grouped(torch, ops, L, R))]
        if fp8:
            ways.append(("fp8_loop4", lambda: run_fp8_loop(torch, ops, streams4)))
        for way, make in ways:
            try:
                t = graph_time(torch, make(), args.iters)
                row[way + "_s"] = t
                row[way + "_tflops"] = fl / t / 1e12
            except Exception as e:          # an unsupported form: say which
                row[way + "_error"] = str(e).splitlines()[0][:160]
        print(json.dumps(row), flush=True)
        del ops
        torch.cuda.empty_cache()
    for name, h, f, gated, E, k in MODELS:
        try:
            r = moves(torch, h, E, k, args.iters)
        except Exception as e:
            r = {"error": str(e).splitlines()[0][:160]}
        print(json.dumps({"model": name, "moves": r}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
