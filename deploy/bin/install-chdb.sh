#!/usr/bin/env bash
# Installs chdb-core (ClickHouse's engine as a Python module) into a venv under .sluice/venv-chdb.
# It backs deploy/clickhouse/chdb_http_front.py, the TEST FIXTURE that lets clickhouse-jdbc talk to a
# modern ClickHouse engine on machines without a ClickHouse server package.
# Idempotent: an installed venv whose python can import chdb is left alone.
# Usage: install-chdb.sh            (prints the venv's python path on stdout when done)
# Env:   SLUICE_CHDB_VERSION  pin a chdb-core version (default: the newest on PyPI)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="$root/.sluice/venv-chdb"
py="$venv/bin/python"
if [ -x "$py" ] && [ -f "$venv/.installed" ] && "$py" -c 'import chdb' >/dev/null 2>&1; then
  echo "$py"
  exit 0
fi
echo "installing chdb-core into $venv" >&2
rm -rf "$venv"
mkdir -p "$root/.sluice"
python3 -m venv "$venv"
spec="chdb-core"
[ -n "${SLUICE_CHDB_VERSION:-}" ] && spec="chdb-core==$SLUICE_CHDB_VERSION"
"$py" -m pip install --quiet --disable-pip-version-check "$spec" >&2
"$py" -c 'import chdb; print("chdb", getattr(chdb, "__version__", "?"), "engine", chdb.engine_version if hasattr(chdb, "engine_version") else "?")' >&2
touch "$venv/.installed"
echo "$py"
