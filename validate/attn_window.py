#!/usr/bin/env python3
"""Sliding-window attention on this GPU through cuDNN, against causal attention.

catalog/flash.c carries a window's efficiency (its rate over the causal
rate at 4k tokens) from two published cuDNN points, a 128-token window on a
GB200 and a 1,024-token one on an H200.  This measures the curve on the
lent GPU itself, through the same cuDNN fused kernel that Transformer
Engine calls (JAX's cuDNN attention: jax.nn.dot_product_attention with
implementation 'cudnn' and local_window_size (w - 1, 0) is cuDNN's causal
sliding window of w keys), bf16:

  gptoss   GPT-OSS's attention as Megatron-Bridge's rows run it (64 query
           and 8 key-value heads of 64, 4,096 tokens, batch 1 and 4),
           windows of 128 to 2,048 keys and the whole causal sequence;
  check    NVIDIA's published H200 point of the same kernel (batch 2, a
           1,024-token window, 8k and 16k tokens: 349 and 355 TFLOP/s
           forward, 300 and 303 backward, cuDNN 9.19,
           NVIDIA/cudnn-frontend benchmark/sdpa_benchmark_training/results/
           h200_919_only_cudnn/gpt_oss_20260227_034819.csv), so that the
           harness is checked against a published figure;
  gb200    the GB200 file's shape (128 heads of 64, batch 2, a 128-token
           window), to set this GPU beside the published GB200 rates.

FLOPs count the keys each query sees (query i sees min(i + 1, w) keys), as
NVIDIA's files do: forward 4 B H d pairs, backward 2.5 times that.  Times
are the median of the repeats, each the mean of a burst of calls after
warm-ups.  With --torch, PyTorch's own cuDNN attention (SDPA) times the
causal case of each shape as a second reading of the same kernel.

Nothing here is read by dtplan at run time; the lines go to
results/gpu-profiles/ and the model's rates cite them.

usage: attn_window.py [--torch] [--quick] > out.jsonl
"""
import argparse
import json
import statistics
import sys
import time


def pairs(t, w):
    """Query-key pairs a causal window of w keys computes over t tokens."""
    w = min(w, t)
    return w * t - w * (w - 1) // 2


def shapes(quick):
    rows = []
    for b in (1, 4):
        for w in (128, 256, 512, 1024, 2048, 4096):
            rows.append(("gptoss", b, 4096, 64, 8, 64, w))
    for t in (8192, 16384):
        rows.append(("gptoss", 1, t, 64, 8, 64, 128))
    for t in (8192, 16384):
        rows.append(("check", 2, t, 64, 8, 64, 1024))
    for t in (4096, 8192, 16384):
        rows.append(("gb200", 2, t, 128, 128, 64, 128))
    rows.append(("gb200", 2, 4096, 128, 128, 64, 4096))
    if quick:
        rows = [r for r in rows if r[2] == 4096][:3]
    return rows


def rates(kind, b, t, hq, hk, d, w, fwd_s, fb_s, backend):
    f = 4.0 * b * hq * d * pairs(t, w)
    bwd_s = fb_s - fwd_s
    return {"kind": kind, "backend": backend, "batch": b, "seq": t, "q_heads": hq,
            "kv_heads": hk, "head_dim": d, "window": w, "causal": True,
            "fwd_s": fwd_s, "fwd_bwd_s": fb_s,
            "fwd_tflops": f / fwd_s / 1e12,
            "bwd_tflops": 2.5 * f / bwd_s / 1e12 if bwd_s > 0 else None,
            "fwd_bwd_tflops": 3.5 * f / fb_s / 1e12}


def burst(fn, args, sync, warm=3, calls=10, repeats=5):
    for _ in range(warm):
        sync(fn(*args))
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(calls):
            out = fn(*args)
        sync(out)
        times.append((time.perf_counter() - t0) / calls)
    return statistics.median(times)


def run_jax(quick):
    import os
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    import jax
    import jax.numpy as jnp

    if jax.devices()[0].platform != "gpu":
        print("attn_window.py: no CUDA device: nothing measured", file=sys.stderr)
        return
    meta = {"gpu": str(jax.devices()[0].device_kind), "jax": jax.__version__}
    try:
        from jax._src.lib import cuda_versions
        meta["cudnn"] = cuda_versions.cudnn_get_version()
    except Exception as e:  # the version is a nicety, not the measurement
        meta["cudnn"] = "unknown (%s)" % type(e).__name__
    print(json.dumps({"meta": meta}), flush=True)

    def sync(x):
        jax.tree_util.tree_map(lambda a: a.block_until_ready(), x)

    key = jax.random.PRNGKey(0)
    for kind, b, t, hq, hk, d, w in shapes(quick):
        k1, k2, k3, k4, key = jax.random.split(key, 5)
        q = jax.random.normal(k1, (b, t, hq, d), jnp.bfloat16)
        k = jax.random.normal(k2, (b, t, hk, d), jnp.bfloat16)
        v = jax.random.normal(k3, (b, t, hk, d), jnp.bfloat16)
        do = jax.random.normal(k4, (b, t, hq, d), jnp.bfloat16)
        win = None if w >= t else (w - 1, 0)

        def attn(q, k, v, win=win):
            return jax.nn.dot_product_attention(q, k, v, is_causal=True,
                                                local_window_size=win,
                                                implementation="cudnn")

        fwd = jax.jit(attn)
        fb = jax.jit(lambda q, k, v, do: jax.vjp(attn, q, k, v)[1](do))
        try:
            fs = burst(fwd, (q, k, v), sync)
            fbs = burst(fb, (q, k, v, do), sync)
            print(json.dumps(rates(kind, b, t, hq, hk, d, w, fs, fbs, "jax-cudnn")), flush=True)
        except Exception as e:
            print(json.dumps({"kind": kind, "backend": "jax-cudnn", "batch": b, "seq": t,
                              "window": w, "error": str(e).splitlines()[0][:300]}), flush=True)


def run_torch(quick):
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    from lent import no_gpu, print_meta

    if no_gpu("attn_window.py"):
        return
    print_meta(cudnn=torch.backends.cudnn.version())

    def sync(_):
        torch.cuda.synchronize()

    for kind, b, t, hq, hk, d, w in shapes(quick):
        if w < t:
            continue  # SDPA has no window; the causal rows only
        q = torch.randn((b, hq, t, d), device="cuda", dtype=torch.bfloat16, requires_grad=True)
        k = torch.randn((b, hk, t, d), device="cuda", dtype=torch.bfloat16, requires_grad=True)
        v = torch.randn((b, hk, t, d), device="cuda", dtype=torch.bfloat16, requires_grad=True)
        do = torch.randn((b, hq, t, d), device="cuda", dtype=torch.bfloat16)

        def fwd():
            with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                return F.scaled_dot_product_attention(q, k, v, is_causal=True,
                                                      enable_gqa=hq != hk)

        def fb():
            fwd().backward(do)
        try:
            fs = burst(fwd, (), sync)
            fbs = burst(fb, (), sync)
            print(json.dumps(rates(kind, b, t, hq, hk, d, w, fs, fbs, "torch-cudnn")), flush=True)
        except Exception as e:
            print(json.dumps({"kind": kind, "backend": "torch-cudnn", "batch": b, "seq": t,
                              "window": w, "error": str(e).splitlines()[0][:300]}), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--torch", action="store_true", help="PyTorch's cuDNN SDPA, causal rows only")
    ap.add_argument("--quick", action="store_true", help="three shapes, to try the harness")
    a = ap.parse_args()
    (run_torch if a.torch else run_jax)(a.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
