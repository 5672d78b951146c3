"""What a user brings to shardbench, made with transformers and numpy, and
transformers' verdict on what shardbench exports (tst_launcher_hf_journey).

usage:
  hf_journey.py prepare DIR
      DIR/qwen3, DIR/llama3.2: tiny random models saved by transformers
      (save_pretrained, safetensors) with a 70,000-token vocabulary, so that
      token ids above 65,535 occur; DIR/train.{bin,idx}, DIR/val.{bin,idx}:
      Megatron-LM indexed data sets (MMIDIDX, version 1) of int32 tokens,
      Megatron's dtype for vocabularies of 65,500 and more.
  hf_journey.py val-loss MODEL_DIR DATA_PREFIX SEQ SAMPLES
      loads MODEL_DIR with AutoModelForCausalLM.from_pretrained (refusing
      missing or unexpected weights) and prints the mean token loss over the
      validation samples 0..SAMPLES-1 of DATA_PREFIX as shardbench takes
      them: sample i is the SEQ + 1 tokens from (i * SEQ) mod (tokens - SEQ).
"""
import json
import os
import struct
import sys

os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

import numpy as np
import torch
import torch.nn.functional as F
from transformers import AutoModelForCausalLM, LlamaConfig, Qwen3Config
from transformers.utils import logging

VOCAB = 70000
SMALL = dict(vocab_size=VOCAB, hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
             num_key_value_heads=2, max_position_embeddings=64)


def configs():
    rope = {"rope_type": "llama3", "rope_theta": 500000.0, "factor": 32.0, "low_freq_factor": 1.0,
            "high_freq_factor": 4.0, "original_max_position_embeddings": 40}
    return {"llama3.2": LlamaConfig(**SMALL, rms_norm_eps=1e-5, tie_word_embeddings=True, rope_parameters=rope),
            "qwen3": Qwen3Config(**SMALL, head_dim=32, rms_norm_eps=1e-6, tie_word_embeddings=False,
                                 rope_parameters={"rope_type": "default", "rope_theta": 1e6})}


def write_megatron(prefix, documents):
    """PREFIX.bin: the documents' int32 tokens one after another; PREFIX.idx: Megatron's index."""
    lengths = np.array([len(d) for d in documents], dtype=np.int32)
    pointers = np.concatenate([[0], np.cumsum(lengths.astype(np.int64) * 4)[:-1]]).astype(np.int64)
    with open(prefix + ".bin", "wb") as f:
        for d in documents:
            f.write(np.asarray(d, dtype=np.int32).tobytes())
    with open(prefix + ".idx", "wb") as f:
        f.write(b"MMIDIDX\x00\x00")
        f.write(struct.pack("<Q", 1))
        f.write(struct.pack("<B", 4))  # int32
        f.write(struct.pack("<Q", len(documents)))
        f.write(struct.pack("<Q", len(documents) + 1))
        f.write(lengths.tobytes())
        f.write(pointers.tobytes())
        f.write(np.arange(len(documents) + 1, dtype=np.int64).tobytes())


def prepare(out):
    torch.manual_seed(20261129)
    for family, config in configs().items():
        model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
        with torch.no_grad():
            for p in model.parameters():
                p.add_(0.1 * torch.randn_like(p))
        model.save_pretrained(os.path.join(out, family), safe_serialization=True)
    rng = np.random.default_rng(7)
    for name, docs in (("train", 40), ("val", 10)):
        # Documents of a repeating phrase each, so that training lowers the loss; a
        # third of the ids lie above 65,535.
        documents = []
        for _ in range(docs):
            phrase = rng.integers(0, VOCAB, size=int(rng.integers(3, 9)))
            documents.append(np.tile(phrase, 40)[: int(rng.integers(60, 160))])
        write_megatron(os.path.join(out, name), documents)


def val_loss(model_dir, prefix, seq, samples):
    model, info = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32, output_loading_info=True)
    bad = {k: v for k, v in info.items() if v and k in ("missing_keys", "unexpected_keys", "mismatched_keys")}
    if bad:
        sys.exit(f"{model_dir}: {json.dumps({k: sorted(map(str, v)) for k, v in bad.items()})}")
    tokens = np.fromfile(prefix + ".bin", dtype=np.int32).astype(np.int64)
    starts = (np.arange(samples) * seq) % (len(tokens) - seq)
    rows = torch.from_numpy(np.stack([tokens[s:s + seq + 1] for s in starts]))
    model.eval()
    with torch.no_grad():
        logits = model(rows[:, :-1]).logits
        loss = F.cross_entropy(logits.flatten(0, 1), rows[:, 1:].flatten())
    print(f"{loss.item():.9g}")


def main():
    logging.disable_progress_bar()
    if len(sys.argv) == 3 and sys.argv[1] == "prepare":
        prepare(sys.argv[2])
    elif len(sys.argv) == 6 and sys.argv[1] == "val-loss":
        val_loss(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
