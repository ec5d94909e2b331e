#!/usr/bin/env bash
# The web UI's in-browser load times (docs/benchmarks.md, "Web UI", "Page load in the browser").
#   bench/ui/run-ui-load.sh [--iterations 31] [--rounds 1] [--build DIR]... [--service-jar JAR]
# Starts tuner-service's boot jar on the store bench/ui/run-ui-bench.sh filled (bench/ui/target/work), with its
# authentication on and one VIEWER user made for this run, and runs bench/ui/ui-load.mjs against it (the UI the jar
# serves). With --build DIR (a built UI, e.g. `SLUICE_UI_OUT=/tmp/ui-before npm run build` in ui/), each build is
# served by `vite preview` with /api proxied to the same service instead, and the builds are measured one after the
# other, --rounds times, so builds compare side by side. Prints ui-load.mjs's JSON per measurement and the load
# average; writes the output to bench/ui/results/ui-load-<time>.txt. --service-jar runs another build of the
# service's boot jar (e.g. a copy kept from before a change) instead of the one in tuner-service/service/target.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/bench/ui"
iterations=31 rounds=1 service_jar=
builds=()
while [ $# -gt 0 ]; do
  case "$1" in
    --iterations) iterations="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --build) builds+=("$(cd "$2" && pwd)"); shift 2 ;;
    --service-jar) service_jar="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "run-ui-load: unknown argument $1" >&2; exit 2 ;;
  esac
done
store="$here/target/work/sluice-history"
[ -f "$store.mv.db" ] || { echo "run-ui-load: no store at $store.mv.db; run bench/ui/run-ui-bench.sh first" >&2; exit 1; }
jar="${service_jar:-$(ls "$root"/tuner-service/service/target/sluice-tuner-service-*.jar | grep -v original | head -1)}"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_http() { # url, pid: until the url answers (any HTTP status) or the process exits; 180 s at most
  for _ in $(seq 1 600); do
    kill -0 "$2" 2>/dev/null || { echo "run-ui-load: process $2 exited" >&2; return 1; }
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$1" || true)" != 000 ] && return 0
    sleep 0.3
  done
  echo "run-ui-load: $1 did not answer in 180 s" >&2; return 1
}

export SLUICE_UI_USER=bench
SLUICE_UI_PASSWORD="$(python3 -c 'import secrets; print(secrets.token_hex(16))')"
export SLUICE_UI_PASSWORD
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

port="$(free_port)"
SLUICE_SECURITY_USERS="$SLUICE_UI_USER:{noop}$SLUICE_UI_PASSWORD:VIEWER" java -Xmx512m -jar "$jar" \
  --server.address=127.0.0.1 --server.port="$port" --sluice.tier.enabled=false \
  --sluice.tuner.store-url="jdbc:h2:file:$store" > "$here/target/work/service-ui-load.log" 2>&1 &
pids+=($!)
wait_http "http://127.0.0.1:$port/actuator/health/readiness" "${pids[0]}"
for _ in $(seq 1 600); do # ready means the store answered too
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/actuator/health/readiness")" = 200 ] && break
  sleep 0.3
done

targets=()
if [ ${#builds[@]} -eq 0 ]; then
  targets=("http://127.0.0.1:$port|$root/ui/target/classes/META-INF/resources/ui/assets")
else
  for b in "${builds[@]}"; do
    p="$(free_port)"
    (cd "$root/ui" && SLUICE_API="http://127.0.0.1:$port" exec node_modules/.bin/vite preview --outDir "$b" --host 127.0.0.1 \
      --port "$p" --strictPort) > "$here/target/work/preview-$p.log" 2>&1 &
    pids+=($!)
    wait_http "http://127.0.0.1:$p/ui/" "$!"
    targets+=("http://127.0.0.1:$p|$b/assets")
  done
fi

mkdir -p "$here/results"
out="$here/results/ui-load-$(date -u +%Y%m%dT%H%M%SZ).txt"
{
  echo "# $(date -u +%FT%TZ) HEAD $(cd "$root" && git rev-parse --short HEAD) $(nproc) cores, iterations $iterations"
  echo "# service jar $jar, sha256 $(sha256sum "$jar" | cut -c1-12)"
  for r in $(seq 1 "$rounds"); do
    for t in "${targets[@]}"; do
      url="${t%%|*}" assets="${t#*|}"
      echo "# round $r, $assets, load $(cut -d' ' -f1-3 /proc/loadavg)"
      node "$here/ui-load.mjs" --url "$url" --job bench/big-job --iterations "$iterations" --assets "$assets"
    done
  done
  echo "# done $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
} 2>&1 | tee "$out"
echo "written: $out"
