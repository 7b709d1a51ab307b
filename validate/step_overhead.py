#!/usr/bin/env python3
"""What an optimizer step costs beyond its arithmetic on this GPU and host.

A training step's update is memory-bound arithmetic (dtplan counts its
bytes), but a Python loop over the parameter tensors launches a dozen small
kernels a tensor, and for small tensors the host's launches, not the GPU,
set the time.  This times, on BERT-large's 388 parameter tensors (24 layers
of hidden 1024; embeddings, pooler and SQuAD head) and on a Llama 3 8B
layer stack's, each way PyTorch programs update them:

  per_tensor   a Python loop of torch ops a tensor, Adam with decoupled
               weight decay as BertAdam and the first PyTorch optimizers
               wrote it (no foreach, no fused kernel), after a per-tensor
               gradient-norm clip;
  foreach      torch.optim.AdamW(foreach=True) and a foreach norm clip;
  fused        torch.optim.AdamW(fused=True) and a foreach norm clip;

and prints one JSON line each: seconds a step (median of the timed steps,
the GPU synchronised after each, as a training loop's loss.item() does),
the tensors, and the arithmetic's own time at the measured copy rate, so
that the rest is what the launches cost.  Also the launch floor: an empty
kernel's launch and a host synchronisation.

usage: step_overhead.py [--steps N] > out.jsonl
"""
import argparse
import json
import sys
import time

import torch

from lent import no_gpu, print_meta


def bert_large_shapes():
    h, f, v, p = 1024, 4096, 30522, 512
    shapes = [(v, h), (p, h), (2, h), (h,), (h,)]        # embeddings and their norm
    for _ in range(24):
        shapes += [(h, h), (h,)] * 4                      # Q, K, V, output
        shapes += [(h,), (h,)]                            # attention norm
        shapes += [(f, h), (f,), (h, f), (h,)]            # feed-forward
        shapes += [(h,), (h,)]                            # output norm
    shapes += [(h, h), (h,), (2, h), (2,)]                # pooler, SQuAD head
    return shapes


def llama_shapes(layers=8):
    h, f, kv = 4096, 14336, 1024
    shapes = []
    for _ in range(layers):
        shapes += [(h, h), (kv, h), (kv, h), (h, h), (f, h), (f, h), (h, f), (h,), (h,)]
    return shapes


def per_tensor_step(params, state, lr=1e-4, b1=0.9, b2=0.999, eps=1e-6, wd=0.01):
    for p in params:                                      # clip each tensor's gradient
        torch.nn.utils.clip_grad_norm_([p], 1.0)
    for p in params:
        g = p.grad
        m, v = state[p]
        m.mul_(b1).add_(g, alpha=1 - b1)
        v.mul_(b2).addcmul_(g, g, value=1 - b2)
        update = m / (v.sqrt() + eps)
        update += wd * p.data
        p.data.add_(-lr * update)


def timed(fn, steps):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - t0)
    times.sort()
    return times[len(times) // 2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=20)
    args = ap.parse_args()
    if no_gpu("step_overhead"):
        return 0
    dev = "cuda"
    big = torch.empty(256 << 20, dtype=torch.uint8, device=dev)
    copy_Bps = 2 * big.numel() / timed(lambda: big.clone(), 10)
    print_meta(copy_bytes_per_s=copy_Bps)
    x = torch.zeros(1, device=dev)
    launch = timed(lambda: [x.add_(0) for _ in range(1000)], 5) / 1000
    sync = timed(lambda: (x.add_(0), torch.cuda.synchronize()), 200)
    print(json.dumps({"what": "launch_floor", "launch_s": launch, "launch_and_sync_s": sync}),
          flush=True)
    for name, shapes in (("bert-large", bert_large_shapes()), ("llama3-8b-8-layers", llama_shapes())):
        params = [torch.nn.Parameter(torch.randn(s, device=dev) * 0.02) for s in shapes]
        for p in params:
            p.grad = torch.randn_like(p) * 1e-3
        n = sum(p.numel() for p in params)
        # Adam's arithmetic in fp32: read p, g, m, v and write p, m, v: 28 bytes a parameter
        arith = 28.0 * n / copy_Bps
        state = {p: (torch.zeros_like(p), torch.zeros_like(p)) for p in params}
        rows = [("per_tensor", lambda: per_tensor_step(params, state))]
        for impl in ("foreach", "fused"):
            opt = torch.optim.AdamW(params, lr=1e-4, **{impl: True})

            def step(opt=opt):
                torch.nn.utils.clip_grad_norm_(params, 1.0, foreach=True)
                opt.step()
            rows.append((impl, step))
        for impl, fn in rows:
            t = timed(fn, args.steps)
            print(json.dumps({"what": "optimizer_step", "params": name, "impl": impl,
                              "tensors": len(params), "elements": n, "step_s": t,
                              "arithmetic_s": arith, "beyond_s": t - arith,
                              "beyond_s_per_tensor": (t - arith) / len(params)}), flush=True)
        del params, state
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
