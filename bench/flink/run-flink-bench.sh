#!/usr/bin/env bash
# Flink job benchmark: sustained throughput and ApplicationEnd -> store latency of ShuffleProfileJob on a local
# MiniCluster (parallelism 2), in-JVM Kafka, embedded H2 store; input = the real fixture event logs replicated
# under synthetic app ids. One fresh JVM per measurement; rounds are interleaved; medians are printed.
#
#   bench/flink/run-flink-bench.sh [--rounds 3] [--events 2000000] [--apps 50] [--skip-build] [--out FILE]
#
# Scenarios per round: throughput (checkpoint 1 s, store.batch.size 100); latency with the defaults
# (checkpoint 10 s, batch 100), with a short interval (checkpoint 1 s, batch 100) and unbuffered
# (checkpoint 1 s, batch 1: the sink upserts every run at once).
# Prerequisite (done by the script unless --skip-build): mvn -pl event-ingest/flink-job install -DskipTests
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/bench/flink"
rounds=3 events=2000000 apps=50 build=1 out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --events) events="$2"; shift 2 ;;
    --apps) apps="$2"; shift 2 ;;
    --skip-build) build=0; shift ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "run-flink-bench: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$out" ] || out="$here/results/flink-bench-$(date -u +%Y%m%dT%H%M%SZ).txt"
mkdir -p "$(dirname "$out")"
if [ $build = 1 ]; then
  (cd "$root" && mvn -q -B -pl event-ingest/flink-job install -DskipTests)
  (cd "$here" && mvn -q -B package)
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/sluice-flink-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cp=("$here/target/classes:$here/target/lib/*")
jvm=(java -Xms2g -Xmx2g -XX:+UseG1GC -cp "${cp[@]}")

{
  echo "# run-flink-bench $(date -u +%FT%TZ) rounds=$rounds events=$events apps=$apps"
  echo "# host: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(free -g | awk '/Mem:/{print $2}') GiB, $(java -version 2>&1 | head -n 1)"
  echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# git HEAD $(git -C "$root" rev-parse --short HEAD); sluice jars on the classpath (built/installed at):"
  for j in "$here"/target/lib/sluice-*.jar; do echo "#   $(basename "$j") $(date -u -r "$j" +%FT%TZ)"; done
} | tee "$out"

run() { # label args...
  local label="$1"; shift
  local line
  if ! line="$("${jvm[@]}" io.sluice.bench.flink.FlinkBench "$@" --root "$root" --work "$work" 2>"$work/last.err" \
      | grep '^FLINK_BENCH ')"; then
    tail -n 40 "$work/last.err" >&2; echo "run-flink-bench: $label failed" >&2; exit 1
  fi
  echo "$line round=$r load=$(cut -d' ' -f1 /proc/loadavg)" | tee -a "$out"
}
for ((r = 1; r <= rounds; r++)); do
  run throughput throughput --events "$events" --checkpoint-ms 1000 --batch 100
  run latency-default latency --apps "$apps" --checkpoint-ms 10000 --batch 100
  run latency-1s latency --apps "$apps" --checkpoint-ms 1000 --batch 100
  run latency-unbuffered latency --apps "$apps" --checkpoint-ms 1000 --batch 1
done

python3 - "$out" <<'PY' | tee -a "$out"
import re, statistics, sys
rows = [dict(re.findall(r'(\w+)=(\S+)', l)) for l in open(sys.argv[1]) if l.startswith('FLINK_BENCH ')]
def med(rs, k):
    v = sorted(float(r[k]) for r in rs)
    return "%.0f (%s)" % (statistics.median(v), ", ".join("%.0f" % x for x in v))
tp = [r for r in rows if r['mode'] == 'throughput']
if tp:
    print("# throughput: events=%s apps=%s; median (all rounds)" % (tp[0]['events'], tp[0]['apps']))
    for k in ('sustainedEventsPerS', 'overallEventsPerS', 'totalS', 'toRunningS', 'firstRunS'):
        print("#   %s: %s" % (k, med(tp, k)))
for cp, b in (('10000', '100'), ('1000', '100'), ('1000', '1')):
    rs = [r for r in rows if r['mode'] == 'latency' and r['checkpointMs'] == cp and r['batch'] == b]
    if rs:
        print("# latency checkpoint=%sms batch=%s apps=%s: median %s ms, p90 %s ms, p99 %s ms, max %s ms" % (
            cp, b, rs[0]['apps'], med(rs, 'medianMs'), med(rs, 'p90Ms'), med(rs, 'p99Ms'), med(rs, 'maxMs')))
PY
echo "results: $out"
