#!/usr/bin/env bash
# Submits one of deploy/jobs/*.py to a cluster started by deploy/bin/spark-cluster.sh, with the
# settings every Sluice fixture/test run needs on one host: loopback driver, ESS enabled on the
# cluster's ESS port, spark.shuffle.readHostLocalDisk=false, no dynamic allocation, two 1-core
# 512m executors, no driver UI. Later --conf options override these defaults.
#
#   submit.sh [--version V] [--state-dir DIR] [--event-log-dir DIR] [--conf K=V]... JOB [JOB ARGS...]
#
# JOB is a name (healthy, tiny_blocks, skew, spill, failures, fetch_failed) or a path to a .py.
# --event-log-dir turns on spark.eventLog.enabled and writes there.
# SLUICE_SUBMIT_VIA=sluice runs the job through deploy/bin/sluice-submit (which asks tuner-service for an
# overlay, see its header for SLUICE_TUNER_URL etc.) instead of calling spark-submit directly.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
version="${SLUICE_SPARK_VERSION:-3.5.7}"
state_dir=""
eventlog_dir=""
confs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --version) version="$2"; shift 2 ;;
    --state-dir) state_dir="$2"; shift 2 ;;
    --event-log-dir) eventlog_dir="$2"; shift 2 ;;
    --conf) confs+=(--conf "$2"); shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    --*) echo "submit.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "submit.sh: JOB missing" >&2; exit 2; }
job="$1"; shift
[ -f "$job" ] || job="$root/deploy/jobs/${job%.py}.py"
[ -f "$job" ] || { echo "submit.sh: no such job $job" >&2; exit 2; }
[ -n "$state_dir" ] || state_dir="$root/.sluice/run/spark-$version"
envfile="$state_dir/cluster.env"
[ -f "$envfile" ] || { echo "submit.sh: no running cluster ($envfile missing); run deploy/bin/spark-cluster.sh start --version $version" >&2; exit 1; }
# shellcheck disable=SC1090
. "$envfile"

base=(
  --master "$SPARK_MASTER_URL"
  --driver-memory 512m
  --conf spark.driver.host=127.0.0.1
  --conf spark.driver.bindAddress=127.0.0.1
  --conf spark.ui.enabled=false
  --conf spark.shuffle.service.enabled=true
  --conf "spark.shuffle.service.port=$SPARK_ESS_PORT"
  --conf spark.shuffle.readHostLocalDisk=false
  --conf spark.dynamicAllocation.enabled=false
  --conf spark.executor.cores=1
  --conf spark.executor.memory=512m
  --conf spark.cores.max=2
  --conf spark.pyspark.python=python3
)
if [ -n "$eventlog_dir" ]; then
  mkdir -p "$eventlog_dir"
  base+=(--conf spark.eventLog.enabled=true --conf "spark.eventLog.dir=file://$(cd "$eventlog_dir" && pwd)")
fi
export SPARK_LOCAL_IP=127.0.0.1 SPARK_CONF_DIR="$SPARK_CLUSTER_STATE_DIR/conf" PYSPARK_PYTHON=python3
unset PYSPARK_DRIVER_PYTHON || true
if [ "${SLUICE_SUBMIT_VIA:-}" = sluice ]; then
  export SLUICE_SPARK_SUBMIT="$SPARK_HOME/bin/spark-submit"
  exec "$root/deploy/bin/sluice-submit" "${base[@]}" ${confs[@]+"${confs[@]}"} "$job" "$@"
fi
exec "$SPARK_HOME/bin/spark-submit" "${base[@]}" ${confs[@]+"${confs[@]}"} "$job" "$@"
