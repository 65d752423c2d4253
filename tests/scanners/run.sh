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
# Real, badly configured services for the extra suites (redis, memcached, nginx, OpenSSH, vsftpd, Apache,
# lighttpd with WebDAV, PHP-FPM, node_exporter, GnuTLS; PHP-FPM with MariaDB, Flask with PostgreSQL for the
# injection suite; Dropbear, Samba, impacket's SMB server, snmpd, TigerVNC, rlogind, telnetd, openssl for the SSH
# and service suites; the single-page apps' Python API and libraries, Chromium for the browser crawl); the
# missing ones are installed, only as root on Debian. Without them those suites skip themselves, saying why. Each entry:
# package:command-or-path (a path may be a glob).
missing=()
for pair in redis-server:redis-server memcached:memcached nginx:/usr/sbin/nginx openssh-server:/usr/sbin/sshd \
  vsftpd:/usr/sbin/vsftpd apache2:/usr/sbin/apache2 lighttpd:/usr/sbin/lighttpd \
  lighttpd-mod-webdav:/usr/lib/lighttpd/mod_webdav.so php-fpm:'/usr/sbin/php-fpm*' \
  prometheus-node-exporter:/usr/bin/prometheus-node-exporter gnutls-bin:/usr/bin/gnutls-serv \
  php-mysql:'/etc/php/*/mods-available/mysqli.ini' php-twig:/usr/share/php/Twig/autoload.php \
  mariadb-server:/usr/sbin/mariadbd python3-flask:/usr/lib/python3/dist-packages/flask/__init__.py \
  python3-graphql-core:/usr/lib/python3/dist-packages/graphql/__init__.py \
  python3-psycopg2:/usr/lib/python3/dist-packages/psycopg2/__init__.py postgresql-15:/usr/lib/postgresql/15/bin/postgres \
  dropbear-bin:/usr/sbin/dropbear samba:/usr/sbin/smbd python3-impacket:/usr/lib/python3/dist-packages/impacket/smbserver.py \
  snmpd:/usr/sbin/snmpd openssl:openssl \
  tigervnc-standalone-server:/usr/bin/Xtigervnc tigervnc-tools:/usr/bin/tigervncpasswd \
  rsh-redone-server:/usr/sbin/in.rlogind inetutils-telnetd:/usr/sbin/telnetd \
  python3:/usr/bin/python3 chromium:/usr/bin/chromium libjs-angularjs:/usr/share/javascript/angular.js/angular.js \
  libjs-jquery:/usr/share/javascript/jquery/jquery.min.js; do
  check="${pair#*:}"
  command -v "$check" >/dev/null || compgen -G "$check" >/dev/null || missing+=("${pair%%:*}")
done
if [ "${#missing[@]}" -gt 0 ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
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
  (DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1; }) \
    || echo "note: could not install ${missing[*]}; the suites that need them will skip" >&2
  if [ -n "$own_policy" ]; then rm -f /usr/sbin/policy-rc.d; fi
fi

# Servers that are unpacked, not installed: ProFTPD (its package conflicts with vsftpd), an older
# Debian revision of OpenSSH (a real build with known CVEs) and netkit's rshd and rexecd (rsh-server
# conflicts with rsh-redone-server; its daemons need only libpam). Fetched once into
# VIGIL_TEST_FIXTURE_DEBS with apt-get download; their libraries are installed as ordinary packages.
# Missing ones make their suites skip.
debs="${VIGIL_TEST_FIXTURE_DEBS:-/var/cache/vigil/fixture-debs}"
unpack() { # unpack DIR PACKAGE[=VERSION]...
  local dest="$debs/$1" tmp
  shift
  [ -d "$dest" ] && return 0
  tmp="$(mktemp -d)" || return 1
  # A machine whose packages were all preinstalled may have no package lists yet: one update, one retry.
  if { (cd "$tmp" && apt-get download -qq "$@" >/dev/null 2>&1) \
    || { apt-get update -qq >/dev/null 2>&1 && (cd "$tmp" && apt-get download -qq "$@" >/dev/null 2>&1); }; } \
    && mkdir -p "$dest"; then
    for deb in "$tmp"/*.deb; do dpkg-deb -x "$deb" "$dest"; done
  else
    echo "note: could not download $*; its suite will skip" >&2
  fi
  rm -rf "$tmp"
}
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
  mkdir -p "$debs" && chmod 755 "$debs"
  unpack proftpd proftpd-core proftpd-mod-crypto
  unpack "openssh-server_9.2p1-2+deb12u7" "openssh-server=1:9.2p1-2+deb12u7"
  unpack rsh-server rsh-server
  proftpd_libs=(libhiredis0.14 libmemcached11 libmemcachedutil2 libsodium23 libpcre2-posix3 libcap2 libacl1 libidn2-0)
  if [ -x "$debs/proftpd/usr/sbin/proftpd" ] && ldd "$debs/proftpd/usr/sbin/proftpd" | grep -q 'not found'; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${proftpd_libs[@]}" >/dev/null 2>&1 \
      || echo "note: could not install the libraries of ProFTPD; its suite will skip" >&2
  fi
fi

# Real library releases for the component suite, and the database servers Debian does not package (PouchDB
# Server, CongoDB), from the npm registry (the namespace has no network).
npx tsx tests/fixtures/component-libs.ts || echo "note: could not fetch the component libraries; that suite will skip" >&2
npx tsx tests/fixtures/npm-servers.ts || echo "note: could not install the npm database servers; their suites will skip" >&2

if [ "$(id -u)" -eq 0 ]; then
  namespace=(unshare --net)
elif unshare --user --map-root-user --net true 2>/dev/null; then
  namespace=(unshare --user --map-root-user --net)
else
  echo "skipped: cannot create a private network namespace here (not root, user namespaces disabled)" >&2
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
