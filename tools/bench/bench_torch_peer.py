#!/usr/bin/python3
"""PyTorch peer of the engine benchmark (tools/bench/bench_engine.sh).

Builds the training core's tutorial Transformer (core/engine/model.cpp) in
plain PyTorch from a plan written by `shardbench-cli plan --preset
transformer ...`, with the plan's AdamW (betas, eps, weight decay, no_decay
groups) and global-norm gradient clipping, and times training steps on one
compute thread per process. The timed region is the core's step: zero_grad,
data, forward, loss, backward, clipping, optimizer step, loss read back.

Modes (the fifth argument):
  plain  one process (WORLD=1) in fp32, or DistributedDataParallel over Gloo
         with WORLD processes (PyTorch 1.13's FSDP needs CUDA, so DDP is its
         CPU peer). The default.
  fsdp2  PyTorch 2.x's fully_shard over a WORLD-rank Gloo mesh (WORLD may be
         1): every block a unit plus the root, with the plan's
         reshard_after_forward and mixed precision (bf16 parameters with an
         fp32 reduction when the plan says so), as the exported script shards.

usage: PYTHON tools/bench/bench_torch_peer.py PLAN.json WORLD STEPS PORT [plain|fsdp2]
Prints one step time in ms per line (steps > 5, rank 0), as bench_engine.sh reads.
"""
import json
import math
import os
import sys

import torch
import torch.distributed
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.wq, self.wk, self.wv, self.wo = (nn.Linear(dim, dim, bias=False) for _ in range(4))

    def forward(self, x, mask):
        B, S, D = x.shape
        hd = D // self.heads
        q = self.wq(x).view(B, S, self.heads, hd).transpose(1, 2)
        k = self.wk(x).view(B, S, self.heads, hd).transpose(1, 2)
        v = self.wv(x).view(B, S, self.heads, hd).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))
        scores = scores.masked_fill(mask, float("-inf"))
        probs = torch.softmax(scores.float(), -1).type_as(v)
        return self.wo(torch.matmul(probs, v).transpose(1, 2).reshape(B, S, D))


class FeedForward(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden)
        self.w2 = nn.Linear(hidden, dim)

    def forward(self, x):
        return self.w2(F.gelu(self.w1(x)))


class Block(nn.Module):
    def __init__(self, dim, heads, hidden):
        super().__init__()
        self.attention_norm = nn.LayerNorm(dim)
        self.attention = Attention(dim, heads)
        self.ffn_norm = nn.LayerNorm(dim)
        self.feed_forward = FeedForward(dim, hidden)

    def forward(self, x, mask):
        h = x + self.attention(self.attention_norm(x), mask)
        return h + self.feed_forward(self.ffn_norm(h))


class Transformer(nn.Module):
    def __init__(self, m):
        super().__init__()
        dim = m["dim"]
        self.tok_embeddings = nn.Embedding(m["vocab_size"], dim)
        self.pos_embeddings = nn.Embedding(m["max_seq_len"], dim)
        self.layers = nn.ModuleList(Block(dim, m["n_heads"], m["ffn_hidden"]) for _ in range(m["n_layers"]))
        self.norm = nn.LayerNorm(dim)
        self.output = nn.Linear(dim, m["vocab_size"], bias=False)
        if m.get("tied_embeddings"):
            self.output.weight = self.tok_embeddings.weight
        for name, p in self.named_parameters():  # the core's init: N(0, 0.02), norms 1, biases 0
            with torch.no_grad():
                if name.endswith("bias"):
                    p.zero_()
                elif "norm" in name:
                    p.fill_(1.0)
                else:
                    p.normal_(0.0, 0.02)

    def forward(self, tokens):
        S = tokens.size(1)
        mask = torch.ones(S, S, dtype=torch.bool).triu(1)
        h = self.tok_embeddings(tokens) + self.pos_embeddings(torch.arange(S))
        for layer in self.layers:
            h = layer(h, mask)
        return self.output(self.norm(h)).float()


def param_groups(model, opt):
    no_decay = set(opt.get("no_decay", []))
    decayed, kept = [], []
    embeddings = {id(model.tok_embeddings.weight), id(model.pos_embeddings.weight)}
    for p in model.parameters():
        skip = ("1d" in no_decay and p.dim() < 2) or ("embeddings" in no_decay and id(p) in embeddings)
        (kept if skip else decayed).append(p)
    groups = [{"params": decayed}]
    if kept:
        groups.append({"params": kept, "weight_decay": 0.0})
    return groups


DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32, None: None}


def reshard_value(v):
    """The plan's reshard_after_forward as fully_shard takes it ("default": FSDP2's own default)."""
    return None if v in (None, "default") else v


def shard_fsdp2(model, plan, world):
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard
    mesh = init_device_mesh("cpu", (world,))
    units = {u["module"]: u for u in plan.get("units", [])}
    def kwargs(name):
        u = units.get(name, {})
        mp = u.get("mixed_precision") or {}
        out = {"mesh": mesh, "mp_policy": MixedPrecisionPolicy(param_dtype=DTYPES[mp.get("param_dtype")],
                                                               reduce_dtype=DTYPES[mp.get("reduce_dtype")])}
        r = reshard_value(u.get("reshard_after_forward"))
        if r is not None:
            out["reshard_after_forward"] = r
        return out
    for i, block in enumerate(model.layers):
        fully_shard(block, **kwargs(f"layers.{i}"))
    return fully_shard(model, **kwargs(""))


def train(rank, world, plan, steps, port, mode):
    torch.set_num_threads(1)
    torch.manual_seed(0)
    m, t = plan["model"], plan["training"]
    opt = t.get("optimizer", {})
    model = Transformer(m)
    distributed = world > 1 or mode == "fsdp2"
    if distributed:
        torch.distributed.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world)
    if mode == "fsdp2":
        model = shard_fsdp2(model, plan, world)
    elif world > 1:
        model = nn.parallel.DistributedDataParallel(model)
    inner = model.module if isinstance(model, nn.parallel.DistributedDataParallel) else model
    betas = opt.get("betas", [0.9, 0.95])
    optimizer = torch.optim.AdamW(param_groups(inner, opt), lr=opt.get("lr", 3e-4), betas=tuple(betas),
                                  eps=opt.get("eps", 1e-8), weight_decay=opt.get("weight_decay", 0.1))
    clip = t.get("grad_clip", 1.0)
    B, S, V = t.get("micro_batch", 8), t.get("seq_len", 64), m["vocab_size"]
    gen = torch.Generator().manual_seed(1000 + rank)
    import time
    for step in range(1, steps + 1):
        t0 = time.perf_counter()
        optimizer.zero_grad(set_to_none=False)
        data = torch.randint(0, V, (B, S + 1), generator=gen)
        inputs, targets = data[:, :-1], data[:, 1:]
        logits = model(inputs)
        loss = F.cross_entropy(logits.view(-1, V), targets.reshape(-1))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip if clip > 0 else 1e30)
        optimizer.step()
        loss.item()
        ms = (time.perf_counter() - t0) * 1000.0
        if rank == 0 and step > 5:
            print(f"{ms:.3f}", flush=True)
    if distributed:
        torch.distributed.destroy_process_group()


def has_fully_shard():
    try:  # Debian's PyTorch 1.13 cannot even import its FSDP package on Python 3.11
        import torch.distributed.fsdp as fsdp
    except Exception:
        return False
    return hasattr(fsdp, "fully_shard")


def main():
    if len(sys.argv) not in (5, 6) or (len(sys.argv) == 6 and sys.argv[5] not in ("plain", "fsdp2")):
        sys.exit(__doc__.split("\n\n")[-1])
    plan_path, world, steps, port = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    mode = sys.argv[5] if len(sys.argv) == 6 else "plain"
    with open(plan_path) as f:
        plan = json.load(f)
    if plan["model"].get("arch", "tutorial") != "tutorial":
        sys.exit("the peer builds the tutorial Transformer only")
    if mode == "fsdp2" and not has_fully_shard():
        sys.exit(f"fsdp2 needs PyTorch 2.6 or newer (fully_shard); this is PyTorch {torch.__version__}")
    if world == 1:
        train(0, 1, plan, steps, port, mode)
    else:
        import torch.multiprocessing as mp
        mp.spawn(train, args=(world, plan, steps, port, mode), nprocs=world)


if __name__ == "__main__":
    main()
