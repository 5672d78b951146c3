"""Runs a script exported by `shardbench-cli export-script` under the real
PyTorch 2.x FSDP2, with a spy around fully_shard and init_device_mesh that
appends each call to a JSON-lines log: the module it sharded, the mesh, and
what fully_shard made of the module's parameters (DTensors, their placements,
the rows this rank holds). The calls themselves are PyTorch's, unchanged.

usage: spy.py LOG SCRIPT [script arguments...]
"""
import json
import os
import runpy
import sys

import torch
import torch.distributed.device_mesh as device_mesh
import torch.distributed.fsdp as fsdp


def record(call, **fields):
    with open(LOG, "a") as f:
        f.write(json.dumps({"call": call, "rank": int(os.environ.get("RANK", "0")), **fields}) + "\n")


def spied_mesh(device_type, mesh_shape, **kwargs):
    record("init_device_mesh", device_type=device_type, shape=list(mesh_shape))
    return real_mesh(device_type, mesh_shape, **kwargs)


def spied_fully_shard(module, **kwargs):
    kind = type(module).__name__  # fully_shard gives the module a class of its own (FSDPTransformer)
    sharded = real_fully_shard(module, **kwargs)
    params = []
    for name, p in module.named_parameters():
        if hasattr(p, "placements"):
            params.append({"name": name, "placements": [str(x) for x in p.placements],
                           "rows": p.shape[0] if p.dim() else 1, "local_rows": p.to_local().shape[0] if p.dim() else 1,
                           "device": str(p.device)})
    mp = kwargs.get("mp_policy")
    record("fully_shard", module=kind, params=params,
           reshard_after_forward=kwargs.get("reshard_after_forward"),
           param_dtype=str(getattr(mp, "param_dtype", None)), offload=type(kwargs.get("offload_policy")).__name__)
    return sharded


if __name__ == "__main__":
    LOG, script = sys.argv[1], sys.argv[2]
    real_mesh, real_fully_shard = device_mesh.init_device_mesh, fsdp.fully_shard
    device_mesh.init_device_mesh = spied_mesh
    fsdp.fully_shard = spied_fully_shard
    sys.argv = [script] + sys.argv[3:]
    runpy.run_path(script, run_name="__main__")
