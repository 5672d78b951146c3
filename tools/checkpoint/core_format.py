"""shardbench-core's sharded checkpoint format (docs/checkpoints.md), read and
written as core/checkpoint/ does: index.json with its SHA-256 commit record
(index.json.sha256, sha256sum's format), one safetensors file per shard rank
holding rows [begin, end) of every tensor, a CRC-32C of every shard's bytes and
a SHA-256 of every file. Only numpy and the standard library."""

import functools
import hashlib
import json
import os
import re
import time

import numpy as np

FORMAT = "shardbench-checkpoint"
VERSION = 2  # core/checkpoint/checkpoint_index.hpp kCheckpointFormatVersion
INDEX, INDEX_SUM = "index.json", "index.json.sha256"
KINDS = ("param", "exp_avg", "exp_avg_sq")


class Refused(Exception):
    """Input the converter will not use; the message names the file and what is wrong."""


# --- CRC-32C (Castagnoli), as core/checkpoint/crc32c.cpp --------------------

def _table():
    t = np.zeros(256, dtype=np.uint32)
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        t[i] = c
    return t


_TABLE = _table()
_LANES = 4096  # bytes are fed to this many independent CRCs at once, then combined


def _zeros_operator(n):
    """Four byte tables of the linear map "feed n zero bytes" on a raw CRC
    register: crc(A + B) = zeros(len B)(crc(A)) ^ crc(B) (zlib's crc32_combine)."""
    basis = np.array([1 << i for i in range(32)], dtype=np.uint32)
    for _ in range(n):
        basis = _TABLE[basis & 0xFF] ^ (basis >> np.uint32(8))
    tables = np.zeros((4, 256), dtype=np.uint32)
    for k in range(4):
        for b in range(8):
            bit = np.uint32(basis[8 * k + b])
            tables[k, (np.arange(256) >> b) & 1 == 1] ^= bit
    return tables


def crc32c(data):
    """CRC-32C of a bytes-like object, 8 lowercase hex digits. Pure Python per
    byte would take minutes for a large shard: the bytes are cut into _LANES
    equal runs whose CRCs advance together in numpy, then are combined."""
    buf = np.frombuffer(memoryview(data).cast("B"), dtype=np.uint8)
    run = len(buf) // _LANES
    crc = 0
    if run >= 64:
        lanes = buf[:run * _LANES].reshape(_LANES, run)
        reg = np.full(_LANES, 0xFFFFFFFF, dtype=np.uint32)
        for j in range(run):
            reg = _TABLE[(reg ^ lanes[:, j]) & 0xFF] ^ (reg >> np.uint32(8))
        reg = ~reg
        shift = _zeros_operator(run)
        for value in reg.tolist():
            crc = int(shift[0, crc & 0xFF] ^ shift[1, (crc >> 8) & 0xFF] ^ shift[2, (crc >> 16) & 0xFF] ^ shift[3, crc >> 24]) ^ value
        buf = buf[run * _LANES:]
    reg = ~crc & 0xFFFFFFFF
    for byte in buf.tolist():
        reg = int(_TABLE[(reg ^ byte) & 0xFF]) ^ (reg >> 8)
    return f"{~reg & 0xFFFFFFFF:08x}"


# --- the one dim-0 layout, as core/plan/shard_layout.cpp --------------------

def shard_rows(rows, ways, rank):
    """Rows [begin, end) rank `rank` of `ways` holds: chunks of ceil(rows / ways)."""
    chunk = -(-rows // ways)
    begin = min(rank * chunk, rows)
    return begin, min(begin + chunk, rows)


# --- safetensors --------------------------------------------------------------

@functools.lru_cache(maxsize=None)  # read once a file, not once a tensor of it
def read_header(path):
    with open(path, "rb") as f:
        head = f.read(8)
        size = os.fstat(f.fileno()).st_size
        n = int.from_bytes(head, "little") if len(head) == 8 else -1
        if n < 2 or 8 + n > size:
            raise Refused(f"{path}: not a safetensors file")
        try:
            header = json.loads(f.read(n))
        except ValueError as e:
            raise Refused(f"{path}: its safetensors header is not JSON ({e})") from e
    header.pop("__metadata__", None)
    return header, 8 + n


def encode_shard_file(tensors):
    """One rank's file as the core lays it out: the header (metadata format
    shardbench-shard, padded with spaces to 8 bytes), then every tensor's rows
    back to back. `tensors`: (name, float32 array of the rows held). Returns
    the bytes and each tensor's (begin, end) in them."""
    header, offset, spans = {"__metadata__": {"format": "shardbench-shard"}}, 0, []
    for name, rows in tensors:
        n = rows.nbytes
        header[name] = {"dtype": "F32", "shape": list(rows.shape), "data_offsets": [offset, offset + n]}
        spans.append((offset, offset + n))
        offset += n
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    body = b"".join(np.ascontiguousarray(rows, dtype="<f4").tobytes() for _, rows in tensors)
    start = 8 + len(text)
    return len(text).to_bytes(8, "little") + text + body, [(start + b, start + e) for b, e in spans]


# --- reading a checkpoint -----------------------------------------------------

def resolve(path):
    """A step-NNNNNN folder, or a run's folder DIR/<run id> (then its newest)."""
    if not os.path.isdir(path):
        raise Refused(f"{path}: no such checkpoint folder")
    if os.path.exists(os.path.join(path, INDEX)):
        return path
    steps = sorted((int(m.group(1)), e) for e in os.listdir(path)
                   if (m := re.fullmatch(r"step-(\d+)", e)) and os.path.exists(os.path.join(path, e, INDEX)))
    if not steps:
        raise Refused(f"{path}: holds no committed shardbench checkpoint (step-NNNNNN with an {INDEX})")
    return os.path.join(path, steps[-1][1])


def read_index(folder):
    """index.json, checked as the core checks it before a resume: committed
    (its SHA-256 in index.json.sha256), a version this tool writes, row ranges
    covering every tensor once, the step of the folder's name."""
    path, sum_path = os.path.join(folder, INDEX), os.path.join(folder, INDEX_SUM)
    if not os.path.isfile(path):
        raise Refused(f"{path}: missing (not a complete checkpoint)")
    with open(path, "rb") as f:
        text = f.read()
    try:
        index = json.loads(text)
    except ValueError as e:
        raise Refused(f"{path}: invalid JSON ({e})") from e
    if not isinstance(index, dict) or index.get("format") != FORMAT:
        raise Refused(f"{path}: not a shardbench checkpoint index (format)")
    version = index.get("version")
    if version != VERSION:
        why = ("has no index checksum, so its step and data position cannot be trusted; export it and use --init-from"
               if version == 1 else "is not supported (this tool reads version 2)")
        raise Refused(f"{path}: checkpoint format version {version} {why}")
    if not os.path.isfile(sum_path):
        raise Refused(f"{sum_path}: missing (the checkpoint was never committed)")
    with open(sum_path, "rb") as f:
        recorded = f.read()
    if recorded != hashlib.sha256(text).hexdigest().encode() + b"  " + INDEX.encode() + b"\n":
        raise Refused(f"{path}: checksum mismatch with {INDEX_SUM} (the index was altered or damaged)")
    for key in ("step", "optimizer_step", "next_sample", "world_size", "shard_size", "replicate", "seed"):
        if not isinstance(index.get(key), int) or index[key] < 0:
            raise Refused(f"{path}: lacks {key}")
    m = re.fullmatch(r"step-(\d+)", os.path.basename(os.path.normpath(folder)))
    if m and int(m.group(1)) != index["step"]:
        raise Refused(f"{path}: says step {index['step']} in a folder named for step {int(m.group(1))}")
    for name, t in index.get("tensors", {}).items():
        covered = 0
        for s in t.get("shards", []):
            if s.get("rows", [None])[0] != covered or s.get("file") not in index.get("files", {}):
                raise Refused(f"{path}: the shards of tensor \"{name}\" do not cover its rows in order")
            covered = s["rows"][1]
        if covered != t["shape"][0] or t.get("dtype") != "F32":
            raise Refused(f"{path}: tensor \"{name}\" is not F32 rows covered once")
    return index


def check_files(folder, index):
    """Every file of the index: present, its size and SHA-256 as recorded."""
    for name, f in index["files"].items():
        path = os.path.join(folder, name)
        if not os.path.isfile(path):
            raise Refused(f"{path}: missing")
        with open(path, "rb") as fh:
            data = fh.read()
        if len(data) != f["bytes"]:
            raise Refused(f"{path}: {len(data)} bytes, the index says {f['bytes']} (truncated or altered)")
        sha = hashlib.sha256(data).hexdigest()
        if sha != f["sha256"]:
            raise Refused(f"{path}: checksum mismatch: its SHA-256 is {sha}, the index says {f['sha256']} "
                          "(the file was altered or damaged)")


def read_tensor(folder, index, name):
    """The whole tensor `name` (float32, its global shape) from its shards, each
    shard's CRC-32C checked."""
    t = index["tensors"].get(name)
    if t is None:
        raise Refused(f"{os.path.join(folder, INDEX)}: has no tensor \"{name}\"")
    out = np.empty(t["shape"], dtype=np.float32)
    flat = out.reshape(t["shape"][0], -1)
    for s in t["shards"]:
        path = os.path.join(folder, s["file"])
        header, start = read_header(path)
        e = header.get(name)
        begin, end = s["rows"]
        want = (end - begin) * flat.shape[1] * 4
        if not e or e.get("dtype") != "F32" or e["data_offsets"][1] - e["data_offsets"][0] != want:
            raise Refused(f"{path}: tensor \"{name}\" does not have the rows and dtype the index promises")
        with open(path, "rb") as f:
            f.seek(start + e["data_offsets"][0])
            data = f.read(want)
        if len(data) != want or crc32c(data) != s["crc32c"]:
            raise Refused(f"{path}: checksum mismatch in tensor \"{name}\" (the file was altered or damaged)")
        flat[begin:end] = np.frombuffer(data, dtype="<f4").reshape(end - begin, -1)
    return out


# --- writing a checkpoint -----------------------------------------------------

def _write_durably(path, data):
    with open(path, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def write_checkpoint(run_dir, tensors, step, optimizer_step, next_sample, seed, world, replicate, plan, run_id):
    """Writes run_dir/step-NNNNNN as the core commits one: every shard rank's
    file into step-NNNNNN.tmp, then index.json, then index.json.sha256 (the
    commit record), then the rename. `tensors`: name -> (shape, float32 array)
    for "param/...", "exp_avg/...", "exp_avg_sq/..." of every parameter."""
    shard = world // replicate
    final = os.path.join(run_dir, f"step-{step:06d}")
    tmp = final + ".tmp"
    if os.path.exists(final):
        raise Refused(f"{final}: exists already (remove it, or convert into another folder)")
    os.makedirs(tmp, exist_ok=True)
    for leftover in os.listdir(tmp):
        os.remove(os.path.join(tmp, leftover))
    index_tensors = {name: {"dtype": "F32", "shape": list(shape), "shards": []} for name, (shape, _) in tensors.items()}
    files = {}
    for rank in range(shard):
        held, names = [], []
        for name, (shape, values) in tensors.items():
            begin, end = shard_rows(shape[0], shard, rank)
            # A rank past the last row keeps an empty entry in its file, as the core's
            # do, but the index lists only shards that hold rows.
            held.append((name, values.reshape(shape[0], -1)[begin:end].reshape([end - begin] + list(shape[1:]))))
            names.append((name, begin, end))
        file = f"rank-{rank:05d}.safetensors"
        data, spans = encode_shard_file(held)
        _write_durably(os.path.join(tmp, file), data)
        files[file] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
        for (name, begin, end), (lo, hi) in zip(names, spans):
            if end > begin:
                index_tensors[name]["shards"].append({"file": file, "rows": [begin, end], "crc32c": crc32c(data[lo:hi])})
    index = {"format": FORMAT, "version": VERSION, "kind": "sharded", "step": step, "optimizer_step": optimizer_step,
             "world_size": world, "shard_size": shard, "replicate": replicate, "seed": seed, "next_sample": next_sample,
             "run_id": run_id, "created": time.time(), "tensors": index_tensors, "files": files, "plan": plan}
    text = (json.dumps(index, indent=1) + "\n").encode()
    _write_durably(os.path.join(tmp, INDEX), text)
    _write_durably(os.path.join(tmp, INDEX_SUM), (hashlib.sha256(text).hexdigest() + "  " + INDEX + "\n").encode())
    os.rename(tmp, final)
    fd = os.open(run_dir, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    return final
