# Process supervision shared by the cluster scripts (spark-cluster.sh, flink-cluster.sh). Source it after
# setting:
#   sv_state   the state dir; pid files go to $sv_state/pids/<name>.pid, logs are $sv_state/logs/*
#   sv_tag     the prefix of messages (e.g. "spark-cluster")
#   sv_marker  (optional) a JVM argument that marks this state dir's daemons, used only for pid files
#              written by older versions of these scripts (pid without start time)
#
# Identity of a daemon: its pid and its start time (field 22 of /proc/PID/stat, in clock ticks since
# boot). The launched child writes both itself, before it execs the daemon; exec keeps the pid and the
# start time, so the check never races an exec in progress (reading /proc/PID/environ can: it reads
# empty while the kernel swaps the address space), and a recycled pid has another start time. A
# zombie (exited, not yet reaped by this shell) counts as dead.

sv_log() { echo "$sv_tag: $*" >&2; }
sv_die() { echo "$sv_tag: $*" >&2; exit 1; }

# pid -> its start time, or nothing if no such process (or a zombie)
sv_start_time() {
  local stat rest f
  stat="$(cat "/proc/$1/stat" 2>/dev/null)" || return 0
  [ -n "$stat" ] || return 0
  rest="${stat##*) }"                       # the fields after "(comm)", which may hold spaces
  read -r -a f <<<"$rest"
  case "${f[0]:-}" in Z|X|x|"") return 0 ;; esac # f[0] is field 3 (state), f[19] field 22 (starttime)
  echo "${f[19]:-}"
}

# name -> pid if the recorded daemon is alive and is the one we launched, else nothing
sv_pid() {
  local f="$sv_state/pids/$1.pid" line pid started now
  [ -f "$f" ] || return 0
  line="$(cat "$f" 2>/dev/null || true)"
  read -r pid started <<<"$line"
  [[ "${pid:-}" =~ ^[0-9]+$ ]] || return 0
  now="$(sv_start_time "$pid")"
  [ -n "$now" ] || return 0
  if [[ "${started:-}" =~ ^[0-9]+$ ]]; then
    [ "$now" = "$started" ] && echo "$pid"
  elif [ -n "${sv_marker:-}" ] && tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | grep -qxF -- "$sv_marker"; then
    echo "$pid"   # a pid file of an older version of these scripts (pid only): the JVM's marker option
  fi
  return 0
}

sv_recorded() { ls "$sv_state/pids" 2>/dev/null | sed -n 's/\.pid$//p' | sort; }

# name logfile command... : start the command detached (setsid) with stdout+stderr to logfile. The child
# records "pid starttime" atomically (temp file + rename) and then execs the command, so the recorded pid
# is the daemon's own. Environment for the daemon is prepared by the caller.
sv_launch() {
  local name="$1" out="$2"; shift 2
  local pidfile="$sv_state/pids/$name.pid"
  mkdir -p "$sv_state/pids"
  rm -f "$pidfile"
  # shellcheck disable=SC2016
  setsid bash -c 's="$(cat /proc/$$/stat)"; read -r -a f <<<"${s##*) }"
    echo "$$ ${f[19]}" >"$0.tmp" && mv -f "$0.tmp" "$0" && exec "$@"' "$pidfile" \
    "$@" >"$out" 2>&1 </dev/null 9>&- &
  local i
  for ((i = 0; i < 100; i++)); do [ -s "$pidfile" ] && return 0; sleep 0.1; done
  sv_die "could not launch $name (no pid file within 10 s)"
}

# name pid [seconds=20] : TERM, wait, then KILL
sv_stop_pid() {
  local name="$1" pid="$2" secs="${3:-20}" i
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < secs * 5; i++)); do
    [ -n "$(sv_start_time "$pid")" ] || { sv_log "stopped $name (pid $pid)"; return 0; }
    sleep 0.2
  done
  sv_log "$name (pid $pid) ignored TERM for $secs s; sending KILL"
  kill -KILL "$pid" 2>/dev/null || true
  for ((i = 0; i < 50; i++)); do [ -n "$(sv_start_time "$pid")" ] || return 0; sleep 0.1; done
  sv_log "WARNING: $name (pid $pid) still alive"
}

# [lines=30] : the tail of every daemon log in the state dir, to stderr
sv_tail_logs() {
  local f n="${1:-30}"
  for f in "$sv_state"/logs/*.out "$sv_state"/logs/*.log; do
    [ -f "$f" ] || continue
    echo "----- tail of $f ($(wc -c <"$f") bytes)" >&2
    tail -n "$n" "$f" >&2
  done
}

# names... : returns 0 and sets sv_dead to the first of them that is not alive (checked twice, 0.2 s
# apart), else returns 1. For a dead daemon that is this shell's own child the exit status is appended
# ("master (exit 1)"). Call it directly, not in $(...): a subshell cannot collect the status.
sv_first_dead() {
  local name pid rc
  sv_dead=""
  for name in "$@"; do
    [ -n "$(sv_pid "$name")" ] && continue
    sleep 0.2
    [ -n "$(sv_pid "$name")" ] && continue
    pid="$(cut -d' ' -f1 "$sv_state/pids/$name.pid" 2>/dev/null || true)"
    rc=127
    if [[ "$pid" =~ ^[0-9]+$ ]]; then wait "$pid" 2>/dev/null && rc=0 || rc=$?; fi
    if [ "$rc" = 127 ]; then sv_dead="$name"; else sv_dead="$name (exit $rc)"; fi
    return 0
  done
  return 1
}

# port -> 0 if nothing listens on 127.0.0.1:port and we can bind it
sv_port_free() {
  python3 - "$1" <<'EOF'
import socket, sys
p = int(sys.argv[1])
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
try:
    s.bind(("127.0.0.1", p))
except OSError:
    sys.exit(1)
finally:
    s.close()
c = socket.socket(); c.settimeout(0.3)
try:
    c.connect(("127.0.0.1", p)); sys.exit(1)   # something listens on another address family
except OSError:
    sys.exit(0)
finally:
    c.close()
EOF
}

# wanted default -> the port to use: the wanted one (must be free) or the first free from default on,
# skipping the ports listed in $sv_taken_ports
sv_pick_port() {
  local want="$1" default="$2" p
  if [ -n "$want" ]; then
    sv_port_free "$want" || sv_die "port $want is busy (given explicitly)"
    echo "$want"; return
  fi
  for ((p = default; p < default + 200; p++)); do
    if [[ " ${sv_taken_ports:-} " == *" $p "* ]]; then continue; fi
    if sv_port_free "$p"; then echo "$p"; return; fi
  done
  sv_die "no free port in $default..$((default + 199))"
}
