#!/usr/bin/env bash
# Spark standalone cluster on loopback for Sluice tests, demos and fixtures.
#
#   spark-cluster.sh start|stop|status|restart [options]
#
# Starts, from the pyspark distribution in .sluice/spark/<version> (installed on demand by
# install-spark.sh): one Master, N Workers and one separate External Shuffle Service process.
# Workers never get spark.shuffle.service.enabled=true (they would start their own ESS and clash
# on the port); applications set it themselves, together with spark.shuffle.service.port.
#
# Options (environment variable in brackets):
#   --version V          Spark version                         [SLUICE_SPARK_VERSION, 3.5.7]
#   --workers N          number of Workers                     [SLUICE_SPARK_WORKERS, 1]
#   --worker-cores C     cores per Worker                      [SLUICE_SPARK_WORKER_CORES, 2]
#   --worker-memory M    memory per Worker                     [SLUICE_SPARK_WORKER_MEMORY, 2g]
#   --master-port P      master RPC port                       [SLUICE_SPARK_MASTER_PORT, 17077]
#   --webui-port P       master web UI port                    [SLUICE_SPARK_WEBUI_PORT, 18080]
#   --ess-port P         external shuffle service port         [SLUICE_SPARK_ESS_PORT, 7337]
#   --ess-class CLASS    main class of the shuffle service     [SLUICE_SPARK_ESS_CLASS,
#                                                    org.apache.spark.deploy.ExternalShuffleService]
#   --ess-classpath CP   extra classpath for the ESS only (SPARK_DAEMON_CLASSPATH, prepended)
#                                                              [SLUICE_SPARK_ESS_CLASSPATH]
#   --ess-opts "OPTS"    extra JVM options for the ESS only    [SLUICE_SPARK_ESS_OPTS]
#   --no-ess             do not start a shuffle service
#   --state-dir DIR      pid files, logs, cluster.env          [.sluice/run/spark-<version>]
#   --timeout S          seconds to wait for the cluster       [SLUICE_SPARK_START_TIMEOUT, 90]
# SLUICE_SPARK_DAEMON_MEMORY (default 512m) sets the daemons' heap.
#
# Ports given by default that are busy are replaced by the next free ones; ports given
# explicitly must be free. On start it prints (and writes to <state-dir>/cluster.env, which
# scripts can source):
#   SPARK_MASTER_URL=spark://127.0.0.1:PORT    SPARK_ESS_PORT=PORT    SPARK_HOME=...   etc.
# stop kills exactly the recorded PIDs (after checking they still are our daemons) and waits.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$(cd "$(dirname "$0")" && pwd)"

die() { echo "spark-cluster: $*" >&2; exit 1; }
log() { echo "spark-cluster: $*" >&2; }

cmd="${1:-}"; [ $# -gt 0 ] && shift || true
case "$cmd" in start|stop|status|restart) ;; -h|--help|help|"") sed -n '2,33p' "$0"; exit 0 ;;
  *) die "unknown command '$cmd' (start|stop|status|restart)" ;; esac

version="${SLUICE_SPARK_VERSION:-3.5.7}"
workers="${SLUICE_SPARK_WORKERS:-1}"
worker_cores="${SLUICE_SPARK_WORKER_CORES:-2}"
worker_memory="${SLUICE_SPARK_WORKER_MEMORY:-2g}"
master_port="${SLUICE_SPARK_MASTER_PORT:-}"
webui_port="${SLUICE_SPARK_WEBUI_PORT:-}"
ess_port="${SLUICE_SPARK_ESS_PORT:-}"
stock_ess=org.apache.spark.deploy.ExternalShuffleService
ess_class="${SLUICE_SPARK_ESS_CLASS:-$stock_ess}"
ess_classpath="${SLUICE_SPARK_ESS_CLASSPATH:-}"
ess_opts="${SLUICE_SPARK_ESS_OPTS:-}"
with_ess=1
state_dir="${SLUICE_SPARK_STATE_DIR:-}"
timeout="${SLUICE_SPARK_START_TIMEOUT:-90}"
daemon_memory="${SLUICE_SPARK_DAEMON_MEMORY:-512m}"

need() { [ $# -ge 2 ] || die "option $1 needs a value"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --version) need "$@"; version="$2"; shift 2 ;;
    --workers) need "$@"; workers="$2"; shift 2 ;;
    --worker-cores) need "$@"; worker_cores="$2"; shift 2 ;;
    --worker-memory) need "$@"; worker_memory="$2"; shift 2 ;;
    --master-port) need "$@"; master_port="$2"; shift 2 ;;
    --webui-port) need "$@"; webui_port="$2"; shift 2 ;;
    --ess-port) need "$@"; ess_port="$2"; shift 2 ;;
    --ess-class) need "$@"; ess_class="$2"; shift 2 ;;
    --ess-classpath) need "$@"; ess_classpath="$2"; shift 2 ;;
    --ess-opts) need "$@"; ess_opts="$2"; shift 2 ;;
    --no-ess) with_ess=0; shift ;;
    --state-dir) need "$@"; state_dir="$2"; shift 2 ;;
    --timeout) need "$@"; timeout="$2"; shift 2 ;;
    *) die "unknown option '$1'" ;;
  esac
done
[[ "$workers" =~ ^[0-9]+$ ]] && [ "$workers" -ge 1 ] || die "--workers must be a positive integer"
[ -n "$state_dir" ] || state_dir="$root/.sluice/run/spark-$version"
mkdir -p "$state_dir"
state_dir="$(cd "$state_dir" && pwd)"
spark_home="$root/.sluice/spark/$version/pyspark"
envfile="$state_dir/cluster.env"

# ---------------------------------------------------------------------------------------------
# pid bookkeeping and liveness: deploy/bin/lib/supervise.sh (pid + start time recorded by the child
# itself, so a recycled pid is never taken for one of ours). The JVMs also get
# -Dsluice.cluster=<state-dir> so that `ps` shows which cluster they belong to.
marker="-Dsluice.cluster=$state_dir"
sv_state="$state_dir" sv_tag=spark-cluster sv_marker="$marker"
# shellcheck source=lib/supervise.sh
. "$here/lib/supervise.sh"
stop_pid() { sv_stop_pid "$1" "$2" 20; }

do_stop() {
  local name pid any=0
  # workers first, then the ESS, the master last
  for name in $(sv_recorded | grep '^worker' || true) $(sv_recorded | grep -v '^worker' | grep -v '^master' || true) \
              $(sv_recorded | grep '^master' || true); do
    pid="$(sv_pid "$name")"
    if [ -n "$pid" ]; then stop_pid "$name" "$pid"; any=1
    else log "$name not running (stale pid file removed)"; fi
    rm -f "$state_dir/pids/$name.pid"
  done
  rm -f "$envfile"
  [ $any = 1 ] || log "nothing running in $state_dir"
}

do_status() {
  local name pid rc=0 n=0
  if [ -z "$(sv_recorded)" ]; then echo "stopped ($state_dir)"; return 3; fi
  for name in $(sv_recorded); do
    n=$((n + 1)); pid="$(sv_pid "$name")"
    if [ -n "$pid" ]; then echo "$name running pid=$pid"; else echo "$name DEAD (stale pid file)"; rc=1; fi
  done
  if [ -f "$envfile" ]; then
    # shellcheck disable=SC1090
    . "$envfile"
    local json
    if json="$(curl -fsS --max-time 3 "$SPARK_MASTER_WEBUI_URL/json/" 2>/dev/null)"; then
      python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print("master status=%s aliveworkers=%s cores=%s/%s activeapps=%d" % (d.get("status"), d.get("aliveworkers"), d.get("coresused"), d.get("cores"), len(d.get("activeapps", []))))' "$json"
    else echo "master web UI not answering at $SPARK_MASTER_WEBUI_URL"; rc=1; fi
    grep -E '^(SPARK_MASTER_URL|SPARK_MASTER_WEBUI_URL|SPARK_ESS_PORT)=' "$envfile"
  fi
  return $rc
}

tail_logs() { sv_tail_logs 25; }

launch() { # name logfile class [args...]  (env for the daemon is prepared by the caller)
  local name="$1" out="$2"; shift 2
  local cmd=("$spark_home/bin/spark-class" "$@")
  if [ "$name" = ess ] && [ "$1" != "$stock_ess" ]; then
    # spark-class applies SPARK_DAEMON_JAVA_OPTS/SPARK_DAEMON_CLASSPATH/SPARK_DAEMON_MEMORY only
    # to the daemon classes it knows. For a custom ESS main, ask Spark's launcher for the stock
    # ESS command (same classpath, options and, on 4.x, module flags) and swap the main class.
    local launcher_out rc sv
    sv="$(ls "$spark_home/jars" | sed -n 's/^spark-core_\([0-9.]*\)-.*\.jar$/\1/p' | head -n 1)"
    mapfile -d '' launcher_out < <(SPARK_SCALA_VERSION="$sv" java -Xmx128m -cp "$spark_home/jars/*" org.apache.spark.launcher.Main \
      "$stock_ess" "${@:2}"; printf '%d\0' $?)
    rc="${launcher_out[-1]}"; unset 'launcher_out[-1]'
    [ "$rc" = 0 ] && [ ${#launcher_out[@]} -gt 0 ] || die "Spark's launcher failed to build the ESS command"
    cmd=()
    local arg
    for arg in "${launcher_out[@]}"; do
      arg="${arg#$'\n'}"                    # the launcher's output starts with "\0\n"
      if [ -z "$arg" ]; then continue; fi
      if [ "$arg" = "$stock_ess" ]; then cmd+=("$1"); else cmd+=("$arg"); fi
    done
  fi
  # The child records its own pid and then execs spark-class, which execs java: the recorded pid
  # is the daemon's. setsid detaches it from our session so it survives this script.
  sv_launch "$name" "$out" "${cmd[@]}"
}

do_start() {
  # already running?
  local alive=0 dead=0 name
  for name in $(sv_recorded); do
    if [ -n "$(sv_pid "$name")" ]; then alive=$((alive + 1)); else dead=$((dead + 1)); fi
  done
  if [ $alive -gt 0 ] && [ $dead -eq 0 ] && [ -f "$envfile" ]; then
    log "already running in $state_dir (use stop first to change settings)"
    grep -E '^(SPARK_MASTER_URL|SPARK_MASTER_WEBUI_URL|SPARK_ESS_PORT|SPARK_HOME|SPARK_CLUSTER_ENV)=' "$envfile"
    return 0
  fi
  if [ $alive -gt 0 ] || [ $dead -gt 0 ]; then
    log "found a partial or stale cluster in $state_dir (alive=$alive, dead=$dead); cleaning up"
    do_stop
  fi

  [ -x "$spark_home/bin/spark-class" ] || "$here/install-spark.sh" "$version"
  [ -x "$spark_home/bin/spark-class" ] || die "no Spark distribution at $spark_home"

  rm -rf "$state_dir/pids" "$state_dir/logs"
  mkdir -p "$state_dir/pids" "$state_dir/logs" "$state_dir/conf" "$state_dir/local" "$state_dir/work"
  # an own, empty conf dir so nothing from elsewhere leaks into the daemons
  : >"$state_dir/conf/spark-defaults.conf"
  : >"$state_dir/conf/spark-env.sh"

  sv_taken_ports=""
  master_port="$(sv_pick_port "$master_port" 17077)"; sv_taken_ports+=" $master_port"
  webui_port="$(sv_pick_port "$webui_port" 18080)"; sv_taken_ports+=" $webui_port"
  if [ $with_ess = 1 ]; then ess_port="$(sv_pick_port "$ess_port" 7337)"; sv_taken_ports+=" $ess_port"; fi
  local worker_webui=()
  local i
  for ((i = 1; i <= workers; i++)); do
    worker_webui+=("$(sv_pick_port "" 18081)"); sv_taken_ports+=" ${worker_webui[-1]}"
  done

  export SPARK_HOME="$spark_home"
  export SPARK_CONF_DIR="$state_dir/conf"
  export SPARK_LOCAL_IP=127.0.0.1 SPARK_MASTER_HOST=127.0.0.1 SPARK_PUBLIC_DNS=127.0.0.1
  export SPARK_LOCAL_DIRS="$state_dir/local"
  export SPARK_LOG_DIR="$state_dir/logs" SPARK_PID_DIR="$state_dir/pids"
  export SPARK_DAEMON_MEMORY="$daemon_memory"
  export SPARK_NO_DAEMONIZE=1
  unset SPARK_MASTER_OPTS SPARK_WORKER_OPTS SPARK_SHUFFLE_OPTS SPARK_DAEMON_CLASSPATH || true
  local common="$marker -Djava.net.preferIPv4Stack=true"
  local master_url="spark://127.0.0.1:$master_port"

  local t0=$SECONDS
  SPARK_DAEMON_JAVA_OPTS="$common" \
    launch master "$state_dir/logs/master.out" org.apache.spark.deploy.master.Master \
      --host 127.0.0.1 --port "$master_port" --webui-port "$webui_port"
  log "master pid $(cut -d" " -f1 "$state_dir/pids/master.pid") on $master_url (web UI $webui_port)"

  if [ $with_ess = 1 ]; then
    mkdir -p "$state_dir/local/ess"
    # note: the stock ESS binds its port on all interfaces (it takes no host); the machine is
    # loopback-only, and clients reach it through 127.0.0.1.
    SPARK_DAEMON_JAVA_OPTS="$common -Dspark.shuffle.service.enabled=true -Dspark.shuffle.service.port=$ess_port -Dspark.local.dir=$state_dir/local/ess $ess_opts" \
    SPARK_DAEMON_CLASSPATH="$ess_classpath" \
      launch ess "$state_dir/logs/ess.out" "$ess_class"
    log "shuffle service ($ess_class) pid $(cut -d" " -f1 "$state_dir/pids/ess.pid") on port $ess_port"
  fi

  for ((i = 1; i <= workers; i++)); do
    mkdir -p "$state_dir/work/worker-$i" "$state_dir/local/worker-$i"
    SPARK_LOCAL_DIRS="$state_dir/local/worker-$i" \
    SPARK_DAEMON_JAVA_OPTS="$common -Dspark.shuffle.service.enabled=false" \
      launch "worker-$i" "$state_dir/logs/worker-$i.out" org.apache.spark.deploy.worker.Worker \
        --host 127.0.0.1 --cores "$worker_cores" --memory "$worker_memory" \
        --webui-port "${worker_webui[$((i - 1))]}" --work-dir "$state_dir/work/worker-$i" "$master_url"
  done

  # wait until the master sees N alive workers and the ESS port answers
  local json alive_workers=0 ess_up=$((1 - with_ess))
  while :; do
    # shellcheck disable=SC2046
    if sv_first_dead $(sv_recorded); then
      log "$sv_dead died during start-up"; tail_logs; do_stop >/dev/null 2>&1 || true
      die "start failed ($sv_dead died); logs in $state_dir/logs"
    fi
    if json="$(curl -fsS --max-time 2 "http://127.0.0.1:$webui_port/json/" 2>/dev/null)"; then
      alive_workers="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1]).get("aliveworkers", 0))' "$json" 2>/dev/null || echo 0)"
    fi
    if [ $ess_up = 0 ] && python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.5).close()' "$ess_port" 2>/dev/null; then
      ess_up=1
    fi
    if [ "$alive_workers" -ge "$workers" ] && [ $ess_up = 1 ]; then break; fi
    if [ $((SECONDS - t0)) -ge "$timeout" ]; then
      log "timed out after ${timeout}s: aliveworkers=$alive_workers/$workers, ess up=$ess_up"
      tail_logs; do_stop >/dev/null 2>&1 || true
      die "start failed (timeout); logs in $state_dir/logs"
    fi
    sleep 0.5
  done

  {
    echo "# written by deploy/bin/spark-cluster.sh start; source it"
    echo "SPARK_VERSION=$version"
    echo "SPARK_HOME=$spark_home"
    echo "SPARK_MASTER_URL=$master_url"
    echo "SPARK_MASTER_PORT=$master_port"
    echo "SPARK_MASTER_WEBUI_URL=http://127.0.0.1:$webui_port"
    echo "SPARK_ESS_PORT=${ess_port:-}"
    echo "SPARK_ESS_CLASS=$ess_class"
    echo "SPARK_WORKERS=$workers"
    echo "SPARK_WORKER_CORES=$worker_cores"
    echo "SPARK_WORKER_MEMORY=$worker_memory"
    echo "SPARK_CLUSTER_STATE_DIR=$state_dir"
    echo "SPARK_CLUSTER_ENV=$envfile"
  } >"$envfile"
  log "cluster up in $((SECONDS - t0))s ($workers worker(s), state in $state_dir)"
  grep -E '^(SPARK_MASTER_URL|SPARK_MASTER_WEBUI_URL|SPARK_ESS_PORT|SPARK_HOME|SPARK_CLUSTER_ENV)=' "$envfile"
}

# one start/stop at a time per state dir
exec 9>"$state_dir/.lock"
flock -w 120 9 || die "another spark-cluster.sh holds $state_dir/.lock"

case "$cmd" in
  start) do_start ;;
  stop) do_stop ;;
  status) do_status ;;
  restart) do_stop; do_start ;;
esac
