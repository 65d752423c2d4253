#!/usr/bin/env bash
# Scanner tests inside a private network namespace (ARCHITECTURE.md §8): a fresh loopback holds only the
# fixtures the tests start, so port sweeps of 127.0.0.1 touch nothing else on this machine.
# As root: `unshare --net`; otherwise an unprivileged user namespace if the kernel allows one.
set -euo pipefail
cd "$(dirname "$0")/../.."

inner='ip link set lo up && VIGIL_SCAN_NMAP=off npx vitest run --config tests/scanners/vitest.config.ts "$@"'
if ! command -v unshare >/dev/null || ! command -v ip >/dev/null; then
  echo "skipped: the scanner suites need unshare (util-linux) and ip (iproute2) to make a private network namespace" >&2
  exit 0
fi
# Real, badly configured services for the extra suite; installed only when missing, and only as root on
# Debian. Without them that suite skips itself.
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null && ! { command -v redis-server && command -v memcached; } >/dev/null; then
  (apt-get install -y -qq redis-server memcached >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq redis-server memcached >/dev/null 2>&1; }) \
    || echo "note: could not install redis-server and memcached; the real-services suite will skip" >&2
fi

if [ "$(id -u)" -eq 0 ]; then
  exec unshare --net sh -c "$inner" sh "$@"
elif unshare --user --map-root-user --net true 2>/dev/null; then
  exec unshare --user --map-root-user --net sh -c "$inner" sh "$@"
else
  echo "skipped: cannot create a private network namespace here (not root, user namespaces disabled)" >&2
  exit 0
fi
