#!/usr/bin/env bash
# Scanner tests inside a private network namespace (ARCHITECTURE.md §8): a fresh loopback holds only the
# fixtures the tests start, so port sweeps of 127.0.0.1 touch nothing else on this machine.
# As root: `unshare --net`; otherwise an unprivileged user namespace if the kernel allows one.
set -euo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=../../scripts/lib/stage.sh
source scripts/lib/stage.sh
export VIGIL_TEST_STAGE=scanners

inner='ip link set lo up && VIGIL_SCAN_NMAP=off npx vitest run --config tests/scanners/vitest.config.ts "$@"'
if ! command -v unshare >/dev/null || ! command -v ip >/dev/null; then
  echo "the scanner suites need unshare (util-linux) and ip (iproute2) to make a private network namespace" >&2
  if is_ci; then exit 1; fi
  echo "skipped: no scanner suite ran" >&2
  exit 0
fi
# Real, badly configured services for the scanner suites, from Debian (tests/fixtures/debian-packages.ts lists
# them with the file that shows each is installed); the missing ones are installed, only as root with apt.
# Without them those suites skip, saying why.
mapfile -t missing < <(npx tsx tests/fixtures/debian-packages.ts)
if [ "${#missing[@]}" -gt 0 ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
  echo "installing from Debian: ${missing[*]}"
  # The packages must not start their own services (sshd on :22, nginx on :80...): Debian's policy-rc.d
  # hook refuses every start during the install. Docker images ship one; elsewhere it is ours for the install.
  own_policy=''
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d && own_policy=1
  fi
  # postgresql-15 would create and start a cluster of its own on port 5432: no default cluster.
  if [ ! -e /etc/postgresql-common/createcluster.conf ]; then
    mkdir -p /etc/postgresql-common && echo 'create_main_cluster = false' >/etc/postgresql-common/createcluster.conf
  fi
  status=0
  apt_try apt-get install -y -qq "${missing[@]}" || status=$?
  if [ -n "$own_policy" ]; then rm -f /usr/sbin/policy-rc.d; fi
  if [ "$status" -ne 0 ]; then install_failed "$status" "${missing[*]}"; fi
fi

# Servers that are unpacked, not installed: ProFTPD (its package conflicts with vsftpd), an older
# Debian revision of OpenSSH (a real build with known CVEs) and netkit's rshd and rexecd (rsh-server
# conflicts with rsh-redone-server; its daemons need only libpam). Fetched once into
# VIGIL_TEST_FIXTURE_DEBS with apt-get download; their libraries are installed as ordinary packages.
# Missing ones make their suites skip.
debs="${VIGIL_TEST_FIXTURE_DEBS:-/var/cache/vigil/fixture-debs}"
unpack() { # unpack DIR PACKAGE[=VERSION]...
  local dest="$debs/$1" tmp status=0
  shift
  [ -d "$dest" ] && return 0
  tmp="$(mktemp -d)" || return 1
  (cd "$tmp" && apt_try apt-get download -qq "$@") || status=$?
  if [ "$status" -eq 0 ]; then
    mkdir -p "$dest"
    for deb in "$tmp"/*.deb; do dpkg-deb -x "$deb" "$dest"; done
  fi
  rm -rf "$tmp"
  if [ "$status" -ne 0 ]; then install_failed "$status" "$*"; fi
}
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
  mkdir -p "$debs" && chmod 755 "$debs"
  unpack proftpd proftpd-core proftpd-mod-crypto
  unpack "openssh-server_9.2p1-2+deb12u7" "openssh-server=1:9.2p1-2+deb12u7"
  unpack rsh-server rsh-server
  proftpd_libs=(libhiredis0.14 libmemcached11 libmemcachedutil2 libsodium23 libpcre2-posix3 libcap2 libacl1 libidn2-0)
  if [ -x "$debs/proftpd/usr/sbin/proftpd" ] && ldd "$debs/proftpd/usr/sbin/proftpd" | grep -q 'not found'; then
    status=0
    apt_try apt-get install -y -qq "${proftpd_libs[@]}" || status=$?
    if [ "$status" -ne 0 ]; then install_failed "$status" "the libraries of ProFTPD (${proftpd_libs[*]})"; fi
  fi
fi

# Real library releases for the component suite, and the database servers Debian does not package (PouchDB
# Server, CongoDB), from the npm registry (the namespace has no network). Each fails the stage with npm's
# error, unless the registry is unreachable and CI is not set (then their suites skip, saying so).
npx tsx tests/fixtures/component-libs.ts
npx tsx tests/fixtures/npm-servers.ts

if [ "$(id -u)" -eq 0 ]; then
  namespace=(unshare --net)
elif unshare --user --map-root-user --net true 2>/dev/null; then
  namespace=(unshare --user --map-root-user --net)
else
  echo "cannot create a private network namespace here (not root, user namespaces disabled)" >&2
  if is_ci; then exit 1; fi
  echo "skipped: no scanner suite ran" >&2
  exit 0
fi
if [ $# -gt 0 ]; then
  exec "${namespace[@]}" sh -c "$inner" sh "$@"
fi
# The whole stage: two private namespaces side by side, each with a loopback of its own, so the fixtures'
# fixed ports cannot meet. The suites on real servers from apt (they mostly wait on those servers and on
# timers) in one, the suites on Node fixtures, the port sweeps and the CLI in the other. Each side's output
# is printed whole once it ends; the stage fails if either side does.
apt_suites=(injection spa-shop services ssh-servers tls-servers apt-servers real-services web-files components)
first=()
for name in "${apt_suites[@]}"; do first+=("tests/scanners/$name.test.ts"); done
second=()
for file in tests/scanners/*.test.ts; do
  [[ " ${first[*]} " == *" $file "* ]] || second+=("$file")
done
log=$(mktemp)
"${namespace[@]}" sh -c "$inner" sh "${first[@]}" >"$log" 2>&1 &
pid=$!
status=0
"${namespace[@]}" sh -c "$inner" sh "${second[@]}" || status=$?
wait "$pid" || status=$?
cat "$log"
rm -f "$log"
exit "$status"
