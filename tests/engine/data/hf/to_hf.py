"""Writes a Hugging Face checkpoint (config.json and model.safetensors, F32)
from a .safetensors file of shardbench-core's names and the plan it belongs
to, as the models are published:

- Llama (LlamaForCausalLM) and its form (Mistral, Qwen2, Qwen3: their own
  model_type and class, Qwen2's q/k/v biases, Qwen3's q/k norms permuted as
  one head), as Meta's weights are converted for Hugging Face
  (transformers' convert_llama_weights_to_hf.py): names mapped and the q/k
  rows permuted from interleaved RoPE pairs to rotate_half halves. With
  --no-permute only the names change (the mistake the permutation avoids).
  The plan's rope_scaling goes into config.json as Llama 3.1's does;
  --no-rope-scaling leaves it out (the model then computes plain RoPE).
- GPT-2, as the published `gpt2` checkpoint names it: no "transformer."
  prefix, no lm_head (tied to wte), and the attention-mask buffers h.N.attn.bias.

--shards N splits the tensors over N files with model.safetensors.index.json;
--no-buffers leaves GPT-2's mask buffers out (newer transformers saves none).

usage: to_hf.py PLAN.json CORE.safetensors OUT_DIR [--no-permute] [--no-rope-scaling] [--shards N] [--no-buffers]
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


def write(path, tensors):
    header, offset = {}, 0
    for name, w in tensors.items():
        header[name] = {"dtype": "F32", "shape": list(w.shape), "data_offsets": [offset, offset + w.nbytes]}
        offset += w.nbytes
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(len(text).to_bytes(8, "little") + text)
        for w in tensors.values():
            f.write(np.ascontiguousarray(w).tobytes())


def permute(w, n_heads):
    # transformers' permute(): view(n_heads, dim1 // n_heads // 2, 2, dim2).transpose(1, 2);
    # a 1-D bias or norm weight as a matrix of one column
    dim1 = w.shape[0]
    return w.reshape(n_heads, dim1 // n_heads // 2, 2, -1).transpose(0, 2, 1, 3).reshape(w.shape)


LLAMA_NAMES = [
    (r"tok_embeddings\.weight", "model.embed_tokens.weight"),
    (r"norm\.weight", "model.norm.weight"),
    (r"output\.weight", "lm_head.weight"),
    (r"layers\.(\d+)\.attention\.w([qkvo])\.(weight|bias)", r"model.layers.\1.self_attn.\2_proj.\3"),
    (r"layers\.(\d+)\.attention\.([qk])_norm\.weight", r"model.layers.\1.self_attn.\2_norm.weight"),
    (r"layers\.(\d+)\.feed_forward\.w1\.weight", r"model.layers.\1.mlp.gate_proj.weight"),
    (r"layers\.(\d+)\.feed_forward\.w2\.weight", r"model.layers.\1.mlp.down_proj.weight"),
    (r"layers\.(\d+)\.feed_forward\.w3\.weight", r"model.layers.\1.mlp.up_proj.weight"),
    (r"layers\.(\d+)\.attention_norm\.weight", r"model.layers.\1.input_layernorm.weight"),
    (r"layers\.(\d+)\.ffn_norm\.weight", r"model.layers.\1.post_attention_layernorm.weight"),
]


def llama(m, core, do_permute):
    tensors = {}
    for name, w in core.items():
        hf = next(re.sub(p, r, name) for p, r in LLAMA_NAMES if re.fullmatch(p, name))
        if do_permute and (hf.endswith("q_proj.weight") or hf.endswith("q_proj.bias")):
            w = permute(w, m["n_heads"])
        if do_permute and (hf.endswith("k_proj.weight") or hf.endswith("k_proj.bias")):
            w = permute(w, m["n_kv_heads"])
        if do_permute and hf.endswith("_norm.weight") and ".self_attn." in hf:  # Qwen3's q/k norms: one head
            w = permute(w, 1)
        tensors[hf] = w
    arch = m["arch"]
    classes = {"llama": "LlamaForCausalLM", "mistral": "MistralForCausalLM", "qwen2": "Qwen2ForCausalLM",
               "qwen3": "Qwen3ForCausalLM"}
    config = {"model_type": arch, "architectures": [classes[arch]], "vocab_size": m["vocab_size"],
              "hidden_size": m["dim"], "intermediate_size": m["ffn_hidden"], "num_hidden_layers": m["n_layers"],
              "num_attention_heads": m["n_heads"], "num_key_value_heads": m["n_kv_heads"],
              "head_dim": m.get("head_dim") or m["dim"] // m["n_heads"],
              "max_position_embeddings": m["max_seq_len"], "rope_theta": m.get("rope_theta", 500000.0),
              "rms_norm_eps": m.get("norm_eps", 1e-05),
              "hidden_act": "silu", "tie_word_embeddings": m.get("tied_embeddings", False),
              "rope_scaling": None if "--no-rope-scaling" in sys.argv else m.get("rope_scaling"),
              "torch_dtype": "float32"}
    if arch != "llama":
        config["sliding_window"] = None
    return tensors, config


def gpt2(m, core):
    tensors = {}
    for name, w in core.items():
        if name == "lm_head.weight":
            continue
        tensors[name[len("transformer."):]] = w
    s = m["max_seq_len"]
    for i in range(0 if "--no-buffers" in sys.argv else m["n_layers"]):
        tensors[f"h.{i}.attn.bias"] = np.tril(np.ones((s, s), dtype=np.float32)).reshape(1, 1, s, s)
    config = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "vocab_size": m["vocab_size"],
              "n_embd": m["dim"], "n_layer": m["n_layers"], "n_head": m["n_heads"], "n_positions": s,
              "n_inner": m["ffn_hidden"], "activation_function": "gelu_new", "layer_norm_epsilon": 1e-05}
    return tensors, config


def main():
    plan_path, src, out_dir = sys.argv[1:4]
    shards = int(sys.argv[sys.argv.index("--shards") + 1]) if "--shards" in sys.argv else 1
    m = json.load(open(plan_path))["model"]
    core = read(src)
    tensors, config = gpt2(m, core) if m["arch"] == "gpt2" else llama(m, core, "--no-permute" not in sys.argv)
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    names = sorted(tensors)
    if shards == 1:
        write(os.path.join(out_dir, "model.safetensors"), {n: tensors[n] for n in names})
        return
    weight_map = {}
    for k in range(shards):
        file = f"model-{k + 1:05d}-of-{shards:05d}.safetensors"
        part = names[k::shards]
        write(os.path.join(out_dir, file), {n: tensors[n] for n in part})
        weight_map.update({n: file for n in part})
    with open(os.path.join(out_dir, "model.safetensors.index.json"), "w") as f:
        json.dump({"metadata": {}, "weight_map": weight_map}, f, indent=2)


if __name__ == "__main__":
    main()
