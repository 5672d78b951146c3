"""Loads a Hugging Face folder with transformers itself
(AutoModelForCausalLM.from_pretrained, float32) and prints its loss on the
one window of a plan's token file, computed by transformers (labels=input_ids).

The token file holds exactly seq_len + 2 uint16 tokens, so shardbench-core's
file data (a window start drawn modulo tokens - seq_len - 1) has one window,
tokens[0 : seq_len + 1], for every sample of every rank: the core trains on
the same tokens without this script repeating how it draws them. Given those
seq_len + 1 tokens, transformers shifts the labels itself and scores the same
seq_len next-token predictions as the core (position seq_len's logits are not
scored, and causal attention keeps them out of the others).

usage: hf_loss.py PLAN.json HF_DIR...; prints one loss a line, one per folder;
exits 1 when a weight of a model is missing from its folder or has another shape."""
import json
import os
import sys

os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")  # no load report on stderr

import numpy as np
import torch
from transformers import AutoModelForCausalLM
from transformers.utils import logging


def main():
    logging.disable_progress_bar()
    plan_path, folders = sys.argv[1], sys.argv[2:]
    training = json.load(open(plan_path))["training"]
    seq = training["seq_len"]
    tokens = np.fromfile(training["data"]["path"], dtype="<u2")
    if tokens.size != seq + 2:
        sys.exit(f"{training['data']['path']} holds {tokens.size} tokens, not seq_len + 2 = {seq + 2}")
    window = torch.from_numpy(tokens[: seq + 1].astype(np.int64))[None]
    for folder in folders:
        model, info = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32, output_loading_info=True)
        if info["missing_keys"] or info["mismatched_keys"]:
            sys.exit(f"{folder}: missing {sorted(info['missing_keys'])}, mismatched {info['mismatched_keys']}")
        model.eval()
        with torch.no_grad():
            print(repr(model(input_ids=window, labels=window).loss.item()), flush=True)


if __name__ == "__main__":
    main()
