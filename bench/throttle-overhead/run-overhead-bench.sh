#!/usr/bin/env bash
# ESS throttle gate overhead when healthy (docs/benchmarks.md, "ESS throttle gate: overhead when healthy").
#   bench/throttle-overhead/run-overhead-bench.sh [--skip-build] [--rounds 8] [--seconds 4] [--clients 4]
#                                                 [--concurrent 4] [--blocks 50] [--block-bytes 4096]
# Builds ess-throttle-patch/ess (-DskipTests) and this project, then runs OverheadBench once per block size given in
# SLUICE_BENCH_BLOCK_BYTES (default "4096 65536"; --block-bytes overrides): Spark's real TransportServer serving real
# shuffle files, stock handler vs. gated handler in one JVM, rounds alternating, medians. Output also goes to
# bench/throttle-overhead/results/overhead-<time>.txt. Work files: bench/throttle-overhead/target/work (deleted first).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/bench/throttle-overhead"
build=1
args=()
sizes="${SLUICE_BENCH_BLOCK_BYTES:-4096 65536}"
while [ $# -gt 0 ]; do
  case "$1" in
    --skip-build) build=0; shift ;;
    --block-bytes) sizes="$2"; shift 2 ;;
    --*) args+=("$1" "$2"); shift 2 ;;
    *) echo "run-overhead-bench: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [ "$build" = 1 ]; then
  (cd "$root" && mvn -q -B -ntp -o -pl ess-throttle-patch/ess install -DskipTests)
  (cd "$here" && mvn -q -B -ntp -o package)
fi
mkdir -p "$here/results"
out="$here/results/overhead-$(date -u +%Y%m%dT%H%M%SZ).txt"
{
  echo "# $(date -u +%FT%TZ) HEAD $(cd "$root" && git rev-parse --short HEAD) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  for size in $sizes; do
    rm -rf "$here/target/work"
    java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$here/target/classes:$here/target/lib/*" \
      io.sluice.bench.throttle.OverheadBench --work "$here/target/work" --block-bytes "$size" ${args[@]+"${args[@]}"}
  done
  echo "# done $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
} 2>&1 | tee "$out"
echo "written: $out"
