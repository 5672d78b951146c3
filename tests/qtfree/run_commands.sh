#!/usr/bin/env bash
# Runs every command of the Qt-free shardbench-cli (SHARDBENCH_GUI=OFF) on real
# inputs and checks what it does: plan, presets, validate, estimate,
# export-script on a plan it writes and on the examples; checkpoint inspect,
# verify and export on a checkpoint that a short 2-rank run of shardbench-core
# writes; verify refusing a damaged copy; --help and --version; the full build's commands answered as
# such; and no Qt library linked. Any failed check exits 1.
#
# usage: tests/qtfree/run_commands.sh CORE_BUILD_BIN SHARDBENCH_CORE
#   CORE_BUILD_BIN    bin/ of the Qt-free build (shardbench-cli)
#   SHARDBENCH_CORE   a shardbench-core binary (the full build's, or the Qt-free
#                     build's when it has the engine)
set -uo pipefail
if [ $# -ne 2 ]; then
  sed -n '/^# usage:/,/^set /p' "$0" | sed '$d' >&2
  exit 2
fi
cli="$(realpath -m "$1/shardbench-cli")"
core="$(realpath -m "$2")"
repo="$(cd "$(dirname "$0")/../.." && pwd)"
[ -x "$cli" ] || { echo "qtfree: no shardbench-cli at $cli" >&2; exit 2; }
[ -x "$core" ] || { echo "qtfree: no shardbench-core at $core" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0
pass() { echo "ok    $1"; }
fail() { echo "FAIL  $1" >&2; failures=$((failures + 1)); }
# check NAME EXPECTED_RC COMMAND...: runs it (stdout to NAME.out, stderr to NAME.err).
check() {
  local name="$1" want="$2"; shift 2
  "$@" >"$name.out" 2>"$name.err"
  local rc=$?
  if [ "$rc" -eq "$want" ]; then pass "$name (exit $rc)"; else
    fail "$name: exit $rc, expected $want"; sed 's/^/      /' "$name.err" >&2; fi
}
# expect NAME FILE PATTERN: FILE contains PATTERN (grep -E).
expect() {
  if grep -Eq -- "$3" "$2"; then pass "$1"; else fail "$1: no \"$3\" in $2"; sed 's/^/      /' "$2" >&2; fi
}

# Qt is not linked.
if ldd "$cli" | grep -i qt >qt.txt; then fail "shardbench-cli links Qt: $(tr '\n' ' ' <qt.txt)"; else pass "no Qt library linked"; fi

# Plans and memory.
check presets 0 "$cli" presets
expect "presets lists the transformer" presets.out '^transformer'
check plan 0 "$cli" plan --preset transformer --vocab 130 --dim 64 --layers 2 --heads 4 --kv-heads 4 \
  --ffn 256 --max-seq 30 --procs-per-node 2 --batch 2 --seq 30 --steps 4 --lr 0.002 \
  --checkpoint-dir ckpt --checkpoint-interval 2 --name qtfree -o plan.json
expect "plan writes the plan" plan.json '"format": "shardbench-plan"'
check validate 0 "$cli" validate plan.json
for example in "$repo"/examples/*-*.json; do
  check "validate-$(basename "$example" .json)" 0 "$cli" validate "$example"
done
sed 's/"procs_per_node": 2/"procs_per_node": 0/' plan.json >broken.json
check validate-broken 2 "$cli" validate broken.json
expect "validate names the bad field" validate-broken.err 'procs_per_node'
check estimate 0 "$cli" estimate plan.json --json
expect "estimate says whether it fits" estimate.out '"fits": *true'
check estimate-example 0 "$cli" estimate "$repo/examples/llama3-70b-128gpu.json"
expect "estimate reports a peak" estimate-example.out '^Peak'
check export-script 0 "$cli" export-script plan.json -o train.py
expect "export-script writes an FSDP2 script" train.py 'fully_shard'

# A real checkpoint: 4 steps of the plan on 2 ranks, saved at steps 2 and 4
# (rank 1 is given its options as --option=value, which the shared parser reads too).
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
pids=()
for rank in 0 1; do
  options=(--plan plan.json --run-id qtfree)
  [ "$rank" -eq 1 ] && options=(--plan=plan.json --run-id=qtfree)
  RANK=$rank WORLD_SIZE=2 LOCAL_RANK=$rank LOCAL_WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port SB_THREADS=1 \
    timeout 120 "$core" "${options[@]}" >"rank$rank.out" 2>"rank$rank.err" &
  pids+=($!)
done
core_rc=0
for pid in "${pids[@]}"; do wait "$pid" || core_rc=$?; done
if [ "$core_rc" -eq 0 ]; then pass "shardbench-core wrote the checkpoint"; else
  fail "shardbench-core: exit $core_rc"; tail -5 rank0.err rank1.err >&2; fi
step=ckpt/qtfree/step-000004

check inspect 0 "$cli" checkpoint inspect ckpt
expect "inspect finds the newest step" inspect.out '^step +4 '
expect "inspect sees both ranks" inspect.out '^world size +2 '
check verify 0 "$cli" checkpoint verify "$step"
expect "verify checks every shard" verify.out 'verified'
cp -r ckpt damaged
python3 - "damaged/qtfree/step-000004/rank-00001.safetensors" <<'PY'
import sys
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
data[-16] ^= 0xFF
open(path, "wb").write(data)
PY
check verify-damaged 2 "$cli" checkpoint verify damaged/qtfree/step-000004
expect "verify names the damaged file" verify-damaged.err 'rank-00001.safetensors: checksum mismatch'
check export 0 "$cli" checkpoint export ckpt -o model.safetensors
if python3 - model.safetensors <<'PY'
import json, struct, sys
data = open(sys.argv[1], "rb").read()
(n,) = struct.unpack("<Q", data[:8])
header = json.loads(data[8:8 + n])
tensors = {k: v for k, v in header.items() if k != "__metadata__"}
end = max(v["data_offsets"][1] for v in tensors.values())
assert len(data) == 8 + n + end, "file size does not match the header"
assert "layers.0.attention.wk.weight" in tensors and tensors["layers.0.attention.wk.weight"]["shape"] == [64, 64]
print(f"{len(tensors)} tensors, {end} bytes of data")
PY
then pass "export writes one unsharded safetensors file"; else fail "export: model.safetensors is not a whole model"; fi

# Every command answers --help with its usage on stdout; --version the release.
for command in plan validate estimate export-script presets checkpoint; do
  check "$command-help" 0 "$cli" "$command" --help
  expect "$command --help prints its usage" "$command-help.out" "^usage: shardbench-cli $command"
done
check version 0 "$cli" --version
expect "--version prints the release" version.out '^shardbench-cli [0-9]+\.[0-9]+\.[0-9]+$'

# The full build's commands are named as such.
for command in run runs attach stop show metrics logs rename tag note delete preflight probe restore; do
  check "$command" 2 "$cli" "$command"
  expect "$command needs the full build" "$command.err" "\"$command\" needs the full build"
done
check unknown 2 "$cli" frobnicate
expect "an unknown command is unknown" unknown.err 'unknown command "frobnicate"'

if [ "$failures" -ne 0 ]; then
  echo "qtfree: $failures check(s) failed" >&2
  exit 1
fi
echo "qtfree: every Qt-free command passed"
