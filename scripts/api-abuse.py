#!/usr/bin/env python3
"""What `idkit serve` must survive (issue 15, `make check-api`): raw garbage instead of HTTP, slow
clients that send one byte a second, and 10,000 connections opened and dropped. After each, the
server must still answer /healthz within a second. Standard library only.

    python3 scripts/api-abuse.py HOST PORT
"""
import random
import socket
import sys
import threading
import time
import urllib.request

host, port = sys.argv[1], int(sys.argv[2])
rng = random.Random(9303)


def healthy(what):
    t0 = time.time()
    with urllib.request.urlopen(f"http://{host}:{port}/healthz", timeout=2) as r:
        assert r.status == 200, f"after {what}: /healthz answered {r.status}"
    print(f"api-abuse: {what}: /healthz answered in {1000 * (time.time() - t0):.1f} ms")


def garbage(n=500):
    """Random bytes, truncated request lines, absurd headers: each connection gets an answer or is closed."""
    answered = closed = 0
    samples = [b"GET / HTTP/1.1\r\n\r\n"[:k] for k in range(1, 18)] + [
        b"POST /v1/mrz HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
        b"POST /v1/mrz HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\nx",
        b"POST /v1/mrz HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\n",
        b"GET /" + b"a" * 100000 + b" HTTP/1.1\r\n\r\n",
        b"GET / HTTP/1.1\r\n" + b"X: " + b"y" * 100000 + b"\r\n\r\n",
    ]
    for i in range(n):
        data = samples[i] if i < len(samples) else bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
        s = socket.create_connection((host, port), timeout=3)
        try:
            s.sendall(data)
            s.shutdown(socket.SHUT_WR)
            reply = s.recv(200)
            answered += bool(reply)
            closed += not reply
        except OSError:
            closed += 1
        finally:
            s.close()
    print(f"api-abuse: {n} garbage requests: {answered} answered, {closed} closed")
    healthy("garbage")


def slow_clients(n=20, seconds=8):
    """n clients sending a request one byte a second; the server keeps answering others meanwhile
    and drops them at its --timeout-s."""
    request = b"POST /v1/mrz HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 200\r\n\r\n"
    def trickle():
        try:
            s = socket.create_connection((host, port), timeout=seconds + 5)
            for b in request[:seconds]:
                s.send(bytes([b]))
                time.sleep(1)
            s.close()
        except OSError:
            pass
    threads = [threading.Thread(target=trickle) for _ in range(n)]
    for t in threads:
        t.start()
    time.sleep(2)
    healthy(f"{n} slow clients connected")
    for t in threads:
        t.join()


def open_and_drop(n=10000):
    t0 = time.time()
    for _ in range(n):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        s.connect((host, port))
        s.close()
    print(f"api-abuse: {n} connections opened and dropped in {time.time() - t0:.1f} s")
    healthy("connections dropped")


garbage()
slow_clients()
open_and_drop()
