#!/usr/bin/env bash
# Checkpoint benchmark: save and load throughput of shardbench-core's sharded
# checkpoints against dd's sequential write and read speed in the same folder,
# and the training slow-down while an asynchronous save runs against the
# stall of a synchronous one. The training runs (synchronous, asynchronous)
# are repeated REPS times, interleaved, so that the medians hold on a shared
# machine; the async run's clean steps (no write in progress) are its own
# baseline, so a slower or faster run does not pass for a save's cost.
# usage: [REPS=3] tools/bench/bench_checkpoint.sh [BUILD_DIR] [FOLDER]
set -euo pipefail
BIN=${1:-build}/bin
DIR=${2:-$(mktemp -d -p "${TMPDIR:-/tmp}")}
mkdir -p "$DIR"
trap 'rm -rf "$DIR/bench-ckpt" "$DIR/dd.bin"' EXIT
port=$((32000 + RANDOM % 2000))
REPS=${REPS:-3}
INTERVAL=6 # async: saves after steps 6, 12, 18 and 24; the middle two are measured

# ~57M parameters: a 690 MB checkpoint (parameters + AdamW state, fp32).
plan() { # name steps interval async(true/false)
  "$BIN/shardbench-cli" plan --preset transformer --vocab 8192 --dim 768 --layers 8 --heads 12 --max-seq 64 --seq 64 \
    --batch 2 --procs-per-node 2 --steps "$2" --checkpoint-dir "$DIR/bench-ckpt" --checkpoint-interval "$3" -o "$DIR/$1.json" >/dev/null
  python3 - "$DIR/$1.json" "$4" <<'PY'
import json, sys
p = json.load(open(sys.argv[1])); p["training"]["checkpoint"]["async"] = sys.argv[2] == "true"; p["training"]["checkpoint"]["keep"] = 1
json.dump(p, open(sys.argv[1], "w"), indent=1)
PY
}
run() { # plan output-name extra...
  local name=$1 out=$2; shift 2
  for r in 0 1; do
    RANK=$r WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port SB_THREADS=1 \
      "$BIN/shardbench-core" --plan "$DIR/$name.json" "$@" >"$DIR/$out.out$r" 2>"$DIR/$out.err$r" &
  done
  wait
  port=$((port + 1))
}

plan sync 12 3 false
plan async $((4 * INTERVAL)) $INTERVAL true

bytes=$(( 700 * 1024 * 1024 ))
sync; dd_write=$(dd if=/dev/zero of="$DIR/dd.bin" bs=4M count=175 conv=fsync 2>&1 | awk '/copied/{print $(NF-1), $NF}')
# Cold reads for both: drop the file's pages from the cache first (GNU dd's nocache flag).
dd if="$DIR/dd.bin" iflag=nocache count=0 status=none
dd_read=$(dd if="$DIR/dd.bin" of=/dev/null bs=4M 2>&1 | awk '/copied/{print $(NF-1), $NF}')

for rep in $(seq "$REPS"); do
  for name in async sync; do rm -rf "$DIR/bench-ckpt"; run $name $name-$rep; done
done
cp "$DIR/sync.json" "$DIR/load.json"
for f in "$DIR"/bench-ckpt/*/*.safetensors; do dd if="$f" iflag=nocache count=0 status=none; done
run load load --resume "$DIR/bench-ckpt"  # load only (nothing left to train after the last step)

python3 - "$DIR" "$dd_write" "$dd_read" "$REPS" "$INTERVAL" <<'PY'
import json, re, statistics, sys
d = sys.argv[1]
def events(name, rank=0):
    return [json.loads(l[4:]) for l in open(f"{d}/{name}.out{rank}") if l.startswith("@sb ")]
def unit(s):
    v, u = s.split(); v = float(v)
    return v * {"GB/s": 1e9, "MB/s": 1e6, "kB/s": 1e3, "GiB/s": 2**30, "MiB/s": 2**20}.get(u, 1) / 2**20
ddw, ddr = unit(sys.argv[2]), unit(sys.argv[3])
reps, interval = int(sys.argv[4]), int(sys.argv[5])
med = statistics.median
def ckpts(name):
    return [e for e in events(name) if e["type"] == "checkpoint" and e["status"] == "complete"]
rows = []
for r in range(1, reps + 1):
    sync_stall = med(e["stall_ms"] for e in ckpts(f"sync-{r}"))
    ev = events(f"async-{r}")
    step = {e["step"]: e for e in ev if e["type"] == "step"}
    done = {e["step"]: e["t"] for e in ckpts(f"async-{r}")}  # the save's files and index are durable
    stall = {e["step"]: e["stall_ms"] for e in ckpts(f"async-{r}")}
    saves = sorted(done)
    start = lambda k: step[k]["t"] - step[k]["step_ms"] / 1000
    # Clean steps: after warm-up, no write in progress.
    busy = lambda k: any(s < k and start(k) < done[s] for s in saves)
    base = med(step[k]["step_ms"] for k in step if k > 1 and not busy(k))
    # What the async save at step s costs training: its stall, how much longer
    # than a clean step each step overlapping its write took, and the next
    # save's stall when that had to wait for this write.
    def cost(s):
        c = stall[s] + sum(step[k]["step_ms"] - base for k in range(s + 1, s + interval + 1) if start(k) < done[s])
        return c + (stall[s + interval] if done[s] > start(s + interval) + step[s + interval]["step_ms"] / 1000 else 0)
    later = saves[1:-1]  # steady state: the first save maps fresh pages, the last overlaps no training
    rows.append(dict(base=base, sync=sync_stall, first=stall[saves[0]], later=med(stall[s] for s in later),
                     cost=med(cost(s) for s in later), write=med((done[s] - start(s + 1)) * 1000 for s in later),
                     save_mbs=med(e["bytes"] / 2**20 / (e["ms"] / 1000) for e in ckpts(f"sync-{r}")),
                     bytes=ckpts(f"sync-{r}")[0]["bytes"]))
    x = rows[-1]
    print(f"repetition {r}: clean step {base:.0f} ms, sync stall {sync_stall:.0f} ms, async cost per save {x['cost']:.0f} ms "
          f"({x['cost'] / sync_stall:.0%}), background write {x['write']:.0f} ms")
m = {k: med(row[k] for row in rows) for k in rows[0]}
load = open(f"{d}/load.err0").read()
lm = re.findall(r"read (\d+) bytes in (\d+) ms", load)
load_mbs = (int(lm[-1][0]) / 2**20) / (max(1, int(lm[-1][1])) / 1000) if lm else float("nan")
print(f"\nmedians of {reps} repetitions:\n")
print("| measure | value |")
print("|---|---|")
print(f"| checkpoint size | {m['bytes'] / 2**20:.0f} MiB (2 ranks) |")
print(f"| dd sequential write (conv=fsync) | {ddw:.0f} MiB/s |")
print(f"| save, synchronous | {m['save_mbs']:.0f} MiB/s ({m['save_mbs'] / ddw:.0%} of dd) |")
print(f"| dd sequential read, cold cache | {ddr:.0f} MiB/s |")
print(f"| load at the same world size, cold cache (2 ranks in parallel; rank 0's rate) | {load_mbs:.0f} MiB/s per rank, {2 * load_mbs:.0f} MiB/s together ({2 * load_mbs / ddr:.0%} of dd) |")
print(f"| step time, no write in progress | {m['base']:.0f} ms |")
print(f"| synchronous save stall | {m['sync']:.0f} ms |")
print(f"| asynchronous save stall, first save / later saves | {m['first']:.0f} ms / {m['later']:.0f} ms |")
print(f"| asynchronous save, background write (snapshot done to files durable) | {m['write']:.0f} ms |")
print(f"| asynchronous save cost (stall + slow-down of the steps overlapping the write + any wait at the next save) | {m['cost']:.0f} ms |")
print(f"\nasync cost per save: {m['cost']:.0f} ms against a {m['sync']:.0f} ms synchronous stall: "
      f"{med(row['cost'] / row['sync'] for row in rows):.0%} (median of the per-repetition ratios; goal <= 10%)")
PY
