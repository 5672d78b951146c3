#!/usr/bin/python3
"""Each CPU core's speed right now, for the engine benchmark
(tools/bench/bench_engine.sh): GFLOP/s of a 512x512 fp32 matrix product on one
thread, pinned to each core in turn, for SECONDS each. On a shared VM the
cores' speeds move independently (measured 15-28 GFLOP/s on one core within
minutes, docs/performance.md), and a synchronous W=2 step runs at the
slower core's pace.

usage: /usr/bin/python3 tools/bench/core_speed.py [SECONDS]
Prints "core N GFLOPS" per core.
"""
import os
import sys
import time

import torch


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    torch.set_num_threads(1)
    a, b = torch.randn(512, 512), torch.randn(512, 512)
    for core in sorted(os.sched_getaffinity(0)):
        os.sched_setaffinity(0, {core})
        for _ in range(10):
            a.mm(b)
        start, n = time.perf_counter(), 0
        while time.perf_counter() - start < seconds:
            a.mm(b)
            n += 1
        print(f"core {core} {n * 2 * 512 ** 3 / (time.perf_counter() - start) / 1e9:.1f}")


if __name__ == "__main__":
    main()
