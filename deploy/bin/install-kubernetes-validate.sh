#!/usr/bin/env bash
# Installs kubernetes-validate (PyPI), which validates rendered manifests against the Kubernetes schemas it bundles
# (offline), into a venv under .sluice/venv-kubeval, for the chart's render test (HelmChartITCase). Idempotent.
# Prints the path of the kubernetes-validate command when done. Env: SLUICE_KUBEVAL_VERSION [1.*]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
. "$root/deploy/bin/lib/pip-venv.sh"
venv="$root/.sluice/venv-kubeval"
pip_venv_tool "$venv" "kubernetes-validate==${SLUICE_KUBEVAL_VERSION:-1.*}" "$venv/bin/kubernetes-validate" \
  "$venv/bin/kubernetes-validate" --version
