#!/usr/bin/python3
"""Writes a Hugging Face Llama checkpoint (model.safetensors, F32) from a
.safetensors file of shardbench-core's names, as Meta's weights are converted
for Hugging Face (transformers' convert_llama_weights_to_hf.py): names mapped
and the q/k rows permuted from interleaved RoPE pairs to rotate_half halves.
With --no-permute only the names change (the mistake the permutation avoids).

usage: to_hf_llama.py CORE.safetensors OUT_DIR N_HEADS N_KV_HEADS [--no-permute]
"""
import json
import os
import re
import sys

import numpy as np


def read(path):
    with open(path, "rb") as f:
        n = int.from_bytes(f.read(8), "little")
        header = json.loads(f.read(n))
        data = f.read()
    header.pop("__metadata__", None)
    out = {}
    for name, e in header.items():
        assert e["dtype"] == "F32", (name, e["dtype"])
        lo, hi = e["data_offsets"]
        out[name] = np.frombuffer(data[lo:hi], dtype=np.float32).reshape(e["shape"])
    return out


def permute(w, n_heads):
    # transformers' permute(): view(n_heads, dim1 // n_heads // 2, 2, dim2).transpose(1, 2)
    dim1, dim2 = w.shape
    return w.reshape(n_heads, dim1 // n_heads // 2, 2, dim2).transpose(0, 2, 1, 3).reshape(dim1, dim2)


NAMES = [
    (r"tok_embeddings\.weight", "model.embed_tokens.weight"),
    (r"norm\.weight", "model.norm.weight"),
    (r"output\.weight", "lm_head.weight"),
    (r"layers\.(\d+)\.attention\.w([qkvo])\.weight", r"model.layers.\1.self_attn.\2_proj.weight"),
    (r"layers\.(\d+)\.feed_forward\.w1\.weight", r"model.layers.\1.mlp.gate_proj.weight"),
    (r"layers\.(\d+)\.feed_forward\.w2\.weight", r"model.layers.\1.mlp.down_proj.weight"),
    (r"layers\.(\d+)\.feed_forward\.w3\.weight", r"model.layers.\1.mlp.up_proj.weight"),
    (r"layers\.(\d+)\.attention_norm\.weight", r"model.layers.\1.input_layernorm.weight"),
    (r"layers\.(\d+)\.ffn_norm\.weight", r"model.layers.\1.post_attention_layernorm.weight"),
]


def main():
    src, out_dir, heads, kv_heads = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    do_permute = "--no-permute" not in sys.argv
    tensors = {}
    for name, w in read(src).items():
        hf = next(re.sub(p, r, name) for p, r in NAMES if re.fullmatch(p, name))
        if do_permute and hf.endswith("q_proj.weight"):
            w = permute(w, heads)
        if do_permute and hf.endswith("k_proj.weight"):
            w = permute(w, kv_heads)
        tensors[hf] = np.ascontiguousarray(w)
    header, offset = {}, 0
    for name, w in sorted(tensors.items()):
        header[name] = {"dtype": "F32", "shape": list(w.shape), "data_offsets": [offset, offset + w.nbytes]}
        offset += w.nbytes
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "model.safetensors"), "wb") as f:
        f.write(len(text).to_bytes(8, "little") + text)
        for name in sorted(tensors):
            f.write(tensors[name].tobytes())


if __name__ == "__main__":
    main()
