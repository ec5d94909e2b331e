#!/usr/bin/env bash
# Flink job benchmark: sustained throughput, CPU per event and ApplicationEnd -> store latency of ShuffleProfileJob
# on a local MiniCluster, in-JVM Kafka, embedded H2 store; input = the real fixture event logs replicated under
# synthetic app ids. One fresh JVM per measurement; rounds are interleaved; medians are printed.
#
#   bench/flink/run-flink-bench.sh [--rounds 3] [--events 100000] [--fleet-events 4000000] [--apps 50] [--parallelism "1 2 4"]
#                                  [--envelopes "single batched"] [--runs "fleet fixture"] [--baseline-jars DIR]
#                                  [--no-latency] [--skip-build] [--out FILE]
#
# Scenarios per round, all at the job's default settings (checkpoint 10 s, store.batch.size 100,
# store.flush-interval.ms 1000): throughput at each parallelism, run shape and record format (runs: "fleet" blows
# every fixture application up to ~10,000 task events, the size of the fleet's runs; "fixture" keeps the fixture
# applications as they ran, 206 events on average; envelopes: single: one envelope per event as the listener sends;
# batched: pruned batches as the event-log collector sends); with --baseline-jars DIR also throughput at
# parallelism 1 (fleet runs, batched) with the sluice-*.jar files in DIR ahead of the built ones (an older build, side
# by side in the same rounds); latency with the defaults, and unbuffered (batch 1: the sink upserts every run at once).
# Prerequisite (done by the script unless --skip-build): mvn -pl event-ingest/flink-job -am install -DskipTests
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/bench/flink"
rounds=3 events=100000 fleet_events=4000000 apps=50 build=1 out="" parallelism="1 2 4" baseline="" envelopes="single batched"
runs="fleet fixture" latency=1
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --events) events="$2"; shift 2 ;;
    --fleet-events) fleet_events="$2"; shift 2 ;;
    --apps) apps="$2"; shift 2 ;;
    --parallelism) parallelism="$2"; shift 2 ;;
    --envelopes) envelopes="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --baseline-jars) baseline="$(cd "$2" && pwd)"; shift 2 ;;
    --skip-build) build=0; shift ;;
    --no-latency) latency=0; shift ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "run-flink-bench: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$out" ] || out="$here/results/flink-bench-$(date -u +%Y%m%dT%H%M%SZ).txt"
mkdir -p "$(dirname "$out")"
if [ $build = 1 ]; then
  (cd "$root" && mvn -q -B -pl event-ingest/flink-job -am install -DskipTests)
  (cd "$here" && mvn -q -B package)
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/sluice-flink-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT
jvm=(java -Xms2g -Xmx2g -XX:+UseG1GC -cp)

{
  echo "# run-flink-bench $(date -u +%FT%TZ) rounds=$rounds events=$events fleet-events=$fleet_events apps=$apps"
  echo "# host: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(free -g | awk '/Mem:/{print $2}') GiB, $(java -version 2>&1 | head -n 1)"
  echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# git HEAD $(git -C "$root" rev-parse --short HEAD); sluice jars on the classpath (built/installed at):"
  for j in "$here"/target/lib/sluice-*.jar; do echo "#   $(basename "$j") $(date -u -r "$j" +%FT%TZ)"; done
  if [ -n "$baseline" ]; then
    echo "# baseline jars (lib=baseline rows) from $baseline:"
    for j in "$baseline"/sluice-*.jar; do echo "#   $(basename "$j") $(date -u -r "$j" +%FT%TZ)"; done
  fi
} | tee "$out"

run() { # label lib-dir-or-empty args...
  local label="$1" lib="$2"; shift 2
  local line cp="$here/target/classes:$here/target/lib/*" tag=current
  if [ -n "$lib" ]; then cp="$here/target/classes:$lib/*:$here/target/lib/*"; tag=baseline; fi
  if ! line="$("${jvm[@]}" "$cp" io.sluice.bench.flink.FlinkBench "$@" --root "$root" --work "$work" \
      2>"$work/last.err" | grep '^FLINK_BENCH ')"; then
    tail -n 40 "$work/last.err" >&2; echo "run-flink-bench: $label failed" >&2; exit 1
  fi
  echo "$line lib=$tag round=$r load=$(cut -d' ' -f1 /proc/loadavg)" | tee -a "$out"
}
per_app() { case "$1" in fleet) echo 10000 ;; fixture) echo 0 ;; *) echo "run-flink-bench: runs are fleet or fixture, not $1" >&2; exit 2 ;; esac; }
for ((r = 1; r <= rounds; r++)); do
  for p in $parallelism; do
    for shape in $runs; do
      # fleet runs complete 4 at a time (each is ~50 fixture runs long), fixture runs 16 at a time
      group=16 n=$events; [ "$shape" = fleet ] && group=4 n=$fleet_events
      for e in $envelopes; do
        run "throughput p=$p $shape $e" "" throughput --events "$n" --checkpoint-ms 10000 --batch 100 \
          --parallelism "$p" --envelopes "$e" --group $group --task-events-per-app "$(per_app "$shape")"
      done
    done
  done
  if [ -n "$baseline" ]; then
    run "baseline throughput" "$baseline" throughput --events "$fleet_events" --checkpoint-ms 10000 --batch 100 --parallelism 1 \
      --envelopes batched --group 4 --task-events-per-app 10000
  fi
  if [ $latency = 1 ]; then
    run latency-default "" latency --apps "$apps" --checkpoint-ms 10000 --batch 100
    run latency-unbuffered "" latency --apps "$apps" --checkpoint-ms 10000 --batch 1
  fi
done

python3 - "$out" <<'PY' | tee -a "$out"
import re, statistics, sys
rows = [dict(re.findall(r'([\w.]+)=(\S+)', l)) for l in open(sys.argv[1]) if l.startswith('FLINK_BENCH ')]
def med(rs, k, fmt="%.0f"):
    v = sorted(float(r[k]) for r in rs if k in r)
    return (fmt + " (%s)") % (statistics.median(v), ", ".join(fmt % x for x in v)) if v else "-"
tp = [r for r in rows if r['mode'] == 'throughput']
for lib in ('current', 'baseline'):
    shape = lambda r: 'fleet' if float(r.get('taskEventsPerApp', '0')) >= 5000 else 'fixture'
    for p, s, e in sorted({(r.get('parallelism', '2'), shape(r), r.get('envelopes', 'single'))
                           for r in tp if r.get('lib') == lib}):
        rs = [r for r in tp if r.get('lib') == lib and r.get('parallelism', '2') == p and shape(r) == s
              and r.get('envelopes', 'single') == e]
        print("# throughput %s parallelism=%s runs=%s envelopes=%s: events=%s taskEvents=%s apps=%s; median (all rounds)"
              % (lib, p, s, e, rs[0]['events'], rs[0].get('taskEvents', '-'), rs[0]['apps']))
        for k in ('sustainedEventsPerS', 'sustainedTaskEventsPerS', 'overallEventsPerS', 'totalS'):
            print("#   %s: %s" % (k, med(rs, k)))
        for k in sorted(k for k in rs[0] if k.startswith('cpuUs')):
            print("#   %s: %s" % (k, med(rs, k, "%.2f")))
for b in ('100', '1'):
    rs = [r for r in rows if r['mode'] == 'latency' and r['batch'] == b]
    if rs:
        print("# latency checkpoint=%sms batch=%s apps=%s: median %s ms, p90 %s ms, p99 %s ms, max %s ms" % (
            rs[0]['checkpointMs'], b, rs[0]['apps'], med(rs, 'medianMs'), med(rs, 'p90Ms'), med(rs, 'p99Ms'),
            med(rs, 'maxMs')))
PY
echo "results: $out"
