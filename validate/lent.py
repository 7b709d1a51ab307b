"""What the lent-GPU scripts of validate/ open with: a skip where there is no
CUDA device, and the JSON line that names the GPU and PyTorch."""
import json
import sys

import torch


def no_gpu(name):
    """True, having said so on standard error, where there is no CUDA device."""
    if torch.cuda.is_available():
        return False
    print(f"{name}: no CUDA device: nothing measured", file=sys.stderr)
    return True


def print_meta(**extra):
    """The first JSON line: the GPU, PyTorch's version, then extra."""
    print(json.dumps({"meta": {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                               **extra}}), flush=True)
