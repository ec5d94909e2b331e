#!/usr/bin/env python3
"""Prints an ESS throttle gate's state and a few of its metrics, from the ESS host's endpoint
(GET /gate: the gate's JSON snapshot, GET /metrics: Prometheus text).

  gate_report.py [--gate http://127.0.0.1:19095]

Exit status 0 when the gate answered, 1 when it did not (the message says why)."""
import argparse
import json
import re
import sys
import urllib.request

p = argparse.ArgumentParser()
p.add_argument("--gate", default="http://127.0.0.1:19095")
p.add_argument("--timeout", type=float, default=5.0)
a = p.parse_args()
base = a.gate.rstrip("/")


def fetch(path):
    with urllib.request.urlopen(base + path, timeout=a.timeout) as r:
        return r.read().decode("utf-8")


try:
    snap = json.loads(fetch("/gate"))
    metrics = fetch("/metrics")
except Exception as e:  # noqa: BLE001 - any failure is reported the same way
    print(f"  ESS throttle gate at {base}: not answering ({e})")
    sys.exit(1)

series = re.compile(r'^(sluice_[a-z0-9_]+)(?:\{([^}]*)\})? ([-0-9.eE+]+|NaN)$')


def total(name, **labels):
    s = 0.0
    for line in metrics.splitlines():
        m = series.match(line)
        if not m or m.group(1) != name:
            continue
        have = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2) or ""))
        if all(have.get(k) == v for k, v in labels.items()):
            try:
                s += float(m.group(3))
            except ValueError:
                pass
    return s


enforced = "true" if snap.get("mode") == "ENFORCE" else "false"
decisions = {d: int(total("sluice_throttle_decisions_total", decision=d, enforced=enforced))
             for d in ("ADMIT", "HOLD", "SLEEP")}
held_s = total("sluice_throttle_hold_time_seconds_sum")
held_n = int(total("sluice_throttle_hold_time_seconds_count"))
requests = int(total("sluice_throttle_request_latency_seconds_count"))
print(f"  ESS throttle gate at {base}: mode {snap.get('mode')}, node {snap.get('state')} "
      f"(recent p50 {snap.get('p50Millis')} ms, p99 {snap.get('p99Millis')} ms over {snap.get('samples')} samples), "
      f"{snap.get('held')} requests held now")
label = "decisions" if enforced == "true" else "decisions it would have made (monitor-only)"
print(f"  {label}: " + ", ".join(f"{k} {v}" for k, v in decisions.items())
      + f"; fetch requests served {requests}; holds released {held_n} ({held_s:.1f} s held in all); "
      f"node state changes {int(total('sluice_throttle_state_changes_total'))}; "
      f"fail-open {int(total('sluice_throttle_failopen_total'))}")
for app in snap.get("apps") or []:
    print(f"    {app.get('appId')}: priority {app.get('priority')}"
          + (f" (queue {app['queue']})" if app.get("queue") else "")
          + f", {app.get('outstandingRequests')} requests in flight, held {app.get('heldTotal')} times, "
          f"{app.get('directives')} SLEEP directives" + (", shim" if app.get("shim") else ""))
