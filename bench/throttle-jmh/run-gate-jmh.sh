#!/usr/bin/env bash
# ESS throttle gate decision cost (docs/benchmarks.md, "ESS throttle gate: decision cost (JMH)").
#   bench/throttle-jmh/run-gate-jmh.sh [--skip-build] [JMH options...]
# Installs ess-throttle-patch/gate (-DskipTests), builds this project and runs GateDecisionBench; defaults are short
# (3 forks x 2 x 1 s warm-up + 2 x 1 s measurement per case, 18 cases: about 5 minutes). Output is also written to
# bench/throttle-jmh/results/gate-jmh-<time>.txt.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/bench/throttle-jmh"
build=1
if [ "${1:-}" = "--skip-build" ]; then build=0; shift; fi
if [ "$build" = 1 ]; then
  (cd "$root" && mvn -q -B -ntp -pl ess-throttle-patch/gate install -DskipTests)
  (cd "$here" && mvn -q -B -ntp package)
fi
mkdir -p "$here/results"
out="$here/results/gate-jmh-$(date -u +%Y%m%dT%H%M%SZ).txt"
jmh_args=("$@")
if [ ${#jmh_args[@]} -eq 0 ]; then
  jmh_args=(-f 3 -wi 2 -w 1s -i 2 -r 1s)
fi
{
  echo "# $(date -u +%FT%TZ) HEAD $(cd "$root" && git rev-parse --short HEAD) $(nproc) cores, $(java -version 2>&1 | head -1), load $(cut -d' ' -f1-3 /proc/loadavg)"
  java -cp "$here/target/classes:$here/target/lib/*" org.openjdk.jmh.Main GateDecisionBench -jvmArgs "-Xms1g -Xmx1g" \
    "${jmh_args[@]}"
  echo "# done $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
} 2>&1 | tee "$out"
echo "written: $out"
