#!/usr/bin/env bash
# A real Flink standalone session cluster on loopback, for Sluice tests, benchmarks and demos.
#
#   flink-cluster.sh install|start|stop|status [options]
#   flink-cluster.sh submit [options] JAR [PROGRAM ARGS...]   (detached; prints FLINK_JOB_ID=...)
#   flink-cluster.sh cancel [options] JOB_ID
#
# Separate JVMs: one JobManager (StandaloneSessionClusterEntrypoint) and one TaskManager
# (TaskManagerRunner) with N slots, their memory flags computed by Flink's own BashJavaUtils exactly
# as bin/jobmanager.sh / bin/taskmanager.sh do, a generated config.yaml and log4j config, PIDs and
# logs in the state dir. `submit` runs Flink's CliFrontend (`flink run -d`) against the cluster's
# REST endpoint and returns once the job is submitted.
#
# Classpath (`install`, idempotent, run by start/submit when needed): .sluice/flink/<version>/lib.
# It is org.apache.flink:flink-dist:<version> (+ log4j) when Maven Central serves it; when it does
# not (checked 2026-11: flink-dist is not published there for any version), the same runtime is
# assembled from the published modules flink-dist bundles: flink-clients (runtime, streaming,
# optimizer, rpc loader), flink-runtime-web (REST jar submission), flink-connector-datagen, and
# log4j 2 with its slf4j binding (flink-connector-files is not published for 1.20.5 either).
#
# Options (environment variable in brackets):
#   --version V          Flink version            [SLUICE_FLINK_VERSION, the reactor's flink.version]
#   --state-dir DIR      conf, pids, logs, tmp    [SLUICE_FLINK_STATE_DIR, .sluice/run/flink-<version>]
#   --rest-port P        REST/web port            [SLUICE_FLINK_REST_PORT, 8081 or the next free]
#   --rpc-port P         JobManager RPC port      [SLUICE_FLINK_RPC_PORT, 6123 or the next free]
#   --slots N            TaskManager slots        [SLUICE_FLINK_SLOTS, 2]
#   --jm-memory M        jobmanager.memory.process.size   [SLUICE_FLINK_JM_MEMORY, 768m]
#   --tm-memory M        taskmanager.memory.process.size  [SLUICE_FLINK_TM_MEMORY, 1g]
#   --conf K=V           extra config.yaml entry (repeatable)
#   --timeout S          seconds to wait for start-up / submission  [SLUICE_FLINK_TIMEOUT, 120]
# On start it prints (and writes to <state-dir>/cluster.env, which scripts can source):
#   FLINK_REST_URL=http://127.0.0.1:PORT  FLINK_CONF_DIR=...  FLINK_LIB_DIR=...  etc.
# stop kills exactly the recorded PIDs (after checking they are this cluster's JVMs) and waits.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"

die() { echo "flink-cluster: $*" >&2; exit 1; }
log() { echo "flink-cluster: $*" >&2; }

cmd="${1:-}"; [ $# -gt 0 ] && shift || true
case "$cmd" in install|start|stop|status|submit|cancel) ;;
  -h|--help|help|"") sed -n '2,35p' "$0"; exit 0 ;;
  *) die "unknown command '$cmd' (install|start|stop|status|submit|cancel)" ;; esac

default_version() {
  sed -n 's:.*<flink.version>\(.*\)</flink.version>.*:\1:p' "$root/pom.xml" | head -n 1
}
version="${SLUICE_FLINK_VERSION:-$(default_version)}"
state_dir="${SLUICE_FLINK_STATE_DIR:-}"
rest_port="${SLUICE_FLINK_REST_PORT:-}"
rpc_port="${SLUICE_FLINK_RPC_PORT:-}"
slots="${SLUICE_FLINK_SLOTS:-2}"
jm_memory="${SLUICE_FLINK_JM_MEMORY:-768m}"
tm_memory="${SLUICE_FLINK_TM_MEMORY:-1g}"
timeout="${SLUICE_FLINK_TIMEOUT:-120}"
extra_conf=()
args=()

need() { [ $# -ge 2 ] || die "option $1 needs a value"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --version) need "$@"; version="$2"; shift 2 ;;
    --state-dir) need "$@"; state_dir="$2"; shift 2 ;;
    --rest-port) need "$@"; rest_port="$2"; shift 2 ;;
    --rpc-port) need "$@"; rpc_port="$2"; shift 2 ;;
    --slots) need "$@"; slots="$2"; shift 2 ;;
    --jm-memory) need "$@"; jm_memory="$2"; shift 2 ;;
    --tm-memory) need "$@"; tm_memory="$2"; shift 2 ;;
    --conf) need "$@"; extra_conf+=("$2"); shift 2 ;;
    --timeout) need "$@"; timeout="$2"; shift 2 ;;
    --) shift; args+=("$@"); break ;;
    --*) if [ ${#args[@]} -eq 0 ]; then die "unknown option '$1'"; fi; args+=("$1"); shift ;;
    *) args+=("$@"); break ;;   # submit: JAR and the program's own arguments, verbatim
  esac
done
[ -n "$version" ] || die "cannot tell the Flink version (no flink.version in $root/pom.xml; use --version)"
[[ "$slots" =~ ^[0-9]+$ ]] && [ "$slots" -ge 1 ] || die "--slots must be a positive integer"
[ -n "$state_dir" ] || state_dir="$root/.sluice/run/flink-$version"
mkdir -p "$state_dir"
state_dir="$(cd "$state_dir" && pwd)"
home="$root/.sluice/flink/$version"
lib="$home/lib"
conf_dir="$state_dir/conf"
envfile="$state_dir/cluster.env"
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"

# What Flink's config.yaml passes as env.java.opts.all on Java 17 (its runtime and client reflect into these).
jdk17_opens=(--add-exports=java.base/sun.net.util=ALL-UNNAMED --add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED
  --add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED
  --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED
  --add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens=java.base/java.text=ALL-UNNAMED --add-opens=java.base/java.time=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED --add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED)

# ------------------------------------------------------------------------------------- install
do_install() {
  if [ -f "$lib/.complete" ]; then return 0; fi
  command -v mvn >/dev/null || die "mvn is needed to install Flink's jars"
  local work="$home/install" mvn_log
  rm -rf "$lib" "$work"; mkdir -p "$lib" "$work"
  mvn_log="$work/mvn.log"
  local log4j=2.24.3 slf4j=1.7.36
  log "installing Flink $version into $lib"
  if (cd "$work" && mvn -B -q dependency:copy -Dartifact="org.apache.flink:flink-dist:$version" -DoutputDirectory="$lib" \
      >"$mvn_log" 2>&1); then
    log "using org.apache.flink:flink-dist:$version"
    cat >"$work/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <groupId>io.sluice.local</groupId><artifactId>flink-lib</artifactId><version>1</version><packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j-impl</artifactId><version>$log4j</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-1.2-api</artifactId><version>$log4j</version></dependency>
  </dependencies>
</project>
EOF
  else
    log "org.apache.flink:flink-dist:$version does not resolve from Maven Central; assembling its modules"
    cat >"$work/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <groupId>io.sluice.local</groupId><artifactId>flink-lib</artifactId><version>1</version><packaging>pom</packaging>
  <!-- What flink-dist bundles for a session cluster: the runtime, the client (CliFrontend), the streaming API,
       the REST/web submission handlers, the datagen connector; plus the lib/ logging jars. -->
  <dependencies>
    <dependency><groupId>org.apache.flink</groupId><artifactId>flink-clients</artifactId><version>$version</version></dependency>
    <dependency><groupId>org.apache.flink</groupId><artifactId>flink-streaming-java</artifactId><version>$version</version></dependency>
    <dependency><groupId>org.apache.flink</groupId><artifactId>flink-runtime-web</artifactId><version>$version</version></dependency>
    <dependency><groupId>org.apache.flink</groupId><artifactId>flink-connector-datagen</artifactId><version>$version</version></dependency>
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId><version>$slf4j</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j-impl</artifactId><version>$log4j</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-1.2-api</artifactId><version>$log4j</version></dependency>
  </dependencies>
</project>
EOF
  fi
  (cd "$work" && mvn -B -q dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$lib" \
      >>"$mvn_log" 2>&1) || { tail -n 30 "$mvn_log" >&2; die "could not resolve Flink's jars (log: $mvn_log)"; }
  # Flink's own logging: the binding above, nothing else.
  rm -f "$lib"/slf4j-simple-*.jar "$lib"/logback-*.jar "$lib"/slf4j-reload4j-*.jar "$lib"/log4j-over-slf4j-*.jar
  ls "$lib"/*.jar >/dev/null 2>&1 || die "no jars in $lib"
  echo "$version" >"$lib/.complete"
  log "installed $(ls "$lib"/*.jar | wc -l) jars ($(du -sh "$lib" | cut -f1))"
}

# ------------------------------------------------------------------------------------- pids
# pid bookkeeping and liveness: deploy/bin/lib/supervise.sh (pid + start time recorded by the child itself,
# so a recycled pid is never taken for ours).
sv_state="$state_dir" sv_tag=flink-cluster sv_marker="-Dsluice.flink.cluster=$state_dir"
# shellcheck source=lib/supervise.sh
. "$root/deploy/bin/lib/supervise.sh"
stop_pid() { sv_stop_pid "$1" "$2" 30; }

do_stop() {
  local name pid any=0
  # submit clients first, TaskManagers next, the JobManager last
  for name in $(sv_recorded | grep '^submit' || true) $(sv_recorded | grep '^taskmanager' || true) \
              $(sv_recorded | grep -v '^submit' | grep -v '^taskmanager' || true); do
    pid="$(sv_pid "$name")"
    if [ -n "$pid" ]; then stop_pid "$name" "$pid"; any=1; else log "$name not running"; fi
    rm -f "$state_dir/pids/$name.pid"
  done
  rm -f "$envfile"
  [ $any = 1 ] || log "nothing running in $state_dir"
}

rest_get() { curl -fsS --max-time 5 "$FLINK_REST_URL$1"; }

do_status() {
  local name pid rc=0
  if [ -z "$(sv_recorded | grep -v '^submit' || true)" ]; then echo "stopped ($state_dir)"; return 3; fi
  for name in $(sv_recorded); do
    pid="$(sv_pid "$name")"
    if [ -n "$pid" ]; then echo "$name running pid=$pid"; else echo "$name DEAD (stale pid file)"; rc=1; fi
  done
  if [ -f "$envfile" ]; then
    # shellcheck disable=SC1090
    . "$envfile"
    local json
    if json="$(rest_get /overview 2>/dev/null)"; then
      python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print("flink %s taskmanagers=%s slots=%s/%s jobs running=%s finished=%s cancelled=%s failed=%s" % (d.get("flink-version"), d.get("taskmanagers"), d.get("slots-available"), d.get("slots-total"), d.get("jobs-running"), d.get("jobs-finished"), d.get("jobs-cancelled"), d.get("jobs-failed")))' "$json"
    else echo "REST endpoint not answering at $FLINK_REST_URL"; rc=1; fi
    grep -E '^(FLINK_REST_URL|FLINK_CONF_DIR)=' "$envfile"
  fi
  return $rc
}

tail_logs() { sv_tail_logs 30; }

# Flink's memory model, as bin/jobmanager.sh and bin/taskmanager.sh compute it: line 1 = JVM flags,
# line 2 = dynamic properties (-D key=value ...).
resource_params() { # GET_JM_RESOURCE_PARAMS|GET_TM_RESOURCE_PARAMS -> two lines
  local out
  out="$("$java_bin" -Xmx128m -cp "$lib/*" -Dlog4j2.configurationFile="file:$conf_dir/log4j-console.properties" \
    org.apache.flink.runtime.util.bash.BashJavaUtils "$1" --configDir "$conf_dir" 2>&1)" \
    || { echo "$out" >&2; die "BashJavaUtils $1 failed"; }
  echo "$out" | sed -n 's/^BASH_JAVA_UTILS_EXEC_RESULT://p' | tail -n 2
}

launch() { # name logfile java-args...
  local name="$1" out="$2"; shift 2
  FLINK_CONF_DIR="$conf_dir" FLINK_PLUGINS_DIR="$state_dir/plugins" sv_launch "$name" "$out" "$java_bin" "$@"
}

write_conf() {
  mkdir -p "$conf_dir" "$state_dir/plugins" "$state_dir/tmp" "$state_dir/web-upload" "$state_dir/logs" "$state_dir/pids"
  {
    echo "# written by deploy/bin/flink-cluster.sh start (state $state_dir)"
    echo "jobmanager.rpc.address: 127.0.0.1"
    echo "jobmanager.rpc.port: $rpc_port"
    echo "jobmanager.bind-host: 127.0.0.1"
    echo "jobmanager.memory.process.size: $jm_memory"
    echo "taskmanager.host: 127.0.0.1"
    echo "taskmanager.bind-host: 127.0.0.1"
    echo "taskmanager.memory.process.size: $tm_memory"
    echo "taskmanager.numberOfTaskSlots: $slots"
    echo "parallelism.default: $slots"
    echo "rest.address: 127.0.0.1"
    echo "rest.bind-address: 127.0.0.1"
    echo "rest.port: $rest_port"
    echo "blob.server.port: $blob_port"
    echo "high-availability.type: NONE"
    echo "io.tmp.dirs: $state_dir/tmp"
    echo "web.tmpdir: $state_dir/tmp"
    echo "web.upload.dir: $state_dir/web-upload"
    echo "jobmanager.execution.failover-strategy: region"
    echo "restart-strategy.type: fixed-delay"
    echo "restart-strategy.fixed-delay.attempts: 3"
    echo "restart-strategy.fixed-delay.delay: 2 s"
    local kv
    for kv in ${extra_conf[@]+"${extra_conf[@]}"}; do
      [[ "$kv" == *=* ]] || die "--conf wants KEY=VALUE, got '$kv'"
      echo "${kv%%=*}: ${kv#*=}"
    done
  } >"$conf_dir/config.yaml"
  # File logging for the daemons (log.file is set per JVM), console for the tools and the client.
  cat >"$conf_dir/log4j.properties" <<'EOF'
monitorInterval = 0
rootLogger.level = INFO
rootLogger.appenderRef.file.ref = MainAppender
logger.kafka.name = org.apache.kafka
logger.kafka.level = WARN
appender.main.name = MainAppender
appender.main.type = File
appender.main.fileName = ${sys:log.file}
appender.main.append = true
appender.main.layout.type = PatternLayout
appender.main.layout.pattern = %d{yyyy-MM-dd HH:mm:ss,SSS} %-5p %-60c %x - %m%n
EOF
  cat >"$conf_dir/log4j-console.properties" <<'EOF'
rootLogger.level = WARN
rootLogger.appenderRef.console.ref = ConsoleAppender
appender.console.name = ConsoleAppender
appender.console.type = Console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c - %m%n
EOF
  cp "$conf_dir/log4j-console.properties" "$conf_dir/log4j-cli.properties"
}

do_start() {
  local alive=0 dead=0 name
  for name in $(sv_recorded | grep -v '^submit' || true); do
    if [ -n "$(sv_pid "$name")" ]; then alive=$((alive + 1)); else dead=$((dead + 1)); fi
  done
  if [ $alive -gt 0 ] && [ $dead -eq 0 ] && [ -f "$envfile" ]; then
    log "already running in $state_dir (stop it first to change settings)"
    grep -E '^(FLINK_REST_URL|FLINK_CONF_DIR|FLINK_LIB_DIR|FLINK_CLUSTER_ENV)=' "$envfile"
    return 0
  fi
  if [ $alive -gt 0 ] || [ $dead -gt 0 ]; then log "cleaning up a partial cluster in $state_dir"; do_stop; fi
  do_install
  rm -rf "$state_dir/pids" "$state_dir/logs"
  sv_taken_ports=""
  rest_port="$(sv_pick_port "$rest_port" 8081)"; sv_taken_ports+=" $rest_port"
  rpc_port="$(sv_pick_port "$rpc_port" 6123)"; sv_taken_ports+=" $rpc_port"
  blob_port="$(sv_pick_port "" 6124)"; sv_taken_ports+=" $blob_port"
  write_conf

  local jm tm jm_jvm jm_dyn tm_jvm tm_dyn common
  jm="$(resource_params GET_JM_RESOURCE_PARAMS)"
  tm="$(resource_params GET_TM_RESOURCE_PARAMS)"
  jm_jvm="$(echo "$jm" | sed -n 1p)"; jm_dyn="$(echo "$jm" | sed -n 2p)"
  tm_jvm="$(echo "$tm" | sed -n 1p)"; tm_dyn="$(echo "$tm" | sed -n 2p)"
  [ -n "$jm_jvm" ] && [ -n "$tm_jvm" ] || die "could not compute the JVM memory flags"
  common=(-Djava.net.preferIPv4Stack=true "-Dsluice.flink.cluster=$state_dir"
    "-Dlog4j.configurationFile=file:$conf_dir/log4j.properties" "-Dlog4j2.configurationFile=file:$conf_dir/log4j.properties"
    "${jdk17_opens[@]}")
  local t0=$SECONDS
  # shellcheck disable=SC2086
  launch jobmanager "$state_dir/logs/jobmanager.out" $jm_jvm "${common[@]}" \
    "-Dlog.file=$state_dir/logs/jobmanager.log" -cp "$lib/*" \
    org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint --configDir "$conf_dir" $jm_dyn
  log "jobmanager pid $(cut -d" " -f1 "$state_dir/pids/jobmanager.pid") (REST http://127.0.0.1:$rest_port, RPC $rpc_port)"
  # shellcheck disable=SC2086
  launch taskmanager-1 "$state_dir/logs/taskmanager-1.out" $tm_jvm "${common[@]}" \
    "-Dlog.file=$state_dir/logs/taskmanager-1.log" -cp "$lib/*" \
    org.apache.flink.runtime.taskexecutor.TaskManagerRunner --configDir "$conf_dir" $tm_dyn
  log "taskmanager-1 pid $(cut -d" " -f1 "$state_dir/pids/taskmanager-1.pid") ($slots slots)"

  FLINK_REST_URL="http://127.0.0.1:$rest_port"
  local json tms=0 total=0
  while :; do
    # shellcheck disable=SC2046
    if sv_first_dead $(sv_recorded); then
      log "$sv_dead died during start-up"; tail_logs; do_stop >/dev/null 2>&1 || true
      die "start failed ($sv_dead died); logs in $state_dir/logs"
    fi
    if json="$(rest_get /overview 2>/dev/null)"; then
      read -r tms total < <(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(d.get("taskmanagers",0), d.get("slots-total",0))' "$json")
    fi
    if [ "$tms" -ge 1 ] && [ "$total" -ge "$slots" ]; then break; fi
    if [ $((SECONDS - t0)) -ge "$timeout" ]; then
      log "timed out after ${timeout}s (taskmanagers=$tms slots=$total)"; tail_logs; do_stop >/dev/null 2>&1 || true
      die "start failed (timeout); logs in $state_dir/logs"
    fi
    sleep 0.5
  done
  {
    echo "# written by deploy/bin/flink-cluster.sh start; source it"
    echo "FLINK_VERSION=$version"
    echo "FLINK_REST_URL=$FLINK_REST_URL"
    echo "FLINK_REST_PORT=$rest_port"
    echo "FLINK_RPC_PORT=$rpc_port"
    echo "FLINK_SLOTS=$slots"
    echo "FLINK_CONF_DIR=$conf_dir"
    echo "FLINK_LIB_DIR=$lib"
    echo "FLINK_CLUSTER_STATE_DIR=$state_dir"
    echo "FLINK_CLUSTER_ENV=$envfile"
  } >"$envfile"
  log "cluster up in $((SECONDS - t0))s (1 TaskManager, $slots slots; state in $state_dir)"
  grep -E '^(FLINK_REST_URL|FLINK_CONF_DIR|FLINK_LIB_DIR|FLINK_CLUSTER_ENV)=' "$envfile"
}

require_running() {
  [ -f "$envfile" ] || die "no running cluster in $state_dir (run: $0 start --state-dir $state_dir)"
  # shellcheck disable=SC1090
  . "$envfile"
  [ -n "$(sv_pid jobmanager)" ] || die "the JobManager of $state_dir is not running"
}

do_submit() {
  [ ${#args[@]} -ge 1 ] || die "submit needs a JAR"
  local jar="${args[0]}"; [ -f "$jar" ] || die "no such jar: $jar"
  jar="$(cd "$(dirname "$jar")" && pwd)/$(basename "$jar")"
  require_running
  local name="submit-$(date +%s%N)" out
  out="$state_dir/logs/$name.out"
  # `flink run -d`: CliFrontend with this cluster's conf, detached. A main that waits for its job's result
  # (ShuffleProfileJob does) keeps the client alive: once the job id is printed the client is stopped (by
  # pid); the detached job runs on in the cluster.
  launch "$name" "$out" -Xmx256m "${jdk17_opens[@]}" "-Dlog4j2.configurationFile=file:$conf_dir/log4j-cli.properties" \
    "-Dlog.file=$state_dir/logs/$name.log" -cp "$lib/*" org.apache.flink.client.cli.CliFrontend \
    run -d -m "127.0.0.1:$FLINK_REST_PORT" "$jar" "${args[@]:1}"
  local pid job="" t0=$SECONDS
  pid="$(cut -d" " -f1 "$state_dir/pids/$name.pid")"
  while :; do
    job="$(sed -n -e 's/.*SHUFFLE_PROFILE_JOB_SUBMITTED jobId=\([0-9a-f]\{32\}\).*/\1/p' \
                  -e 's/.*Job has been submitted with JobID \([0-9a-f]\{32\}\).*/\1/p' "$out" | head -n 1)"
    if [ -n "$job" ]; then break; fi
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 60 "$out" >&2; rm -f "$state_dir/pids/$name.pid"; die "the client exited without submitting (log $out)"
    fi
    if [ $((SECONDS - t0)) -ge "$timeout" ]; then
      tail -n 60 "$out" >&2; stop_pid "$name" "$pid"; rm -f "$state_dir/pids/$name.pid"
      die "no job id within ${timeout}s (log $out)"
    fi
    sleep 0.2
  done
  if [ -n "$(sv_pid "$name")" ]; then stop_pid "$name" "$pid" 2>/dev/null; fi
  rm -f "$state_dir/pids/$name.pid"
  log "submitted $jar as job $job (client log $out)"
  echo "FLINK_JOB_ID=$job"
}

do_cancel() {
  [ ${#args[@]} -eq 1 ] || die "cancel needs one JOB_ID"
  require_running
  curl -fsS --max-time 10 -X PATCH "$FLINK_REST_URL/jobs/${args[0]}?mode=cancel" >/dev/null \
    || die "cancel of ${args[0]} failed"
  local i state=""
  for ((i = 0; i < 300; i++)); do
    state="$(rest_get "/jobs/${args[0]}" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin).get("state",""))' 2>/dev/null || true)"
    case "$state" in CANCELED|FAILED|FINISHED) log "job ${args[0]} $state"; return 0 ;; esac
    sleep 0.2
  done
  die "job ${args[0]} not cancelled within 60 s (state $state)"
}

case "$cmd" in
  install) do_install; echo "FLINK_LIB_DIR=$lib" ;;
  submit) do_submit ;;
  cancel) do_cancel ;;
  *)
    exec 9>"$state_dir/.lock"
    flock -w 120 9 || die "another flink-cluster.sh holds $state_dir/.lock"
    case "$cmd" in start) do_start ;; stop) do_stop ;; status) do_status ;; esac ;;
esac
