#!/usr/bin/env bash
# Installs Debian's headless-capable Chromium for the web UI's browser tests (ui/e2e, driven by playwright-core),
# unless it is already there. Idempotent. Playwright's own browser download is never used.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
echo "== installing chromium (apt) for the web UI browser tests"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
"${sudo_cmd[@]}" apt-get update -q
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q chromium
