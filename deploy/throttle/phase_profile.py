#!/usr/bin/env python3
"""Where an application's shuffle time goes, from Spark event logs (plain JSON lines).

  phase_profile.py DIR [DIR ...]

DIR is an event-log directory (the e2e test's <run>/events) or one event-log file. For each
application and each stage that read a shuffle it prints the stage's wall time and, summed and per
task over its successful tasks: run time, CPU time, fetch wait, scheduler delay (launch to the
executor's deserialisation start, approximated as Spark's UI does: duration - run time -
deserialise - result serialise - getting result), and the executors' start times relative to the
application's start. For stages that wrote a shuffle it prints CPU time and run time too, so a
neighbour's CPU use can be set against the machine's cores.
"""
import json
import os
import sys


def events(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                yield json.loads(line)


def logs(arg):
    if os.path.isfile(arg):
        return [arg]
    return sorted(
        os.path.join(arg, n)
        for n in os.listdir(arg)
        if not n.startswith(".") and os.path.isfile(os.path.join(arg, n)))


def profile(path):
    app = {"stages": {}, "executors": {}}
    for e in events(path):
        kind = e.get("Event")
        if kind == "SparkListenerApplicationStart":
            app["name"] = e["App Name"]
            app["start"] = e["Timestamp"]
        elif kind == "SparkListenerApplicationEnd":
            app["end"] = e["Timestamp"]
        elif kind == "SparkListenerExecutorAdded":
            app["executors"][e["Executor ID"]] = (e["Timestamp"], e["Executor Info"]["Total Cores"])
        elif kind == "SparkListenerStageCompleted":
            i = e["Stage Info"]
            s = app["stages"].setdefault(i["Stage ID"], {"tasks": []})
            s["submitted"] = i.get("Submission Time", 0)
            s["completed"] = i.get("Completion Time", 0)
        elif kind == "SparkListenerTaskEnd":
            if e["Task End Reason"]["Reason"] != "Success":
                continue
            m = e["Task Metrics"]
            info = e["Task Info"]
            r = m["Shuffle Read Metrics"]
            duration = info["Finish Time"] - info["Launch Time"]
            sched = duration - m["Executor Run Time"] - m["Executor Deserialize Time"] - m[
                "Result Serialization Time"] - info.get("Getting Result Time", 0)
            app["stages"].setdefault(e["Stage ID"], {"tasks": []})["tasks"].append({
                "run": m["Executor Run Time"],
                "cpu": m["Executor CPU Time"] / 1e6,
                "deser": m["Executor Deserialize Time"],
                "wait": r["Fetch Wait Time"],
                "blocks": r["Remote Blocks Fetched"] + r["Local Blocks Fetched"],
                "written": m["Shuffle Write Metrics"]["Shuffle Bytes Written"],
                "sched": max(0, sched),
                "executor": info["Executor ID"],
            })
    return app


def report(path):
    app = profile(path)
    start = app.get("start", 0)
    cores = sum(c for _, c in app["executors"].values())
    starts = sorted((t - start) / 1000 for t, _ in app["executors"].values())
    print(f"{app.get('name')} ({os.path.basename(path)}): app {(app.get('end', start) - start) / 1000:.1f} s,"
          f" {len(app['executors'])} executors / {cores} cores, started at "
          + ", ".join(f"{s:.1f}" for s in starts) + " s")
    for sid, s in sorted(app["stages"].items()):
        t = s["tasks"]
        if not t:
            continue
        wall = (s.get("completed", 0) - s.get("submitted", 0)) / 1000
        n = len(t)
        tot = {k: sum(x[k] for x in t) for k in ("run", "cpu", "deser", "wait", "blocks", "sched", "written")}
        kind = "read" if tot["blocks"] > 0 else "write"
        print(f"  stage {sid} ({kind}, {n} tasks): wall {wall:.1f} s; per task run {tot['run'] / n:.0f} ms,"
              f" cpu {tot['cpu'] / n:.0f} ms, fetch wait {tot['wait'] / n:.0f} ms,"
              f" run - wait - cpu {(tot['run'] - tot['wait'] - tot['cpu']) / n:.0f} ms,"
              f" deserialise {tot['deser'] / n:.0f} ms, scheduler delay {tot['sched'] / n:.0f} ms;"
              f" sums run {tot['run'] / 1000:.1f} s, cpu {tot['cpu'] / 1000:.1f} s, wait {tot['wait'] / 1000:.1f} s;"
              f" cpu / wall {tot['cpu'] / 1000 / wall if wall else 0:.2f} cores")


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    for arg in argv:
        for path in logs(arg):
            report(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
