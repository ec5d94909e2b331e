#!/usr/bin/env bash
# Regenerates the real Spark event-log fixtures in deploy/fixtures/eventlogs/ by running the
# shuffle jobs of deploy/jobs/ on a loopback standalone cluster (deploy/bin/spark-cluster.sh),
# one application at a time, per Spark version, with varied event-log formats.
#
#   make-fixtures.sh [--version V]... [--only NAME]... [--keep-cluster]
#
# Default versions: 3.5.7 and 4.0.1. --only limits to fixture names (see the table below).
# The cluster is stopped at the end unless it was already running before (or --keep-cluster).
# Output: deploy/fixtures/eventlogs/spark-<version>/<fixture>/<Spark's own file or dir name>,
# deploy/fixtures/eventlogs/MANIFEST.tsv (one line per fixture) and a timing log in
# .sluice/fixtures/timings-<version>.tsv. App ids change on every run.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="$root/deploy/bin"
out_root="$root/deploy/fixtures/eventlogs"
versions=()
only=()
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --version) versions+=("$2"); shift 2 ;;
    --only) only+=("$2"); shift 2 ;;
    --keep-cluster) keep=1; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "make-fixtures: unknown option $1" >&2; exit 2 ;;
  esac
done
[ ${#versions[@]} -gt 0 ] || versions=(3.5.7 4.0.1)

# Event-log formats (confs appended to the job's own).
fmt_confs() {
  case "$1" in
    plain)   echo "spark.eventLog.compress=false spark.eventLog.rolling.enabled=false" ;;
    lz4|snappy|lzf|zstd)
             echo "spark.eventLog.compress=true spark.eventLog.compression.codec=$1 spark.eventLog.rolling.enabled=false" ;;
    rolling) echo "spark.eventLog.compress=false spark.eventLog.rolling.enabled=true spark.eventLog.rolling.maxFileSize=10m" ;;
    rolling-lz4) echo "spark.eventLog.compress=true spark.eventLog.compression.codec=lz4 spark.eventLog.rolling.enabled=true spark.eventLog.rolling.maxFileSize=10m" ;;
    default) echo "" ;;   # the version's own defaults (4.x: rolling + zstd)
    *) echo "make-fixtures: unknown format $1" >&2; exit 2 ;;
  esac
}

# Job confs and args. Common settings (ESS on, readHostLocalDisk=false, 2 x 1-core 512m
# executors, no dynamic allocation) come from deploy/jobs/submit.sh.
job_confs() {
  case "$1" in
    healthy)      echo "spark.sql.shuffle.partitions=8" ;;
    tiny_blocks)  echo "spark.sql.adaptive.enabled=false spark.sql.shuffle.partitions=200" ;;
    skew)         echo "spark.sql.adaptive.enabled=false spark.sql.autoBroadcastJoinThreshold=-1 spark.sql.shuffle.partitions=16" ;;
    spill)        echo "spark.sql.adaptive.enabled=false spark.sql.shuffle.partitions=4 spark.memory.fraction=0.05" ;;
    failures)     echo "spark.sql.adaptive.enabled=false spark.sql.shuffle.partitions=8 spark.task.maxFailures=4" ;;
    fetch_failed) echo "spark.task.maxFailures=4 spark.stage.maxConsecutiveAttempts=4" ;;
    small_tasks)  echo "spark.sql.adaptive.enabled=false spark.sql.shuffle.partitions=600" ;;
    few_partitions) echo "spark.sql.adaptive.enabled=false spark.sql.shuffle.partitions=2" ;;
    aqe_advisory) echo "spark.sql.shuffle.partitions=200 spark.default.parallelism=200 spark.sql.adaptive.advisoryPartitionSizeInBytes=64m" ;;
    codec_lz4)    echo "spark.sql.adaptive.enabled=false spark.sql.shuffle.partitions=16" ;;
    small_splits) echo "spark.sql.files.maxPartitionBytes=131072 spark.sql.shuffle.partitions=8" ;;
    dynalloc_tracking) echo "spark.dynamicAllocation.enabled=true spark.shuffle.service.enabled=false spark.sql.shuffle.partitions=8" ;;
    dynalloc_no_tracking) echo "spark.dynamicAllocation.enabled=true spark.shuffle.service.enabled=false spark.dynamicAllocation.shuffleTracking.enabled=false spark.decommission.enabled=true spark.storage.decommission.enabled=true spark.storage.decommission.shuffleBlocks.enabled=true spark.sql.shuffle.partitions=8" ;;
  esac
}
# The deploy/jobs script a job key runs (default: the key itself).
job_script() {
  case "$1" in
    small_tasks|dynalloc_tracking|dynalloc_no_tracking) echo healthy ;;
    few_partitions|aqe_advisory|codec_lz4) echo wide_shuffle ;;
    *) echo "$1" ;;
  esac
}
job_args() {
  case "$1" in
    healthy)      echo "--rows 2000000 --maps 8 --keys 50000" ;;
    tiny_blocks)  echo "--rows 400000 --maps 200" ;;
    skew)         echo "--rows 1500000 --maps 8 --keys 20000 --hot-fraction 0.6" ;;
    spill)        echo "--rows 1500000 --maps 4 --payload 60" ;;
    failures)     echo "--rows 400000 --maps 8 --fail-every 3" ;;
    fetch_failed) echo "--rows 300000 --maps 8 --reducers 24" ;;
    small_tasks)  echo "--rows 300000 --maps 4 --keys 20000" ;;
    few_partitions) echo "--rows 1000000 --maps 8 --payload 100" ;;
    aqe_advisory) echo "--rows 1000000 --maps 8 --payload 100" ;;
    codec_lz4)    echo "--rows 1500000 --maps 8 --payload 120 --text" ;;
    small_splits) echo "--files 8 --mb-per-file 6 --keys 16" ;;
    dynalloc_tracking|dynalloc_no_tracking) echo "--rows 500000 --maps 8 --keys 20000" ;;
  esac
}
job_pathology() {
  case "$1" in
    healthy)      echo "none: 8 maps, 8 shuffle partitions (AQE on, may coalesce), blocks of hundreds of KB; two jobs, three shuffles" ;;
    tiny_blocks)  echo "SHUFFLE_SMALL_BLOCKS: 200 maps x 200 reducers (AQE off), blocks of ~tens of bytes, remote blocks served by the ESS" ;;
    skew)         echo "read skew: one hot key holds 60% of the fact rows in a sort-merge join (broadcast and AQE off), one reducer reads most of the shuffle" ;;
    spill)        echo "spill: spark.memory.fraction=0.05 on 512m executors; sort and aggregation spill (memoryBytesSpilled, diskBytesSpilled > 0)" ;;
    failures)     echo "task failures: a Python UDF raises on the first attempt of every 3rd partition in the map and reduce stages; retries succeed" ;;
    fetch_failed) echo "FetchFailed: reduce task 0 deletes one executor's shuffle files; later reducers fail to fetch, map stage and reduce stage re-run (stage attempt 1)" ;;
    small_tasks)  echo "TOO_MANY_SMALL_TASKS (healthy.py): 600 shuffle partitions (AQE off) over a few MB, reduce tasks of a few ms each" ;;
    few_partitions) echo "TOO_FEW_PARTITIONS (wide_shuffle.py): ~130 MB of incompressible rows into 2 shuffle partitions (AQE off), tens of MB per reduce task" ;;
    aqe_advisory) echo "AQE_ADVISORY_IGNORED (wide_shuffle.py): advisoryPartitionSizeInBytes=64m with parallelismFirst at its default (true) and default parallelism 200; AQE coalesces to ~1 MB partitions, not 64 MB" ;;
    codec_lz4)    echo "SHUFFLE_CODEC (wide_shuffle.py --text): compressible text shuffled with the default lz4 codec" ;;
    small_splits) echo "INPUT_SPLITS_TOO_SMALL (small_splits.py): 48 MB of CSV read with spark.sql.files.maxPartitionBytes=128k, ~400 map tasks writing a few hundred bytes each" ;;
    dynalloc_tracking) echo "DYNAMIC_ALLOCATION_WITHOUT_ESS (healthy.py): dynamic allocation on, ESS off, shuffle tracking at its 3.4+ default (on, timeout infinite)" ;;
    dynalloc_no_tracking) echo "DYNAMIC_ALLOCATION_WITHOUT_ESS (healthy.py): dynamic allocation on, ESS off, shuffle tracking off; only decommission shuffle-block migration keeps shuffle output" ;;
  esac
}

# fixture table per version: NAME JOB FORMAT [inprogress]
fixtures_for() {
  case "$1" in
    3.5.7)
      cat <<'EOF'
healthy-plain healthy plain inprogress
tiny_blocks-lz4 tiny_blocks lz4
skew-snappy skew snappy
spill-lzf spill lzf
failures-zstd failures zstd
fetch_failed-rolling fetch_failed rolling
small_tasks-zstd small_tasks zstd
few_partitions-zstd few_partitions zstd
aqe_advisory-zstd aqe_advisory zstd
codec_lz4-zstd codec_lz4 zstd
small_splits-zstd small_splits zstd
dynalloc_tracking-zstd dynalloc_tracking zstd
dynalloc_no_tracking-zstd dynalloc_no_tracking zstd
EOF
      ;;
    *)
      cat <<'EOF'
healthy-default healthy default inprogress
tiny_blocks-default tiny_blocks default
skew-default skew default
spill-default spill default
failures-default failures default
fetch_failed-default fetch_failed default
healthy-plain healthy plain
EOF
      ;;
  esac
}

wanted() {
  [ ${#only[@]} -eq 0 ] && return 0
  local o; for o in "${only[@]}"; do [ "$o" = "$1" ] && return 0; done; return 1
}

# waits until the size of $1 (file or dir) has not changed for 1.5 s (at most 8 s)
settle() {
  local last="" now stable=0 i
  for ((i = 0; i < 40; i++)); do
    now="$(du -sb "$1" 2>/dev/null | cut -f1)"
    if [ "$now" = "$last" ]; then stable=$((stable + 1)); [ $stable -ge 7 ] && return 0; else stable=0; fi
    last="$now"; sleep 0.2
  done
}

# Copies the in-progress log of the app being written under $1 into $2 once its first SQL query
# has ended (the job pauses after it and the log has settled), so the copy is a real prefix
# written by Spark.
snapshot_inprogress() {
  local stage="$1" dest="$2" i f
  for ((i = 0; i < 600; i++)); do
    for f in "$stage"/*.inprogress "$stage"/eventlog_v2_*/appstatus_*.inprogress; do
      [ -e "$f" ] || continue
      if [[ "$f" == */appstatus_* ]]; then
        # rolling dir: wait for the first job's end to be flushed into the events file(s)
        local d; d="$(dirname "$f")"
        if python3 "$root/deploy/fixtures/eventlog.py" --has-event \
             org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd "$d" >/dev/null 2>&1; then
          settle "$d"; mkdir -p "$dest"; cp -r "$d" "$dest/"; return 0
        fi
      elif grep -q '"Event":"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd"' "$f" 2>/dev/null; then
        settle "$f"; mkdir -p "$dest"; cp "$f" "$dest/"; return 0
      fi
    done
    sleep 0.2
  done
  echo "make-fixtures: WARNING no in-progress snapshot taken under $stage" >&2
}

# MANIFEST.tsv lists every fixture of the tables above that exists on disk.
write_manifest() {
  local v name job fmt extra iname
  {
    printf 'spark_version\tfixture\tjob\tformat\tfiles\tjob_args\tjob_confs\tpathology\n'
    for v in 3.5.7 4.0.1; do
      while read -r name job fmt extra; do
        if [ -d "$out_root/spark-$v/$name" ]; then
          printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$v" "$name" "$job" "$fmt" \
            "$(cd "$out_root/spark-$v/$name" && find . -type f | sed 's|^\./||' | sort | tr '\n' ' ' | sed 's/ $//')" \
            "$(job_args "$job")" "$(job_confs "$job") $(fmt_confs "$fmt")" "$(job_pathology "$job")"
        fi
        iname="${name%%-*}-inprogress"
        if [ "${extra:-}" = inprogress ] && [ -d "$out_root/spark-$v/$iname" ]; then
          printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$v" "$iname" "$job" "$fmt, in-progress" \
            "$(cd "$out_root/spark-$v/$iname" && find . -type f | sed 's|^\./||' | sort | tr '\n' ' ' | sed 's/ $//')" \
            "$(job_args "$job") --pause 8" "$(job_confs "$job") $(fmt_confs "$fmt")" \
            "in-progress: a copy of the $name run's log taken while the app paused after its first query (Spark-written prefix; no ApplicationEnd)"
        fi
      done < <(fixtures_for "$v")
    done
  } >"$out_root/MANIFEST.tsv"
}

main() {
for v in "${versions[@]}"; do
  state="$root/.sluice/run/spark-$v"
  was_running=0
  if "$bin/spark-cluster.sh" status --version "$v" >/dev/null 2>&1; then was_running=1; fi
  t0=$SECONDS
  "$bin/spark-cluster.sh" start --version "$v" --workers 1
  echo "make-fixtures: cluster $v ready in $((SECONDS - t0))s" >&2
  stage_root="$root/.sluice/fixtures/stage-$v"
  timings="$root/.sluice/fixtures/timings-$v.tsv"
  mkdir -p "$root/.sluice/fixtures"
  : >"$timings"
  out="$out_root/spark-$v"
  mkdir -p "$out"
  while read -r name job fmt extra; do
    [ -n "$name" ] || continue
    wanted "$name" || continue
    stage="$stage_root/$name"
    rm -rf "$stage"; mkdir -p "$stage"
    confs=()
    for c in $(job_confs "$job") $(fmt_confs "$fmt"); do confs+=(--conf "$c"); done
    confs+=(--conf "spark.sluice.fixture=$name")
    args=($(job_args "$job"))
    inprog_pid=""
    if [ "${extra:-}" = inprogress ]; then
      args+=(--pause 8)
      rm -rf "$stage.inprogress"
      snapshot_inprogress "$stage" "$stage.inprogress" &
      inprog_pid=$!
    fi
    echo "make-fixtures: [$v] $name: $job ${args[*]} ($fmt)" >&2
    t1=$SECONDS
    if ! "$root/deploy/jobs/submit.sh" --version "$v" --event-log-dir "$stage" "${confs[@]}" \
         "$(job_script "$job")" --app-name "sluice-fixture-$name" "${args[@]}" >"$stage.log" 2>&1; then
      echo "make-fixtures: [$v] $name FAILED; tail of $stage.log:" >&2; tail -n 30 "$stage.log" >&2
      [ -n "$inprog_pid" ] && kill "$inprog_pid" 2>/dev/null
      exit 1
    fi
    secs=$((SECONDS - t1))
    [ -n "$inprog_pid" ] && wait "$inprog_pid" || true
    grep -E "^[a-z_]+: " "$stage.log" >&2 || true
    printf '%s\t%s\t%s\n' "$name" "$secs" "$(grep -E '^[a-z_]+: ' "$stage.log" | tail -1)" >>"$timings"
    # move Spark's file/dir (original name, app id inside) into the fixture dir
    rm -rf "${out:?}/$name"; mkdir -p "$out/$name"
    produced=("$stage"/*)
    [ -e "${produced[0]}" ] || { echo "make-fixtures: [$v] $name wrote no event log" >&2; exit 1; }
    mv "$stage"/* "$out/$name/"
    if [ -n "$inprog_pid" ] && [ -d "$stage.inprogress" ]; then
      iname="${name%%-*}-inprogress"
      rm -rf "${out:?}/$iname"; mkdir -p "$out/$iname"
      mv "$stage.inprogress"/* "$out/$iname/"
    fi
    echo "make-fixtures: [$v] $name done in ${secs}s -> $(du -sh "$out/$name" | cut -f1)" >&2
  done < <(fixtures_for "$v")
  if [ $keep = 0 ] && [ $was_running = 0 ]; then "$bin/spark-cluster.sh" stop --version "$v"; fi
done

write_manifest
echo "make-fixtures: wrote $out_root/MANIFEST.tsv" >&2
}

main
exit 0
