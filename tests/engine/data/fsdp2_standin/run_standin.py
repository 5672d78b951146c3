#!/usr/bin/python3
"""Runs a script exported by `shardbench-cli export-script` under Debian's
PyTorch 1.13 with a small stand-in of the PyTorch 2.6 APIs it needs and 1.13
lacks (fully_shard and its policies, init_device_mesh, DCP save/load,
get/set_state_dict, torch.device as a context, scaled_dot_product_attention),
and computes low-precision layer norms and GELU as PyTorch 2 does.

Each stand-in has the 2.6 signature, so a call the real API would refuse fails
here too, and appends the call to a JSON-lines log. The model, the optimizer,
the loss, clipping and the Gloo process group are real PyTorch: the losses the
script prints can be compared with shardbench-core's.

fully_shard does not shard here: every rank holds whole parameters, and the
stand-in all-reduces (averages) gradients before the optimizer step, which is
what FSDP2's reduce-scatter computes (the script clips and steps after it).

usage: run_standin.py SCRIPT LOG [script arguments...]
"""
import json
import os
import runpy
import sys
import types

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

LOG = None


def record(call, **fields):
    with open(LOG, "a") as f:
        f.write(json.dumps({"call": call, "rank": int(os.environ.get("RANK", "0")), **fields}, default=str) + "\n")


def dtype_name(t):
    return None if t is None else str(t).replace("torch.", "")


# --- torch.distributed.fsdp -------------------------------------------------

class MixedPrecisionPolicy:
    def __init__(self, param_dtype=None, reduce_dtype=None, output_dtype=None, cast_forward_inputs=True):
        self.param_dtype, self.reduce_dtype = param_dtype, reduce_dtype
        self.output_dtype, self.cast_forward_inputs = output_dtype, cast_forward_inputs


class OffloadPolicy:
    pass


class CPUOffloadPolicy(OffloadPolicy):
    def __init__(self, pin_memory=True):
        self.pin_memory = pin_memory


class FSDPModule:
    """The methods fully_shard adds to a module's class."""

    def set_requires_gradient_sync(self, requires_gradient_sync, *, recurse=True):
        self._sb_sync = bool(requires_gradient_sync)

    def set_modules_to_forward_prefetch(self, modules):
        record("set_modules_to_forward_prefetch", module=self._sb_name, count=len(list(modules)))

    def set_modules_to_backward_prefetch(self, modules):
        record("set_modules_to_backward_prefetch", module=self._sb_name, count=len(list(modules)))

    def reshard(self):
        pass

    def unshard(self, async_op=False):
        return None


def fully_shard(module, *, mesh=None, reshard_after_forward=None, shard_placement_fn=None,
                mp_policy=MixedPrecisionPolicy(), offload_policy=OffloadPolicy(), ignored_params=None):
    if not isinstance(module, nn.Module):
        raise TypeError(f"fully_shard expects an nn.Module, got {type(module).__name__}")
    if not isinstance(mp_policy, MixedPrecisionPolicy) or not isinstance(offload_policy, OffloadPolicy):
        raise TypeError("mp_policy and offload_policy must be the FSDP2 policy types")
    name = type(module).__name__
    if mp_policy.param_dtype is not None:
        compute_in(module, mp_policy.param_dtype, ignored_params)
    module.__class__ = type("FSDP" + name, (FSDPModule, type(module)), {})
    module._sb_name = name
    record("fully_shard", module=name, mesh=getattr(mesh, "shape", None), reshard_after_forward=reshard_after_forward,
           param_dtype=dtype_name(mp_policy.param_dtype), reduce_dtype=dtype_name(mp_policy.reduce_dtype),
           output_dtype=dtype_name(mp_policy.output_dtype), cast_forward_inputs=mp_policy.cast_forward_inputs,
           offload=isinstance(offload_policy, CPUOffloadPolicy),
           ignored=len(ignored_params) if ignored_params else 0)
    return module


def compute_in(module, dtype, ignored):
    """FSDP2's param_dtype: the module's own parameters (not those of units
    sharded inside it, nor ignored ones) are cast for its forward; the
    gradient flows back through the cast to the fp32 parameter, summed in fp32
    over micro-batches as FSDP2 does with an fp32 reduce_dtype."""
    skip = {id(p) for p in (ignored or ())}
    managed = [(sub, n, p) for sub, n, p in own_params(module) if id(p) not in skip]

    def cast(_module, _inputs):
        low = {}
        for sub, n, p in managed:
            low.setdefault(id(p), p.to(dtype))
            del sub._parameters[n]
            object.__setattr__(sub, n, low[id(p)])

    def restore(_module, _inputs, _output):
        for sub, n, p in managed:
            object.__delattr__(sub, n)
            sub._parameters[n] = p

    module.register_forward_pre_hook(cast)
    module.register_forward_hook(restore)


def own_params(module):
    """(module, name, parameter) of `module` and its submodules, not entering units sharded inside it."""
    out = [(module, n, p) for n, p in module._parameters.items() if p is not None]
    for child in module.children():
        if not isinstance(child, FSDPModule):
            out += own_params(child)
    return out


# --- torch.distributed.device_mesh ------------------------------------------

class DeviceMesh:
    def __init__(self, device_type, shape, names):
        self.device_type, self.shape, self.mesh_dim_names = device_type, tuple(shape), names

    def size(self, dim=None):
        n = 1
        for s in self.shape:
            n *= s
        return n if dim is None else self.shape[dim]


def init_device_mesh(device_type, mesh_shape, *, mesh_dim_names=None):
    mesh = DeviceMesh(device_type, mesh_shape, mesh_dim_names)
    if mesh.size() != dist.get_world_size():
        raise RuntimeError(f"mesh {mesh_shape} does not cover the world of {dist.get_world_size()}")
    record("init_device_mesh", device_type=device_type, shape=list(mesh_shape), names=mesh_dim_names)
    return mesh


# --- torch.distributed.checkpoint and .state_dict ---------------------------

def parameter_names(model):
    return {id(p): n for n, p in model.named_parameters()}


def get_state_dict(model, optimizers, *, submodules=None, options=None):
    """As PyTorch 2.x: the optimizer's state keyed by parameter name, its
    state created first (a step with zero gradients and lr 0) so that a load
    into it has somewhere to go."""
    optim = optimizers
    if not optim.state:
        lrs = [g["lr"] for g in optim.param_groups]
        for g in optim.param_groups:
            g["lr"] = 0.0
            for p in g["params"]:
                p.grad = torch.zeros_like(p)
        optim.step()
        optim.zero_grad(set_to_none=True)
        for g, lr in zip(optim.param_groups, lrs):
            g["lr"] = lr
    names = parameter_names(model)
    state = {names[id(p)]: dict(optim.state[p]) for g in optim.param_groups for p in g["params"]}
    groups = [{**{k: v for k, v in g.items() if k != "params"}, "params": [names[id(p)] for p in g["params"]]}
              for g in optim.param_groups]
    record("get_state_dict", params=len(names), optim_state=len(state))
    return model.state_dict(), {"state": state, "param_groups": groups}


def set_state_dict(model, optimizers, *, model_state_dict, optim_state_dict, options=None):
    model.load_state_dict(model_state_dict)
    optim = optimizers
    params = dict(model.named_parameters())
    for g, saved in zip(optim.param_groups, optim_state_dict["param_groups"]):
        g.update({k: v for k, v in saved.items() if k != "params"})
    for name, s in optim_state_dict["state"].items():
        optim.state[params[name]] = s
    record("set_state_dict", params=len(model_state_dict), optim_state=len(optim_state_dict["state"]))


def copy_in_place(dst, src, where):
    for k, v in src.items():
        if k not in dst:
            raise KeyError(f"checkpoint has {where}{k}, which the state being loaded lacks")
        if isinstance(v, dict):
            copy_in_place(dst[k], v, f"{where}{k}.")
        elif isinstance(v, torch.Tensor):
            dst[k].copy_(v)
        else:
            dst[k] = v


def save(state_dict, *, checkpoint_id=None, storage_writer=None, planner=None, process_group=None, no_dist=False):
    os.makedirs(checkpoint_id, exist_ok=True)
    rank = dist.get_rank()
    torch.save(state_dict, os.path.join(checkpoint_id, f"__{rank}_0.distcp"))
    dist.barrier()
    if rank == 0:
        with open(os.path.join(checkpoint_id, ".metadata"), "w") as f:
            f.write("stand-in")
    dist.barrier()
    record("dcp.save", checkpoint_id=os.path.basename(checkpoint_id))


def load(state_dict, *, checkpoint_id=None, storage_reader=None, planner=None, process_group=None, no_dist=False):
    saved = torch.load(os.path.join(checkpoint_id, f"__{dist.get_rank()}_0.distcp"))
    copy_in_place(state_dict, saved, "")
    record("dcp.load", checkpoint_id=os.path.basename(checkpoint_id))


# --- torch 2 pieces 1.13 lacks ----------------------------------------------

class _RoundedAttention(torch.autograd.Function):
    """Causal attention on fp32 copies of low-precision q, k, v [B, H, S, hd],
    rounding where PyTorch 2's fused CPU kernel (flash attention) rounds: the
    unnormalised probabilities exp(s - max) before their product with v (the
    row sums divide after it); in backward the probabilities before
    dV = P^T dO, and dS before dQ = scale dS K and dK = scale dS^T Q."""

    @staticmethod
    def forward(ctx, q, k, v, scale, dtype, is_causal):
        s = q @ k.transpose(-2, -1) * scale
        if is_causal:
            n = s.shape[-1]
            s = s.masked_fill(torch.ones(n, n, dtype=torch.bool, device=q.device).triu(1), float("-inf"))
        e = (s - s.amax(-1, keepdim=True)).exp()
        inverse_sums = 1 / e.sum(-1, keepdim=True)
        ctx.save_for_backward(q, k, v, e * inverse_sums)
        ctx.scale, ctx.dtype = scale, dtype
        return (e.to(dtype).float() @ v) * inverse_sums

    @staticmethod
    def backward(ctx, dout):
        q, k, v, p = ctx.saved_tensors
        dp = dout @ v.transpose(-2, -1)
        ds = (p * (dp - (p * dp).sum(-1, keepdim=True))).to(ctx.dtype).float()
        dv = p.to(ctx.dtype).float().transpose(-2, -1) @ dout
        return ds @ k * ctx.scale, ds.transpose(-2, -1) @ q * ctx.scale, dv, None, None, None


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    # Low-precision inputs are computed in fp32 with PyTorch 2's fused
    # kernels' roundings (_RoundedAttention), as shardbench-core's fused CPU
    # attention does; the result is rounded once.
    dtype = query.dtype
    scale = scale or query.shape[-1] ** -0.5
    if dtype in (torch.bfloat16, torch.float16):
        out = _RoundedAttention.apply(query.float(), key.float(), value.float(), scale, dtype, is_causal)
        return out.to(dtype)
    s = query.shape[-2]
    scores = query @ key.transpose(-2, -1) * scale
    if is_causal:
        scores = scores.masked_fill(torch.ones(s, s, dtype=torch.bool, device=query.device).triu(1), float("-inf"))
    return torch.softmax(scores, -1) @ value


LOW_PRECISION = (torch.bfloat16, torch.float16)


def layer_norm_rounded_once(layer_norm):
    """F.layer_norm as PyTorch 2's CPU and CUDA kernels compute low-precision
    inputs: in fp32, the result rounded once (backward too: dx rounded once,
    dw and db summed over rows in fp32 and rounded once). PyTorch 1.13's CPU
    bf16 kernel rounds intermediates and moves about half the outputs by up
    to several bf16 steps; shardbench-core computes as PyTorch 2 does."""

    def rounded(input, normalized_shape, weight=None, bias=None, eps=1e-5):
        if input.dtype not in LOW_PRECISION:
            return layer_norm(input, normalized_shape, weight, bias, eps)
        wide = [t.float() if t is not None else None for t in (weight, bias)]
        return layer_norm(input.float(), normalized_shape, wide[0], wide[1], eps).to(input.dtype)

    return rounded


def gelu_rounded_once(gelu):
    """F.gelu as PyTorch 2 computes low-precision inputs: in fp32, forward and
    backward each rounded once. PyTorch 1.13's CPU bf16 tanh form rounds every
    intermediate (40 % of outputs and 57 % of gradients differ from the
    fp32-computed ones); its erf form already computes in fp32."""

    def rounded(input, approximate="none"):
        if input.dtype not in LOW_PRECISION:
            return gelu(input, approximate=approximate)
        return gelu(input.float(), approximate=approximate).to(input.dtype)

    return rounded


class device(str):
    """torch.device as PyTorch 2 has it, usable as a context: building under
    `with torch.device("meta")` allocates on the CPU here, and to_empty()
    replaces every tensor anyway."""

    def __new__(cls, kind, index=None):
        text = str(kind) if index is None else f"{kind}:{index}"
        d = super().__new__(cls, text)
        d.type, d.index = text.split(":")[0], index
        return d

    def __enter__(self):
        record("device_context", device=str(self))
        return self

    def __exit__(self, *exc):
        return False


def module(name, **attrs):
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    sys.modules[name] = m
    return m


def install():
    torch.__version__ = "2.6.0+standin"
    if not hasattr(F, "scaled_dot_product_attention"):
        F.scaled_dot_product_attention = scaled_dot_product_attention
    torch.device = device
    F.layer_norm = layer_norm_rounded_once(F.layer_norm)
    F.gelu = gelu_rounded_once(F.gelu)
    fsdp = module("torch.distributed.fsdp", fully_shard=fully_shard, MixedPrecisionPolicy=MixedPrecisionPolicy,
                  OffloadPolicy=OffloadPolicy, CPUOffloadPolicy=CPUOffloadPolicy, FSDPModule=FSDPModule)
    mesh = module("torch.distributed.device_mesh", init_device_mesh=init_device_mesh, DeviceMesh=DeviceMesh)
    sd = module("torch.distributed.checkpoint.state_dict", get_state_dict=get_state_dict, set_state_dict=set_state_dict)
    dcp = module("torch.distributed.checkpoint", save=save, load=load, state_dict=sd)
    dist.fsdp, dist.device_mesh, dist.checkpoint = fsdp, mesh, dcp
    # Gradients are averaged over ranks before clipping, as FSDP2's
    # reduce-scatter leaves them at the end of backward (the script clips
    # every step, with a huge bound when the plan does not clip).
    real_clip = torch.nn.utils.clip_grad_norm_

    def clip_grad_norm_(parameters, max_norm, *args, **kwargs):
        parameters = list(parameters)
        if dist.get_world_size() > 1:
            for p in parameters:
                if p.grad is not None:
                    dist.all_reduce(p.grad)
                    p.grad /= dist.get_world_size()
        return real_clip(parameters, max_norm, *args, **kwargs)

    torch.nn.utils.clip_grad_norm_ = clip_grad_norm_


def main():
    global LOG
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    script, LOG = sys.argv[1], sys.argv[2]
    os.environ.setdefault("RANK", "0")
    os.environ.setdefault("LOCAL_RANK", os.environ["RANK"])
    os.environ.setdefault("WORLD_SIZE", "1")
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29517")
    torch.set_num_threads(1)
    install()
    sys.argv = [script] + sys.argv[3:]
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
