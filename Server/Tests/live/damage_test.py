#!/usr/bin/env python3
"""city-server when its index file is damaged in place, on a live server: the file served is
truncated where it lies (as `truncate` does); from then on no search answers 200 with what the
damaged mapping holds, /health says 503 "unavailable" within 5 s, and once a valid index is
renamed over the path it is served again within 10 s. Bounded: about 20 s in all.

Usage: damage_test.py SERVER_BINARY INDEX
"""
import json, os, shutil, sys, tempfile, time, urllib.error, urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from server_process import ServerProcess  # noqa: E402

server_binary, index = sys.argv[1:3]
folder = tempfile.mkdtemp(prefix="city-server-damage-")
served = os.path.join(folder, "cities.cidx")
shutil.copyfile(index, served)
server = ServerProcess(server_binary, served, "--check-interval", "0.5")


def get(path):
    try:
        with urllib.request.urlopen(server.base.rstrip("/") + path, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


try:
    status, body = get("/api/search?q=paris")
    assert status == 200 and body["results"][0]["name"] == "Paris", (status, body)
    os.truncate(served, os.path.getsize(served) // 2)
    wrong = 0
    deadline = time.monotonic() + 5
    while True:
        status, body = get("/api/search?q=paris")
        if status == 200 and (not body["results"] or body["results"][0]["name"] != "Paris"):
            wrong += 1
        health, report = get("/health")
        if health == 503 and report["status"] == "unavailable":
            break
        assert time.monotonic() < deadline, f"/health still says {health} {report.get('status')} 5 s after the truncation"
        time.sleep(0.1)
    status, body = get("/api/search?q=paris")
    assert status == 503, (status, body)
    assert wrong == 0, f"{wrong} answers with status 200 came from the truncated file"
    print(f"damage: truncated in place; /health 503 and searches 503; no wrong 200")
    shutil.copyfile(index, served + ".new")
    os.rename(served + ".new", served)
    deadline = time.monotonic() + 10
    while get("/health")[0] != 200:
        assert time.monotonic() < deadline, "a valid index renamed over the damaged one was not served within 10 s"
        time.sleep(0.2)
    status, body = get("/api/search?q=paris")
    assert status == 200 and body["results"][0]["name"] == "Paris", (status, body)
    print("damage: a valid index renamed over it is served again; passed")
finally:
    server.stop()
    shutil.rmtree(folder, ignore_errors=True)
