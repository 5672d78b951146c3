"""A stand-in for the few parts of PyTorch that export_module_tree.py touches.

Written for shardbench's tests (PyTorch is not installed where they run). It
follows torch's semantics where the script depends on them: named_modules()
yields each module object once, in pre-order, root named ""; a module's own
parameters come from named_parameters(recurse=False), None entries skipped;
str(dtype) is "torch.float32"; torch.device("meta") is a context manager that
sets the default device for new parameters.
"""

from . import nn  # noqa: F401  (import torch; torch.nn.Linear works)


class dtype:
    def __init__(self, name):
        self._name = name

    def __str__(self):
        return "torch." + self._name

    __repr__ = __str__


float32 = dtype("float32")
float16 = dtype("float16")
bfloat16 = dtype("bfloat16")
float64 = dtype("float64")

_default_device = ["cpu"]


class Size(tuple):
    pass


class device:
    def __init__(self, kind):
        self.type = kind
        self._saved = []

    def __enter__(self):
        self._saved.append(_default_device[0])
        _default_device[0] = self.type
        return self

    def __exit__(self, *exc):
        _default_device[0] = self._saved.pop()
        return False


def get_default_device():
    return device(_default_device[0])
