#!/usr/bin/env python3
"""One context-parallel rank's ring attention as PyTorch's own code runs it.

torchtitan's context-parallel rows (validate/published/llm_runs.csv,
tt-h100-*-cp*) take about 1.45 times dtplan's attention time at cp 4 and 8
where cp 2 is within 2%, and a lent H100 measured the ring's kernels at the
whole kernel's rate (validate/attn_long.py).  This runs the installed
PyTorch's ring attention itself (torch.distributed.tensor.experimental's
_templated_ring_attention and its backward) for one rank of a cp-way ring on
one GPU: the process group is a group of one, the rank and the ring's size
are what the module is told, and the keys and values "received" each step
are the rank's own (the same shapes, no traffic).  So it times what a rank
computes, merges and copies, apart from the network.

Shape: 32K local tokens, 32 heads of 128 (Llama 3 8B with its key-value heads
repeated, as torchtitan ran it), bf16, causal with load balancing, the flash
backend.  For cp 1, 2, 4 and 8 and the ring's first and last rank it prints
one JSON line: forward and backward seconds (attn_bench.timed's median of the
repeats after warm-ups) and the rate over the causal
FLOPs the rank owns, cp / 2 blocks of its t queries against t keys at
4 t^2 d h forward each (cp 1: half a block, the causal diagonal), backward
2.5 times that.  The installed PyTorch is newer than the December 2024
nightly torchtitan ran (torch 1963fc8); the first line says which.

Nothing here is read by dtplan at run time.

usage: cp_ring_torch.py [--tokens N] [--heads N] [--repeats N] > out.jsonl
"""
import argparse
import importlib
import inspect
import json
import os
import sys

import torch
import torch.distributed as dist

from attn_bench import timed  # median of the timed repeats after warm-ups (CUDA events)


def find_module():
    for name in ("torch.distributed.tensor.experimental._context_parallel._attention",
                 "torch.distributed.tensor.experimental._attention"):
        try:
            m = importlib.import_module(name)
        except Exception:
            continue
        if hasattr(m, "_templated_ring_attention"):
            return name, m
    return None, None


class Rotater:
    """A ring's rotater that hands back what it was given: the keys and
    values a rank would receive, of the same shape, without traffic."""

    def __init__(self, *args, **kwargs):
        self.buf = None

    def exchange_buffers(self, curr):
        self.buf = curr.contiguous()

    def next_buffer(self):
        return self.buf


class Dist:
    """torch.distributed as the module sees it, with the rank and the ring's
    size set here."""

    def __init__(self, rank, size):
        self.rank, self.size = rank, size

    def get_rank(self, *args, **kwargs):
        return self.rank

    def get_world_size(self, *args, **kwargs):
        return self.size

    def __getattr__(self, name):
        return getattr(dist, name)


def call(fn, kwargs):
    """fn with the keyword arguments its signature takes."""
    params = inspect.signature(fn).parameters
    return {k: v for k, v in kwargs.items() if k in params or any(
        p.kind == p.VAR_KEYWORD for p in params.values())}


def run(mod, group, cp, rank, t, h, d, repeats):
    mod.dist = Dist(rank, cp)
    mod._create_rotater = lambda *a, **k: Rotater()
    opts = getattr(mod, "_cp_options", None)
    if opts is not None:
        if hasattr(opts, "enable_load_balance"):
            opts.enable_load_balance = True
        if hasattr(opts, "convert_to_f32"):
            opts.convert_to_f32 = True
    q, k, v = (torch.randn(1, h, t, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    fwd_op = torch.ops.aten._scaled_dot_product_flash_attention.default
    bwd_op = torch.ops.aten._scaled_dot_product_flash_attention_backward.default
    fwd_fn = mod._templated_ring_attention
    bwd_fn = next((getattr(mod, n) for n in ("_templated_ring_attention_backward",
                                                "_templated_ring_attention_bwd")
                   if hasattr(mod, n)), None)
    fsig = inspect.signature(fwd_fn).parameters
    first = "group" if "group" in fsig else "mesh"

    def forward():
        kw = {first: group, "seq_dim": 2, "op": fwd_op, "query": q, "key": k, "value": v,
              "is_causal": True}
        return fwd_fn(**call(fwd_fn, kw))

    def backward(res):
        out, lse = res[0], res[1]
        rest = res[2:]
        grad = torch.randn_like(out)
        bsig = inspect.signature(bwd_fn).parameters
        bfirst = "group" if "group" in bsig else "mesh"
        kw = {bfirst: group, "seq_dim": 2, "op": bwd_op, "grad_out": grad, "grad_out_name": "grad_out",
              "query": q, "key": k, "value": v, "out": out, "logsumexp": lse, "is_causal": True,
              "cum_seq_q": rest[0] if len(rest) > 0 else None,
              "cum_seq_k": rest[1] if len(rest) > 1 else None,
              "max_q": rest[2] if len(rest) > 2 else t, "max_k": rest[3] if len(rest) > 3 else t,
              "dropout_p": 0.0, "philox_seed": rest[4] if len(rest) > 4 else None,
              "philox_offset": rest[5] if len(rest) > 5 else None}
        return bwd_fn(**call(bwd_fn, kw))

    res = forward()
    row = {"cp": cp, "rank": rank, "tokens": t, "heads": h, "head_dim": d,
           "fwd_s": timed(forward, repeats)}
    try:
        if bwd_fn is None:
            raise RuntimeError("no ring backward in this PyTorch")
        row["bwd_s"] = timed(lambda: backward(res), repeats)
    except Exception as e:      # a newer or older signature than this script knows
        row["bwd_error"] = str(e)[:200]
    # the causal FLOPs a balanced rank owns: cp / 2 blocks of t x t keys (its 2 chunks
    # against the whole sequence's 2 cp chunks, halved), 4 t^2 d h each forward
    blocks = cp / 2.0 if cp > 1 else 0.5
    flops = 4.0 * t * t * d * h * blocks
    row["fwd_tflops"] = flops / row["fwd_s"] / 1e12
    if "bwd_s" in row:
        row["bwd_tflops"] = 2.5 * flops / row["bwd_s"] / 1e12
    del q, k, v, res
    torch.cuda.empty_cache()
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tokens", type=int, default=32768)
    ap.add_argument("--heads", type=int, default=32)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    name, mod = find_module()
    meta = {"torch": torch.__version__, "module": name,
            "functions": sorted(n for n in dir(mod) if "ring" in n.lower() or "rotat" in n.lower())
            if mod else [],
            "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None}
    print(json.dumps({"meta": meta}), flush=True)
    if mod is None or not torch.cuda.is_available():
        print(json.dumps({"skipped": "no CUDA device or no ring attention in this PyTorch"}))
        return 0
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29517")
    dist.init_process_group("gloo", rank=0, world_size=1)
    group = dist.group.WORLD
    for cp in (1, 2, 4, 8):
        for rank in sorted({0, cp - 1}):
            try:
                print(json.dumps(run(mod, group, cp, rank, args.tokens, args.heads, 128, args.repeats)),
                      flush=True)
            except Exception as e:
                print(json.dumps({"cp": cp, "rank": rank, "error": str(e)[:300]}), flush=True)
    dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
