#!/usr/bin/env bash
# The web UI's read API latency (docs/benchmarks.md, "Web UI").
#   bench/ui/run-ui-bench.sh [--skip-build] [--keep-store] [--jobs 10000] [--big-runs 100] [--warmup 100]
#                            [--requests 500] [--service-jar JAR]
# Builds tuner-service/service (-DskipTests) and this project, fills an H2 file store from the real Spark 3.5.7
# fixture runs (--jobs jobs of two runs each, one job of --big-runs runs), starts the service's boot jar on it and
# times sequential GETs of the UI endpoints (jobs list with several filters, sorts and pages, facets, the 100-run
# job, a run, the overview), interleaved; prints one UI_BENCH line per endpoint (p50/p90/p99/max ms) and writes the
# output to bench/ui/results/ui-bench-<time>.txt. Work files: bench/ui/target/work (deleted first, unless
# --keep-store: then a store filled by an earlier run is measured again). --service-jar runs another build of the
# service's boot jar (e.g. a copy kept from before a change) on the same store, for before/after runs side by side.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/bench/ui"
build=1 keep=0 service_jar=
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --skip-build) build=0; shift ;;
    --keep-store) keep=1; shift ;;
    --service-jar) service_jar="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    --*) args+=("$1" "$2"); shift 2 ;;
    *) echo "run-ui-bench: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [ "$build" = 1 ]; then
  (cd "$root" && mvn -q -B -ntp -pl tuner-service/service,event-ingest/core,bench/tuner -am install -DskipTests)
  (cd "$here" && mvn -q -B -ntp package)
fi
jar="${service_jar:-$(ls "$root"/tuner-service/service/target/sluice-tuner-service-*.jar | grep -v original | head -1)}"
[ "$keep" = 1 ] || rm -rf "$here/target/work"
mkdir -p "$here/results"
out="$here/results/ui-bench-$(date -u +%Y%m%dT%H%M%SZ).txt"
{
  echo "# $(date -u +%FT%TZ) HEAD $(cd "$root" && git rev-parse --short HEAD) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# service jar $jar, sha256 $(sha256sum "$jar" | cut -c1-12)"
  java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$here/target/classes:$here/target/lib/*" \
    io.sluice.bench.ui.UiApiBench --service-jar "$jar" --root "$root" --work "$here/target/work" \
    ${args[@]+"${args[@]}"}
  echo "# done $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
} 2>&1 | tee "$out"
echo "written: $out"
