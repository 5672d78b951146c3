#!/usr/bin/env python3
"""A TCP forwarder for the launcher suites: tcp_forwarder.py LISTEN_ADDR
TARGET_ADDR TARGET_PORT [DELAY_MS] listens on a free port of LISTEN_ADDR,
prints that port on stdout and relays every connection to the target, each
piece DELAY_MS later in either direction (a network's latency). SIGSTOP
freezes every relayed connection without closing it (the kernel still
acknowledges what is sent): a path that silently stops carrying data."""
import socket
import sys
import threading
import time

DELAY_S = 0.0


def pump(src, dst):
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            if DELAY_S:
                time.sleep(DELAY_S)
            dst.sendall(data)
    except OSError:
        pass
    finally:
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def main():
    global DELAY_S
    listen_addr, target_addr, target_port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    DELAY_S = int(sys.argv[4]) / 1000.0 if len(sys.argv) > 4 else 0.0
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind((listen_addr, 0))
    server.listen(128)
    print(server.getsockname()[1], flush=True)
    while True:
        client, _ = server.accept()
        upstream = socket.create_connection((target_addr, target_port))
        for a, b in ((client, upstream), (upstream, client)):
            threading.Thread(target=pump, args=(a, b), daemon=True).start()


if __name__ == "__main__":
    main()
