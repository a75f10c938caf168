#!/usr/bin/env python3
"""city-server's --host and --check-interval on a live server:

- `--host 127.0.0.2`: the server answers there, and a connection to 127.0.0.1 on its port is
  refused (it listens on the address given, not on every one);
- `--check-interval 0.2`: a file renamed over the served one is checked (a file that is no
  index: refused, counted in /metrics) within 3 s; `--check-interval 30`: 3 s after such a
  rename it has not been checked yet;
- `--check-interval 0`: a usage error (status 64) that says what is allowed.

Usage: options_test.py SERVER_BINARY INDEX
"""
import json, os, shutil, socket, subprocess, sys, tempfile, time, urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from server_process import ServerProcess  # noqa: E402

server_binary, index = sys.argv[1:3]


def health(server):
    with urllib.request.urlopen(server.base + "health", timeout=10) as response:
        return json.loads(response.read())


def refusals(server):
    """How many replaced files the server has checked and refused (its /metrics counter)."""
    with urllib.request.urlopen(server.base + "metrics", timeout=10) as response:
        for line in response.read().decode().splitlines():
            if line.startswith('city_server_index_replacements_total{outcome="refused"} '):
                return int(float(line.split()[-1]))
    return 0


server = ServerProcess(server_binary, index, "--host", "127.0.0.2")
try:
    assert server.host == "127.0.0.2", server.host
    assert health(server)["status"] == "ok"
    try:
        socket.create_connection(("127.0.0.1", server.port), timeout=5).close()
        raise AssertionError("--host 127.0.0.2 also accepted a connection on 127.0.0.1")
    except ConnectionRefusedError:
        pass
    print("options: --host 127.0.0.2 answers there and not on 127.0.0.1")
finally:
    server.stop()

folder = tempfile.mkdtemp(prefix="city-server-options-")
try:
    for interval, swapped_within in [("0.2", 3.0), ("30", None)]:
        served = os.path.join(folder, f"cities-{interval}.cidx")
        shutil.copyfile(index, served)
        server = ServerProcess(server_binary, served, "--check-interval", interval)
        try:
            assert refusals(server) == 0
            # A file that is no index: its check is over at once (its header), so the time to
            # the refusal is the time to the check.
            with open(served + ".new", "wb") as file:
                file.write(b"not an index" * 100)
            os.rename(served + ".new", served)
            renamed = time.monotonic()
            if swapped_within is not None:
                while refusals(server) == 0:
                    assert time.monotonic() - renamed < swapped_within, \
                        f"--check-interval {interval}: the renamed file was not checked within {swapped_within} s"
                    time.sleep(0.05)
                print(f"options: --check-interval {interval}: checked (and refused) after {time.monotonic() - renamed:.1f} s")
            else:
                time.sleep(3)
                assert refusals(server) == 0, f"--check-interval {interval}: checked within 3 s"
                print(f"options: --check-interval {interval}: not checked 3 s after the rename")
        finally:
            server.stop()
finally:
    shutil.rmtree(folder, ignore_errors=True)

refused = subprocess.run([server_binary, "--index", index, "--check-interval", "0"], capture_output=True, text=True, timeout=60)
assert refused.returncode == 64, refused
assert "--check-interval must be more than 0 and at most 86400 seconds" in refused.stderr, refused.stderr
print("options: passed")
