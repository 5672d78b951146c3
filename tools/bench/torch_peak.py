"""Runs a script exported by `shardbench-cli export-script` in this process
(one rank, the environment of torchrun already set) and then prints PyTorch's
peak CUDA memory: the number tools/bench/gpu_check.sh sets beside the core's.

usage: python3 tools/bench/torch_peak.py SCRIPT [script arguments...]
"""
import runpy
import sys

import torch

script = sys.argv[1]
sys.argv = [script] + sys.argv[2:]
runpy.run_path(script, run_name="__main__")
if torch.cuda.is_available():
    print(f"torch_peak_bytes {torch.cuda.max_memory_allocated()}", flush=True)
