#!/usr/bin/env bash
# The ingest benchmark in one command: Sluice's folding library vs Spark's ReplayListenerBus (no-op listener)
# vs a bare Jackson token pass, on the same real Spark event logs, each contender in its own forked JVM
# (same java, same JVM options), rounds alternating the contenders. Prints a markdown report and writes it to
# bench/results/ingest-<date>T<time>.md (one file per run; runs on the same day never overwrite each other).
#
#   bench/run-ingest-bench.sh [--no-install] [--rounds R] [--warmup W] [--iters N] [--no-profile]
#
# Steps: installs diagnosis-rules and event-ingest/core from the working tree into ~/.m2 (skip with
# --no-install), builds bench/ingest, makes the logs with bench/make-logs.sh if
# missing (starts and stops a private Spark cluster), writes a zstd copy of the wide log (zstd CLI, level 1,
# Spark's default level) for the decompression line, runs bench's Driver, and finally one JFR-profiled fork of
# Sluice and of Spark's replay (recordings in .sluice/bench-logs/profiles/).
# Environment: SLUICE_BENCH_JVM_OPTS (default "-Xms1g -Xmx1g -XX:+UseG1GC").
set -euo pipefail
orig_args="$*"
root="$(cd "$(dirname "$0")/.." && pwd)"
install=1
profile=1
rounds=5
warmup=10
iters=5
while [ $# -gt 0 ]; do
  case "$1" in
    --no-install) install=0; shift ;;
    --no-profile) profile=0; shift ;;
    --rounds) rounds="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --iters) iters="$2"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "run-ingest-bench: unknown argument $1" >&2; exit 2 ;;
  esac
done
cd "$root"
if [ $install = 1 ]; then
  echo "run-ingest-bench: installing diagnosis-rules, event-ingest/core (skipTests)" >&2
  mvn -q -B -pl diagnosis-rules,event-ingest/core install -DskipTests
fi
echo "run-ingest-bench: building bench/ingest" >&2
mvn -q -B -pl bench/ingest package -DskipTests
bench/make-logs.sh

logs="$root/.sluice/bench-logs"
one() { local f=("$logs/$1"/app-*); echo "${f[0]}"; }
wide="$(one wide)"
skew="$(one skew)"
zdir="$logs/wide-zstd"
zfile="$zdir/$(basename "$wide").zstd"
if [ ! -s "$zfile" ] || [ "$wide" -nt "$zfile" ]; then
  mkdir -p "$zdir"; rm -f "$zdir"/*
  zstd -q -1 -c "$wide" >"$zfile"
fi

spark_jars="$root/.sluice/spark/3.5.7/pyspark/jars"
[ -d "$spark_jars" ] || "$root/deploy/bin/install-spark.sh" 3.5.7
classes="$root/bench/ingest/target/classes"
sluice_cp="$classes:$(cat "$root/bench/ingest/target/runtime.classpath")"
spark_cp="$classes:$spark_jars/*"
results="$root/bench/results"
mkdir -p "$results"
out="$results/ingest-$(date +%Y-%m-%dT%H%M).md"
prof=()
[ $profile = 1 ] && prof=(--profile-dir "$logs/profiles")
core_rev="$(git -C "$root" log -1 --format=%h -- event-ingest/core diagnosis-rules)"
git -C "$root" diff --quiet -- event-ingest/core diagnosis-rules || core_rev="$core_rev+uncommitted changes"
echo "run-ingest-bench: event-core at $core_rev; running (this takes several minutes)" >&2
java -Xmx256m -cp "$sluice_cp" io.sluice.bench.Driver \
  --sluice-cp "$sluice_cp" --spark-cp "$spark_cp" \
  --jvm-opts "${SLUICE_BENCH_JVM_OPTS:--Xms1g -Xmx1g -XX:+UseG1GC}" \
  --rounds "$rounds" --warmup "$warmup" --iters "$iters" \
  --log "wide=$wide" --log "skew=$skew" --extra-log "wide.zstd=$zfile:sluice,spark-replay" \
  --command "bench/run-ingest-bench.sh${orig_args:+ $orig_args} (event-core at $core_rev)" \
  "${prof[@]}" --out "$out"
