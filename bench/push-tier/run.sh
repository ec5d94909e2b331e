#!/usr/bin/env bash
# ESS vs Spark's push-based tier on the YARN harness (push-tier performance): the shuffle read blocked time (fetch
# wait, summed over tasks from the event log) of deploy/jobs/tiny_blocks.py, one MiniYARNCluster, the two confs in
# alternating order one application at a time, ROUNDS rounds, medians. See README.md.
#   bench/push-tier/run.sh [ROUNDS=3]
# Env: SLUICE_BENCH_ROWS (400000), SLUICE_BENCH_MAPS (200).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
rounds="${1:-3}"
out="$root/bench/push-tier/results/push-tier-$(date -u +%Y%m%dT%H%M%SZ).tsv"
cd "$root"
[ -x .sluice/spark/3.5.7/pyspark/bin/spark-submit ] || deploy/bin/install-spark.sh 3.5.7
# the benchmark is a JUnit class in fallback/yarn-it that surefire's *Test/*ITCase includes leave out: run it by name
mvn -q -B -o -pl fallback/yarn-it test -Dtest=PushTierBench -Dsurefire.failIfNoSpecifiedTests=false \
  -Dsluice.bench.rounds="$rounds" -Dsluice.bench.rows="${SLUICE_BENCH_ROWS:-400000}" \
  -Dsluice.bench.maps="${SLUICE_BENCH_MAPS:-200}" -Dsluice.bench.out="$out" -Dyarn-it.fork-timeout=$((rounds * 500 + 300))
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$out"
