#!/usr/bin/env python3
"""fp8_gemm.py - what fp8 training's matrix products cost on this GPU next to
16-bit ones, measured through PyTorch (docs/calibrate.md "fp8").

For each (M, N, K) of the shapes below: a bf16 product (torch.matmul), an
fp8 product as Transformer Engine runs it (e4m3 inputs with per-tensor
scales, bf16 output: torch._scaled_mm), and the quantisation an fp8 linear
layer adds per input tensor (amax, scale, cast to e4m3, and the transposed
copy backward needs), each timed with CUDA events after warm-up.  Prints one
JSON object; exits 0 with {"skipped": WHY} when there is no CUDA device or no
fp8 support.

    python3 calibrate/fp8_gemm.py [--iters N] [--quick]

The shapes are those of a transformer layer's four products at a micro-batch
of 8,192 tokens (hidden h, feed-forward f, grouped-query k/v of 8 heads of
128), whole and split by tensor parallelism, for h 4,096 (GPT 5B-8B class)
and 8,192 (70B class).
"""
import json
import sys


def shapes(quick):
    out = []
    for h, f in ((4096, 14336), (8192, 28672)):
        qkv = h + 2 * 8 * 128
        for tp in ((1, 8) if not quick else (8,)):
            m = 8192
            out += [("qkv", m, qkv // tp, h), ("proj", m, h, h // tp),
                    ("fc1", m, 2 * f // tp, h), ("fc2", m, h, f // tp)]
    return out


def timed(torch, fn, iters):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    for _ in range(iters):
        fn()
    b.record()
    torch.cuda.synchronize()
    return a.elapsed_time(b) / 1e3 / iters


def main():
    iters = 20
    quick = "--quick" in sys.argv
    if "--iters" in sys.argv:
        iters = int(sys.argv[sys.argv.index("--iters") + 1])
    try:
        import torch
    except ImportError:
        print(json.dumps({"skipped": "PyTorch is not installed"}))
        return 0
    if not torch.cuda.is_available():
        print(json.dumps({"skipped": "no CUDA device"}))
        return 0
    if not hasattr(torch, "float8_e4m3fn") or not hasattr(torch, "_scaled_mm"):
        print(json.dumps({"skipped": "this PyTorch has no fp8 products"}))
        return 0
    dev = torch.device("cuda")
    prop = torch.cuda.get_device_properties(dev)
    torch.manual_seed(1)
    e4m3 = torch.float8_e4m3fn
    fmax = torch.finfo(e4m3).max
    rows = []
    for name, m, n, k in shapes(quick):
        x = torch.randn(m, k, device=dev, dtype=torch.bfloat16)
        w = torch.randn(n, k, device=dev, dtype=torch.bfloat16) * 0.02
        t16 = timed(torch, lambda: torch.matmul(x, w.t()), iters)
        sx = (fmax / x.abs().max().float()).reshape(())
        sw = (fmax / w.abs().max().float()).reshape(())
        x8 = (x.float() * sx).to(e4m3)
        w8 = (w.float() * sw).to(e4m3)
        inv_x, inv_w = (1 / sx).reshape(()), (1 / sw).reshape(())
        try:
            t8 = timed(torch, lambda: torch._scaled_mm(x8, w8.t(), scale_a=inv_x, scale_b=inv_w,
                                                       out_dtype=torch.bfloat16), iters)
            t8f = timed(torch, lambda: torch._scaled_mm(x8, w8.t(), scale_a=inv_x, scale_b=inv_w,
                                                        out_dtype=torch.bfloat16,
                                                        use_fast_accum=True), iters)
        except (RuntimeError, TypeError) as err:
            print(json.dumps({"skipped": "fp8 product refused: %s" % err}))
            return 0

        def quantize():
            s = fmax / x.abs().max().float()
            q = (x.float() * s).to(e4m3)
            q.t().contiguous()      # the transposed copy the weight gradient reads
        tq = timed(torch, quantize, iters)
        flops = 2.0 * m * n * k
        rows.append({"op": name, "m": m, "n": n, "k": k,
                     "bf16_s": t16, "bf16_tflops": flops / t16 / 1e12,
                     "fp8_s": t8, "fp8_tflops": flops / t8 / 1e12,
                     "fp8_fast_accum_s": t8f, "fp8_fast_accum_tflops": flops / t8f / 1e12,
                     "quantize_input_s": tq, "quantize_bytes": 2 * m * k})
        del x, w, x8, w8
    print(json.dumps({"gpu": prop.name, "sms": prop.multi_processor_count,
                      "torch": torch.__version__, "cuda": torch.version.cuda,
                      "iters": iters, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
