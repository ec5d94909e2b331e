#!/usr/bin/env bash
# Installs chdb-core (ClickHouse's engine as a Python module) into a venv under .sluice/venv-chdb.
# It backs deploy/clickhouse/chdb_http_front.py, the TEST FIXTURE that lets clickhouse-jdbc talk to a
# modern ClickHouse engine on machines without a ClickHouse server package.
# Idempotent: an installed venv whose python can import chdb is left alone.
# Usage: install-chdb.sh            (prints the venv's python path on stdout when done)
# Env:   SLUICE_CHDB_VERSION  pin a chdb-core version (default: the newest on PyPI)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
. "$root/deploy/bin/lib/pip-venv.sh"
venv="$root/.sluice/venv-chdb"
spec="chdb-core"
[ -n "${SLUICE_CHDB_VERSION:-}" ] && spec="chdb-core==$SLUICE_CHDB_VERSION"
pip_venv_tool "$venv" "$spec" "$venv/bin/python" "$venv/bin/python" -c \
  'import chdb; print("chdb", getattr(chdb, "__version__", "?"), "engine", chdb.engine_version if hasattr(chdb, "engine_version") else "?")'
