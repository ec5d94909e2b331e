#!/usr/bin/env bash
# tuner-service submission API latency (docs/benchmarks.md, "tuner-service submission API latency").
#   bench/tuner/run-tuner-bench.sh [--skip-build] [--jobs 10000] [--rate 200] [--seconds 60] [--warmup 15]
#                                  [--down-rate 50] [--down-seconds 20] [--tier-rounds 1] [--down on|off]
# Builds tuner-service/service (-DskipTests) and this project, fills an H2 file store with the jobs (two runs each
# from the real tiny_blocks fixture), starts the service's boot jar per scenario (warm = push-tier decision off,
# warm-tier = a rule sends every job through rollout + history admission + Celeborn overlay, alternating per round;
# then store-dead, store-silent unless --down off),
# drives open-loop POST /api/v1/submissions and prints one TUNER_BENCH line per scenario; the output is also written
# to bench/tuner/results/tuner-bench-<time>.txt. Work files: bench/tuner/target/work (deleted first).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/bench/tuner"
build=1
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --skip-build) build=0; shift ;;
    --*) args+=("$1" "$2"); shift 2 ;;
    *) echo "run-tuner-bench: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [ "$build" = 1 ]; then
  (cd "$root" && mvn -q -B -ntp -pl tuner-service/service install -DskipTests)
  (cd "$here" && mvn -q -B -ntp package)
fi
jar="$(ls "$root"/tuner-service/service/target/sluice-tuner-service-*.jar | grep -v original | head -1)"
rm -rf "$here/target/work"
mkdir -p "$here/results"
out="$here/results/tuner-bench-$(date -u +%Y%m%dT%H%M%SZ).txt"
{
  echo "# $(date -u +%FT%TZ) HEAD $(cd "$root" && git rev-parse --short HEAD) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$here/target/classes:$here/target/lib/*" \
    io.sluice.bench.tuner.SubmissionLatencyBench --service-jar "$jar" --root "$root" --work "$here/target/work" \
    ${args[@]+"${args[@]}"}
  echo "# done $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
} 2>&1 | tee "$out"
echo "written: $out"
