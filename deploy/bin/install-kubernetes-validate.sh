#!/usr/bin/env bash
# Installs kubernetes-validate (PyPI), which validates rendered manifests against the Kubernetes schemas it bundles
# (offline), into a venv under .sluice/venv-kubeval, for the chart's render test (HelmChartITCase). Idempotent.
# Prints the path of the kubernetes-validate command when done. Env: SLUICE_KUBEVAL_VERSION [1.*]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="$root/.sluice/venv-kubeval"
kv="$venv/bin/kubernetes-validate"
if [ -x "$kv" ] && [ -f "$venv/.installed" ] && "$kv" --version >/dev/null 2>&1; then
  echo "$kv"
  exit 0
fi
echo "installing kubernetes-validate into $venv" >&2
rm -rf "$venv"
mkdir -p "$root/.sluice"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  "kubernetes-validate==${SLUICE_KUBEVAL_VERSION:-1.*}" >&2
"$kv" --version >&2
touch "$venv/.installed"
echo "$kv"
