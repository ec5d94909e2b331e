#!/usr/bin/env bash
# Fleet simulation of Spark external shuffle services, stock vs the ThrottleGate (docs/benchmarks.md).
# Builds the gate and this bench module, then runs the three scenarios on the same seeded workload.
# Extra arguments go to the simulator (see --help), e.g. ./run-fleet-sim.sh --seed 7 --scenarios stock,gate
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
offline="${SLUICE_MVN_OFFLINE--o}"
(cd "$root" && mvn -q -B $offline -pl ess-throttle-patch/gate install -DskipTests)
(cd "$here" && mvn -q -B $offline package -DskipTests)
out="$here/results/$(date -u +%Y%m%dT%H%M%SZ)"
exec java -Xmx6g -XX:+UseParallelGC -cp "$here/target/classes:$here/target/lib/*" \
  io.sluice.bench.throttlesim.fleet.FleetSimMain --out "$out" "$@"
