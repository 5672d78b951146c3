#!/usr/bin/env python3
"""An ssh ProxyCommand for the launcher suites: flaky_proxy.py GATE HOST PORT
refuses the connection (exit 1, as a bastion over its MaxStartups or a host
still booting would) until the file GATE exists, then relays stdin and
stdout to HOST:PORT."""
import os
import socket
import sys
import threading

if not os.path.exists(sys.argv[1]):
    sys.stderr.write("kex_exchange_identification: Connection reset by peer\n")
    sys.exit(1)
s = socket.create_connection((sys.argv[2], int(sys.argv[3])))


def up():
    while True:
        d = os.read(0, 65536)
        if not d:
            s.shutdown(socket.SHUT_WR)
            return
        s.sendall(d)


threading.Thread(target=up, daemon=True).start()
while True:
    d = s.recv(65536)
    if not d:
        break
    os.write(1, d)
