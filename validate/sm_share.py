#!/usr/bin/env python3
"""sm_share.py - compute beside a kernel that holds k SMs (planner/resolve_ep.c
overlap_cost_s: the expert-parallel dispatcher's kernels hold parallel.ep_sms SMs
while another micro-batch computes; the model takes that compute as
SMs / (SMs - k) times slower).

A spinning kernel of k blocks, each asking for most of an SM's shared memory
so that no other block fits beside it, holds k SMs for a while on one stream;
on another stream the same operations run as they do alone, and their time
beside it over their time alone is measured against SMs / (SMs - k).  The
operations: 16-bit matrix products (a dense layer's and a MoE expert's
shapes), and a memory-bound copy (a kernel that does not need every SM to
reach the memory's rate).

Needs a GPU, PyTorch and CuPy; prints one JSON object a line:
  python3 validate/sm_share.py > results/gpu-profiles/h200-sm-share.jsonl
"""
import argparse
import json
import sys

SPIN = r"""
extern "C" __global__ void spin(long long cycles, int *out)
{
    extern __shared__ int hold[];
    long long t0 = clock64();
    hold[threadIdx.x] = threadIdx.x;
    while (clock64() - t0 < cycles)
        ;
    if (threadIdx.x == 0)
        out[blockIdx.x] = hold[1];
}
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--held", default="0,8,16,20,24,32,48,66",
                    help="SM counts to hold, comma-separated")
    ap.add_argument("--iters", type=int, default=10)
    a = ap.parse_args()
    try:
        import torch
        import cupy
    except ImportError as e:
        print("sm_share.py: skipped: %s" % e, file=sys.stderr)
        return 0
    if not torch.cuda.is_available():
        print("sm_share.py: skipped: no GPU", file=sys.stderr)
        return 0
    dev = torch.cuda.get_device_properties(0)
    sms = dev.multi_processor_count
    smem = cupy.cuda.runtime.deviceGetAttribute(
        cupy.cuda.runtime.cudaDevAttrMaxSharedMemoryPerBlockOptin, 0)
    spin = cupy.RawKernel(SPIN, "spin")
    spin.max_dynamic_shared_size_bytes = smem
    clock_hz = cupy.cuda.runtime.deviceGetAttribute(cupy.cuda.runtime.cudaDevAttrClockRate, 0) * 1e3
    out = cupy.zeros(sms, dtype=cupy.int32)
    # two streams of PyTorch's pool (non-blocking), not the legacy default
    # stream, which would wait for the spin
    side, main_s = torch.cuda.Stream(), torch.cuda.Stream()

    bf = torch.bfloat16
    ops = {
        "gemm 8192x8192x8192": (lambda x=torch.randn(8192, 8192, dtype=bf, device="cuda"),
                                y=torch.randn(8192, 8192, dtype=bf, device="cuda"): x @ y),
        "gemm 16384x5760x2880": (lambda x=torch.randn(16384, 2880, dtype=bf, device="cuda"),
                                 y=torch.randn(2880, 5760, dtype=bf, device="cuda"): x @ y),
        "gemm 4096x8192x8192": (lambda x=torch.randn(4096, 8192, dtype=bf, device="cuda"),
                                y=torch.randn(8192, 8192, dtype=bf, device="cuda"): x @ y),
        "copy 1 GiB": (lambda x=torch.empty(1 << 29, dtype=bf, device="cuda"),
                       y=torch.empty(1 << 29, dtype=bf, device="cuda"): y.copy_(x)),
        "cast 1 GiB to fp8": (lambda x=torch.randn(1 << 29, dtype=bf, device="cuda"):
                              x.to(torch.float8_e4m3fn)),
        "attention 8x32x4096x128 causal": (
            lambda q=torch.randn(8, 32, 4096, 128, dtype=bf, device="cuda"):
            torch.nn.functional.scaled_dot_product_attention(q, q, q, is_causal=True)),
    }

    def timed(f, n):
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        f()
        e0.record()
        for _ in range(n):
            f()
        e1.record()
        e1.synchronize()
        return e0.elapsed_time(e1) / n

    torch.cuda.synchronize()
    torch.cuda.set_stream(main_s)
    alone = {name: timed(f, a.iters) for name, f in ops.items()}
    for name in ops:
        alone[name] = min(alone[name], timed(ops[name], a.iters))
    for k in [int(x) for x in a.held.split(",")]:
        for name, f in ops.items():
            if k == 0:
                ms = timed(f, a.iters)
            else:
                # the spin long enough to cover the timed run three times over
                cycles = int(3 * (a.iters + 1) * alone[name] * 1e-3 * clock_hz) + int(2e-3 * clock_hz)
                with cupy.cuda.ExternalStream(side.cuda_stream):
                    spin((k,), (256,), (cupy.int64(cycles), out), shared_mem=smem)
                ms = timed(f, a.iters)
                torch.cuda.synchronize()
            print(json.dumps({"gpu": dev.name, "sms": sms, "held": k, "op": name,
                              "ms": round(ms, 4), "alone_ms": round(alone[name], 4),
                              "slowdown": round(ms / alone[name], 4),
                              "model": round(sms / (sms - k), 4) if k < sms else None,
                              "smem_per_block": smem}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
