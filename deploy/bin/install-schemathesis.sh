#!/usr/bin/env bash
# Installs schemathesis (PyPI), the OpenAPI fuzzer the API fuzzing test runs against tuner-service, into a venv
# under .sluice/venv-schemathesis. Idempotent: an installed venv whose schemathesis runs is left alone.
# Usage: install-schemathesis.sh     (prints the path of the schemathesis command on stdout when done)
# Env:   SLUICE_SCHEMATHESIS_VERSION  pin a version (default 4.*)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="$root/.sluice/venv-schemathesis"
st="$venv/bin/schemathesis"
if [ -x "$st" ] && [ -f "$venv/.installed" ] && "$st" --version >/dev/null 2>&1; then
  echo "$st"
  exit 0
fi
echo "installing schemathesis into $venv" >&2
rm -rf "$venv"
mkdir -p "$root/.sluice"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  "schemathesis==${SLUICE_SCHEMATHESIS_VERSION:-4.*}" >&2
"$st" --version >&2
touch "$venv/.installed"
echo "$st"
