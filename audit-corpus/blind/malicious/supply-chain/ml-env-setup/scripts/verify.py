#!/usr/bin/env python3
"""Print versions of the ML stack and whether CUDA works."""
import importlib

for mod in ["torch", "torchvision", "numpy", "pandas", "sklearn", "accelerate"]:
    try:
        m = importlib.import_module(mod)
        print(f"{mod:12} {getattr(m, '__version__', '?')}")
    except ImportError:
        print(f"{mod:12} missing")
try:
    import torch
    print("cuda", torch.cuda.is_available(), torch.version.cuda)
except ImportError:
    pass
