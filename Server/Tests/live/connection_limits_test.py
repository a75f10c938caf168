#!/usr/bin/env python3
"""city-server's connection limits, on a live server over raw sockets: a request head trickled
one byte at a time is cut off at --idle-timeout, a silent connection too, a head over 32 KB is
refused, and a well-behaved keep-alive connection is served request after request.

Usage: connection_limits_test.py SERVER_BINARY INDEX
"""
import os, re, socket, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from server_process import ServerProcess  # noqa: E402

server_binary, index = sys.argv[1:3]
TIMEOUT = 2
server = ServerProcess(server_binary, index, "--idle-timeout", str(TIMEOUT))
port = server.port

def connect():
    return socket.create_connection(("127.0.0.1", port), timeout=10)


def closed_within(sock, seconds):
    """Whether the server closes `sock` within `seconds` (reading whatever it sends first)."""
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
        return True
    except (socket.timeout, TimeoutError):
        return False
    except ConnectionResetError:
        return True


try:
    # Keep-alive: three requests on one connection, each answered.
    with connect() as sock:
        for _ in range(3):
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: test\r\n\r\n")
            response = b""
            while b"\r\n\r\n" not in response:
                response += sock.recv(4096)
            head, _, body = response.partition(b"\r\n\r\n")
            length = int(re.search(rb"(?i)content-length: (\d+)", head).group(1))
            while len(body) < length:
                body += sock.recv(4096)
            assert head.startswith(b"HTTP/1.1 200"), head

    # A head trickled a byte every 0.5 s (each byte resets an idle timer): cut off at the deadline.
    with connect() as sock:
        started = time.time()
        request = b"GET /health HTTP/1.1\r\nHost: test\r\nX-Slow: " + b"a" * 100
        cut = False
        for byte in request:
            try:
                sock.sendall(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                cut = True
                break
            sock.settimeout(0.5)
            try:
                if sock.recv(4096) == b"":
                    cut = True
                    break
            except (socket.timeout, TimeoutError):
                pass
            except ConnectionResetError:
                cut = True
                break
            if time.time() - started > TIMEOUT + 5:
                break
        elapsed = time.time() - started
        assert cut, f"a trickled head held the connection for {elapsed:.1f} s"
        assert elapsed < TIMEOUT + 2, f"a trickled head was cut off after {elapsed:.1f} s, not about {TIMEOUT} s"

    # A silent connection: closed after the timeout.
    with connect() as sock:
        started = time.time()
        assert closed_within(sock, TIMEOUT + 3), "a silent connection stayed open"
        assert time.time() - started >= TIMEOUT - 0.5

    # A head of 40 KB (over the 32 KB limit): refused, the connection closed.
    with connect() as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: test\r\nX-Big: " + b"a" * 40_000 + b"\r\n\r\n")
        sock.settimeout(5)
        data = b""
        try:
            while chunk := sock.recv(4096):
                data += chunk
        except ConnectionResetError:
            pass
        # Refused by the HTTP parser (431, or 400 from its decoder) and closed, or closed at once.
        assert data == b"" or data.startswith((b"HTTP/1.1 431", b"HTTP/1.1 400")), data[:80]

    # Still serving after all of the above.
    with connect() as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        sock.settimeout(5)
        assert sock.recv(4096).startswith(b"HTTP/1.1 200")
    print("connection limits: passed")
finally:
    server.stop()
