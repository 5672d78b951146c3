"""One Python for a test process: it imports PyTorch (FSDP2, DCP) and
transformers once, then forks a child for each script the suite runs, so a
rank of the exported script or a transformers oracle pays for no import
(about 4 s of CPU each for the CUDA build of torch, 8 s with transformers).
A child is the script run as `python SCRIPT ARGS...` would run it, with its
standard output and error in files; nothing of PyTorch is replaced.

usage: python_zygote.py MODULE...   (the modules to import first)

Requests on standard input, one JSON object a line:
  {"id": N, "argv": [SCRIPT, ARG...], "env": {NAME: VALUE}, "cwd": DIR,
   "stdout": FILE, "stderr": FILE}
  {"kill": PID}
Replies on standard output, one JSON object a line:
  {"ready": true, "threads": T} once the modules are imported (T: threads of
    this process, which must be 1 for a fork to be safe), or
  {"ready": false, "error": TEXT};
  {"id": N, "pid": P} when a child started; {"id": N, "exit": CODE} when it
    ended (a negative code: killed by that signal).
Standard input closing ends the zygote and kills its children.
"""
import ctypes
import importlib
import json
import os
import runpy
import select
import signal
import sys
import traceback

PR_SET_PDEATHSIG = 1


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def run_child(req):
    """In the forked child: becomes `python SCRIPT ARGS...`; never returns."""
    code = 1
    try:
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        os.environ.update(req.get("env", {}))
        if req.get("cwd"):
            os.chdir(req["cwd"])
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        for fd, key in ((1, "stdout"), (2, "stderr")):
            f = os.open(req[key], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(f, fd)
            os.close(f)
        threads = os.environ.get("OMP_NUM_THREADS")
        if threads and "torch" in sys.modules:
            sys.modules["torch"].set_num_threads(int(threads))
        sys.argv = list(req["argv"])
        sys.path[0] = os.path.dirname(os.path.abspath(sys.argv[0]))
        code = 0
        runpy.run_path(sys.argv[0], run_name="__main__")
    except SystemExit as e:
        if e.code is None:
            code = 0
        elif isinstance(e.code, int):
            code = e.code
        else:
            print(e.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:
                pass
        os._exit(code)


def main():
    try:
        for name in sys.argv[1:]:
            importlib.import_module(name)
    except BaseException as e:
        reply({"ready": False, "error": "%s: %s" % (type(e).__name__, e)})
        return 1
    reply({"ready": True, "threads": len(os.listdir("/proc/self/task"))})
    children = {}  # pid -> request id
    pending = b""
    while True:
        readable, _, _ = select.select([0], [], [], 0.05)
        if readable:
            data = os.read(0, 65536)
            if not data:
                break
            pending += data
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                req = json.loads(line)
                if "kill" in req:
                    if req["kill"] in children:
                        os.kill(req["kill"], signal.SIGKILL)
                    continue
                sys.stdout.flush()
                pid = os.fork()
                if pid == 0:
                    run_child(req)
                children[pid] = req["id"]
                reply({"id": req["id"], "pid": pid})
        while children:
            pid, status = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                break
            reply({"id": children.pop(pid), "exit": os.waitstatus_to_exitcode(status)})
    for pid in children:
        os.kill(pid, signal.SIGKILL)
    return 0


if __name__ == "__main__":
    sys.exit(main())
