"""torch.nn stand-in: Module, Parameter and the standard layers the test models use."""

import torch


class Parameter:
    def __init__(self, *shape, dtype=None):
        self.shape = torch.Size(int(d) for d in shape)
        self.dtype = dtype or torch.float32
        self.device = torch._default_device[0]


class Module:
    def __init__(self):
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_modules", {})

    def __setattr__(self, name, value):
        if isinstance(value, Parameter):
            self._modules.pop(name, None)
            self._parameters[name] = value
        elif isinstance(value, Module):
            self._parameters.pop(name, None)
            self._modules[name] = value
        object.__setattr__(self, name, value)

    def register_parameter(self, name, param):
        self._parameters[name] = param
        object.__setattr__(self, name, param)

    def add_module(self, name, module):
        if "." in name:
            raise KeyError('module name can\'t contain ".", got: ' + name)
        self._modules[name] = module

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            yield from module.named_modules(memo, prefix + ("." if prefix else "") + name, remove_duplicate)

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        # The exporter must ask for a module's own parameters only; anything else
        # would list a parameter under every ancestor.
        if recurse:
            raise NotImplementedError("fake torch: the exporter must call named_parameters(recurse=False)")
        seen = set()
        for name, p in self._parameters.items():
            if p is None or (remove_duplicate and id(p) in seen):
                continue
            seen.add(id(p))
            yield prefix + ("." if prefix else "") + name, p

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True, dtype=None):
        super().__init__()
        self.weight = Parameter(out_features, in_features, dtype=dtype)
        if bias:
            self.bias = Parameter(out_features, dtype=dtype)
        else:
            self.register_parameter("bias", None)


class Embedding(Module):
    def __init__(self, num_embeddings, embedding_dim, dtype=None):
        super().__init__()
        self.weight = Parameter(num_embeddings, embedding_dim, dtype=dtype)


class LayerNorm(Module):
    def __init__(self, dim, dtype=None):
        super().__init__()
        self.weight = Parameter(dim, dtype=dtype)
        self.bias = Parameter(dim, dtype=dtype)


class ModuleList(Module):
    def __init__(self, modules=()):
        super().__init__()
        for i, m in enumerate(modules):
            self.add_module(str(i), m)


class Sequential(ModuleList):
    pass


class Dropout(Module):
    pass
