#!/usr/bin/env bash
# The hosted target policy end to end (docs/product.md §17.9): `npm start` with VIGIL_LOCAL_MODE=false inside a
# private network and mount namespace whose loopback also carries the addresses hosted scans must never
# reach (private, link-local, CGNAT, unique-local) and one public-looking address, with a private
# /etc/hosts that makes public-looking names resolve to them. Listeners on every forbidden address record
# any connection; the suite fails if one arrives. Nothing here leaves the namespace: it has no other link.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=../../scripts/lib/stage.sh
source scripts/lib/stage.sh
export VIGIL_TEST_STAGE=hosted-policy

# Without namespaces nothing here can run: that fails a CI run, and elsewhere says so.
cannot() {
  echo "$1" >&2
  if is_ci; then exit 1; fi
  echo "skipped: no hosted-policy test ran" >&2
  exit 0
}
if ! command -v unshare >/dev/null || ! command -v ip >/dev/null || ! command -v mount >/dev/null; then
  cannot "the hosted-policy suite needs unshare, mount (util-linux) and ip (iproute2)"
fi

inner='
set -e
ip link set lo up
for a in 10.0.0.5 192.168.1.10 172.16.0.1 100.64.0.1 169.254.169.254 93.184.216.34; do ip addr add "$a/32" dev lo; done
ip -6 addr add fd00::5/128 dev lo
hosts=$(mktemp)
cat >"$hosts" <<HOSTS
127.0.0.1 localhost
::1 localhost
127.0.0.1 rebind.example
10.0.0.5 internal.example
169.254.169.254 metadata.example
93.184.216.34 shop.example
HOSTS
mount --bind "$hosts" /etc/hosts
VIGIL_SCAN_NMAP=off npx vitest run --config tests/hosted-policy/vitest.config.ts "$@"
'
if [ "$(id -u)" -eq 0 ]; then
  exec unshare --net --mount sh -c "$inner" sh "$@"
elif unshare --user --map-root-user --net --mount true 2>/dev/null; then
  exec unshare --user --map-root-user --net --mount sh -c "$inner" sh "$@"
else
  cannot "cannot create private network and mount namespaces here (not root, user namespaces disabled)"
fi
