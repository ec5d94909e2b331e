#!/usr/bin/env python3
"""Median (and min/max) of the per-iteration scores of every case in a JMH text output (bench/throttle-jmh)."""
import re
import statistics
import sys

case = None
scores = {}
order = []
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    m = re.match(r"# Benchmark: \S+\.(\w+)$", line)
    if m:
        bench = m.group(1)
    m = re.match(r"# Parameters: \((.*)\)$", line)
    if m:
        params = dict(kv.split(" = ") for kv in m.group(1).split(", "))
        case = (bench, int(params["apps"]), params["state"])
        if case not in scores:
            scores[case] = []
            order.append(case)
    m = re.match(r"Iteration\s+\d+: ([\d.]+) (\S+)$", line)
    if m and case:
        scores[case].append((float(m.group(1)), m.group(2)))
print("| benchmark | apps | state | median | min | max | unit | samples |")
print("|---|---:|---|---:|---:|---:|---|---:|")
for c in sorted(order, key=lambda c: (c[0], c[1], c[2] != "NORMAL")):
    v = [s for s, _ in scores[c]]
    unit = scores[c][0][1] if scores[c] else "?"
    print(f"| {c[0]} | {c[1]:,} | {c[2]} | {statistics.median(v):,.0f} | {min(v):,.0f} | {max(v):,.0f} | {unit} | {len(v)} |")
