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

With --grad-norm it also backpropagates that loss and prints, after it on the
same line, the L2 norm of all parameter gradients (each tied tensor once), as
shardbench-core's step event reports grad_norm before clipping.

usage: hf_loss.py PLAN.json HF_DIR... [--grad-norm]; prints one loss a line, one
per folder; exits 1 when a weight of a model is missing from its folder or has
another shape."""
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
    args = [a for a in sys.argv[1:] if a != "--grad-norm"]
    grad_norm = "--grad-norm" in sys.argv
    plan_path, folders = args[0], args[1:]
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
        if not grad_norm:
            with torch.no_grad():
                print(repr(model(input_ids=window, labels=window).loss.item()), flush=True)
            continue
        loss = model(input_ids=window, labels=window).loss
        loss.backward()
        norm = torch.sqrt(sum((p.grad.double() ** 2).sum() for p in model.parameters() if p.grad is not None))
        print(repr(loss.item()), repr(norm.item()), flush=True)


if __name__ == "__main__":
    main()
