#!/usr/bin/env bash
# Installs the pyspark distributions Sluice tests and demos run against into .sluice/spark/<version>.
# Idempotent: a version already installed is left alone. Usage: install-spark.sh [VERSION...]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=("${SLUICE_SPARK_VERSIONS:-3.5.7 4.0.1}")
for v in ${versions[@]}; do
  dest="$root/.sluice/spark/$v"
  if [ -x "$dest/pyspark/bin/spark-class" ] && [ -f "$dest/.installed" ]; then
    continue
  fi
  echo "installing pyspark $v into $dest" >&2
  rm -rf "$dest"; mkdir -p "$dest"
  python3 -m pip install --quiet --disable-pip-version-check --no-deps --target "$dest" "pyspark==$v"
  # the py4j version this pyspark requires (its jar in pyspark/jars matches it), not the newest
  py4j_req="$(sed -n 's/^Requires-Dist: py4j *\(==[^ ;]*\).*/py4j\1/p' "$dest"/pyspark-*.dist-info/METADATA | head -n 1)"
  python3 -m pip install --quiet --disable-pip-version-check --target "$dest/py4j-lib" "${py4j_req:-py4j}" >/dev/null 2>&1 || true
  chmod +x "$dest"/pyspark/bin/* 2>/dev/null || true
  touch "$dest/.installed"
done
