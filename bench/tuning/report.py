#!/usr/bin/env python3
"""Reads what bench/tuning/run-tuning-bench.sh collected and prints it.

  report.py state HISTORY_JSON APP_ID          stateAfter of APP_ID's entry in a job history (or NONE)
  report.py line APPRUN_JSON HISTORY_JSON      one line per tuning run (progress output)
  report.py overlay RECOMMENDATION_JSON        the recommendation's overlay as K=V lines
  report.py variants OUT_DIR WORKLOAD          overlays to compare with the baseline: KIND<TAB>K=V K=V
  report.py render OUT_DIR                     the markdown report (stdout)

OUT_DIR layout (written by the script):
  workloads.tsv                          name, job, confs, args (the poor settings and the data size)
  tune/<workload>/NN.apprun.json         the stored AppRun of tuning run NN (`sluice runs --app ... --format json`)
  tune/<workload>/NN.history.json        GET /api/v1/jobs/history right after run NN was stored
  tune/<workload>/NN.meta                app=<id> rc=<spark-submit exit> submit_s=<seconds of the submit command>
  tune/<workload>/recommendation.json    GET /api/v1/jobs/recommendation after the last run
  compare/<workload>/RR-<base|final|rejected>.apprun.json   side-by-side rounds (optional)
  compare/<workload>/RR-<base|final|rejected>.meta
"""
import glob
import json
import os
import statistics
import sys

MB = 1_000_000


def load(path):
    try:
        with open(path) as f:
            text = f.read().strip()
    except OSError:
        return None
    if not text:
        return None
    for candidate in (text, text.splitlines()[0]):
        try:
            return json.loads(candidate)
        except ValueError:
            pass
    return None


def meta(path):
    out = {}
    try:
        with open(path) as f:
            for tok in f.read().split():
                if "=" in tok:
                    k, v = tok.split("=", 1)
                    out[k] = v
    except OSError:
        pass
    return out


def figures(run):
    """The figures of one stored AppRun, computed as tuner-service's RunFigures / JobViews.Figures do."""
    stages = run.get("stages") or []
    reads = [s for s in stages if s.get("shuffleRemoteBytesRead", 0) + s.get("shuffleLocalBytesRead", 0) > 0]
    return {
        "status": run.get("status"),
        "wall_ms": max(0, run.get("endTime", 0) - run.get("startTime", 0)),
        "blocked_ms": sum(s.get("shuffleFetchWaitMs", 0) for s in stages),
        "worst_stage_blocked_ms": max([s.get("shuffleFetchWaitMs", 0) for s in stages] or [0]),
        "read_bytes": sum(s.get("shuffleRemoteBytesRead", 0) + s.get("shuffleLocalBytesRead", 0) for s in stages),
        "written_bytes": sum(s.get("shuffleWriteBytes", 0) for s in stages),
        "blocks": sum(s.get("shuffleRemoteBlocksFetched", 0) + s.get("shuffleLocalBlocksFetched", 0) for s in stages),
        "tasks": sum(s.get("numTasks", 0) for s in stages),
        "reduce_tasks": "+".join(str(s.get("numTasks", 0)) for s in sorted(reads, key=lambda s: s.get("stageId", 0)))
        or "-",
        "spill_bytes": sum(s.get("memoryBytesSpilled", 0) for s in stages),
        "disk_spill_bytes": sum(s.get("diskBytesSpilled", 0) for s in stages),
        "failed": sum(s.get("failedTasks", 0) for s in stages),  # FetchFailed ends included
        "max_task_ms": max([s.get("taskDurationMaxMs", 0) for s in stages] or [0]),
        "diagnoses": [f"{d.get('ruleId')}:{d.get('severity')}" for d in run.get("diagnoses") or []
                      if d.get("severity") not in ("NONE", "LOW")],
        "injected": run.get("injected") or {},
    }


def entry_for(history, app):
    if not isinstance(history, dict):
        return None
    for r in history.get("runs") or []:
        if r.get("appId") == app:
            return r
    return None


ABBREVIATIONS = (("spark.sql.adaptive.coalescePartitions.", "aqe.coalesce."),
                 ("spark.sql.adaptive.skewJoin.", "aqe.skewJoin."), ("spark.sql.adaptive.", "aqe."),
                 ("spark.sql.files.", "files."), ("spark.sql.", "sql."), ("spark.", ""))


def short_key(k):
    for prefix, short in ABBREVIATIONS:
        if k.startswith(prefix):
            return short + k[len(prefix):]
    return k


def overlay_text(overlay):
    return ", ".join(f"{short_key(k)}={v}" for k, v in sorted(overlay.items())) or "(none)"


def delta_text(prev, cur):
    parts = []
    for k in sorted(set(prev) | set(cur)):
        if prev.get(k) != cur.get(k):
            parts.append(f"{short_key(k)} {prev.get(k, '·')}→{cur.get(k, '·')}")
    return ", ".join(parts) or "—"


def changes_text(changes):
    return "; ".join(f"{short_key(c.get('key'))}={c.get('value')} ({c.get('ruleId')})" for c in changes or []) or "—"


def mb(b):
    return f"{b / MB:.1f}"


def secs(ms):
    return f"{ms / 1000:.1f}"


# ------------------------------------------------------------------ commands

def cmd_state(history_path, app):
    e = entry_for(load(history_path), app)
    print((e or {}).get("stateAfter") or "NONE")
    return 0


def cmd_line(apprun_path, history_path):
    run = load(apprun_path)
    if not isinstance(run, dict):
        print("  (stored run unreadable)")
        return 1
    f = figures(run)
    e = entry_for(load(history_path), run.get("appId")) or {}
    print(f"  {run.get('appId')} {f['status']}: wall {secs(f['wall_ms'])} s, blocked {f['blocked_ms']} ms, "
          f"read {mb(f['read_bytes'])} MB, written {mb(f['written_bytes'])} MB, tasks {f['tasks']} "
          f"(reduce {f['reduce_tasks']}), spill {mb(f['spill_bytes'])} MB")
    print(f"  overlay: {overlay_text(f['injected'])}")
    print(f"  decision: {e.get('decision', '?')}: {e.get('reason', '(no history entry)')}")
    print(f"  next: {changes_text(e.get('next'))}; state after: {e.get('stateAfter', '?')}")
    print(f"  diagnoses >= MODERATE: {', '.join(f['diagnoses']) or 'none'}")
    return 0


def cmd_overlay(rec_path):
    rec = load(rec_path)
    for k, v in sorted(((rec or {}).get("overlay") or {}).items()):
        print(f"{k}={v}")
    return 0


def read_workloads(out):
    rows = []
    path = os.path.join(out, "workloads.tsv")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= 4:
                    rows.append({"name": parts[0], "job": parts[1], "confs": parts[2], "args": parts[3]})
    return rows


def failed_open(submit_log):
    """True when sluice-submit ran the user's command unchanged (its 'sluice:' line says so)."""
    try:
        with open(submit_log, errors="replace") as f:
            return any(line.startswith("sluice:") and "running your command unchanged" in line for line in f)
    except OSError:
        return False


def open_reason(submit_log):
    """The first exception line before sluice-submit's fail-open notice, for the report."""
    try:
        with open(submit_log, errors="replace") as f:
            for line in f:
                if line.startswith("sluice:"):
                    return line.strip()
                if "Exception" in line or "Error" in line:
                    return line.strip()[:160]
    except OSError:
        pass
    return "?"


def tune_runs(out, w):
    runs = []
    for path in sorted(glob.glob(os.path.join(out, "tune", w, "[0-9][0-9].apprun.json"))):
        n = os.path.basename(path)[:2]
        run = load(path)
        hist = load(os.path.join(out, "tune", w, f"{n}.history.json"))
        m = meta(os.path.join(out, "tune", w, f"{n}.meta"))
        m["failopen"] = "1" if failed_open(os.path.join(out, "tune", w, f"{n}.submit.log")) else "0"
        if isinstance(run, dict):
            runs.append((int(n), run, entry_for(hist, run.get("appId")) or {}, m))
    return runs


def cmd_render(out):
    lines = []
    p = lines.append
    summary = []
    for w in read_workloads(out):
        name = w["name"]
        runs = tune_runs(out, name)
        rec = load(os.path.join(out, "tune", name, "recommendation.json")) or {}
        p(f"#### {name}")
        p("")
        p(f"`{w['job']}.py {w['args']}` with `{w['confs']}`" if w["confs"] else f"`{w['job']}.py {w['args']}`")
        p("")
        if not runs:
            p("No run was stored.")
            p("")
            summary.append((name, "—", "no run stored"))
            continue
        p("| run | overlay change vs previous run | decision | wall s | blocked ms | worst stage blocked ms "
          "| shuffle read MB | shuffle written MB | tasks (reduce) | spill MB | rules ≥ MODERATE | state after |")
        p("|---:|---|---|---:|---:|---:|---:|---:|---|---:|---|---|")
        prev = {}
        converged_at = None
        for n, run, e, m in runs:
            f = figures(run)
            p(f"| {n} | {delta_text(prev, f['injected']) if n > 1 else overlay_text(f['injected'])} "
              f"| {e.get('decision', '?')} | {secs(f['wall_ms'])} | {f['blocked_ms']} | {f['worst_stage_blocked_ms']} "
              f"| {mb(f['read_bytes'])} | {mb(f['written_bytes'])} | {f['tasks']} ({f['reduce_tasks']}) "
              f"| {mb(f['spill_bytes'])} | {', '.join(f['diagnoses']) or '—'} | {e.get('stateAfter', '?')} |")
            prev = f["injected"]
            if converged_at is None and e.get("stateAfter") == "STABLE":
                converged_at = n
        p("")
        for n, run, e, m in runs:
            reason = e.get("reason", "")
            nxt = changes_text(e.get("next"))
            fo = (" **sluice-submit failed open: the command ran unchanged** "
                  f"({open_reason(os.path.join(out, 'tune', name, f'{n:02d}.submit.log'))})") \
                if m.get("failopen") == "1" else ""
            p(f"- run {n} ({run.get('appId')}, submit {m.get('submit_s', '?')} s, exit {m.get('rc', '?')}){fo}: "
              f"{e.get('decision', '?')} — {reason}" + (f"; next: {nxt}" if e.get("next") else ""))
        p(f"- after the last run: state {rec.get('state', '?')}, overlay {overlay_text(rec.get('overlay') or {})}")
        p("")
        first = figures(runs[0][1])
        # the final state: the last run that ran with the final kept overlay (the reference), else the last run
        final_overlay = rec.get("overlay") or {}
        final = None
        for n, run, e, m in reversed(runs):
            if (run.get("injected") or {}) == final_overlay:
                final = (n, figures(run))
                break
        if final is None:
            final = (runs[-1][0], figures(runs[-1][1]))
        conv = f"{converged_at}" if converged_at else f"not within {len(runs)}"
        summary.append((name, conv, final[0], first, final[1], overlay_text(final_overlay)))
    # summary table first
    head = ["| workload | runs to converge (state STABLE after run) | final = run | wall s first → final "
            "| blocked ms first → final | shuffle read MB first → final | shuffle written MB first → final "
            "| tasks first → final | kept overlay at the end |",
            "|---|---:|---:|---|---|---|---|---|---|"]
    for s in summary:
        if len(s) == 3:
            head.append(f"| {s[0]} | — | — | — | — | — | — | — | {s[2]} |")
            continue
        name, conv, fn, a, b, ov = s
        head.append(f"| {name} | {conv} | {fn} | {secs(a['wall_ms'])} → {secs(b['wall_ms'])} "
                    f"| {a['blocked_ms']} → {b['blocked_ms']} | {mb(a['read_bytes'])} → {mb(b['read_bytes'])} "
                    f"| {mb(a['written_bytes'])} → {mb(b['written_bytes'])} | {a['tasks']} → {b['tasks']} | {ov} |")
    comp = render_compare(out)
    print("\n".join(head + [""] + comp + lines))
    return 0


def variants(out, w):
    """[(kind, overlay)] to compare with the baseline: the final kept overlay, and the last rolled-back trial's."""
    rec = load(os.path.join(out, "tune", w, "recommendation.json")) or {}
    final = rec.get("overlay") or {}
    rejected = {}
    for n, run, e, m in tune_runs(out, w):
        if e.get("decision") == "ROLLED_BACK":
            rejected = run.get("injected") or {}
    out_list = []
    if final:
        out_list.append(("final", final))
    if rejected and rejected != final:
        out_list.append(("rejected", rejected))
    return out_list


def cmd_variants(out, w):
    for kind, overlay in variants(out, w):
        print(kind + "\t" + " ".join(f"{k}={v}" for k, v in sorted(overlay.items())))
    return 0


def render_compare(out):
    root = os.path.join(out, "compare")
    if not os.path.isdir(root):
        return []
    lines = ["Side by side after tuning: plain spark-submit (no tuner in the loop), *base* = the workload's own confs, "
             "*final* = plus the kept overlay at the end, *rejected* = plus the overlay of the last rolled-back trial; "
             "order rotated every round; median [each round's value]:", "",
             "| workload | variant | overlay | rounds | wall s | blocked ms | shuffle read MB | tasks |",
             "|---|---|---|---:|---|---|---|---|"]
    for w in sorted(os.listdir(root)):
        kinds = {}
        overlays = {}
        for path in sorted(glob.glob(os.path.join(root, w, "*.apprun.json"))):
            kind = os.path.basename(path).split(".")[0].split("-", 1)[1]
            run = load(path)
            if isinstance(run, dict) and run.get("status") == "SUCCEEDED":
                kinds.setdefault(kind, []).append(figures(run))
                # plain spark-submit: no spark.sluice.injected.* markers; the script records the overlay in .meta
                given = meta(path.replace(".apprun.json", ".meta")).get("overlay", "")
                overlays[kind] = dict(kv.split("=", 1) for kv in given.split(",") if "=" in kv)
        for kind in ("base", "final", "rejected"):
            vals = kinds.get(kind)
            if not vals:
                continue

            def col(key, fmt):
                xs = [x[key] for x in vals]
                return f"{fmt(statistics.median(xs))} [{', '.join(fmt(x) for x in xs)}]"
            p = lines.append
            p(f"| {w} | {kind} | {overlay_text(overlays.get(kind) or {})} | {len(vals)} "
              f"| {col('wall_ms', secs)} | {col('blocked_ms', lambda v: str(int(v)))} | {col('read_bytes', mb)} "
              f"| {col('tasks', lambda v: str(int(v)))} |")
    lines.append("")
    return lines


def main(argv):
    if len(argv) >= 3 and argv[0] == "state":
        return cmd_state(argv[1], argv[2])
    if len(argv) >= 3 and argv[0] == "line":
        return cmd_line(argv[1], argv[2])
    if len(argv) >= 2 and argv[0] == "overlay":
        return cmd_overlay(argv[1])
    if len(argv) >= 3 and argv[0] == "variants":
        return cmd_variants(argv[1], argv[2])
    if len(argv) >= 2 and argv[0] == "render":
        return cmd_render(argv[1])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
