#!/usr/bin/env python3
"""Write a PyTorch model's module tree as JSON for shardbench.

    python3 scripts/export_module_tree.py MODULE:FACTORY [--args JSON] [--kwargs JSON] [--meta] [-o tree.json]

MODULE is imported (the current folder is on the path), FACTORY is a dotted
attribute of it (a class, a function, or e.g. ``AutoModelForCausalLM.from_config``)
called with the given positional and keyword arguments. ``--meta`` builds the
model on the meta device: shapes without memory, so a 70B model exports on a
laptop. Then ``shardbench-cli plan --import tree.json -o plan.json``.

From Python: ``export_module_tree(model) -> dict``.

Format (read by moduleTreeFromJson in core/plan/module_tree.cpp)::

    {"format": "shardbench-module-tree", "version": 1, "model_class": "pkg.Class",
     "modules": [{"name": "", "type": "Class", "params": [
         {"name": "weight", "shape": [..], "dtype": "torch.float32", "tied_to": "full.name"}]}, ...]}

Modules come in ``named_modules()`` pre-order, root first (named ""). A
parameter object reachable under several names (weight tying) is owned by its
first occurrence; later ones carry ``tied_to`` with the owner's full name.
"""

import argparse
import importlib
import json
import sys

FORMAT = "shardbench-module-tree"
VERSION = 1


def _class_name(obj):
    cls = type(obj)
    module = getattr(cls, "__module__", "") or ""
    name = getattr(cls, "__qualname__", cls.__name__)
    return name if module in ("", "builtins", "__main__") else module + "." + name


def _own_parameters(module):
    # Every name, even one module holding the same parameter twice
    # (remove_duplicate exists from PyTorch 2.0 on).
    try:
        return list(module.named_parameters(recurse=False, remove_duplicate=False))
    except TypeError:
        return list(module.named_parameters(recurse=False))


def export_module_tree(model):
    """Returns the module tree of ``model`` as a JSON-ready dict."""
    owners = {}  # id(parameter) -> full name of its first occurrence
    keep = []    # holds every parameter seen so that ids stay unique while we run
    modules = []
    for path, module in model.named_modules():
        params = []
        for name, p in _own_parameters(module):
            if p is None:
                continue
            full = path + "." + name if path else name
            entry = {"name": name, "shape": [int(d) for d in p.shape], "dtype": str(p.dtype)}
            owner = owners.get(id(p))
            if owner is None:
                owners[id(p)] = full
                keep.append(p)
            else:
                entry["tied_to"] = owner
            params.append(entry)
        modules.append({"name": path, "type": type(module).__name__, "params": params})
    return {
        "format": FORMAT,
        "version": VERSION,
        "model_class": _class_name(model),
        "modules": modules,
    }


def dumps(tree):
    """The tree as JSON text, one module a line so that exports diff cleanly."""
    head = json.dumps({k: v for k, v in tree.items() if k != "modules"})
    modules = ",\n  ".join(json.dumps(m) for m in tree["modules"])
    return head[:-1] + ', "modules": [\n  ' + modules + "\n]}\n"


def _resolve(spec):
    if ":" not in spec:
        raise SystemExit("export_module_tree: expected MODULE:FACTORY, got %r" % spec)
    module_name, factory_path = spec.split(":", 1)
    if not module_name or not factory_path:
        raise SystemExit("export_module_tree: expected MODULE:FACTORY, got %r" % spec)
    try:
        target = importlib.import_module(module_name)
    except ImportError as e:
        raise SystemExit("export_module_tree: cannot import %s: %s" % (module_name, e))
    for part in factory_path.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise SystemExit("export_module_tree: %s has no attribute %r" % (module_name, factory_path))
    if not callable(target):
        raise SystemExit("export_module_tree: %s:%s is not callable" % (module_name, factory_path))
    return target


def _json_arg(text, kind, what):
    try:
        value = json.loads(text)
    except ValueError as e:
        raise SystemExit("export_module_tree: %s is not valid JSON: %s" % (what, e))
    if not isinstance(value, kind):
        raise SystemExit("export_module_tree: %s must be a JSON %s" % (what, "object" if kind is dict else "array"))
    return value


def main(argv=None):
    ap = argparse.ArgumentParser(description="Write a PyTorch model's module tree as JSON for shardbench.")
    ap.add_argument("factory", help="MODULE:FACTORY, e.g. mymodels:build or torchvision.models:resnet50")
    ap.add_argument("--args", default="[]", help="positional arguments for the factory, as a JSON array")
    ap.add_argument("--kwargs", default="{}", help="keyword arguments for the factory, as a JSON object")
    ap.add_argument("--meta", action="store_true", help="build on the meta device (no memory for weights)")
    ap.add_argument("-o", "--output", default="-", help="output file (default: standard output)")
    a = ap.parse_args(argv)

    if "" not in sys.path:
        sys.path.insert(0, "")  # let MODULE be a file in the current folder
    factory = _resolve(a.factory)
    args = _json_arg(a.args, list, "--args")
    kwargs = _json_arg(a.kwargs, dict, "--kwargs")
    if a.meta:
        import torch

        meta = torch.device("meta")
        if not hasattr(meta, "__enter__"):
            raise SystemExit("export_module_tree: --meta needs PyTorch 2.0 or newer (torch.device as a context manager)")
        with meta:
            model = factory(*args, **kwargs)
    else:
        model = factory(*args, **kwargs)
    if not hasattr(model, "named_modules"):
        raise SystemExit("export_module_tree: %s did not return a torch.nn.Module" % a.factory)

    tree = export_module_tree(model)
    text = dumps(tree)
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(text)
        n = sum(len(m["params"]) for m in tree["modules"])
        sys.stderr.write("wrote %s (%d modules, %d parameters)\n" % (a.output, len(tree["modules"]), n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
