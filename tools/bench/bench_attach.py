#!/usr/bin/env python3
"""Detached runs: catch-up and following, measured (docs/performance.md).

Catch-up: a synthesized run directory of RANKS ranks x STEPS steps (default
16 x 36000: one hour at 100 ms a step), completed, no supervisor alive, is
ingested with `shardbench-cli attach RUN --no-follow --quiet` into a fresh
database, REPEATS times per client; reported: the bytes the follower sends
(wire 1: JSON records, wire 2: lines as text), wall and CPU time of the CLI
(user+sys, the follower it waits for included), the follower's own CPU, and
the rows stored.

Following: a writer process holds the supervisor lock and appends one step
event a rank per STEP_MS to every rank file of a synthesized running run,
while `shardbench-cli attach RUN --quiet` follows it; reported: CPU seconds
per wall second of the CLI, of its follower (`shardbench-supervise follow`,
the CLI's child for local runs) and of the writer (the machine's noise),
read from /proc/PID/stat over the measurement window, the bytes per second
the follower writes (the link's load, /proc/PID/io), how long the CLI takes
to end once the run completes (the catch-up of what was not sent live), and
whether every step row was stored in the end.

Clients (--modes, measured in turns so that the machine's noise falls on all
alike): `new` (BIN's CLI: rank 0's steps and every rank's essential events
live, wire 2), `new-all` (BIN's CLI with --live-steps all: every step live),
`old` (OLD_BIN's CLI, an older build whose command line the follower still
serves: every step live, JSON records, each line parsed twice).

The store row: one tiny real detached run (the preset `transformer`, dim 64,
2 ranks, 20 steps) is launched once into a template database; each
measurement copies that database, points the run's row at the synthesized
directory (runs.run_dir and attach_json.dir) and deletes whatever was
ingested for it.

Standard library only. Usage:
    python3 tools/bench/bench_attach.py [--bin build/bin] [--old-bin DIR] [--core PATH] [--work DIR]
        [--modes new,old] [--ranks 16] [--steps 36000] [--repeats 3]
        [--follow-ranks 64,256,1024] [--follow-slow-ranks ''] [--follow-idle-ranks 1024]
        [--follow-seconds 20] [--follow-repeats 3] [--skip-catchup] [--skip-follow]
"""

import argparse
import fcntl
import json
import os
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tools/bench/ -> the repository
TICK = os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------- run directory

def step_line(rank, step, steps, t, uid):
    # The core's step event (`@sb` prefix removed), same keys and number shapes.
    loss = 6.94 - 2.5 * step / max(steps, 1) + (rank % 7) * 1e-4 + (step % 13) * 3.7e-4
    sms = 100.0 + (step * 7 + rank * 3) % 23 * 0.731
    return ('{"type":"step","v":1,"rank":%d,"t":%r,"run_id":"%s","step":%d,"steps":%d,"loss":%r,'
            '"lr":0.0003,"grad_norm":%r,"tokens":1024,"tokens_per_s":%r,"step_ms":%r,'
            '"forward_ms":%r,"backward_ms":%r,"optimizer_ms":3.130736,"comm_exposed_ms":%r,'
            '"mem_current":1882120,"mem_peak":14248968,"mem_reserved":1882120,"device_mem_used":189501440}\n'
            % (rank, t, uid, step, steps, loss, 0.5 + (step % 17) * 0.003, 1024000.0 / sms, sms,
               sms * 0.31, sms * 0.61, sms * 0.05))


def hello_lines(rank, world, t, uid, host):
    return ('{"type":"hello","v":1,"rank":%d,"t":%r,"run_id":"%s","host":"%s","pid":%d,"device":"cuda",'
            '"torch":"2.5.1","core_version":"0.1.0","world":%d,"local_rank":%d,"local_world":8,"threads":1,'
            '"master":"10.0.0.1:23476","env":"torchrun"}\n'
            '{"type":"plan","v":1,"rank":%d,"t":%r,"run_id":"%s","params_total":234752,"units":['
            '{"module":"","params":135296,"shard_numel":%d},{"module":"layers.0","params":49728,"shard_numel":%d},'
            '{"module":"layers.1","params":49728,"shard_numel":%d}],"world":%d,"shard_size":%d,"replicate":1,'
            '"sharded":true}\n'
            % (rank, t, uid, host, 40000 + rank, world, rank % 8, rank, t + 0.004, uid,
               135296 // world, 49728 // world, 49728 // world, world, world))


def checkpoint_line(rank, step, t, uid, world):
    return ('{"type":"checkpoint","v":1,"rank":%d,"t":%r,"run_id":"%s","step":%d,"path":"/ck/%s/step-%06d",'
            '"bytes":%d,"ms":%r,"kind":"sharded","status":"complete","world":%d}\n'
            % (rank, t, uid, step, uid, step, 2816 * 1024 // world, 180.5 + rank % 5, world))


def done_line(rank, steps, t, uid):
    return ('{"type":"done","v":1,"rank":%d,"t":%r,"run_id":"%s","status":"ok","steps":%d,'
            '"final_loss":4.44,"peak_bytes":14248968}\n' % (rank, t, uid, steps))


def log_line(t, stream, text):
    return json.dumps({"t": t, "s": stream, "l": text}, separators=(",", ":")) + "\n"


def host_of(rank):
    return "gpu%d" % (rank // 8 + 1)


def state_json(uid, status, world, steps_done, started, ended=None, ckpt_step=0):
    s = {"version": 1, "run_id": uid, "status": status, "reason": "", "failing_rank": -1, "failing_host": "",
         "attempt": 0, "max_restarts": 0, "world_size": world,
         "supervisor": {"pid": 4242, "host": "gpu1"}, "started_at": started}
    if ended is not None:
        s["ended_at"] = ended
    s["updated_at"] = ended if ended is not None else time.time()
    s["steps_done"] = steps_done
    if steps_done:
        s["final_loss"] = 4.44
    if ckpt_step:
        s["latest_checkpoint"] = {"step": ckpt_step, "path": "/ck/%s/step-%06d" % (uid, ckpt_step)}
    a = {"attempt": 0, "started_at": started + 0.008}
    if ended is not None:
        a["ended_at"] = ended
    a["status"] = status
    a["master_port"] = 23476
    s["attempts"] = [a]
    s["ranks"] = [dict({"rank": r, "host": host_of(r), "pid": 40000 + r, "running": ended is None},
                       **({"exit": "exited with code 0"} if ended is not None else {}))
                  for r in range(world)]
    return json.dumps(s, separators=(",", ":")) + "\n"


def write_state(run_dir, text):
    tmp = os.path.join(run_dir, "state.json.tmp")
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, os.path.join(run_dir, "state.json"))


def synthesize_completed(run_dir, uid, world, steps, step_s, ckpt_every=3000, log_every=600):
    """A completed run of `world` ranks x `steps` steps, no supervisor alive."""
    shutil.rmtree(run_dir, ignore_errors=True)
    adir = os.path.join(run_dir, "attempt-0")
    os.makedirs(adir)
    started = time.time() - steps * step_s - 30
    t0 = started + 3.0
    ended = t0 + steps * step_s + 1.0
    for r in range(world):
        with open(os.path.join(adir, "rank-%d.events" % r), "w") as ev, \
                open(os.path.join(adir, "rank-%d.log" % r), "w") as lg:
            ev.write(hello_lines(r, world, t0 - 1.5, uid, host_of(r)))
            lg.write(log_line(t0 - 2.0, "e", "[W socket.cpp:663] [c10d] The client socket has failed to connect "
                              "to [gpu1]:23476 (errno: 111 - Connection refused)."))
            lg.write(log_line(t0 - 1.9, "e", "UserWarning: TypedStorage is deprecated."))
            chunk = []
            for s in range(1, steps + 1):
                t = t0 + s * step_s + r * 1e-5
                chunk.append(step_line(r, s, steps, t, uid))
                if s % ckpt_every == 0:
                    chunk.append(checkpoint_line(r, s, t + 0.18, uid, world))
                if s % log_every == 0:
                    lg.write(log_line(t, "o", "step %d/%d loss %.4f" % (s, steps, 6.94 - 2.5 * s / steps)))
                if len(chunk) >= 4096:
                    ev.write("".join(chunk))
                    chunk = []
            chunk.append(done_line(r, steps, ended - 0.5, uid))
            ev.write("".join(chunk))
    with open(os.path.join(run_dir, "supervisor.log"), "w") as f:
        f.write(json.dumps({"t": started, "l": "supervisor 4242 on gpu1: run %s, %d rank(s), up to 0 restart(s)"
                            % (uid, world)}, separators=(",", ":")) + "\n")
        f.write(json.dumps({"t": started + 0.008, "l": "attempt 0: starting %d rank(s) (rendezvous 10.0.0.1:23476)"
                            % world}, separators=(",", ":")) + "\n")
        for r in range(world):
            f.write(json.dumps({"t": ended - 0.04, "l": "attempt 0: rank %d on %s exited with code 0"
                                % (r, host_of(r))}, separators=(",", ":")) + "\n")
        f.write(json.dumps({"t": ended, "l": "run completed"}, separators=(",", ":")) + "\n")
    ck = steps - steps % ckpt_every if steps >= ckpt_every else 0
    write_state(run_dir, state_json(uid, "completed", world, steps, started, ended, ck))
    open(os.path.join(run_dir, "supervisor.lock"), "w").close()  # present, not locked: the supervisor is gone
    open(os.path.join(run_dir, "supervisor.stderr"), "w").close()
    expected = {"step_metrics": world * steps, "events": world * (3 + steps // ckpt_every),
                "checkpoints": world * (steps // ckpt_every),
                "logs": (world + 3) + 2 + steps // log_every}  # supervisor.log + rank 0's log (--logs rank0)
    return expected


def dir_bytes(run_dir, world):
    files = ["supervisor.log", "attempt-0/rank-0.log"] + ["attempt-0/rank-%d.events" % r for r in range(world)]
    return sum(os.path.getsize(os.path.join(run_dir, f)) for f in files)


# ---------------------------------------------------------------- store row

def lock_held(path):
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(fd)


def make_template(args, work):
    """One tiny real detached run into a fresh database; returns (db, run id, uid)."""
    cli = os.path.join(args.bin, "shardbench-cli")
    db = os.path.join(work, "template.sqlite")
    for p in (db, db + "-wal", db + "-shm", os.path.join(work, "runs")):
        shutil.rmtree(p, ignore_errors=True) if os.path.isdir(p) else (os.path.exists(p) and os.remove(p))
    plan = os.path.join(work, "plan.json")
    subprocess.run([cli, "plan", "--preset", "transformer", "--procs-per-node", "2", "-o", plan],
                   check=True, stdout=subprocess.DEVNULL)
    with open(plan) as f:
        p = json.load(f)
    p["model"].update(dim=64, ffn_hidden=256, n_layers=2)
    p["units"] = [u for u in p["units"] if u["module"] in ("", "layers.0", "layers.1")]
    p["training"]["steps"] = 20
    with open(plan, "w") as f:
        json.dump(p, f)
    cmd = [cli, "run", plan, "--detach", "--no-follow", "--quiet", "--db", db]
    if args.core:
        cmd += ["--core", args.core]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    con = sqlite3.connect(db)
    run_id, uid, run_dir = con.execute("SELECT id, uid, run_dir FROM runs ORDER BY id DESC LIMIT 1").fetchone()
    con.close()
    deadline = time.time() + 120
    while lock_held(os.path.join(run_dir, "supervisor.lock")) or not os.path.exists(os.path.join(run_dir, "state.json")):
        if time.time() > deadline:
            sys.exit("the template run %s did not end in 120 s" % run_dir)
        time.sleep(0.2)
    return db, run_id, uid


def fresh_db(template, dest, run_id, run_dir):
    for p in (dest, dest + "-wal", dest + "-shm"):
        if os.path.exists(p):
            os.remove(p)
    src = sqlite3.connect(template)
    dst = sqlite3.connect(dest)
    src.backup(dst)
    src.close()
    (attach,) = dst.execute("SELECT attach_json FROM runs WHERE id=?", (run_id,)).fetchone()
    a = json.loads(attach)
    a["dir"] = run_dir
    dst.execute("UPDATE runs SET run_dir=?, attach_json=? WHERE id=?", (run_dir, json.dumps(a), run_id))
    for t in ("step_metrics", "events", "logs", "checkpoints", "run_attempts", "ingest_offsets"):
        dst.execute("DELETE FROM %s WHERE run_id=?" % t, (run_id,))
    dst.commit()
    dst.close()


def count_rows(db, run_id):
    con = sqlite3.connect(db)
    out = {t: con.execute("SELECT count(*) FROM %s WHERE run_id=?" % t, (run_id,)).fetchone()[0]
           for t in ("step_metrics", "events", "logs", "checkpoints")}
    out["status"] = con.execute("SELECT status FROM runs WHERE id=?", (run_id,)).fetchone()[0]
    con.close()
    return out


# ---------------------------------------------------------------- measuring

def run_rusage(cmd, stdout=subprocess.DEVNULL, count_stdout=False):
    """Runs cmd; returns (wall s, cpu s of it and its waited-for children, bytes on stdout, exit code)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE if count_stdout else stdout, stderr=subprocess.PIPE)
    n = 0
    if count_stdout:
        while True:
            b = p.stdout.read(1 << 20)
            if not b:
                break
            n += len(b)
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.stderr.write("%s: exit %d: %s\n" % (" ".join(cmd), p.returncode, err.decode(errors="replace")[-2000:]))
    return wall, ru.ru_utime + ru.ru_stime, n, p.returncode


def proc_cpu(pid):
    """utime+stime of one process (its threads, not its children), seconds; None when gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK
    except (OSError, IndexError, ValueError):
        return None


def children_of(pid):
    kids = []
    try:
        for tid in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/children" % (pid, tid)) as f:
                kids += [int(x) for x in f.read().split()]
    except OSError:
        pass
    return kids


def mode_cli(args, mode):
    """(shardbench-cli, extra attach arguments) of a client mode."""
    if mode == "old":
        return os.path.join(args.old_bin, "shardbench-cli"), []
    if mode == "new-all":
        return os.path.join(args.bin, "shardbench-cli"), ["--live-steps", "all"]
    return os.path.join(args.bin, "shardbench-cli"), []


def catch_up(args, work, template, run_id, uid):
    sup = os.path.join(args.bin, "shardbench-supervise")
    run_dir = os.path.join(work, "runs", "catchup-%dx%d" % (args.ranks, args.steps))
    t = time.monotonic()
    expected = synthesize_completed(run_dir, uid, args.ranks, args.steps, args.step_ms / 1000.0)
    print("synthesized %s in %.1f s: %.1f MB sent by `follow --logs rank0`'s files" %
          (run_dir, time.monotonic() - t, dir_bytes(run_dir, args.ranks) / 1e6), file=sys.stderr)
    wires = {}
    for wire in (1, 2):
        cmd = [sup, "follow", run_dir, "--once", "--logs", "rank0"] + (["--wire", "2"] if wire == 2 else [])
        wires[wire] = [run_rusage(cmd, count_stdout=True) for _ in range(args.repeats)]
        print("  follow --once, wire %d: %s" % (wire, ", ".join("%d bytes %.2f s CPU" % (r[2], r[1]) for r in wires[wire])),
              file=sys.stderr)
    modes = [m for m in args.modes if m != "new-all"]
    reps = {m: [] for m in modes}
    for i in range(args.repeats):
        for mode in modes:
            cli, extra = mode_cli(args, mode)
            db = os.path.join(work, "catchup-%s-%d.sqlite" % (mode, i))
            fresh_db(template, db, run_id, run_dir)
            wall, cpu, _, code = run_rusage([cli, "attach", str(run_id), "--db", db, "--no-follow", "--quiet"] + extra)
            rows = count_rows(db, run_id)
            reps[mode].append({"wall": wall, "cpu": cpu, "code": code, "rows": rows, "db_bytes": os.path.getsize(db)})
            print("  catch-up %s %d: attach %.2f s wall %.2f s CPU, exit %d, rows %s" % (mode, i + 1, wall, cpu, code, rows),
                  file=sys.stderr)
            for p in (db, db + "-wal", db + "-shm"):
                if os.path.exists(p):
                    os.remove(p)
    return expected, wires, reps, dir_bytes(run_dir, args.ranks)


def proc_wchar(pid):
    """Bytes the process wrote (write(2) and the like); None when gone."""
    try:
        with open("/proc/%d/io" % pid) as f:
            for line in f:
                if line.startswith("wchar:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return None


# ---------------------------------------------------------------- following

def writer_main(run_dir, world, step_ms, uid, ready_fd):
    """Plays the supervisor and the ranks of a live run: holds the lock, appends steps."""
    lock = os.open(os.path.join(run_dir, "supervisor.lock"), os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(lock, fcntl.LOCK_EX)
    adir = os.path.join(run_dir, "attempt-0")
    fds = [os.open(os.path.join(adir, "rank-%d.events" % r), os.O_WRONLY | os.O_APPEND) for r in range(world)]
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    os.write(ready_fd, b"ready\n")
    os.close(ready_fd)
    period = step_ms / 1000.0
    step = 0
    nxt = time.monotonic()
    started = time.time()
    while not stop:
        if not period:  # an idle run: the ranks say nothing
            time.sleep(0.1)
            continue
        step += 1
        t = time.time()
        for r, fd in enumerate(fds):
            os.write(fd, step_line(r, step, 1000000, t, uid).encode())  # one write(2) a line, like the supervisor
        nxt += period
        d = nxt - time.monotonic()
        if d > 0:
            time.sleep(d)
        else:
            nxt = time.monotonic()
    t = time.time()
    for r, fd in enumerate(fds):
        os.write(fd, done_line(r, step, t, uid).encode())
        os.close(fd)
    with open(os.path.join(run_dir, "supervisor.log"), "a") as f:
        f.write(json.dumps({"t": t, "l": "run completed"}, separators=(",", ":")) + "\n")
    write_state(run_dir, state_json(uid, "completed", world, step, started - 5, t))
    with open(os.path.join(run_dir, "steps"), "w") as f:
        f.write("%d\n" % step)
    os.close(lock)


def follow_once(args, work, template, run_id, uid, world, step_ms, rep, mode):
    cli, extra = mode_cli(args, mode)
    run_dir = os.path.join(work, "runs", "follow-%d-%d-%d" % (world, step_ms, rep))
    shutil.rmtree(run_dir, ignore_errors=True)
    adir = os.path.join(run_dir, "attempt-0")
    os.makedirs(adir)
    started = time.time()
    for r in range(world):
        with open(os.path.join(adir, "rank-%d.events" % r), "w") as f:
            f.write(hello_lines(r, world, started, uid, host_of(r)))
        with open(os.path.join(adir, "rank-%d.log" % r), "w") as f:
            f.write(log_line(started, "e", "UserWarning: TypedStorage is deprecated."))
    with open(os.path.join(run_dir, "supervisor.log"), "w") as f:
        f.write(json.dumps({"t": started, "l": "supervisor 4242 on gpu1: run %s, %d rank(s), up to 0 restart(s)"
                            % (uid, world)}, separators=(",", ":")) + "\n")
    write_state(run_dir, state_json(uid, "running", world, 0, started))
    rfd, wfd = os.pipe()
    writer = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--_writer", run_dir, str(world),
                               str(step_ms), uid, str(wfd)], pass_fds=(wfd,))
    os.close(wfd)
    with os.fdopen(rfd) as f:
        if f.readline().strip() != "ready":
            sys.exit("the writer did not start")
    db = os.path.join(work, "follow.sqlite")
    fresh_db(template, db, run_id, run_dir)
    attach = subprocess.Popen([cli, "attach", str(run_id), "--db", db, "--quiet"] + extra, stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(args.follow_warmup)
    kids = children_of(attach.pid)
    follower = kids[0] if kids else None
    pids = {"attach": attach.pid, "follower": follower, "writer": writer.pid}
    c0 = {k: proc_cpu(p) if p else None for k, p in pids.items()}
    w0 = proc_wchar(follower) if follower else None
    t0 = time.monotonic()
    time.sleep(args.follow_seconds)
    c1 = {k: proc_cpu(p) if p else None for k, p in pids.items()}
    w1 = proc_wchar(follower) if follower else None
    dt = time.monotonic() - t0
    writer.send_signal(signal.SIGTERM)
    writer.wait()
    t_end = time.monotonic()
    try:
        attach.wait(timeout=600)
    except subprocess.TimeoutExpired:
        attach.kill()
        attach.wait()
    drain = time.monotonic() - t_end
    err = attach.stderr.read().decode(errors="replace")
    with open(os.path.join(run_dir, "steps")) as f:
        steps = int(f.read())
    rows = count_rows(db, run_id)
    res = {k: (c1[k] - c0[k]) / dt if c0[k] is not None and c1[k] is not None else float("nan") for k in pids}
    res.update(drain=drain, code=attach.returncode, steps=steps, stored=rows["step_metrics"],
               link=(w1 - w0) / dt if w0 is not None and w1 is not None else float("nan"),
               expected=steps * world, follower_found=follower is not None)
    print("  follow %s %d ranks @ %d ms #%d: attach %.1f%%, follower %.1f%%, writer %.1f%% of a core, %.0f kB/s; "
          "ended %.2f s after the run, exit %d, %d/%d step rows%s" %
          (mode, world, step_ms, rep + 1, 100 * res["attach"], 100 * res["follower"], 100 * res["writer"],
           res["link"] / 1e3, drain,
           attach.returncode, rows["step_metrics"], steps * world, (": " + err.strip()[-300:]) if err.strip() else ""),
          file=sys.stderr)
    shutil.rmtree(run_dir, ignore_errors=True)
    for p in (db, db + "-wal", db + "-shm"):
        if os.path.exists(p):
            os.remove(p)
    return res


# ---------------------------------------------------------------- report

def med(xs):
    return statistics.median(xs)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--_writer":
        _, _, run_dir, world, step_ms, uid, fd = sys.argv
        return writer_main(run_dir, int(world), int(step_ms), uid, int(fd))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(REPO, "build", "bin"))
    ap.add_argument("--old-bin", default=None, help="a folder with an older shardbench-cli (mode old)")
    ap.add_argument("--modes", default="new", help="clients to compare: new, new-all, old (comma-separated)")
    ap.add_argument("--core", default=None, help="shardbench-core for the template run (default: BIN's)")
    ap.add_argument("--work", default="/tmp/shardbench-bench-attach")
    ap.add_argument("--ranks", type=int, default=16)
    ap.add_argument("--steps", type=int, default=36000)
    ap.add_argument("--step-ms", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--follow-ranks", default="64,256,1024")
    ap.add_argument("--follow-slow-ranks", default="", help="also followed at 1 s a step ('' for none)")
    ap.add_argument("--follow-idle-ranks", default="1024", help="also followed with no step at all ('' for none)")
    ap.add_argument("--follow-seconds", type=float, default=20)
    ap.add_argument("--follow-warmup", type=float, default=3)
    ap.add_argument("--follow-repeats", type=int, default=3)
    ap.add_argument("--skip-catchup", action="store_true")
    ap.add_argument("--skip-follow", action="store_true")
    args = ap.parse_args()
    args.bin = os.path.abspath(args.bin)
    args.modes = [m for m in args.modes.split(",") if m]
    if any(m not in ("new", "new-all", "old") for m in args.modes):
        sys.exit("--modes: new, new-all or old")
    if "old" in args.modes:
        if not args.old_bin or not os.path.exists(os.path.join(args.old_bin, "shardbench-cli")):
            sys.exit("mode old needs --old-bin DIR with a shardbench-cli")
        args.old_bin = os.path.abspath(args.old_bin)
    if not args.core and not os.path.exists(os.path.join(args.bin, "shardbench-core")):
        sys.exit("no shardbench-core in %s: give --core PATH" % args.bin)
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    template, run_id, uid = make_template(args, work)

    out = ["", "Machine: %d CPUs (%s), %s; medians of %d (catch-up) and %d (following) repetitions, clients in turns." %
           (os.cpu_count(), open("/proc/loadavg").read().split()[0] + " load at start",
            os.uname().release, args.repeats, args.follow_repeats), ""]
    base = args.modes[0]

    def ratio(v, b):
        return "%.2fx" % (v / b) if b else "-"

    if not args.skip_catchup:
        expected, wires, reps, raw = catch_up(args, work, template, run_id, uid)
        out += ["Catch-up: %d ranks x %d steps (%.0f min at %d ms a step), completed, `attach --no-follow --quiet`"
                % (args.ranks, args.steps, args.steps * args.step_ms / 60000, args.step_ms), "",
                "| measure | %s |" % " | ".join(reps), "|---|" + "---:|" * len(reps)]
        wb = {w: med([r[2] for r in rs]) for w, rs in wires.items()}
        wc = {w: med([r[1] for r in rs]) for w, rs in wires.items()}
        out.append("| run directory bytes the follower reads (events, supervisor.log, rank 0's log) | %s |"
                   % " | ".join("%.1f MB" % (raw / 1e6) for _ in reps))
        wire_of = {"old": 1, "new": 2}
        out.append("| bytes the follower sends (`follow --once --logs rank0`) | %s |" % " | ".join(
            "%.1f MB (%.2fx the files, wire %d)" % (wb[wire_of[m]] / 1e6, wb[wire_of[m]] / raw, wire_of[m]) for m in reps))
        out.append("| follower alone, CPU | %s |" % " | ".join("%.2f s" % wc[wire_of[m]] for m in reps))
        for key, label in (("wall", "`attach` wall time"), ("cpu", "`attach` CPU (user+sys, follower included)")):
            vals = {m: med([r[key] for r in rs]) for m, rs in reps.items()}
            out.append("| %s | %s |" % (label, " | ".join("%.2f s (%s; runs %s)" % (
                v, ratio(v, vals[base]), ", ".join("%.2f" % r[key] for r in reps[m])) for m, v in vals.items())))
        out.append("| `attach` CPU less the follower's | %s |" % " | ".join(
            "%.2f s" % (med([r["cpu"] for r in rs]) - wc[wire_of[m]]) for m, rs in reps.items()))
        ok = {m: all(r["code"] == 0 and all(r["rows"][k] == v for k, v in expected.items())
                     and r["rows"]["status"] == "completed" for r in rs) for m, rs in reps.items()}
        nrows = {m: med([sum(v for k, v in r["rows"].items() if k != "status") for r in rs]) for m, rs in reps.items()}
        out.append("| rows stored (steps + events + logs + checkpoints), as expected | %s |" % " | ".join(
            "%d, %s" % (nrows[m], "yes" if ok[m] else "NO") for m in reps))
        out.append("| ingest rate (wall) | %s |" % " | ".join(
            "%.0f rows/s" % (nrows[m] / med([r["wall"] for r in rs])) for m, rs in reps.items()))
        out.append("| database size after | %s |" % " | ".join(
            "%.1f MB" % (med([r["db_bytes"] for r in rs]) / 1e6) for rs in reps.values()))
        out.append("")
        for m in reps:
            if not ok[m]:
                out.append("Expected rows: %s; stored by %s: %s" % (expected, m, [r["rows"] for r in reps[m]]))
    if not args.skip_follow:
        configs = [(int(w), args.step_ms) for w in args.follow_ranks.split(",") if w]
        configs += [(int(w), 1000) for w in args.follow_slow_ranks.split(",") if w]
        configs += [(int(w), 0) for w in args.follow_idle_ranks.split(",") if w]
        out += ["Following a live run for %.0f s (after %.0f s of warm-up), CPU per wall second (100%% = one core):"
                % (args.follow_seconds, args.follow_warmup), "",
                "| ranks | step every | lines/s | client | `attach` (CLI) | follower | CLI + follower | follower writes | "
                "writer (noise) | CLI ends after the run | step rows stored |",
                "|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---|"]
        for world, step_ms in configs:
            rs = {m: [] for m in args.modes}
            for i in range(args.follow_repeats):
                for m in args.modes:
                    rs[m].append(follow_once(args, work, template, run_id, uid, world, step_ms, i, m))
            a0 = med([r["attach"] for r in rs[base]])
            for m in args.modes:
                a, f, w = med([r["attach"] for r in rs[m]]), med([r["follower"] for r in rs[m]]), med([r["writer"] for r in rs[m]])
                out.append("| %d | %s | %.0f | %s | %.1f%% (%s) | %.1f%% | %.1f%% | %.0f kB/s | %.1f%% | %.2f s | %s |" % (
                    world, "%d ms" % step_ms if step_ms else "idle", world * 1000.0 / step_ms if step_ms else 0, m,
                    100 * a, ratio(a, a0) if m != base else "runs " + ", ".join("%.1f" % (100 * r["attach"]) for r in rs[m]),
                    100 * f, 100 * (a + f), med([r["link"] for r in rs[m]]) / 1e3, 100 * w,
                    med([r["drain"] for r in rs[m]]),
                    "all" if all(r["stored"] == r["expected"] and r["code"] == 0 for r in rs[m])
                    else "; ".join("%d/%d exit %d" % (r["stored"], r["expected"], r["code"]) for r in rs[m])))
        out.append("")
    print("\n".join(out))


if __name__ == "__main__":
    main()
