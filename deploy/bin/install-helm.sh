#!/usr/bin/env bash
# Builds helm from its Go module (through the Go module proxy) into .sluice/tools/bin, for the chart's render test
# (HelmChartITCase), unless that helm is already there at the pinned version. Idempotent; the Go build cache and
# module cache stay under .sluice/go so a second run is instant. Prints helm's path when done.
# Needs Go 1.24+ on the PATH. Env: SLUICE_HELM_VERSION [v3.19.5]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
version="${SLUICE_HELM_VERSION:-v3.19.5}"
bin="$root/.sluice/tools/bin"
helm="$bin/helm"
marker="$bin/.helm-version"
if [ -x "$helm" ] && [ "$(cat "$marker" 2>/dev/null)" = "$version" ] && "$helm" version --short >/dev/null 2>&1; then
  echo "$helm"
  exit 0
fi
command -v go >/dev/null 2>&1 || { echo "install-helm: Go is required to build helm (go install helm.sh/helm/v3/cmd/helm@$version)" >&2; exit 2; }
echo "== building helm $version from the Go module proxy into $bin" >&2
mkdir -p "$bin" "$root/.sluice/go"
GOBIN="$bin" GOPATH="$root/.sluice/go" GOMODCACHE="$root/.sluice/go/mod" GOCACHE="$root/.sluice/go/cache" \
  GOFLAGS=-modcacherw go install -ldflags "-X helm.sh/helm/v3/internal/version.version=$version" \
  "helm.sh/helm/v3/cmd/helm@$version" >&2
"$helm" version --short >&2
echo "$version" > "$marker"
echo "$helm"
