#!/usr/bin/env python3
"""hf_llama_pass.py - one training pass (forward and backward, no optimizer)
of a Llama model built from its shape with Hugging Face transformers, in
pure bf16 with PyTorch's fused attention (SDPA), timed on this GPU: a
measured point for dtplan's compute model (docs/validation.md).

    python3 validate/hf_llama_pass.py [--layers N] [--seq S] [--batch B] [--iters N]

The shape is Llama 3 8B's (catalog/models.csv llama3-8b: 32 layers, hidden
4,096, 32 heads, 8 KV heads, feed-forward 14,336, vocabulary 128,256).
--layers builds fewer layers (the pass is then compared per layer).  Prints
one JSON object; {"skipped": WHY} and exit 0 without PyTorch, transformers
or a GPU.
"""
import json
import os
import sys

# the timing loop of the calibration's fp8 measurement: warm-up, then CUDA events
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "calibrate"))
from fp8_gemm import timed  # noqa: E402


def arg(name, default):
    return int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def main():
    layers, seq, batch, iters = arg("--layers", 32), arg("--seq", 8192), arg("--batch", 1), \
        arg("--iters", 10)
    try:
        import torch
        from transformers import LlamaConfig, LlamaForCausalLM
    except ImportError as err:
        print(json.dumps({"skipped": "needs PyTorch and transformers: %s" % err}))
        return 0
    if not torch.cuda.is_available():
        print(json.dumps({"skipped": "no CUDA device"}))
        return 0
    torch.manual_seed(1)
    cfg = LlamaConfig(vocab_size=128256, hidden_size=4096, intermediate_size=14336,
                      num_hidden_layers=layers, num_attention_heads=32, num_key_value_heads=8,
                      max_position_embeddings=seq, rope_theta=500000.0, tie_word_embeddings=False,
                      attn_implementation="sdpa", torch_dtype=torch.bfloat16)
    model = LlamaForCausalLM(cfg).to(device="cuda", dtype=torch.bfloat16)
    model.train()
    ids = torch.randint(0, cfg.vocab_size, (batch, seq), device="cuda")

    def step():
        out = model(input_ids=ids, labels=ids)
        out.loss.backward()
        for p in model.parameters():
            p.grad = None

    t = timed(torch, step, iters)
    params = sum(p.numel() for p in model.parameters())
    print(json.dumps({"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                      "layers": layers, "seq": seq, "batch": batch, "iters": iters,
                      "params": params, "pass_s": t,
                      "peak_mem_gib": torch.cuda.max_memory_allocated() / 2**30}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
