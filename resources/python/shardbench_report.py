"""shardbench's event protocol for any PyTorch training script.

A script that calls a Reporter once a step (and at checkpoints) prints the
same `@sb` event lines on stdout that shardbench-core prints
(docs/protocol.md, version 1), so shardbench's launcher, supervisor, run
store and workbench follow it as they follow the core: live charts of loss,
eval loss, tokens/s, step time and each rank's memory, its checkpoints, and
how it ended. Standard library only; torch is used when it is imported.

    from shardbench_report import Reporter
    rep = Reporter()                       # rank, world and run id from torchrun's environment
    rep.hello()
    rep.plan(model)                        # parameter counts (optional)
    for step in range(start, steps):
        rep.step_begin()
        ...
        rep.step(step + 1, steps, loss=loss, lr=lr, grad_norm=norm, tokens=tokens)
    rep.checkpoint(step, path)             # after a checkpoint is durable
    rep.done(steps=steps, final_loss=loss)

From hello() to done() a daemon thread also writes a `system` event every
SB_SYSTEM_SAMPLE_S seconds (default 5, 0 for none): this process' CPU
utilisation and resident set, and on CUDA the GPU's utilisation, power,
temperature and SM clock through NVML (libnvidia-ml.so.1 with ctypes; left
out when it cannot be loaded).

Checkpoints, as shardbench-core keeps them: a run launched by shardbench
saves into run_checkpoint_dir(root) (root/<run id>, so two runs of one
script never resume each other's), resumes from its newest checkpoint there
after a restart, and, while that folder holds none, from
restored_checkpoint() (the DCP checkpoint a restore in the workbench or
`shardbench-cli run --resume` chose, at any world size).

Every rank reports; `loss` is the value every rank agrees on (the mean over
ranks, as the core reports it). Memory is measured here: on CUDA the caching
allocator's allocated (peak since step_begin) and reserved bytes, on the CPU
the process's resident set. A number that is not finite is left out of the
line, as the protocol says.
"""

import json
import math
import os
import re
import socket
import sys
import threading
import time

VERSION = 1
PREFIX = "@sb "


def _torch():
    return sys.modules.get("torch")


def run_checkpoint_dir(root):
    """Where a run saves and resumes its checkpoints: launched by shardbench
    (SHARDBENCH_RUN_ID set), the run's own folder root/<run id>, as
    shardbench-core keeps it; run by hand, root itself."""
    run_id = os.environ.get("SHARDBENCH_RUN_ID", "")
    if root and re.fullmatch(r"[A-Za-z0-9_-][A-Za-z0-9._-]*", run_id):
        return os.path.join(root, run_id)
    return root


def restored_checkpoint():
    """(path, step) of the checkpoint a restored run starts from while its own
    folder has none, or (None, 0): SHARDBENCH_RESUME_FROM names a DCP
    checkpoint folder (step-NNNNNN holding .metadata), written at any world
    size; DCP reshards it as it loads. Anything else there ends the script
    with a message naming it."""
    path = os.environ.get("SHARDBENCH_RESUME_FROM", "")
    if not path:
        return None, 0
    m = re.fullmatch(r"step-(\d{6,})", os.path.basename(os.path.normpath(path)))
    if not m or not os.path.isfile(os.path.join(path, ".metadata")):
        sys.exit(f"SHARDBENCH_RESUME_FROM={path}: not a DCP checkpoint folder (step-NNNNNN holding .metadata)")
    return path, int(m.group(1))


def _finite(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _rss_bytes():
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return -1


def _peak_rss_bytes():
    try:
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux
    except (ImportError, OSError):
        return -1


def _cpu_seconds_and_age():
    """(utime + stime, seconds since the process started) from /proc, or None."""
    try:
        with open("/proc/self/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()  # field 3 onwards
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        tick = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / tick, uptime - int(fields[19]) / tick
    except (OSError, ValueError, IndexError):
        return None


def _nvml_device_name(local_rank):
    """The NVML device of CUDA device `local_rank`: its CUDA_VISIBLE_DEVICES entry, else its index."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is None:
        return str(local_rank)
    entries = visible.split(",")
    return entries[local_rank] if 0 <= local_rank < len(entries) else ""


class _Nvml:
    """A GPU's counters through NVML with ctypes: OSError when unavailable."""

    def __init__(self, local_rank):
        import ctypes
        self._c = ctypes
        self._lib = ctypes.CDLL("libnvidia-ml.so.1")
        if self._lib.nvmlInit_v2() != 0:
            raise OSError("nvmlInit_v2 failed")
        self._dev = ctypes.c_void_p()
        name = _nvml_device_name(local_rank)
        if name.isdigit():
            rc = self._lib.nvmlDeviceGetHandleByIndex_v2(ctypes.c_uint(int(name)), ctypes.byref(self._dev))
        else:
            rc = self._lib.nvmlDeviceGetHandleByUUID(name.encode(), ctypes.byref(self._dev))
        if rc != 0:
            raise OSError("NVML has no device %r (error %d)" % (name, rc))

    def read(self, out):
        c, lib, dev, v = self._c, self._lib, self._dev, self._c.c_uint()
        util = (c.c_uint * 2)()
        if lib.nvmlDeviceGetUtilizationRates(dev, util) == 0:
            out["gpu_util"] = util[0]
        if lib.nvmlDeviceGetPowerUsage(dev, c.byref(v)) == 0:
            out["gpu_power_w"] = v.value / 1000.0
        if lib.nvmlDeviceGetTemperature(dev, 0, c.byref(v)) == 0:  # NVML_TEMPERATURE_GPU
            out["gpu_temp_c"] = v.value
        if lib.nvmlDeviceGetClockInfo(dev, 1, c.byref(v)) == 0:  # NVML_CLOCK_SM
            out["gpu_sm_clock_mhz"] = v.value


class Reporter:
    """Writes protocol events for this rank to `stream` (stdout)."""

    def __init__(self, rank=None, world=None, run_id=None, stream=None):
        env = os.environ
        self.rank = int(env.get("RANK", "0")) if rank is None else int(rank)
        self.world = int(env.get("WORLD_SIZE", "1")) if world is None else int(world)
        self.local_rank = int(env.get("LOCAL_RANK", str(self.rank)))
        self.local_world = int(env.get("LOCAL_WORLD_SIZE", str(self.world)))
        if run_id is None:  # as the core: torchrun's id ("none" when it has none), else "local"
            elastic = env.get("TORCHELASTIC_RUN_ID", "")
            run_id = env.get("SHARDBENCH_RUN_ID") or (elastic if elastic not in ("", "none") else "local")
        self.run_id = run_id
        self.stream = stream if stream is not None else sys.stdout
        self._step_start = None
        self._phase = {}
        self._peak = 0
        self._lock = threading.Lock()  # the sampler's lines never interleave with the others
        self._stop = threading.Event()
        self._sampler = None

    # -- the envelope -----------------------------------------------------
    def emit(self, type_, fields):
        """One event line: the envelope (type first), then `fields`."""
        line = {"type": type_, "v": VERSION, "rank": self.rank, "t": time.time(), "run_id": self.run_id}
        for key, value in fields.items():
            if value is None or (isinstance(value, float) and not math.isfinite(value)):
                continue
            line[key] = value
        text = PREFIX + json.dumps(line, separators=(",", ":"), allow_nan=False) + "\n"
        with self._lock:
            self.stream.write(text)
            self.stream.flush()

    # -- system samples -------------------------------------------------------
    def start_system_samples(self, period_s=None):
        """A `system` event now and every `period_s` seconds (SB_SYSTEM_SAMPLE_S, default 5; 0: none) until done()."""
        if period_s is None:
            try:
                period_s = int(os.environ.get("SB_SYSTEM_SAMPLE_S", "5"))
            except ValueError:
                period_s = 5
        if period_s <= 0 or self._sampler is not None:
            return
        nvml = None
        if self._cuda():
            try:
                nvml = _Nvml(self.local_rank)
            except (OSError, AttributeError) as e:
                print("[rank %d] system samples without GPU fields: %s" % (self.rank, e), file=sys.stderr)
        self._sampler = threading.Thread(target=self._sample_loop, args=(period_s, nvml), daemon=True)
        self._sampler.start()

    def _sample_loop(self, period_s, nvml):
        last = None  # (cpu seconds, monotonic seconds) at the previous sample
        while not self._stop.is_set():
            fields, now, cpu = {}, time.monotonic(), _cpu_seconds_and_age()
            if cpu is not None:
                used, wall = (cpu[0], cpu[1]) if last is None else (cpu[0] - last[0], now - last[1])
                if wall > 0:
                    fields["cpu_util"] = 100.0 * used / wall
                last = (cpu[0], now)
            rss = _rss_bytes()
            if rss >= 0:
                fields["host_rss"] = rss
            if nvml is not None:
                nvml.read(fields)
            self.emit("system", fields)
            self._stop.wait(period_s)

    def stop_system_samples(self):
        self._stop.set()
        if self._sampler is not None:
            self._sampler.join(timeout=5)

    # -- memory -------------------------------------------------------------
    def _cuda(self):
        torch = _torch()
        return torch is not None and torch.cuda.is_available() and torch.cuda.is_initialized()

    def memory(self):
        """(current, peak since step_begin, reserved, device used) in bytes; -1 unknown."""
        if self._cuda():
            torch = _torch()
            reserved = torch.cuda.memory_reserved()
            return torch.cuda.memory_allocated(), torch.cuda.max_memory_allocated(), reserved, reserved
        rss = _rss_bytes()
        self._peak = max(self._peak, rss)
        return rss, max(self._peak, rss), -1, rss

    # -- events -------------------------------------------------------------
    def hello(self, device=None, threads=None):
        torch = _torch()
        if device is None:
            device = "cpu"
            if self._cuda():
                index = torch.cuda.current_device()
                device = "cuda:%d (%s)" % (index, torch.cuda.get_device_name(index))
        if threads is None:
            threads = torch.get_num_threads() if torch is not None else os.cpu_count() or 0
        master = ""
        if os.environ.get("MASTER_ADDR"):
            master = "%s:%s" % (os.environ["MASTER_ADDR"], os.environ.get("MASTER_PORT", ""))
        self.emit("hello", {
            "host": socket.gethostname(), "pid": os.getpid(), "device": device,
            "torch": torch.__version__ if torch is not None else "", "core_version": "pytorch",
            "world": self.world, "local_rank": self.local_rank, "local_world": self.local_world,
            "threads": int(threads), "master": master,
            "env": "torchrun" if "TORCHELASTIC_RUN_ID" in os.environ else "slurm" if "SLURM_PROCID" in os.environ else "",
        })
        self.start_system_samples()

    def plan(self, model=None, units=None, shard_size=None, replicate=1, params_total=None):
        """The model's size. `units`: [(module name, parameters)], or the
        modules of `model` that FSDP2's fully_shard wrapped, each with the
        parameters it shards (those of no unit nested in it)."""
        if units is None and model is not None:
            wrapped = [(name, m) for name, m in model.named_modules() if type(m).__name__.startswith("FSDP")]
            owner = {}
            for name, m in wrapped:  # outer units first: a nested unit takes its own parameters
                for p in m.parameters():
                    owner[id(p)] = name
            counts = dict.fromkeys((name for name, _ in wrapped), 0)
            for p in model.parameters():
                if id(p) in owner:
                    counts[owner[id(p)]] += p.numel()
            units = [(name, counts[name]) for name, _ in wrapped]
        if params_total is None and model is not None:
            params_total = sum(p.numel() for p in model.parameters())
        shard = self.world // max(1, replicate) if shard_size is None else shard_size
        self.emit("plan", {
            "params_total": int(params_total or 0),
            "units": [{"module": name, "params": int(n)} for name, n in (units or [])],
            "world": self.world, "shard_size": int(shard), "replicate": int(replicate),
        })

    def step_begin(self):
        """Call before the step's forward: its time and memory peak start here."""
        self._step_start = time.perf_counter()
        self._phase = {}
        if self._cuda():
            _torch().cuda.reset_peak_memory_stats()
        else:
            self._peak = 0

    def phase(self, name, ms):
        """Time of a part of the step: forward, backward, optimizer, comm_exposed (ms)."""
        self._phase[name] = self._phase.get(name, 0.0) + float(ms)

    def step(self, step, steps, loss, lr=None, grad_norm=None, tokens=None, step_ms=None, eval_loss=None):
        if step_ms is None and self._step_start is not None:
            step_ms = 1000.0 * (time.perf_counter() - self._step_start)
        current, peak, reserved, used = self.memory()
        fields = {
            "step": int(step), "steps": int(steps), "loss": float(loss),
            "lr": float(lr) if _finite(lr) else None, "grad_norm": float(grad_norm) if _finite(grad_norm) else None,
            "tokens": int(tokens) if tokens is not None else None,
            "tokens_per_s": tokens / (step_ms / 1000.0) if tokens and _finite(step_ms) and step_ms > 0 else None,
            "step_ms": float(step_ms) if _finite(step_ms) else None,
        }
        for name in ("forward", "backward", "optimizer", "comm_exposed"):
            if name in self._phase:
                fields[name + "_ms"] = self._phase[name]
        for key, value in (("mem_current", current), ("mem_peak", peak), ("mem_reserved", reserved), ("device_mem_used", used)):
            if value >= 0:
                fields[key] = int(value)
        if _finite(eval_loss):
            fields["eval_loss"] = float(eval_loss)
            fields["eval_perplexity"] = math.exp(min(float(eval_loss), 700.0))
        self.emit("step", fields)
        self._step_start = None

    def checkpoint(self, step, path, bytes_=None, ms=None, status="complete", message=None, kind=None):
        """A checkpoint of `step` at `path`: "complete" once durable, or "failed" with `message`.
        Its kind: "dcp" for a torch.distributed.checkpoint folder (it holds .metadata) unless given."""
        if kind is None:
            kind = "dcp" if os.path.isfile(os.path.join(str(path), ".metadata")) else "sharded"
        if bytes_ is None and os.path.isdir(path):
            bytes_ = sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(path) for f in files)
        self.emit("checkpoint", {
            "step": int(step), "path": str(path), "bytes": int(bytes_) if bytes_ is not None else None,
            "ms": float(ms) if _finite(ms) else None, "kind": kind, "status": status, "world": self.world,
            "message": message,
        })

    def error(self, message, where=""):
        self.emit("error", {"message": str(message), "where": str(where)})

    def done(self, status="ok", steps=None, final_loss=None):
        self.stop_system_samples()
        peak = self.memory()[1]
        if not self._cuda():
            peak = max(peak, _peak_rss_bytes())
        self.emit("done", {
            "status": status, "steps": int(steps) if steps is not None else None,
            "final_loss": float(final_loss) if _finite(final_loss) else None,
            "peak_bytes": int(peak) if peak >= 0 else None,
        })
