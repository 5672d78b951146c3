#!/usr/bin/env bash
# Checkpoint benchmark: save and load throughput of shardbench-core's sharded
# checkpoints against dd's sequential write and read speed in the same folder,
# and the training slow-down while an asynchronous save runs against the
# stall of a synchronous one.
# usage: scripts/bench_checkpoint.sh [BUILD_DIR] [FOLDER]
set -euo pipefail
BIN=${1:-build}/bin
DIR=${2:-$(mktemp -d -p "${TMPDIR:-/tmp}")}
mkdir -p "$DIR"
trap 'rm -rf "$DIR/bench-ckpt" "$DIR/dd.bin"' EXIT
port=$((32000 + RANDOM % 2000))

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
run() { # name extra...
  local name=$1; shift
  for r in 0 1; do
    RANK=$r WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port SB_THREADS=1 \
      "$BIN/shardbench-core" --plan "$DIR/$name.json" "$@" >"$DIR/$name.out$r" 2>"$DIR/$name.err$r" &
  done
  wait
  port=$((port + 1))
}

plan sync 6 3 false
plan async 6 3 true
plan nockpt 6 0 false
sed -i 's#"dir": "[^"]*"#"dir": ""#' "$DIR/nockpt.json"

bytes=$(( 700 * 1024 * 1024 ))
sync; dd_write=$(dd if=/dev/zero of="$DIR/dd.bin" bs=4M count=175 conv=fsync 2>&1 | awk '/copied/{print $(NF-1), $NF}')
# Cold reads for both: drop the file's pages from the cache first (GNU dd's nocache flag).
dd if="$DIR/dd.bin" iflag=nocache count=0 status=none
dd_read=$(dd if="$DIR/dd.bin" of=/dev/null bs=4M 2>&1 | awk '/copied/{print $(NF-1), $NF}')

rm -rf "$DIR/bench-ckpt"; run nockpt
rm -rf "$DIR/bench-ckpt"; run sync
rm -rf "$DIR/bench-ckpt"; run async
cp "$DIR/sync.json" "$DIR/load.json"
for f in "$DIR"/bench-ckpt/*/*.safetensors; do dd if="$f" iflag=nocache count=0 status=none; done
run load --resume "$DIR/bench-ckpt"  # load only (nothing left to train after step 6)

python3 - "$DIR" "$dd_write" "$dd_read" <<'PY'
import json, re, statistics, sys
d = sys.argv[1]
def events(name, rank=0):
    return [json.loads(l[4:]) for l in open(f"{d}/{name}.out{rank}") if l.startswith("@sb ")]
def unit(s):
    v, u = s.split(); v = float(v)
    return v * {"GB/s": 1e9, "MB/s": 1e6, "kB/s": 1e3, "GiB/s": 2**30, "MiB/s": 2**20}.get(u, 1) / 2**20
ddw, ddr = unit(sys.argv[2]), unit(sys.argv[3])
saves = [e for e in events("sync") if e["type"] == "checkpoint" and e["status"] == "complete"]
asaves = [e for e in events("async") if e["type"] == "checkpoint" and e["status"] == "complete"]
save_mbs = statistics.median(e["bytes"] / 2**20 / (e["ms"] / 1000) for e in saves)
load = open(f"{d}/load.err0").read()
m = re.findall(r"read (\d+) bytes in (\d+) ms", load)
load_mbs = (int(m[-1][0]) / 2**20) / (max(1, int(m[-1][1])) / 1000) if m else float("nan")
base = statistics.median(e["step_ms"] for e in events("nockpt") if e["type"] == "step" and e["step"] > 1)
astep = [e for e in events("async") if e["type"] == "step"]
# Steps 4..6 run while the step-3 save writes in the background.
during = statistics.median(e["step_ms"] for e in astep if e["step"] in (4, 5))
print("| measure | value |")
print("|---|---|")
print(f"| checkpoint size | {saves[0]['bytes'] / 2**20:.0f} MiB (2 ranks) |")
print(f"| dd sequential write (conv=fsync) | {ddw:.0f} MiB/s |")
print(f"| save, synchronous, median | {save_mbs:.0f} MiB/s ({save_mbs / ddw:.0%} of dd) |")
print(f"| dd sequential read, cold cache | {ddr:.0f} MiB/s |")
print(f"| load at the same world size, cold cache (2 ranks in parallel; rank 0's rate) | {load_mbs:.0f} MiB/s per rank, {2 * load_mbs:.0f} MiB/s together ({2 * load_mbs / ddr:.0%} of dd) |")
print(f"| synchronous save stall, median | {statistics.median(e['stall_ms'] for e in saves):.0f} ms |")
print(f"| asynchronous save stall (snapshot), median | {statistics.median(e['stall_ms'] for e in asaves):.0f} ms |")
print(f"| step time without checkpoints, median | {base:.0f} ms |")
print(f"| step time while an async save writes, median | {during:.0f} ms (+{during - base:.0f} ms) |")
sync_stall = statistics.median(e['stall_ms'] for e in saves)
extra = max(0.0, during - base) * 2 + statistics.median(e['stall_ms'] for e in asaves)
print(f"\nasync cost (snapshot + slow-down of the steps overlapping the write) = {extra:.0f} ms against a {sync_stall:.0f} ms synchronous stall: {extra / sync_stall:.0%} (goal <= 10%)")
PY
