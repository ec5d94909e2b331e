#!/usr/bin/env bash
# Starts tuner-service against the local stack's H2 store server (deploy/bin/sluice-stack up) in the foreground.
#   deploy/tuner/run-local.sh [--server.port=8088] [other Spring/sluice.tuner properties]
# Build first: mvn -q -B -pl tuner-service/service install -DskipTests
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
jar="$(ls "$root"/tuner-service/service/target/sluice-tuner-service-*.jar 2>/dev/null | grep -v original | head -1)"
[ -n "$jar" ] || { echo "run-local: build tuner-service/service first" >&2; exit 1; }
store_port="${SLUICE_STORE_PORT:-19093}"
exec java -Xmx${SLUICE_TUNER_HEAP:-256m} -jar "$jar" \
  --spring.config.additional-location="file:$root/deploy/tuner/tuner.properties" \
  --sluice.tuner.store-url="jdbc:h2:tcp://127.0.0.1:$store_port/sluice-history" "$@"
