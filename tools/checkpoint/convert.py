#!/usr/bin/env python3
"""Converts checkpoints between shardbench-core and the FSDP2 script that
`shardbench-cli export-script` writes, so that a run continues on the other
side as if uninterrupted (docs/interoperability.md):

  convert.py core-to-dcp CORE_CKPT SCRIPT_CKPT_DIR --script train.py
  convert.py dcp-to-core DCP_CKPT CORE_CKPT_DIR --script train.py --plan plan.json [--world N] [--run-id ID]

Carried over: every parameter, AdamW's exp_avg, exp_avg_sq and step, the
training step and the data position (the next global sample). Run it with
the PyTorch 2.x the script runs on (the project's .venv); it works on whole
tensors in one process, so it needs the memory of the model and its two AdamW
states, whatever world size either side ran at.

Why a converter, not a script that reads the core's format: the core links
LibTorch 1.13, which cannot read DCP's pickled metadata, so one direction
needs Python in any case; and the script stays a plain FSDP2 program whose
checkpoints are DCP's own. The model, its parameter names and the optimizer
come from the exported script itself (imported, its main() not run), so the
DCP checkpoint written is exactly the one its save_checkpoint writes.
"""

import argparse
import importlib.util
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import core_format as cf  # noqa: E402
from core_format import Refused  # noqa: E402

# The model fields the plan and the script's MODEL both carry; any difference is another model.
MODEL_FIELDS = ("arch", "vocab_size", "dim", "n_layers", "n_heads", "n_kv_heads", "ffn_hidden", "max_seq_len",
                "tied_embeddings", "rope_theta")


def load_script(path):
    """The exported script as a module: MODEL, TRAIN, build_model, param_groups,
    save_checkpoint, load_checkpoint (its main() runs only as __main__)."""
    if not os.path.isfile(path):
        raise Refused(f"--script {path}: no such file")
    spec = importlib.util.spec_from_file_location("shardbench_fsdp2_script", path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except SyntaxError as e:
        raise Refused(f"--script {path}: not a Python script ({e})") from e
    for name in ("MODEL", "TRAIN", "build_model", "param_groups", "save_checkpoint", "load_checkpoint"):
        if not hasattr(module, name):
            raise Refused(f"--script {path}: has no {name} (not a script of shardbench-cli export-script, or an older one)")
    return module


def check_model(plan_model, script, where):
    """The plan's model against the script's MODEL, field by field."""
    if not isinstance(plan_model, dict):
        raise Refused(f"{where}: carries no model")
    for field in MODEL_FIELDS:
        if field in plan_model and field in script.MODEL and plan_model[field] != script.MODEL[field]:
            raise Refused(f"{where}: a different model: {field} is {plan_model[field]}, the script's is {script.MODEL[field]}")


def start_process_group():
    """A group of one: get_state_dict and DCP want one, and the script's
    save_checkpoint asks the rank."""
    import torch.distributed as dist
    if not dist.is_initialized():
        dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)


def make_optimizer(script, model):
    import torch
    t = script.TRAIN
    return torch.optim.AdamW(script.param_groups(model), lr=t["lr"], betas=t["betas"], eps=t["eps"],
                             weight_decay=t["weight_decay"])


def stored_shape(param):
    return list(param.shape) or [1]  # a 0-dim parameter is one row of one element (Param::shardedShape)


def core_to_dcp(args):
    import torch
    folder = cf.resolve(args.src)
    index = cf.read_index(folder)
    cf.check_files(folder, index)
    script = load_script(args.script)
    check_model(index.get("plan", {}).get("model"), script, os.path.join(folder, cf.INDEX))
    model = script.build_model()
    params = dict(model.named_parameters())  # a tied parameter once, under the name the core stores it by
    expected = {f"{k}/{n}" for n in params for k in cf.KINDS}
    for name in sorted(expected - index["tensors"].keys()):
        raise Refused(f"{folder}: has no tensor \"{name}\" that the script's model has (another model?)")
    for name in sorted(index["tensors"].keys() - expected):
        raise Refused(f"{folder}: holds tensor \"{name}\", which the script's model does not have (another model?)")
    for n, p in params.items():
        if index["tensors"][f"param/{n}"]["shape"] != stored_shape(p):
            raise Refused(f"{folder}: tensor \"param/{n}\" is {index['tensors'][f'param/{n}']['shape']} in the checkpoint "
                          f"but {stored_shape(p)} in the script's model")
    if index["optimizer_step"] < 1:
        raise Refused(f"{folder}: saved before AdamW's first step (optimizer_step 0): nothing to carry over")
    path = os.path.join(args.dst, f"step-{index['step']:06d}")
    if os.path.exists(path):
        raise Refused(f"{path}: exists already (remove it, or convert into another folder)")

    start_process_group()
    optim = make_optimizer(script, model)
    with torch.no_grad():
        for n, p in params.items():
            p.copy_(torch.from_numpy(cf.read_tensor(folder, index, f"param/{n}")).reshape(p.shape))
            # AdamW's state as torch.optim.AdamW keeps it: the step a float32 scalar tensor.
            optim.state[p] = {"step": torch.tensor(float(index["optimizer_step"]), dtype=torch.float32),
                              "exp_avg": torch.from_numpy(cf.read_tensor(folder, index, f"exp_avg/{n}")).reshape(p.shape),
                              "exp_avg_sq": torch.from_numpy(cf.read_tensor(folder, index, f"exp_avg_sq/{n}")).reshape(p.shape)}
    os.makedirs(args.dst, exist_ok=True)
    script.save_checkpoint(model, optim, path, index["step"], index["next_sample"])
    if os.path.abspath(args.dst) != os.path.abspath(script.TRAIN["checkpoint_dir"] or "."):
        print(f"note: the script resumes from its checkpoint_dir ({script.TRAIN['checkpoint_dir'] or 'none'}), not {args.dst}",
              file=sys.stderr)
    print(f"wrote {path} (step {index['step']}, next sample {index['next_sample']}, from {folder} "
          f"saved at world size {index['world_size']})")


def dcp_checkpoint(script, src):
    """src itself (a DCP folder with its .metadata) or the newest step-NNNNNN
    under it, and its step (from the folder's name, as the script reads it)."""
    if not os.path.isdir(src):
        raise Refused(f"{src}: no such checkpoint folder")
    path = src
    if not os.path.isfile(os.path.join(src, ".metadata")):
        path, _ = script.latest_checkpoint(src)
        if not path:
            raise Refused(f"{src}: holds no committed DCP checkpoint (step-NNNNNN with a .metadata file)")
    m = re.fullmatch(r"step-(\d+)", os.path.basename(os.path.normpath(path)))
    if not m:
        raise Refused(f"{path}: not named step-NNNNNN as the script names its checkpoints (its step is unknown)")
    return path, int(m.group(1))


def read_plan(path):
    try:
        with open(path) as f:
            plan = json.load(f)
    except OSError as e:
        raise Refused(f"--plan {path}: {e.strerror}") from e
    except ValueError as e:
        raise Refused(f"--plan {path}: invalid JSON ({e})") from e
    if not isinstance(plan, dict) or plan.get("format") != "shardbench-plan":
        raise Refused(f"--plan {path}: not a shardbench plan (format)")
    return plan


def dcp_to_core(args):
    import torch
    import torch.distributed.checkpoint as dcp
    script = load_script(args.script)
    path, step = dcp_checkpoint(script, args.src)
    plan = read_plan(args.plan)
    check_model(plan.get("model"), script, f"--plan {args.plan}")
    mesh = plan.get("mesh", {})
    replicate = int(mesh.get("replicate", 1))
    world = args.world or int(mesh.get("nodes", 1)) * int(mesh.get("procs_per_node", 1))
    if world < 1 or world % replicate:
        raise Refused(f"--world {world}: not a multiple of the plan's replicate {replicate}")
    if not re.fullmatch(r"[A-Za-z0-9._-]{1,128}", args.run_id) or args.run_id.startswith((".", "step-")):
        raise Refused(f"--run-id {args.run_id}: 1 to 128 of A-Z a-z 0-9 . _ -, not starting with a dot or \"step-\"")
    try:
        saved = dcp.FileSystemReader(path).read_metadata().state_dict_metadata
    except Exception as e:  # a torn or foreign .metadata: pickle's errors are many
        raise Refused(f"{path}/.metadata: unreadable ({e})") from e
    if "train.next_sample" not in saved:
        raise Refused(f"{path}: has no data position (train.next_sample): written by an older exported script; "
                      "export the script again and save a new checkpoint")
    model = script.build_model()
    params = dict(model.named_parameters())
    for n, p in params.items():
        for key in (f"model.{n}", f"optim.state.{n}.exp_avg", f"optim.state.{n}.exp_avg_sq"):
            if key not in saved:
                raise Refused(f"{path}: has no \"{key}\" that the script's model has (another model?)")
        if list(saved[f"model.{n}"].size) != list(p.shape):
            raise Refused(f"{path}: \"model.{n}\" is {list(saved[f'model.{n}'].size)} in the checkpoint "
                          f"but {list(p.shape)} in the script's model")

    start_process_group()
    optim = make_optimizer(script, model)
    next_sample = script.load_checkpoint(model, optim, path, step)  # the script's own loader, at a world of one
    tensors, steps = {}, set()
    for n, p in params.items():
        st = optim.state[p]
        steps.add(int(st["step"]))
        for kind, value in (("param", p), ("exp_avg", st["exp_avg"]), ("exp_avg_sq", st["exp_avg_sq"])):
            tensors[f"{kind}/{n}"] = (stored_shape(p), value.detach().to(torch.float32).reshape(stored_shape(p)).numpy())
    if len(steps) != 1:
        raise Refused(f"{path}: AdamW's step differs between parameters ({sorted(steps)})")
    final = cf.write_checkpoint(os.path.join(args.dst, args.run_id), tensors, step, steps.pop(), next_sample,
                                int(plan.get("training", {}).get("seed", 0)), world, replicate, plan, args.run_id)
    print(f"wrote {final} (step {step}, next sample {next_sample}, world size {world}, from {path})")


def main(argv=None):
    parser = argparse.ArgumentParser(description="Checkpoints between shardbench-core and its exported FSDP2 script")
    sub = parser.add_subparsers(dest="command", required=True)
    c2d = sub.add_parser("core-to-dcp", help="a core checkpoint into the script's checkpoint folder, as step-NNNNNN")
    c2d.add_argument("src", metavar="CORE_CKPT", help="a step-NNNNNN folder, or a run's folder DIR/<run id> (its newest)")
    c2d.add_argument("dst", metavar="SCRIPT_CKPT_DIR", help="the script's checkpoint_dir")
    c2d.add_argument("--script", required=True, help="the script (shardbench-cli export-script) that will resume")
    d2c = sub.add_parser("dcp-to-core", help="a script's DCP checkpoint as a core checkpoint DIR/<run id>/step-NNNNNN")
    d2c.add_argument("src", metavar="DCP_CKPT", help="a step-NNNNNN folder, or the script's checkpoint_dir (its newest)")
    d2c.add_argument("dst", metavar="CORE_CKPT_DIR", help="the root of core checkpoints (training.checkpoint.dir, say)")
    d2c.add_argument("--script", required=True, help="the script that wrote the checkpoint")
    d2c.add_argument("--plan", required=True, help="the plan the core will resume with (carried in index.json)")
    d2c.add_argument("--world", type=int, default=0, help="shard the files for this world size (default: the plan's)")
    d2c.add_argument("--run-id", default="converted", help="the run folder under CORE_CKPT_DIR (default: converted)")
    args = parser.parse_args(argv)
    try:
        (core_to_dcp if args.command == "core-to-dcp" else dcp_to_core)(args)
    except Refused as e:
        print(f"convert.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
