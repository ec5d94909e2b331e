#!/usr/bin/env bash
# What a push-tier fallback adds to a job: the same shuffle job (deploy/jobs/fallback_check.py) on a Spark
# standalone cluster with a separate ESS, side by side, interleaved round by round:
#   plain    - native sort shuffle + ESS, no Sluice manager (the baseline)
#   refused  - spark.shuffle.manager=io.sluice.fallback.SluiceShuffleManager routed to Celeborn whose master is a
#              loopback port nothing listens on (connection refused): falls back to sort + ESS
#   silent   - the same, the master a loopback port that listens but never accepts (full backlog: SYNs dropped),
#              so the health check waits its whole timeout (spark.sluice.tier.healthCheck.timeoutMs, default 1000)
# Every variant has the same class path (the shaded sluice-fallback-manager jar + the Celeborn 0.5.4 client jar).
# Per run, from the event log: the driver's decision time (spark.sluice.tier.decisionMs), application start ->
# first shuffle map task finished (the first shuffle output on the ESS), and spark-submit's wall time; medians.
# The raw runs go to bench/fallback-cost/results/fallback-cost-<UTC start>.txt.
#
#   bench/fallback-cost/fallback-cost.sh [ROUNDS]        (default 5; needs: mvn -pl fallback/conf,fallback/manager install)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
rounds="${1:-5}"
version=3.5.7
work="$root/.sluice/run/fallback-bench"
state="$work/spark"
mkdir -p "$work"
jar="$(ls "$root"/fallback/manager/target/sluice-fallback-manager-*.jar | grep -v original | head -n 1)"
celeborn="$HOME/.m2/repository/org/apache/celeborn/celeborn-client-spark-3-shaded_2.12/0.5.4/celeborn-client-spark-3-shaded_2.12-0.5.4.jar"
[ -f "$jar" ] && [ -f "$celeborn" ] || { echo "build first: mvn -pl fallback/conf,fallback/manager install" >&2; exit 1; }
cp="$jar:$celeborn"

silent_pid=""
cleanup() {
  [ -n "$silent_pid" ] && kill "$silent_pid" 2>/dev/null || true
  "$root/deploy/bin/spark-cluster.sh" stop --state-dir "$state" >/dev/null 2>&1 || true
}
trap cleanup EXIT

"$root/deploy/bin/spark-cluster.sh" start --version "$version" --state-dir "$state" --workers 1 --worker-cores 2 \
  --worker-memory 1536m >/dev/null

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
refused_port="$(free_port)"
# a master that listens but never accepts: backlog 0, one connection held, later SYNs are dropped
silent_port_file="$work/silent.port"
rm -f "$silent_port_file"
python3 - "$silent_port_file" <<'PY' &
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(0)
held = socket.create_connection(s.getsockname())
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
time.sleep(3600)
PY
silent_pid=$!
for _ in $(seq 50); do [ -s "$silent_port_file" ] && break; sleep 0.1; done
silent_port="$(cat "$silent_port_file")"

run() { # variant round
  local variant="$1" n="$2" events="$work/events/$1-$2" extra=()
  rm -rf "$events"; mkdir -p "$events"
  case "$variant" in
    plain) ;;
    refused|silent)
      local port=$refused_port; [ "$variant" = silent ] && port=$silent_port
      extra=(--conf spark.shuffle.manager=io.sluice.fallback.SluiceShuffleManager --conf spark.sluice.tier=CELEBORN
             --conf spark.sluice.tier.shuffleManager=org.apache.spark.shuffle.celeborn.SparkShuffleManager
             --conf "spark.celeborn.master.endpoints=127.0.0.1:$port") ;;
  esac
  local t0 t1
  t0=$(date +%s%N)
  "$root/deploy/jobs/submit.sh" --version "$version" --state-dir "$state" --event-log-dir "$events" \
    --conf spark.eventLog.compress=false --conf spark.sql.adaptive.enabled=false --conf spark.sql.shuffle.partitions=8 \
    --conf "spark.driver.extraClassPath=$cp" --conf "spark.executor.extraClassPath=$cp" ${extra[@]+"${extra[@]}"} \
    fallback_check --app-name "fallback-bench-$variant" >"$work/$variant-$n.log" 2>&1
  t1=$(date +%s%N)
  grep -q "ok=true" "$work/$variant-$n.log" || { echo "run $variant $n failed; see $work/$variant-$n.log" >&2; exit 1; }
  python3 - "$variant" "$n" "$(( (t1 - t0) / 1000000 ))" "$events" <<'PY'
import glob, json, sys
variant, n, wall, d = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
log = [p for p in glob.glob(d + "/app-*") if not p.endswith(".inprogress")][0]
start = first = None; props = {}
for line in open(log):
    e = json.loads(line); t = e["Event"]
    if t == "SparkListenerApplicationStart": start = e["Timestamp"]
    elif t == "SparkListenerEnvironmentUpdate": props = dict(e["Spark Properties"])
    elif t == "SparkListenerTaskEnd" and e.get("Task Metrics", {}).get("Shuffle Write Metrics", {}).get("Shuffle Bytes Written", 0) > 0:
        f = e["Task Info"]["Finish Time"]; first = f if first is None else min(first, f)
print(json.dumps({"variant": variant, "round": int(n), "wallMs": wall, "firstShuffleMs": first - start,
                  "decisionMs": int(props.get("spark.sluice.tier.decisionMs", 0)),
                  "outcome": props.get("spark.sluice.tier.outcome", "-"),
                  "reason": props.get("spark.sluice.tier.fallbackReason", "-")}))
PY
}

results="$work/results.jsonl"
: >"$results"
started="$(date -u +%Y%m%dT%H%MZ)"
for ((i = 1; i <= rounds; i++)); do
  for v in plain refused silent; do run "$v" "$i" | tee -a "$results"; done
done
out="$root/bench/fallback-cost/results/fallback-cost-$started.txt"
mkdir -p "$(dirname "$out")"
{ echo "# bench/fallback-cost/fallback-cost.sh $rounds, HEAD $(git -C "$root" rev-parse --short HEAD), $started, load: $(cut -d' ' -f1-3 /proc/loadavg)"
  cat "$results"; } >"$out"
python3 - "$results" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print("\n| variant | runs | outcome / reason | decision on the driver (median ms) | app start -> first shuffle output (median ms) | spark-submit wall (median ms) |")
print("|---|---|---|---|---|---|")
base = None
for v in ("plain", "refused", "silent"):
    r = [x for x in rows if x["variant"] == v]
    fs = statistics.median(x["firstShuffleMs"] for x in r); wall = statistics.median(x["wallMs"] for x in r)
    dm = statistics.median(x["decisionMs"] for x in r)
    if base is None: base = (fs, wall)
    print(f"| {v} | {len(r)} | {r[0]['outcome']} / {r[0]['reason']} | {dm:.0f} | {fs:.0f} ({fs - base[0]:+.0f}) | {wall:.0f} ({wall - base[1]:+.0f}) |")
PY
echo "raw runs: $out"
