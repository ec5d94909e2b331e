#!/usr/bin/env bash
# Flink job soak: ShuffleProfileJob (local MiniCluster, parallelism 2, in-JVM Kafka) fed the fixture event logs at a
# steady multiple of the tiny-blocks demo's event rate the production way: the soak writes event logs as drivers do
# (APPID.inprogress, renamed when the application ends) and the real EventLogCollector follows the directory and
# publishes them; the job stores runs in the embedded stack's H2 TCP store server (EmbeddedStoreServer). Every
# component is restarted once under load: the broker at 20 % of the time (5 s down), the store server at 40 % (5 s
# down), the job at 60 % (cancelled and restored from its retained checkpoint), the collector at 80 % (closed, a new
# one resumes from its offsets file). Prints the lags every 5 s and checks that every application written is stored
# once with all its stages and published on sluice.profiles; exits non-zero if not.
#
#   bench/flink/run-flink-soak.sh [--minutes 10] [--factor 10] [--checkpoint-ms 2000] [--skip-build] [--out FILE]
#
# Prerequisite (done by the script unless --skip-build): mvn -pl event-ingest/flink-job,event-ingest/collectors -am install
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/bench/flink"
minutes=10 factor=10 checkpoint=2000 build=1 out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) minutes="$2"; shift 2 ;;
    --factor) factor="$2"; shift 2 ;;
    --checkpoint-ms) checkpoint="$2"; shift 2 ;;
    --skip-build) build=0; shift ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "run-flink-soak: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$out" ] || out="$here/results/flink-soak-$(date -u +%Y%m%dT%H%M%SZ).txt"
mkdir -p "$(dirname "$out")"
if [ $build = 1 ]; then
  (cd "$root" && mvn -q -B -pl event-ingest/flink-job,event-ingest/collectors -am install -DskipTests)
  (cd "$here" && mvn -q -B package)
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/sluice-flink-soak.XXXXXX")"
trap 'rm -rf "$work"' EXIT
{
  echo "# run-flink-soak $(date -u +%FT%TZ) minutes=$minutes factor=$factor checkpointMs=$checkpoint"
  echo "# host: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(java -version 2>&1 | head -n 1)"
  echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg); git HEAD $(git -C "$root" rev-parse --short HEAD)"
} | tee "$out"
set +e
java -Xms1g -Xmx2g -XX:+UseG1GC -cp "$here/target/classes:$here/target/lib/*" io.sluice.bench.flink.FlinkSoak \
  --root "$root" --work "$work/run" --minutes "$minutes" --factor "$factor" --checkpoint-ms "$checkpoint" \
  2>"$work/soak.err" | tee -a "$out"
rc=${PIPESTATUS[0]}
set -e
grep -E 'flink-bench: ' "$work/soak.err" | sed 's/^/# /' >>"$out" || true
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out"
if [ "$rc" != 0 ]; then tail -n 40 "$work/soak.err" >&2; echo "run-flink-soak: failed (exit $rc)" >&2; fi
echo "results: $out"
exit "$rc"
