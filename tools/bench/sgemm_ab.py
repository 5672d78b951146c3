#!/usr/bin/python3
"""OpenBLAS (what ATen's fp32 products call) against oneDNN's sgemm (what the
core's dense layers call, core/engine/dense_layer.cpp) on the three products
of each Linear layer of the engine benchmark's model: forward y = x W^T, the
input gradient dy W and the weight gradient dy^T x, for tokens x in and out
features. One thread; median of REPEATS timings of 50 calls each, the two
libraries alternating. Reported, not asserted (docs/performance.md, "Dense
layers").

usage: OPENBLAS_CORETYPE=SkylakeX /usr/bin/python3 tools/bench/sgemm_ab.py [TOKENS] [REPEATS]
"""
import ctypes
import statistics
import sys
import time

import torch

I64, F32, PTR, CH = ctypes.c_int64, ctypes.c_float, ctypes.c_void_p, ctypes.c_char


def main():
    tokens = int(sys.argv[1]) if len(sys.argv) > 1 else 512
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    torch.set_num_threads(1)
    sgemm = ctypes.CDLL("libdnnl.so.2").dnnl_sgemm  # row-major C = op(A) op(B)
    sgemm.argtypes = [CH, CH, I64, I64, I64, F32, PTR, I64, PTR, I64, F32, PTR, I64]
    sgemm.restype = ctypes.c_int

    def timed(fn):
        fn()
        start = time.perf_counter()
        for _ in range(50):
            fn()
        return (time.perf_counter() - start) / 50 * 1e3

    # (in, out, layers of the bench model with that shape): wq wk wv wo, w1, w2 and the output layer
    shapes = [(256, 256, 32), (256, 1024, 9), (1024, 256, 8)]
    total = {"openblas": 0.0, "onednn": 0.0}
    print("| in x out | product | OpenBLAS ms (GFLOP/s) | oneDNN ms (GFLOP/s) | oneDNN / OpenBLAS |")
    print("|---|---|---|---|---|")
    for n_in, n_out, count in shapes:
        x, w, dy = torch.randn(tokens, n_in), torch.randn(n_out, n_in), torch.randn(tokens, n_out)
        y, dx, dw = torch.empty(tokens, n_out), torch.empty(tokens, n_in), torch.empty(n_out, n_in)
        p = lambda t: t.data_ptr()  # noqa: E731
        products = {
            "forward": (lambda: torch.mm(x, w.t(), out=y),
                        lambda: sgemm(b"N", b"T", tokens, n_out, n_in, 1.0, p(x), n_in, p(w), n_in, 0.0, p(y), n_out)),
            "input grad": (lambda: torch.mm(dy, w, out=dx),
                           lambda: sgemm(b"N", b"N", tokens, n_in, n_out, 1.0, p(dy), n_out, p(w), n_in, 0.0, p(dx), n_in)),
            "weight grad": (lambda: torch.mm(dy.t(), x, out=dw),
                            lambda: sgemm(b"T", b"N", n_out, n_in, tokens, 1.0, p(dy), n_out, p(x), n_in, 0.0, p(dw), n_in)),
        }
        flops = 2 * tokens * n_in * n_out
        for name, (aten, dnnl) in products.items():
            a, d = [], []
            for _ in range(repeats):
                a.append(timed(aten))
                d.append(timed(dnnl))
            a, d = statistics.median(a), statistics.median(d)
            total["openblas"] += count * a
            total["onednn"] += count * d
            print(f"| {n_in} x {n_out} | {name} | {a:.3f} ({flops / a / 1e6:.0f}) | {d:.3f} ({flops / d / 1e6:.0f}) | {d / a:.3f} |")
    print(f"\nthe model's dense products per step: OpenBLAS {total['openblas']:.1f} ms, oneDNN {total['onednn']:.1f} ms "
          f"({total['onednn'] / total['openblas']:.3f})")


if __name__ == "__main__":
    main()
