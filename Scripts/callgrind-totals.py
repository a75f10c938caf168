#!/usr/bin/env python3
"""Prints the event totals of a callgrind output file, divided by a count, as one JSON object.

Usage: Scripts/callgrind-totals.py FILE [DIVISOR]
  FILE: what valgrind --tool=callgrind wrote (--callgrind-out-file); DIVISOR (default 1): how
  many calls the totals cover, to give per-call figures. The keys are callgrind's event names
  (Ir: instructions; with --cache-sim=yes also ILmr, DLmr, DLmw: last-level misses for code,
  data reads, data writes). Used by Scripts/compare-readers.sh and Scripts/simulate-caches.sh.
"""
import json
import sys

path = sys.argv[1]
divisor = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
events = totals = None
with open(path) as lines:
    for line in lines:
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("totals:") or line.startswith("summary:"):
            totals = [int(value) for value in line.split()[1:]]
if events is None or totals is None:
    sys.exit(f"{path}: no event totals (did callgrind finish?)")
print(json.dumps({event: total / divisor for event, total in zip(events, totals)}))
