"""Markdown tables from the outputs of tools/bench/gpu_check.sh.

  gpu_report.py parity DIR A B [A B ...]   losses and gradient norms of run A against run B
  gpu_report.py memory DIR NAME...          measured peaks against the estimate and PyTorch's
  gpu_report.py speed DIR NAME...           step time and tokens/s of the core and PyTorch

A run's output is DIR/RUN.out: shardbench-core's stdout (`@sb` event lines) or
the exported script's (`step N loss X grad_norm Y Z ms`, then torch_peak.py's
`torch_peak_bytes N`). DIR/NAME.estimate.json is `shardbench-cli estimate --json`.
"""
import json
import os
import re
import statistics
import sys

STEP = re.compile(r"^step (\d+) loss (\S+) grad_norm (\S+) (\S+) ms", re.M)
PEAK = re.compile(r"^torch_peak_bytes (\d+)", re.M)


def read(directory, run):
    """(steps, peak): steps a list of dicts with loss, grad_norm, ms, mem_peak (core only)."""
    path = os.path.join(directory, run + ".out")
    if not os.path.exists(path):
        return None, None
    text = open(path, errors="replace").read()
    if "@sb " in text:
        steps, peak = [], None
        for line in text.splitlines():
            if not line.startswith("@sb "):
                continue
            try:
                e = json.loads(line[4:])
            except ValueError:
                continue
            if e.get("type") == "step":
                steps.append({"loss": e["loss"], "grad_norm": e["grad_norm"], "ms": e["step_ms"],
                              "mem_peak": e.get("mem_peak"), "tokens": e.get("tokens"),
                              "forward_ms": e.get("forward_ms"), "backward_ms": e.get("backward_ms"),
                              "optimizer_ms": e.get("optimizer_ms")})
            elif e.get("type") == "done":
                peak = e.get("peak_bytes")
        return steps, peak
    steps = [{"loss": float(m[1]), "grad_norm": float(m[2]), "ms": float(m[3])} for m in STEP.findall(text)]
    m = PEAK.search(text)
    return steps, int(m.group(1)) if m else None


def estimate(directory, name):
    path = os.path.join(directory, name + ".estimate.json")
    if not os.path.exists(path):
        return None
    return json.load(open(path))["ranks"][0]["peak_bytes"]


def worst(a, b, key):
    if not a or not b or len(a) != len(b):
        return float("nan")
    return max(abs(x[key] - y[key]) / max(abs(y[key]), 1e-12) for x, y in zip(a, b))


def mib(n):
    return "-" if n is None else f"{n / 2**20:.1f}"


def parity(directory, pairs):
    print("| run | against | steps | first loss | last loss | worst loss rel. diff | worst grad-norm rel. diff |")
    print("|---|---|---|---|---|---|---|")
    for a, b in zip(pairs[::2], pairs[1::2]):
        sa, _ = read(directory, a)
        sb, _ = read(directory, b)
        if not sa or not sb:
            print(f"| {a} | {b} | missing output | | | | |")
            continue
        print(f"| {a} | {b} | {len(sa)}/{len(sb)} | {sa[0]['loss']:.6f} | {sa[-1]['loss']:.6f} | "
              f"{worst(sa, sb, 'loss'):.2e} | {worst(sa, sb, 'grad_norm'):.2e} |")


def memory(directory, names):
    print("| plan | core peak MiB (step 3) | estimate MiB | estimate / core | PyTorch peak MiB (whole run) | core run peak / PyTorch |")
    print("|---|---|---|---|---|---|")
    for n in names:
        core, core_peak = read(directory, n + "-core")
        _, torch_peak = read(directory, n + "-torch")
        step3 = core[2]["mem_peak"] if core and len(core) >= 3 else None
        est = estimate(directory, n)
        ratio = f"{est / step3:.3f}" if est and step3 else "-"
        vs = f"{core_peak / torch_peak:.3f}" if core_peak and torch_peak else "-"
        print(f"| {n} | {mib(step3)} | {mib(est)} | {ratio} | {mib(torch_peak)} | {vs} |")


def speed(directory, names):
    print("| plan | run | median step ms (steps 3-) | forward / backward / optimizer ms | tokens/s | peak MiB | estimate MiB |")
    print("|---|---|---|---|---|---|---|")
    for n in names:
        for who in ("core", "torch"):
            steps, peak = read(directory, f"{n}-{who}")
            if not steps or len(steps) < 3:
                print(f"| {n} | {who} | missing output | | | | |")
                continue
            ms = statistics.median(s["ms"] for s in steps[2:])
            tokens = steps[-1].get("tokens") or plan_tokens(directory, n)
            rate = f"{tokens / (ms / 1000):.0f}" if tokens else "-"
            parts = "-"
            if "forward_ms" in steps[-1]:
                parts = " / ".join(f"{statistics.median(s[k] for s in steps[2:]):.1f}"
                                   for k in ("forward_ms", "backward_ms", "optimizer_ms"))
            print(f"| {n} | {who} | {ms:.1f} | {parts} | {rate} | {mib(peak)} | {mib(estimate(directory, n))} |")


def plan_tokens(directory, name):
    """Tokens a step of one rank trains on, from DIR/NAME.json (the plan)."""
    t = json.load(open(os.path.join(directory, name + ".json")))["training"]
    return t["micro_batch"] * t["seq_len"] * t["grad_accum"]


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    command, directory, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
    {"parity": parity, "memory": memory, "speed": speed}[command](directory, rest)
