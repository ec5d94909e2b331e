#!/usr/bin/env bash
# Installs schemathesis (PyPI), the OpenAPI fuzzer the API fuzzing test runs against tuner-service, into a venv
# under .sluice/venv-schemathesis. Idempotent: an installed venv whose schemathesis runs is left alone.
# Usage: install-schemathesis.sh     (prints the path of the schemathesis command on stdout when done)
# Env:   SLUICE_SCHEMATHESIS_VERSION  pin a version (default 4.*)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
. "$root/deploy/bin/lib/pip-venv.sh"
venv="$root/.sluice/venv-schemathesis"
pip_venv_tool "$venv" "schemathesis==${SLUICE_SCHEMATHESIS_VERSION:-4.*}" "$venv/bin/schemathesis" \
  "$venv/bin/schemathesis" --version
