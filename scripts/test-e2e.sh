#!/usr/bin/env bash
# End-to-end suite: Debian's Chromium driven by playwright-core against the web build on the embedded stack.
# Installs Chromium from the OS package manager when it is missing (no test tool ever downloads a browser).
set -euo pipefail
cd "$(dirname "$0")/.."
export VIGIL_TEST_STAGE=e2e

CHROMIUM=${CHROMIUM_PATH:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Chromium from Debian's packages…"
    apt-get -o DPkg::Lock::Timeout=600 update -qq
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq chromium >/dev/null
  else
    echo "Chromium is missing at $CHROMIUM and cannot be installed here (needs root and apt-get)." >&2
    echo "Install it (sudo apt-get install chromium) or set CHROMIUM_PATH." >&2
    exit 1
  fi
fi

npm run --silent build:web
npx vitest run --config tests/e2e/vitest.config.ts
