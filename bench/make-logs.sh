#!/usr/bin/env bash
# Generates the bigger real Spark event logs the ingest benchmark reads, into .sluice/bench-logs/
# (gitignored). Starts a private loopback Spark 3.5.7 standalone cluster (own state dir, so it never
# touches a cluster someone else started), submits deploy/jobs/*.py with event logging on (plain,
# uncompressed, not rolling), then stops that cluster by its script.
#
#   bench/make-logs.sh [--force] [LOG...]     LOG: wide (default: all)
#
# Logs (each in .sluice/bench-logs/<name>/, Spark's own file name inside):
#   wide   tiny_blocks.py, 1500 maps x 1500 reducers, AQE off        -> 3,000 tasks, ~16 MB
#   skew   skew.py, 600 maps x 600 shuffle partitions, AQE off         -> ~1,800 tasks, ~12.5 MB (SMJ)
# Existing logs are kept unless --force.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
version=3.5.7
out_root="$root/.sluice/bench-logs"
state="$root/.sluice/run/bench-spark-$version"
force=0
wanted=()
for a in "$@"; do
  case "$a" in
    --force) force=1 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    wide|skew) wanted+=("$a") ;;
    *) echo "make-logs: unknown argument $a" >&2; exit 2 ;;
  esac
done
[ ${#wanted[@]} -gt 0 ] || wanted=(wide skew)

common=(--conf spark.eventLog.compress=false --conf spark.eventLog.rolling.enabled=false
        --conf spark.sql.adaptive.enabled=false)
job_of() {
  case "$1" in
    wide) echo "tiny_blocks --app-name sluice-bench-wide --rows 3000000 --maps 1500" ;;
    skew) echo "skew --app-name sluice-bench-skew --rows 3000000 --maps 600 --keys 50000 --hot-fraction 0.3" ;;
  esac
}
confs_of() {
  case "$1" in
    wide) echo "spark.sql.shuffle.partitions=1500" ;;
    skew) echo "spark.sql.shuffle.partitions=600 spark.sql.autoBroadcastJoinThreshold=-1" ;;
  esac
}

todo=()
for n in "${wanted[@]}"; do
  if [ $force = 1 ] || ! ls "$out_root/$n"/app-* >/dev/null 2>&1; then todo+=("$n"); fi
done
if [ ${#todo[@]} -eq 0 ]; then echo "make-logs: all logs present in $out_root" >&2; exit 0; fi

[ -d "$root/.sluice/spark/$version/pyspark" ] || "$root/deploy/bin/install-spark.sh" "$version"
mkdir -p "$out_root"
started=0
cleanup() { [ $started = 1 ] && "$root/deploy/bin/spark-cluster.sh" stop --version "$version" --state-dir "$state" || true; }
trap cleanup EXIT
"$root/deploy/bin/spark-cluster.sh" start --version "$version" --state-dir "$state" --workers 1
started=1
for n in "${todo[@]}"; do
  stage="$out_root/.stage-$n"
  rm -rf "$stage"; mkdir -p "$stage"
  confs=("${common[@]}")
  for c in $(confs_of "$n"); do confs+=(--conf "$c"); done
  echo "make-logs: $n: $(job_of "$n")" >&2
  t0=$SECONDS
  # shellcheck disable=SC2046
  if ! "$root/deploy/jobs/submit.sh" --version "$version" --state-dir "$state" --event-log-dir "$stage" \
       "${confs[@]}" $(job_of "$n") >"$stage.log" 2>&1; then
    echo "make-logs: $n FAILED; tail of $stage.log:" >&2; tail -n 30 "$stage.log" >&2; exit 1
  fi
  rm -rf "${out_root:?}/$n"; mkdir -p "$out_root/$n"
  mv "$stage"/* "$out_root/$n/"
  rmdir "$stage"
  f=("$out_root/$n"/app-*)
  echo "make-logs: $n done in $((SECONDS - t0))s: ${f[0]} $(stat -c %s "${f[0]}") bytes," \
       "$(grep -c '"Event":"SparkListenerTaskEnd"' "${f[0]}") task ends" >&2
done
