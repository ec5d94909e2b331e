#!/usr/bin/env bash
# Tuning effectiveness (docs/benchmarks.md): for each fixture workload, submit the SAME recurring job through sluice-submit
# until tuner-service reports it converged (state STABLE after a run) or --max-runs is reached, and report per run
# the overlay in force, the policy's decision and the figures (wall time, shuffle read blocked time = Σ fetch wait,
# shuffle bytes read/written, tasks, spill). Optionally (--compare N) run the untuned baseline and the final tuned
# state side by side N times at the end.
#
#   bench/tuning/run-tuning-bench.sh [--max-runs 6] [--only tiny_blocks,skew,...] [--compare 1] [--keep-stack]
#                                    [--with fetch_failed] [--repeat 1] [--neighbour]
#
# --repeat N tunes every workload N times, each repetition under its own job key (tuning-bench-<workload>-rK), so
# the runs to converge and the kept keys can be compared across repetitions.
# --neighbour runs a noisy neighbour beside the bench all along: tiny_blocks.py (200 x 200 shuffle, AQE off) in a
# loop on the same Spark cluster and shuffle service, with plain spark-submit (never tuned). The worker gets 4 cores
# so both applications hold executors at once; they compete for the machine's CPU and disk and for the ESS.
#
# What it does:
#   1. starts a private stack with `SLUICE_SKIP_BUILD=1 SLUICE_SKIP_DEMO=1 deploy/bin/sluice-stack up` under
#      .sluice/run/tuning-bench-<time>/ on free loopback ports (never the defaults 19092-19094) and a copy of the
#      tuner-service jar (so a concurrent rebuild of tuner-service/service cannot pull it from under the service);
#      build the stack's modules first (see deploy/bin/sluice-stack) — this script builds nothing. The shuffle
#      service is Spark's stock one (SLUICE_STOCK_ESS=1): throttling would confound the tuning figures.
#   2. per workload (its own job key tuning-bench-<workload>): deploy/jobs/submit.sh with SLUICE_SUBMIT_VIA=sluice,
#      the Sluice listener in the command, the workload's poor settings as --conf; waits for the finished run in
#      the history store (`sluice runs --app`), then reads GET /api/v1/jobs/history; stops when the run's
#      stateAfter is STABLE.
#      SLUICE_TUNER_JAR=PATH measures another tuner-service jar instead of tuner-service/service/target's.
#   3. writes bench/tuning/results/tuning-<time>.md (report.py render) and stops the stack (trap, by PID) unless
#      --keep-stack.
#
# Override mode: every workload's pathology is made by explicit settings (AQE off, spark.memory.fraction=0.05,
# maxPartitionBytes=128k, ...). With Sluice's defaults (a key the user set wins) those keys are untouchable and
# the tuner could only act on keys the user left implicit (the sluice-stack demo measures that case). This bench
# plays a platform team that lets Sluice override them: tuner-service runs with sluice.tuner.user-keys-win=false
# (env SLUICE_TUNER_USERKEYSWIN) and sluice-submit with SLUICE_OVERRIDE_USER_CONF=true (the user's value is kept
# under spark.sluice.original.*). Only allow-listed keys within bounds are ever changed.
#
# spill.py needs >= 800k rows here: at 600k its stages spill 18-25 MB to disk, under SHUFFLE_SPILL.minDiskSpillBytes
# (32 MiB), and no rule fires.
# Not included by default: failures.py (its injected task failures depend on partition ids and attempt numbers,
# so any partition change alters the failure count by construction; no rule recommends anything for task
# exceptions) and fetch_failed.py (it deletes shuffle files on purpose once per run: retries cannot cure it, so the
# only measurable effect is the policy rolling SHUFFLE_FETCH_FAILURES' retry settings back; `--with fetch_failed`
# runs it, capped at 3 runs, because each trial with retryWait=10s costs minutes).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
spark_version=3.5.7
max_runs=6
only=""
compare=0
keep=0
extra=()
repeat=1
neighbour=0
while [ $# -gt 0 ]; do
  case "$1" in
    --max-runs) max_runs="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --compare) compare="$2"; shift 2 ;;
    --keep-stack) keep=1; shift ;;
    --with) extra+=("$2"); shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --neighbour) neighbour=1; shift ;;
    -h|--help) sed -n '2,38p' "$0"; exit 0 ;;
    *) echo "run-tuning-bench: unknown option $1" >&2; exit 2 ;;
  esac
done

# name | job script | the workload's poor settings (explicit --conf) | job arguments (data size)
workloads=(
  "tiny_blocks|tiny_blocks|spark.sql.adaptive.enabled=false|--rows 400000 --maps 200"
  "wide_shuffle|wide_shuffle|spark.sql.shuffle.partitions=200 spark.default.parallelism=200 spark.sql.adaptive.advisoryPartitionSizeInBytes=64m|--rows 500000 --maps 8 --payload 100"
  "skew|skew|spark.sql.adaptive.enabled=false spark.sql.autoBroadcastJoinThreshold=-1 spark.sql.shuffle.partitions=16|--rows 1000000 --maps 8 --keys 20000 --hot-fraction 0.6"
  "spill|spill|spark.sql.adaptive.enabled=false spark.sql.shuffle.partitions=4 spark.memory.fraction=0.05|--rows 800000 --maps 4 --payload 60"
  "small_splits|small_splits|spark.sql.files.maxPartitionBytes=131072 spark.sql.shuffle.partitions=8|--files 8 --mb-per-file 6 --keys 16"
  "healthy|healthy|spark.sql.shuffle.partitions=8|--rows 1000000 --maps 8 --keys 50000"
)
for x in ${extra[@]+"${extra[@]}"}; do
  case "$x" in
    fetch_failed) workloads+=("fetch_failed|fetch_failed|spark.task.maxFailures=4 spark.stage.maxConsecutiveAttempts=4|--rows 300000 --maps 8 --reducers 24") ;;
    *) echo "run-tuning-bench: --with knows fetch_failed only" >&2; exit 2 ;;
  esac
done

say() { echo "tuning-bench: $*" >&2; }
die() { say "$*"; exit 1; }

ts="$(date -u +%Y%m%dT%H%M%SZ)"
stack="$root/.sluice/run/tuning-bench-$ts"
data="$stack/data"
results="$here/results"
report="$results/tuning-$ts.md"
mkdir -p "$data" "$results"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
kafka_port="$(free_port)"; store_port="$(free_port)"; tuner_port="$(free_port)"
for p in "$kafka_port" "$store_port" "$tuner_port"; do
  case "$p" in 19092|19093|19094) die "free port finder gave a default stack port ($p); run again" ;; esac
done
tuner_url="http://127.0.0.1:$tuner_port"
store_url="jdbc:h2:tcp://127.0.0.1:$store_port/sluice-history"

listener="$(ls "$root"/event-ingest/listener/target/sluice-spark-listener-*.jar 2>/dev/null | grep -v original | head -1 || true)"
[ -n "$listener" ] || die "listener jar not built (mvn -q -B -pl event-ingest/listener package)"
tuner_jar_src="${SLUICE_TUNER_JAR:-}"   # another tuner-service jar to measure (e.g. a candidate policy built elsewhere)
[ -n "$tuner_jar_src" ] || tuner_jar_src="$(ls "$root"/tuner-service/service/target/sluice-tuner-service-*.jar 2>/dev/null | grep -v original | head -1 || true)"
[ -n "$tuner_jar_src" ] || die "tuner-service not built (mvn -q -B -pl tuner-service/service install -DskipTests)"
client_jar_src="$(ls "$root"/tuner-service/client/target/sluice-tuner-client-*-all.jar 2>/dev/null | head -1 || true)"
[ -n "$client_jar_src" ] || die "tuner client jar not built (mvn -q -B -pl tuner-service/client package)"
# private copies: other work rebuilding these modules must not change (or break) them in the middle of the runs
cp "$tuner_jar_src" "$stack/sluice-tuner-service.jar"
cp "$client_jar_src" "$stack/sluice-tuner-client-all.jar"
cp "$listener" "$stack/sluice-spark-listener.jar"
listener="$stack/sluice-spark-listener.jar"

stack_env=(SLUICE_STACK_DIR="$stack" SLUICE_SKIP_BUILD=1 SLUICE_SKIP_DEMO=1
  SLUICE_KAFKA_PORT="$kafka_port" SLUICE_STORE_PORT="$store_port" SLUICE_TUNER_PORT="$tuner_port"
  SLUICE_SPARK_MASTER_PORT="$(free_port)" SLUICE_SPARK_WEBUI_PORT="$(free_port)" SLUICE_SPARK_ESS_PORT="$(free_port)"
  SLUICE_SPARK_WORKER_MEMORY=4g SLUICE_SPARK_WORKER_CORES=4 SLUICE_TUNER_JAR="$stack/sluice-tuner-service.jar" SLUICE_TUNER_USERKEYSWIN=false
  SLUICE_STOCK_ESS=1 SLUICE_GATE_PORT="$(free_port)"
  SLUICE_TUNER_SUBMISSIONTIMEOUT="${SLUICE_BENCH_SUBMISSION_TIMEOUT:-10s}")

child=""
noisy=""
cleanup() {
  local rc=$?
  if [ -n "$noisy" ] && kill -0 "$noisy" 2>/dev/null; then
    kill -- -"$noisy" 2>/dev/null || kill "$noisy" 2>/dev/null || true
    wait "$noisy" 2>/dev/null || true
  fi
  if [ -n "$child" ] && kill -0 "$child" 2>/dev/null; then kill "$child" 2>/dev/null || true; wait "$child" 2>/dev/null || true; fi
  if [ "$keep" = 1 ]; then
    say "stack left running: SLUICE_STACK_DIR=$stack deploy/bin/sluice-stack down"
  else
    env "${stack_env[@]}" "$root/deploy/bin/sluice-stack" down >&2 || true
  fi
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

{
  echo "started $(date -u '+%Y-%m-%d %H:%M:%S') UTC; HEAD $(git -C "$root" rev-parse --short HEAD)"
  for j in "$tuner_jar_src" "$client_jar_src" "$root"/event-ingest/listener/target/sluice-spark-listener-*.jar; do
    case "$j" in */original-*) continue ;; esac
    echo "$(basename "$j") built $(stat -c '%y' "$j" | cut -d. -f1) sha256 $(sha256sum "$j" | cut -c1-12)"
  done
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); nproc $(nproc)"
} > "$data/machine.txt"

say "starting the stack in $stack (kafka $kafka_port, store $store_port, tuner $tuner_port)"
t_stack=$SECONDS
env "${stack_env[@]}" "$root/deploy/bin/sluice-stack" up >&2
health=""
for _ in $(seq 1 120); do
  health="$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$tuner_url/actuator/health/readiness" || true)"
  [ "$health" = 200 ] && break
  sleep 1
done
[ "$health" = 200 ] || die "tuner-service not ready (log $stack/tuner.log)"
say "stack up in $((SECONDS - t_stack)) s"

# waits for APP's finished run in the store and writes its AppRun JSON to FILE
stored_run() {
  local app="$1" file="$2" status=""
  for _ in $(seq 1 30); do
    # the store's password: the file sluice-stack generated in the stack dir (never on a command line)
    if SLUICE_STORE_PASSWORD_FILE="$stack/store.password" "$root/deploy/bin/sluice" runs --store "$store_url" \
        --app "$app" --wait 120 --format json > "$file.tmp" 2>"$file.err"; then
      status="$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline()).get("status",""))' "$file.tmp" 2>/dev/null || true)"
      case "$status" in SUCCEEDED|FAILED) mv "$file.tmp" "$file"; return 0 ;; esac
    fi
    sleep 2
  done
  say "run $app not stored as finished (last status '$status', $(cat "$file.err" 2>/dev/null | tail -1))"
  return 1
}

# submit WORKLOAD_DIR EVENTLOG_DIR VIA(sluice|plain) JOBKEY JOB CONFS ARGS [EXTRA_CONF...] -> sets app, rc, submit_s
submit() {
  local log="$1" evdir="$2" via="$3" key="$4" job="$5" confs="$6" args="$7"; shift 7
  local conf_args=() c
  for c in $confs "$@"; do conf_args+=(--conf "$c"); done
  mkdir -p "$evdir"
  local t0=$SECONDS
  # shellcheck disable=SC2086
  env SLUICE_SUBMIT_VIA="$([ "$via" = sluice ] && echo sluice || echo plain)" SLUICE_TUNER_URL="$tuner_url" \
    SLUICE_TUNER_TOKEN_FILE="$stack/credentials/reporter-token" \
    SLUICE_CLUSTER=local SLUICE_STATE_DIR="$stack/submit-state" SLUICE_TUNER_TIMEOUT_MS="$tuner_timeout_ms" \
    SLUICE_OVERRIDE_USER_CONF=true SLUICE_CLIENT_JAR="$stack/sluice-tuner-client-all.jar" \
    timeout 900 "$root/deploy/jobs/submit.sh" --version "$spark_version" --state-dir "$stack/spark" \
      --event-log-dir "$evdir" \
      --conf spark.jars="$listener" --conf spark.extraListeners=io.sluice.listener.SluiceKafkaListener \
      --conf spark.sluice.kafka.bootstrap="127.0.0.1:$kafka_port" --conf spark.sluice.cluster=local \
      --conf spark.sluice.job.key="$key" ${conf_args[@]+"${conf_args[@]}"} \
      "$job" --app-name "$key" $args > "$log" 2>&1 &
  child=$!
  rc=0; wait "$child" || rc=$?
  child=""
  submit_s=$((SECONDS - t0))
  app="$(ls "$evdir" 2>/dev/null | grep -oE 'app-[0-9]+-[0-9]+' | head -1 || true)"
}

# how long sluice-submit waits for tuner-service before it runs the command unchanged: a fail-open run is a lost
# trial here, and at load 40 on this machine the service's first answers took over 5 s. The service itself answers
# "no overlay" when the store does not answer a submission within sluice.tuner.submission-timeout (200 ms by
# default, over 200 ms at load 40): the stack's tuner-service gets 10 s (SLUICE_BENCH_SUBMISSION_TIMEOUT, through
# Spring's environment binding) so that a slow store does not turn the trials into untuned runs
tuner_timeout_ms="${SLUICE_BENCH_TUNER_TIMEOUT_MS:-20000}"

selected() { [ -z "$only" ] || [[ ",$only," == *",$1,"* ]]; }

if [ "$neighbour" = 1 ]; then
  # the noisy neighbour: its own process group, so the trap stops the loop and its spark-submit together
  mkdir -p "$stack/eventlogs/neighbour"
  set -m
  (
    k=0
    while :; do
      k=$((k + 1))
      env SLUICE_SUBMIT_VIA=plain timeout 900 "$root/deploy/jobs/submit.sh" --version "$spark_version" \
        --state-dir "$stack/spark" --event-log-dir "$stack/eventlogs/neighbour" \
        --conf spark.sql.adaptive.enabled=false tiny_blocks --app-name noisy-neighbour --rows 400000 --maps 200 \
        > "$data/neighbour-$k.log" 2>&1 || true
      echo "$(date -u +%H:%M:%S) neighbour run $k ended" >> "$data/neighbour.txt"
    done
  ) &
  noisy=$!
  set +m
  say "noisy neighbour started (pid $noisy)"
  echo "noisy neighbour: tiny_blocks.py --rows 400000 --maps 200, AQE off, plain spark-submit in a loop" >> "$data/machine.txt"
fi

: > "$data/workloads.tsv"
t_all=$SECONDS
for rep_k in $(seq 1 "$repeat"); do
for w in "${workloads[@]}"; do
  IFS='|' read -r base_name job confs args <<< "$w"
  selected "$base_name" || continue
  name="$base_name"; [ "$repeat" -gt 1 ] && name="$base_name-r$rep_k"
  printf '%s\t%s\t%s\t%s\n' "$name" "$job" "$confs" "$args" >> "$data/workloads.tsv"
  key="tuning-bench-$name"
  dir="$data/tune/$name"; mkdir -p "$dir"
  cap="$max_runs"; [ "$base_name" = fetch_failed ] && [ "$cap" -gt 3 ] && cap=3
  t_w=$SECONDS
  for i in $(seq 1 "$cap"); do
    n="$(printf %02d "$i")"
    say "$name run $i/$cap"
    submit "$dir/$n.submit.log" "$stack/eventlogs/$name-$n" sluice "$key" "$job" "$confs" "$args"
    grep -h '^sluice:' "$dir/$n.submit.log" | sed 's/^/  /' >&2 || true
    failopen=0; grep -q '^sluice: .*running your command unchanged' "$dir/$n.submit.log" && failopen=1
    echo "app=${app:-none} rc=$rc submit_s=$submit_s failopen=$failopen" > "$dir/$n.meta"
    if [ -z "$app" ]; then say "$name run $i: no event log (exit $rc, log $dir/$n.submit.log)"; continue; fi
    [ "$rc" = 0 ] || say "$name run $i: spark-submit exited $rc (log $dir/$n.submit.log)"
    stored_run "$app" "$dir/$n.apprun.json" || continue
    curl -sS --max-time 20 -H "@$stack/credentials/admin-auth.header" "$tuner_url/api/v1/jobs/history?jobKey=$key&limit=50" > "$dir/$n.history.json" \
      || say "$name run $i: history unavailable"
    python3 "$here/report.py" line "$dir/$n.apprun.json" "$dir/$n.history.json" >&2 || true
    state="$(python3 "$here/report.py" state "$dir/$n.history.json" "$app")"
    if [ "$state" = STABLE ]; then say "$name converged after run $i"; break; fi
  done
  curl -sS --max-time 20 -H "@$stack/credentials/admin-auth.header" "$tuner_url/api/v1/jobs/recommendation?jobKey=$key" > "$dir/recommendation.json" || true
  say "$name: $((SECONDS - t_w)) s"
done
done

if [ "$compare" -gt 0 ]; then
  # base = the workload's own confs; final = plus the kept overlay at the end; rejected = plus the overlay of the
  # last rolled-back trial (to check the rollback); variants whose overlay is empty or equal to another are skipped
  while IFS=$'\t' read -r -u 3 name job confs args; do
    dir="$data/compare/$name"; mkdir -p "$dir"
    kinds=(base); declare -A extra_confs=([base]="")
    while IFS=$'\t' read -r kind kv; do kinds+=("$kind"); extra_confs[$kind]="$kv"; done \
      < <(python3 "$here/report.py" variants "$data" "$name")
    [ "${#kinds[@]}" -gt 1 ] || { say "$name: tuning changed nothing, no comparison"; continue; }
    for r in $(seq 1 "$compare"); do
      order=("${kinds[@]}"); [ $((r % 2)) = 0 ] && mapfile -t order < <(printf '%s\n' "${kinds[@]}" | tac)
      for kind in "${order[@]}"; do
        n="$(printf %02d "$r")-$kind"
        say "$name compare round $r: $kind ${extra_confs[$kind]}"
        # shellcheck disable=SC2086
        submit "$dir/$n.submit.log" "$stack/eventlogs/cmp-$name-$n" plain "tuning-bench-$name-compare" "$job" "$confs" \
          "$args" ${extra_confs[$kind]}
        echo "app=${app:-none} rc=$rc submit_s=$submit_s overlay=${extra_confs[$kind]// /,}" > "$dir/$n.meta"
        [ -n "$app" ] && stored_run "$app" "$dir/$n.apprun.json" || say "$name $n: not stored"
      done
    done
    unset extra_confs
  done 3< "$data/workloads.tsv"
fi

echo "finished $(date -u '+%Y-%m-%d %H:%M:%S') UTC after $((SECONDS - t_all)) s of runs; load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$data/machine.txt"
{
  echo "# Tuning effectiveness run $ts"
  echo
  echo '```'
  echo "bench/tuning/run-tuning-bench.sh --max-runs $max_runs${only:+ --only $only} --compare $compare${extra[*]:+ --with ${extra[*]}} --repeat $repeat$([ "$neighbour" = 1 ] && echo ' --neighbour')"
  cat "$data/machine.txt"
  echo '```'
  echo
  python3 "$here/report.py" render "$data"
} > "$report"
cat "$report"
say "report: $report (raw data: $data)"
