#!/usr/bin/env python3
"""Prints one demo run of deploy/bin/sluice-stack: what Sluice changed and the job's figures.

  demo_report.py --run N --app APP_ID [--job-log LOG] RUN_JSON_FILE HISTORY_JSON_FILE
  demo_report.py --recommendation FILE|-

RUN_JSON_FILE: `sluice runs --app APP_ID --format json` (the stored AppRun);
HISTORY_JSON_FILE: GET /api/v1/jobs/history of the job (may be an error text: the figures are still printed).
"""
import argparse
import json
import sys


def load(path):
    with (sys.stdin if path == "-" else open(path)) as f:
        text = f.read().strip()
    if not text:
        return None
    for candidate in (text, text.splitlines()[0]):
        try:
            return json.loads(candidate)
        except ValueError:
            pass
    return None


def figures(run):
    stages = run.get("stages") or []
    return {
        "wall_s": (run.get("endTime", 0) - run.get("startTime", 0)) / 1000.0,
        "blocked_ms": sum(s.get("shuffleFetchWaitMs", 0) for s in stages),
        "blocks": sum(s.get("shuffleRemoteBlocksFetched", 0) + s.get("shuffleLocalBlocksFetched", 0) for s in stages),
        "tasks": sum(s.get("numTasks", 0) for s in stages),
        "partitions": run.get("conf", {}).get("spark.sql.shuffle.partitions", "200 (Spark default)"),
    }


def changes_text(changes):
    return "; ".join(f"{c['key']}: {c.get('previous') or 'default'} -> {c['value']} ({c.get('ruleId')}: {c.get('reason')})"
                     for c in changes or [])


def report_run(a):
    run = load(a.run_json)
    if not isinstance(run, dict):
        print(f"run {a.run}: {a.app}: stored run unreadable", file=sys.stderr)
        return 1
    hist = load(a.history_json)
    entry, previous = None, None
    if isinstance(hist, dict):
        runs = hist.get("runs") or []
        for i, r in enumerate(runs):  # newest first
            if r.get("appId") == a.app:
                entry = r
                previous = runs[i + 1] if i + 1 < len(runs) else None
                break
    f = figures(run)
    print(f"run {a.run}  {a.app}  status={run.get('status')}")
    injected = run.get("injected") or {}
    if injected:
        print("  Sluice set:   " + ", ".join(f"{k}={v}" for k, v in sorted(injected.items())))
        # the history's proposal ignores the user's own keys: show the reasons of the keys that were applied
        applied = [c for c in (previous or {}).get("next") or [] if injected.get(c.get("key")) == c.get("value")]
        if applied:
            print("  because:      " + changes_text(applied))
        others = sorted(k for k in injected if k not in {c.get("key") for c in applied})
        if others:
            print("  also:         " + ", ".join(others) + " (kept from earlier runs, or the next candidate"
                  " once a key the user set was skipped; see the sluice: line)")
    else:
        print("  Sluice set:   nothing (first run, or no overlay)")
    if entry is not None:
        print(f"  decision:     {entry.get('decision')} ({entry.get('evaluation')}): {entry.get('reason')}")
        if entry.get("next"):
            print("  proposed:     " + changes_text(entry["next"]) + " (keys the user set are skipped at submit)")
    else:
        print("  decision:     (tuner-service history unavailable or run not yet seen)")
    diags = [f"{d.get('ruleId')}:{d.get('severity')}" for d in run.get("diagnoses") or []
             if d.get("severity") not in ("NONE", "LOW")]
    print(f"  figures:      wall {f['wall_s']:.1f} s, shuffle read blocked {f['blocked_ms']} ms, "
          f"shuffle blocks {f['blocks']}, tasks {f['tasks']}, spark.sql.shuffle.partitions={f['partitions']}")
    print("  diagnoses:    " + (", ".join(diags) if diags else "none above LOW"))
    sys.stdout.flush()
    return 0


def report_recommendation(path):
    rec = load(path)
    if not isinstance(rec, dict):
        print("  (no recommendation)")
        return 1
    overlay = rec.get("overlay") or {}
    print(f"  state {rec.get('state')}; overlay: " + (", ".join(f"{k}={v}" for k, v in overlay.items()) or "empty"))
    if rec.get("changes"):
        print("  new changes: " + changes_text(rec["changes"]))
    return 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--run")
    p.add_argument("--app")
    p.add_argument("--job-log")
    p.add_argument("--recommendation")
    p.add_argument("run_json", nargs="?")
    p.add_argument("history_json", nargs="?")
    a = p.parse_args()
    if a.recommendation:
        return report_recommendation(a.recommendation)
    return report_run(a)


if __name__ == "__main__":
    sys.exit(main())
