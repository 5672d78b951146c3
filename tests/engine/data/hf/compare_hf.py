"""Compares two Hugging Face checkpoints tensor by tensor, bit for bit: the
same names, shapes and values (each a folder with model.safetensors or an
index and shards). With --bf16 the first is BF16 and the second F32, which
PyTorch converts (torch.Tensor.to(torch.bfloat16)) before comparing.

usage: compare_hf.py A_DIR B_DIR [--bf16]; exit 0 when equal, else 1 and why."""
import json
import os
import sys

import numpy as np

DTYPES = {"F32": np.float32, "BF16": np.uint16}


def tensors(folder):
    index = os.path.join(folder, "model.safetensors.index.json")
    files = sorted(set(json.load(open(index))["weight_map"].values())) if os.path.exists(index) else ["model.safetensors"]
    out = {}
    for file in files:
        with open(os.path.join(folder, file), "rb") as f:
            n = int.from_bytes(f.read(8), "little")
            header = json.loads(f.read(n))
            data = f.read()
        header.pop("__metadata__", None)
        for name, e in header.items():
            lo, hi = e["data_offsets"]
            out[name] = (e["dtype"], np.frombuffer(data[lo:hi], dtype=DTYPES[e["dtype"]]).reshape(e["shape"]))
    return out


def main():
    a, b = tensors(sys.argv[1]), tensors(sys.argv[2])
    if sorted(a) != sorted(b):
        sys.exit(f"names differ: {sorted(set(a) ^ set(b))}")
    for name in a:
        (da, va), (db, vb) = a[name], b[name]
        if "--bf16" in sys.argv:
            import torch
            vb = torch.from_numpy(vb.copy()).to(torch.bfloat16).view(torch.int16).numpy().view(np.uint16)
            db = "BF16"
        if da != db or va.shape != vb.shape or not np.array_equal(va, vb):
            sys.exit(f"{name}: {da} {va.shape} differs from {db} {vb.shape}")
    print(f"{len(a)} tensors equal")


if __name__ == "__main__":
    main()
