#!/usr/bin/env python3
"""FSDP2 training of a Hugging Face GPT-NeoX (Pythia's architecture, which
shardbench-core does not implement), reporting to shardbench.

Every rank prints the event protocol's `@sb` lines through
resources/python/shardbench_report.py, so shardbench's launcher, run store and
workbench follow this script as they follow shardbench-core: loss, tokens/s,
step time, each rank's memory, checkpoints and how it ended
(docs/interoperability.md, "Reporting from your own script").

    torchrun --nproc_per_node 2 examples/pytorch/train_gpt_neox_fsdp2.py --steps 20
    torchrun ... train_gpt_neox_fsdp2.py --checkpoint-dir ckpt --checkpoint-every 10   # resumes from the newest

Launched by shardbench, the checkpoints go into the run's own folder
ckpt/<run id>, and a run restored at another world size starts from the
checkpoint the restore chose (shardbench_report.restored_checkpoint()).

The model is small and the data synthetic (seeded token ids), so that it runs
on a CPU with Gloo; on GPUs (NCCL) give --hidden, --layers and a real token
file of your own. Needs PyTorch 2.6 or newer and transformers.
"""

import argparse
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import get_state_dict, set_state_dict
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from transformers import GPTNeoXConfig, GPTNeoXForCausalLM

try:
    from shardbench_report import Reporter, restored_checkpoint, run_checkpoint_dir
except ImportError:  # run from a checkout: the module beside the workbench's resources
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "resources", "python"))
    from shardbench_report import Reporter, restored_checkpoint, run_checkpoint_dir


def arguments():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--batch", type=int, default=2, help="sequences per rank and step")
    p.add_argument("--seq", type=int, default=64)
    p.add_argument("--vocab", type=int, default=512)
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--checkpoint-dir", default="")
    p.add_argument("--checkpoint-every", type=int, default=0)
    return p.parse_args()


def newest_checkpoint(root):
    """(path, step) of the newest committed step-N folder under root, or ("", 0)."""
    best = ("", 0)
    if root and os.path.isdir(root):
        for name in os.listdir(root):
            path = os.path.join(root, name)
            if name.startswith("step-") and name[5:].isdigit() and os.path.isfile(os.path.join(path, ".metadata")):
                best = max(best, (path, int(name[5:])), key=lambda b: b[1])
    return best


def batch_at(step, rank, args):
    """The same tokens for a step whatever the restarts: seeded by step and rank."""
    g = torch.Generator().manual_seed(args.seed * 1_000_003 + step * 1009 + rank)
    tokens = torch.randint(0, args.vocab, (args.batch, args.seq + 1), generator=g)
    return tokens[:, :-1], tokens[:, 1:]


def train(args, rank, world, device, report):
    torch.manual_seed(args.seed)  # the same initial weights on every rank before sharding
    config = GPTNeoXConfig(vocab_size=args.vocab, hidden_size=args.hidden, num_hidden_layers=args.layers,
                           num_attention_heads=args.heads, intermediate_size=4 * args.hidden,
                           max_position_embeddings=args.seq, use_cache=False)
    model = GPTNeoXForCausalLM(config).to(device)
    mesh = init_device_mesh(device.type, (world,))
    for layer in model.gpt_neox.layers:  # every decoder layer a unit, then the root
        fully_shard(layer, mesh=mesh)
    fully_shard(model, mesh=mesh)
    report.hello()
    report.plan(model)
    optim = torch.optim.AdamW(model.parameters(), lr=args.lr)
    # Launched by shardbench: this run's own folder under --checkpoint-dir, and
    # a restored run's first checkpoint from SHARDBENCH_RESUME_FROM.
    checkpoint_dir = run_checkpoint_dir(args.checkpoint_dir)
    path, start = newest_checkpoint(checkpoint_dir)
    if not path:
        path, start = restored_checkpoint()
    if path:
        model_state, optim_state = get_state_dict(model, optim)
        state = {"model": model_state, "optim": optim_state}
        dcp.load(state, checkpoint_id=path)
        set_state_dict(model, optim, model_state_dict=state["model"], optim_state_dict=state["optim"])
        if rank == 0:
            print(f"resumed from {path} at step {start}", flush=True)
    loss_mean = float("nan")
    for step in range(start, args.steps):
        report.step_begin()
        x, y = batch_at(step, rank, args)
        t0 = time.perf_counter()
        loss = model(input_ids=x.to(device), labels=y.to(device)).loss
        t1 = time.perf_counter()
        loss.backward()
        t2 = time.perf_counter()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optim.step()
        optim.zero_grad()
        t3 = time.perf_counter()
        mean = loss.detach().clone()
        dist.all_reduce(mean)
        loss_mean = mean.item() / world
        report.phase("forward", 1000 * (t1 - t0))
        report.phase("backward", 1000 * (t2 - t1))
        report.phase("optimizer", 1000 * (t3 - t2))
        gn = norm.full_tensor().item() if hasattr(norm, "full_tensor") else float(norm)
        report.step(step + 1, args.steps, loss_mean, lr=args.lr, grad_norm=gn, tokens=world * args.batch * args.seq)
        if rank == 0:
            print(f"step {step + 1} loss {loss_mean:.6f} grad_norm {gn:.6f}", flush=True)
        if checkpoint_dir and args.checkpoint_every and (step + 1) % args.checkpoint_every == 0:
            saved = time.perf_counter()
            model_state, optim_state = get_state_dict(model, optim)
            target = os.path.join(checkpoint_dir, f"step-{step + 1:06d}")
            dcp.save({"model": model_state, "optim": optim_state}, checkpoint_id=target)
            if rank == 0:
                report.checkpoint(step + 1, target, ms=1000 * (time.perf_counter() - saved))
    report.done(steps=args.steps, final_loss=loss_mean)


def main():
    args = arguments()
    cuda = torch.cuda.is_available()
    dist.init_process_group("nccl" if cuda else "gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", "0"))) if cuda else torch.device("cpu")
    if cuda:
        torch.cuda.set_device(device)
    report = Reporter(rank=rank, world=world)
    try:
        train(args, rank, world, device, report)
    except BaseException as e:
        report.error("%s: %s" % (type(e).__name__, e), "train_gpt_neox_fsdp2.py")
        report.done(status="failed")
        raise
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
