"""Reads a generated FSDP2 script without running it (PyTorch is not needed).

Prints JSON: the UNITS, MODEL, TRAIN and MESH tables (names such as
torch.bfloat16 as dotted strings), the top-level functions, and every call
of a name or attribute in apply_fsdp, main, train and make_checkpointed.
"""

import ast
import json
import sys


def value(node):
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, (ast.Tuple, ast.List)):
        return [value(e) for e in node.elts]
    if isinstance(node, ast.Dict):
        return {value(k): value(v) for k, v in zip(node.keys, node.values)}
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return value(node.value) + "." + node.attr
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -value(node.operand)
    raise ValueError("unexpected node %s" % ast.dump(node))


def called(fn):
    names = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name):
                names.append(f.id)
            elif isinstance(f, ast.Attribute):
                names.append(f.attr)
    return names


tree = ast.parse(open(sys.argv[1], encoding="utf-8").read(), sys.argv[1])
out = {"functions": [], "calls": {}}
for node in tree.body:
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        name = node.targets[0].id
        if name in ("UNITS", "MODEL", "TRAIN", "MESH"):
            out[name] = value(node.value)
    if isinstance(node, ast.FunctionDef):
        out["functions"].append(node.name)
        if node.name in ("apply_fsdp", "main", "train", "make_checkpointed", "build_model"):
            out["calls"][node.name] = called(node)
json.dump(out, sys.stdout)
