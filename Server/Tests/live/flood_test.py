#!/usr/bin/env python3
"""city-server under a flood of the costliest searches a client can send, on a live server:
while ATTACKERS connections send them back to back for SECONDS, /health answers within
50 ms at the 99th percentile and ordinary searches are still answered (at least 90% with
200, each within 2 s). Prints the figures. Bounded: the flood stops after SECONDS.

Usage: flood_test.py SERVER_BINARY INDEX [SECONDS] [ATTACKERS]
"""
import http.client, os, sys, threading, time, urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from server_process import ServerProcess  # noqa: E402

server_binary, index = sys.argv[1:3]
SECONDS = float(sys.argv[3]) if len(sys.argv) > 3 else 10
ATTACKERS = int(sys.argv[4]) if len(sys.argv) > 4 else 8

# The costliest requests found: the (refused now), many words with three typos, a
# short query with three typos in a wide radius or past the first thousand, a long query.
COSTLY = [
    {"q": "aaa", "typos": "3", "near": "35.7,139.7", "within": "20037509", "limit": "100", "offset": "1000"},
    {"q": "aa", "typos": "3", "match": "words", "rank": "alphabetical", "offset": "1000"},
    {"q": " ".join(["sant"] * 20), "typos": "3"},
    {"q": "san sant", "typos": "3", "near": "35.7,139.7", "within": "5000000", "limit": "100", "offset": "1000"},
    {"q": "sanlake", "typos": "3", "limit": "100", "offset": "1000"},
    {"q": "a" * 256, "typos": "3", "rank": "alphabetical"},
    {"q": "", "near": "35.7,139.7", "within": "5000000", "limit": "100", "offset": "1000"},
]
ORDINARY = ["pheonix", "paris", "wien", "sna fran", "london canada", "new york", "münchen", "tokyo"]


def path(params):
    return "/api/search?" + urllib.parse.urlencode(params)


server = ServerProcess(server_binary, index)
stop = time.monotonic() + SECONDS
statuses = {}
health, ordinary, lock = [], [], threading.Lock()


def attack(number):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    sent = 0
    while time.monotonic() < stop:
        try:
            connection.request("GET", path(COSTLY[(number + sent) % len(COSTLY)]))
            response = connection.getresponse()
            response.read()
            with lock:
                statuses[response.status] = statuses.get(response.status, 0) + 1
        except (OSError, http.client.HTTPException):
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        sent += 1
    connection.close()


def timed(connection, request_path):
    started = time.monotonic()
    connection.request("GET", request_path)
    response = connection.getresponse()
    response.read()
    return response.status, time.monotonic() - started


def probe_health():
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    while time.monotonic() < stop:
        health.append(timed(connection, "/health"))
        time.sleep(0.02)
    connection.close()


def search_ordinary():
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    count = 0
    while time.monotonic() < stop:
        ordinary.append(timed(connection, path({"q": ORDINARY[count % len(ORDINARY)]})))
        count += 1
        time.sleep(0.1)
    connection.close()


try:
    threads = [threading.Thread(target=attack, args=(n,)) for n in range(ATTACKERS)]
    threads += [threading.Thread(target=probe_health), threading.Thread(target=search_ordinary)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(SECONDS + 60)
    latencies = sorted(seconds for _, seconds in health)
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
    answered = sum(1 for status, seconds in ordinary if status == 200 and seconds < 2)
    slowest = max(seconds for _, seconds in ordinary) * 1000
    print(f"flood: {ATTACKERS} connections of costly searches for {SECONDS:.0f} s, answered {statuses}")
    print(f"flood: /health {len(health)} probes, p50 {latencies[len(latencies) // 2] * 1000:.1f} ms, p99 {p99:.1f} ms, "
          f"max {latencies[-1] * 1000:.1f} ms")
    print(f"flood: ordinary searches {answered} of {len(ordinary)} answered 200 within 2 s (slowest {slowest:.0f} ms)")
    failures = []
    if any(status != 200 for status, _ in health):
        failures.append("a /health probe did not answer 200")
    if p99 > 50:
        failures.append(f"/health p99 {p99:.1f} ms is over 50 ms")
    if answered < 0.9 * len(ordinary):
        failures.append(f"only {answered} of {len(ordinary)} ordinary searches answered")
    if failures:
        raise SystemExit("flood: FAILED: " + "; ".join(failures))
    print("flood: passed")
finally:
    server.stop()
