#!/usr/bin/env bash
# ESS vs Spark's push-based tier on the YARN harness (push-tier performance): the shuffle read blocked time (fetch
# wait, summed over tasks from the event log) of deploy/jobs/tiny_blocks.py, one MiniYARNCluster, the two confs in
# alternating order one application at a time, ROUNDS rounds, medians. See README.md.
#   bench/push-tier/run.sh [ROUNDS=3]
# Env: SLUICE_BENCH_ROWS (400000), SLUICE_BENCH_MAPS (200).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/bench/push-tier"
rounds="${1:-3}"
out="$here/results/push-tier-$(date -u +%Y%m%dT%H%M%SZ).tsv"
cd "$root"
[ -x .sluice/spark/3.5.7/pyspark/bin/spark-submit ] || deploy/bin/install-spark.sh 3.5.7
# the module's package phase writes its class path, the NM's aux class path and the fallback manager jar
mvn -q -B -ntp -pl bench/push-tier -am install -DskipTests
# Hadoop 3.4's RM/NM (Guice, cglib, reflection on JDK internals) need these on Java 17
opens=()
for p in java.lang java.lang.reflect java.util java.util.concurrent java.io java.net java.nio sun.nio.ch; do
  opens+=(--add-opens "java.base/$p=ALL-UNNAMED")
done
# from the module's directory: MiniYARNCluster keeps its data under ./target/test/data
cd "$here"
java "${opens[@]}" -Dsluice.root="$root" \
  -cp "$here/target/classes:$(cat "$here/target/classpath.txt")" io.sluice.bench.pushtier.PushTierBench \
  --rounds "$rounds" --rows "${SLUICE_BENCH_ROWS:-400000}" --maps "${SLUICE_BENCH_MAPS:-200}" --out "$out" \
  --work "$here/target/push-tier-bench" --manager-jar "$here/target/sluice-jars/sluice-fallback-manager.jar" \
  --aux-classpath "$here/target/aux-classpath"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$out"
