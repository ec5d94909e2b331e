#!/usr/bin/env bash
# tuner-service soak (docs/benchmarks.md, "tuner-service soak").
#   bench/tuner/run-tuner-soak.sh [--skip-build] [--duration 300] [--rate 1000] [--jobs 2000] [--report-every 4]
#                                 [--connections 64]
#                                 [--restart-service on|off] [--restart-store on|off]
#                                 [--service-jar JAR]         (another build's boot jar, for a side-by-side run)
#                                 [--service-jvm "OPTIONS"]   (extra JVM options of the service, e.g. a flight
#                                                              recording; {generation} = 1, or 2 after the restart)
# Builds tuner-service/service (-DskipTests) and this project, starts the embedded H2 store server
# (EmbeddedStoreServer) and the service's boot jar as processes on free loopback ports, fills the store with the
# jobs, drives an open-loop mix of submissions and outcome reports at --rate for --duration seconds, restarts
# tuner-service at a third and the store server at two thirds of the run, reads every acknowledged report back from
# the store and prints TUNER_SOAK* lines; the output is also written to bench/tuner/results/tuner-soak-<time>.txt.
# Work files: bench/tuner/target/soak (deleted first).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/bench/tuner"
build=1
jar=""
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --skip-build) build=0; shift ;;
    --service-jar) [ $# -ge 2 ] || { echo "run-tuner-soak: $1 needs a value" >&2; exit 2; }
      jar="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    --duration|--rate|--jobs|--report-every|--connections|--restart-service|--restart-store|--service-jvm)
      [ $# -ge 2 ] || { echo "run-tuner-soak: $1 needs a value" >&2; exit 2; }
      args+=("$1" "$2"); shift 2 ;;
    *) echo "run-tuner-soak: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [ "$build" = 1 ]; then
  (cd "$root" && mvn -q -B -ntp -pl tuner-service/service -am install -DskipTests)
  (cd "$here" && mvn -q -B -ntp package -DskipTests)
fi
[ -n "$jar" ] || jar="$(ls "$root"/tuner-service/service/target/sluice-tuner-service-*.jar | grep -v original | head -1)"
rm -rf "$here/target/soak"
mkdir -p "$here/results"
out="$here/results/tuner-soak-$(date -u +%Y%m%dT%H%M%SZ).txt"
{
  echo "# $(date -u +%FT%TZ) HEAD $(cd "$root" && git rev-parse --short HEAD) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# bench/tuner/run-tuner-soak.sh ${args[*]-} (service jar $jar)"
  java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$here/target/classes:$here/target/lib/*" \
    io.sluice.bench.tuner.TunerSoakBench --service-jar "$jar" --root "$root" --work "$here/target/soak" \
    ${args[@]+"${args[@]}"}
  echo "# done $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
} 2>&1 | tee "$out"
echo "written: $out"
