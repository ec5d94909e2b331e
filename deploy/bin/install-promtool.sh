#!/usr/bin/env bash
# Installs Debian's prometheus package for its promtool, which checks the alert rule files in deploy/prometheus
# (PrometheusRulesITCase), unless promtool is already on the PATH. Idempotent. Prints promtool's path when done.
set -euo pipefail
if command -v promtool >/dev/null 2>&1; then
  command -v promtool
  exit 0
fi
echo "== installing prometheus (apt) for promtool" >&2
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
"${sudo_cmd[@]}" apt-get update -q >&2
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends prometheus >&2
# the package starts a Prometheus server under systemd where there is one; the rule checks need only promtool
if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet prometheus 2>/dev/null; then
  "${sudo_cmd[@]}" systemctl disable --now prometheus >&2 || true
fi
command -v promtool
