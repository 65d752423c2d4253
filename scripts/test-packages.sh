#!/usr/bin/env bash
# What the test stages run besides Node: Debian packages (tests/fixtures/debian-packages.ts lists them with
# the file that shows each is installed: the scanner suites' real servers, nmap, Exim, PostgreSQL 15 with
# PostGIS, Chromium), servers unpacked from .deb files, and library releases and servers from the npm
# registry. The missing ones are installed, Debian's only as root with apt. npm test runs this first, so
# that the stages after it can run side by side without racing for apt's lock; the stage scripts run it
# themselves when run alone. An install that fails where apt or npm is reachable fails with its own error
# (scripts/lib/stage.sh); where they are unreachable, the suites that need the package skip, saying so,
# which fails a run with CI=true.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/stage.sh
source scripts/lib/stage.sh

listed=$(npx tsx tests/fixtures/debian-packages.ts)
missing=()
if [ -n "$listed" ]; then mapfile -t missing <<<"$listed"; fi
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

# Real library releases for the component suite, the database servers Debian does not package (PouchDB
# Server, CongoDB) and web frameworks with their API documentation middleware, from the npm registry (the
# namespace has no network). Each fails the stage with npm's
# error, unless the registry is unreachable and CI is not set (then their suites skip, saying so).
npx tsx tests/fixtures/web/component-libs.ts
npx tsx tests/fixtures/npm-servers.ts
npx tsx tests/fixtures/web/api-docs-apps.ts
