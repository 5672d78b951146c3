#!/usr/bin/env python3
"""Self time per op in a Chrome trace of LibTorch's profiler
(shardbench-attention-bench --profile TRACE.json): each op's time less the
time of the ops it called, per pass, most first (docs/performance.md). The
profiler's own cost falls on every op, so small ops look bigger than they are.

usage: python3 tools/bench/trace_self_time.py TRACE.json [PASSES] [ROWS]
"""
import collections
import json
import sys


def main():
    path = sys.argv[1]
    passes = float(sys.argv[2]) if len(sys.argv) > 2 else 10
    rows = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    with open(path) as f:
        events = json.load(f)
    events = events["traceEvents"] if isinstance(events, dict) else events
    spans = [(e["ts"], e["ts"] + e.get("dur", 0), e["name"], e.get("tid")) for e in events if e.get("ph") == "X"]
    by_thread = collections.defaultdict(list)
    for s in spans:
        by_thread[s[3]].append(s)
    own, calls, top = collections.Counter(), collections.Counter(), 0
    for thread_spans in by_thread.values():
        thread_spans.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for start, end, name, _ in thread_spans:
            while stack and stack[-1][1] <= start:
                stack.pop()
            if stack:
                own[stack[-1][2]] -= end - start
            else:
                top += end - start
            own[name] += end - start
            calls[name] += 1
            stack.append((start, end, name))
    print(f"outermost ops: {top / passes / 1000:.1f} ms a pass")
    for name, us in own.most_common(rows):
        print(f"{us / passes / 1000:8.2f} ms {calls[name] / passes:6.0f} calls  {name}")


if __name__ == "__main__":
    main()
