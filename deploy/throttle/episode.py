#!/usr/bin/env python3
"""One ESS throttling episode on a throwaway local Spark cluster, for the stack's demo.

A Master, one Worker and the patched External Shuffle Service (the gate in ENFORCE) whose test
mode emulates one slow shared disk (test.ioDelayMs per read, test.ioModel=SHARED_DISK: every
server thread queues at one device). Two deploy/jobs/tiny_blocks.py apps: a heavy one (priority 1)
and, once the heavy one is fetching, a light one (priority 4); the priorities come from a small
priority map served here in tuner-service's JSON. Prints what the gate did (its state changes,
episodes, requests held per app) and the two apps' shuffle times, then stops the cluster.

  episode.py --root DIR --ess-jar JAR --state-dir DIR [--version 3.5.7] [--io-delay-ms 20]
             [--kafka-bootstrap HOST:PORT --cluster NAME --node NAME]

With --kafka-bootstrap the gate publishes its events to sluice.throttle-events there, as NODE of CLUSTER.

Exit status 0 when both apps succeeded, 1 otherwise (the message says why).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

p = argparse.ArgumentParser()
p.add_argument("--root", required=True)
p.add_argument("--ess-jar", required=True)
p.add_argument("--state-dir", required=True)
p.add_argument("--version", default="3.5.7")
p.add_argument("--io-delay-ms", type=int, default=20)
p.add_argument("--heavy", default="100000,40,80", help="rows,maps,partitions of the heavy app")
p.add_argument("--light", default="10000,12,40", help="rows,maps,partitions of the light app")
p.add_argument("--kafka-bootstrap", default="", help="publish the gate's events to this Kafka")
p.add_argument("--cluster", default="default", help="cluster name in the gate's events")
p.add_argument("--node", default="episode-ess", help="node name in the gate's events")
a = p.parse_args()

PRIO = {"heavy": 1, "light": 4}
known = {}  # app id -> priority, learned from the Master


class Priorities(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 - the http.server name
        if not self.path.startswith("/api/v1/throttle/priorities"):
            self.send_error(404)
            return
        body = json.dumps({"defaultPriority": 2, "apps": [
            {"appId": i, "priority": pr, "queue": "demo", "shim": False} for i, pr in list(known.items())]})
        out = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *args):
        pass


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url, timeout=3):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read().decode("utf-8")


def metric_sum(metrics, name, **labels):
    total = 0.0
    for line in metrics.splitlines():
        m = re.match(r'^([a-z0-9_]+)(?:\{([^}]*)\})? ([-0-9.eE+]+)$', line)
        if not m or m.group(1) != name:
            continue
        got = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2) or ""))
        if all(got.get(k) == v for k, v in labels.items()):
            total += float(m.group(3))
    return total


state = os.path.abspath(a.state_dir)
os.makedirs(os.path.join(state, "events"), exist_ok=True)
server = ThreadingHTTPServer(("127.0.0.1", 0), Priorities)
threading.Thread(target=server.serve_forever, daemon=True).start()
gate_port = free_port()
gate = f"http://127.0.0.1:{gate_port}"
cluster = os.path.join(a.root, "deploy/bin/spark-cluster.sh")
opts = " ".join([
    "-Dsluice.throttle.mode=ENFORCE",
    f"-Dsluice.throttle.test.ioDelayMs={a.io_delay_ms}", "-Dsluice.throttle.test.ioModel=SHARED_DISK",
    # one device for every server thread: a paced read on any thread delays the light app's reads
    "-Dsluice.throttle.pace.scope=NODE",
    f"-Dsluice.throttle.priority.url=http://127.0.0.1:{server.server_address[1]}",
    "-Dsluice.throttle.priority.refreshMs=500", f"-Dsluice.throttle.ess.http.port={gate_port}",
    # a one-minute demo: the window and the budget's target scaled down from their defaults
    "-Dsluice.throttle.window.ms=5000", "-Dsluice.throttle.window.minSamples=5",
    "-Dsluice.throttle.budget.targetMs=150", "-Dsluice.throttle.budget.minBlocks=20",
    # a demo engages early: a request that waits 10 healthy reads (not 30) counts as distress
    "-Dsluice.throttle.queue.factor=10", "-Dsluice.throttle.abnormal.p99Ms=600", "-Dsluice.throttle.normal.p99Ms=250",
    # one emulated disk: at most one paced chunk read ahead of the light app's at that disk
    "-Dsluice.throttle.pace.inFlight=1",
    "-Dsluice.throttle.pace.lingerMs=120000",
    "-Dspark.shuffle.io.serverThreads=2"]
    + ([f"-Dsluice.throttle.ess.kafka.bootstrap={a.kafka_bootstrap}", f"-Dsluice.throttle.ess.cluster={a.cluster}",
        f"-Dsluice.throttle.ess.node={a.node}"] if a.kafka_bootstrap else []))
spark_dir = os.path.join(state, "spark")
start = subprocess.run([cluster, "start", "--version", a.version, "--workers", "1", "--worker-cores", "11",
                        "--worker-memory", "3g", "--ess-class", "io.sluice.throttle.ess.SluiceShuffleServiceMain",
                        "--ess-classpath", a.ess_jar, "--ess-opts", opts, "--state-dir", spark_dir,
                        "--timeout", "150"], capture_output=True, text=True)
if start.returncode != 0:
    print(f"  throttle episode: the cluster did not start ({spark_dir}/logs): {start.stderr.strip()[-300:]}")
    sys.exit(1)
env = dict(re.findall(r'^(\w+)=(.*)$', open(os.path.join(spark_dir, "cluster.env")).read(), re.M))
procs = {}
rc = 1
try:
    for name, spec, execs, cores in (("heavy", a.heavy, 3, 3), ("light", a.light, 2, 1)):
        rows, maps, parts = spec.split(",")
        log = open(os.path.join(state, name + ".log"), "w")
        procs[name] = subprocess.Popen([
            os.path.join(a.root, "deploy/jobs/submit.sh"), "--version", a.version, "--state-dir", spark_dir,
            "--event-log-dir", os.path.join(state, "events"),
            "--conf", "spark.sql.adaptive.enabled=false", "--conf", f"spark.sql.shuffle.partitions={parts}",
            "--conf", f"spark.executor.cores={cores}", "--conf", f"spark.cores.max={execs * cores}",
            "--conf", "spark.executor.memory=512m",
            "tiny_blocks", "--app-name", name, "--rows", rows, "--maps", maps, "--executors", str(execs),
            "--wait-for", os.path.join(state, name + ".go")], stdout=log, stderr=subprocess.STDOUT)

    def ready(name):
        return "tiny_blocks: ready" in open(os.path.join(state, name + ".log")).read()

    deadline = time.time() + 300
    while not (ready("heavy") and ready("light") and len(known) == 2):
        if time.time() > deadline or any(pr.poll() is not None for pr in procs.values()):
            raise RuntimeError("the two apps did not start (logs in " + state + ")")
        try:
            for app in json.loads(get(env["SPARK_MASTER_WEBUI_URL"] + "/json/")).get("activeapps", []):
                if app.get("name") in PRIO:
                    known[app["id"]] = PRIO[app["name"]]
        except Exception:  # noqa: BLE001 - the Master may be busy; poll again
            pass
        time.sleep(0.3)
    time.sleep(1.5)  # two refreshes of the gate's priority map
    open(os.path.join(state, "heavy.go"), "w").close()
    deadline = time.time() + 300  # its map stage first (about a minute on a busy machine)
    while metric_sum(get(gate + "/metrics"), "sluice_throttle_decisions_total") < 8:
        if procs["heavy"].poll() is not None:
            raise RuntimeError("the heavy app ended before fetching (log: " + state + "/heavy.log)")
        if time.time() > deadline:
            raise RuntimeError("the heavy app did not start fetching within 300 s (log: " + state + "/heavy.log)")
        time.sleep(0.1)
    open(os.path.join(state, "light.go"), "w").close()
    t0 = time.time()
    changes, last = [], None
    while any(pr.poll() is None for pr in procs.values()):
        try:
            s = json.loads(get(gate + "/gate"))["state"]
        except Exception:  # noqa: BLE001 - keep waiting for the apps
            s = last
        if s != last and s is not None:
            running = "heavy running" if procs["heavy"].poll() is None else "heavy done"
            changes.append(f"{time.time() - t0:5.1f} s {s} ({running})")
            last = s
        time.sleep(0.25)
    # an episode still open when the apps end closes once its window has forgotten the waits (window.ms, 5 s here)
    settle = time.time() + 15
    while last == "ABNORMAL" and time.time() < settle:
        time.sleep(0.25)
        try:
            s = json.loads(get(gate + "/gate"))["state"]
        except Exception:  # noqa: BLE001 - the gate may be busy; poll again
            continue
        if s != last:
            changes.append(f"{time.time() - t0:5.1f} s {s} (both apps done)")
            last = s
    metrics, snap = get(gate + "/metrics"), json.loads(get(gate + "/gate"))
    times = {}
    for name in PRIO:
        m = re.search(r"tiny_blocks: .* in ([0-9.]+)s", open(os.path.join(state, name + ".log")).read())
        times[name] = m.group(1) + " s" if m else "failed"
    held = {}
    for app in snap.get("apps", []):
        for name, pr in PRIO.items():
            if known.get(app.get("appId")) == pr:
                held[name] = app.get("heldTotal", 0)
    print("  throttle episode (shared slow disk, 20 ms a read, two server threads; heavy priority 1, light 4):")
    print("    gate state, from the light app's start: " + (" -> ".join(changes) or "no change seen"))
    n = metric_sum(metrics, "sluice_throttle_episode_duration_seconds_count")
    total_s = metric_sum(metrics, "sluice_throttle_episode_duration_seconds_sum")
    print(f"    episodes ended: {n:.0f} (total {total_s:.1f} s), requests held during them: "
          f"{metric_sum(metrics, 'sluice_throttle_episode_held_requests_total'):.0f}")
    print(f"    requests held: heavy {held.get('heavy', 0)}, light {held.get('light', 0)}; "
          f"fail-open: {metric_sum(metrics, 'sluice_throttle_failopen_total'):.0f}")
    print(f"    chunk fetches parked (chunk pacing of the app over its range): "
          f"{metric_sum(metrics, 'sluice_throttle_chunks_parked_total'):.0f}; the light app's chunk fetches that "
          f"found a paced one out (anticipation missed): "
          f"{metric_sum(metrics, 'sluice_throttle_chunks_behind_paced_total'):.0f}")
    print(f"    shuffle times: heavy {times['heavy']}, light {times['light']}")
    rc = 0 if all(pr.returncode == 0 for pr in procs.values()) else 1
    if rc:
        print("    an app failed: logs in " + state)
except Exception as e:  # noqa: BLE001 - reported, then the cluster is stopped
    print(f"  throttle episode: {e}")
finally:
    for pr in procs.values():
        if pr.poll() is None:
            pr.terminate()
    subprocess.run([cluster, "stop", "--version", a.version, "--state-dir", spark_dir], capture_output=True)
    server.shutdown()
sys.exit(rc)
