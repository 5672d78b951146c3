"""Creates a tiny random model of one family with transformers itself: its
config class, AutoModelForCausalLM.from_config and save_pretrained
(safetensors, float32), so that the weights, names and layout are the ones
transformers writes for the Hub's checkpoints, not a conversion of the core's.

Every parameter is moved away from transformers' initial values (biases zero,
norms one, N(0, 0.02) elsewhere) by a seeded N(0, 0.1) perturbation, so that a
dropped bias, a q/k norm applied to the wrong elements or a missing row
permutation changes the loss.

The sizes are the engine tests' small plans: vocabulary 130, width 64,
2 layers, 4 heads over 2 key/value heads, MLP 128, 32 positions.
usage: make_tiny_hf.py FAMILY OUT_DIR
FAMILY: llama3.2 (RoPE scaling, tied embeddings), mistral, qwen2 (q/k/v biases,
tied embeddings, eps 1e-6), qwen3 (q/k norms, head_dim 32 rather than 64 / 4)"""
import os
import sys

os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

import torch
from transformers import AutoModelForCausalLM, LlamaConfig, MistralConfig, Qwen2Config, Qwen3Config
from transformers.utils import logging

SMALL = dict(vocab_size=130, hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
             num_key_value_heads=2, max_position_embeddings=32)


def config(family):
    if family == "llama3.2":
        # original_max_position_embeddings 40: wavelengths 6.3, 32, 165, ... fall in each branch of the scaling
        rope = {"rope_type": "llama3", "rope_theta": 500000.0, "factor": 32.0, "low_freq_factor": 1.0,
                "high_freq_factor": 4.0, "original_max_position_embeddings": 40}
        return LlamaConfig(**SMALL, rms_norm_eps=1e-5, tie_word_embeddings=True, rope_parameters=rope)
    if family == "mistral":
        return MistralConfig(**SMALL, rms_norm_eps=1e-5, sliding_window=None,
                             rope_parameters={"rope_type": "default", "rope_theta": 1e6})
    if family == "qwen2":
        return Qwen2Config(**SMALL, rms_norm_eps=1e-6, tie_word_embeddings=True,
                           rope_parameters={"rope_type": "default", "rope_theta": 1e6})
    if family == "qwen3":
        return Qwen3Config(**SMALL, head_dim=32, rms_norm_eps=1e-6, tie_word_embeddings=False,
                           rope_parameters={"rope_type": "default", "rope_theta": 1e6})
    sys.exit(f"unknown family {family}")


def main():
    logging.disable_progress_bar()
    family, out = sys.argv[1:3]
    torch.manual_seed(20261129)
    model = AutoModelForCausalLM.from_config(config(family), dtype=torch.float32)
    with torch.no_grad():
        for p in model.parameters():
            p.add_(0.1 * torch.randn_like(p))
    model.save_pretrained(out, safe_serialization=True)


if __name__ == "__main__":
    main()
