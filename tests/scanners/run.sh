#!/usr/bin/env bash
# Scanner tests inside a private network namespace (docs/architecture.md §8): a fresh loopback holds only the
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
# The servers and libraries the suites run (npm test has installed them already, as its first stage).
if [ -z "${VIGIL_TEST_PACKAGES_READY:-}" ]; then bash scripts/test-packages.sh; fi

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
# The whole stage: three private namespaces side by side, each with a loopback of its own, so the fixtures'
# fixed ports cannot meet. The suites on real servers from apt (they mostly wait on those servers and on
# timers) in one, the hostile-target suites (they mostly wait on servers that drip, stall and flood; every
# hostile-*.test.ts) in another, the suites on Node fixtures, the port sweeps and the CLI in the third. Each
# side's output is printed whole once it ends; the stage fails if any side does.
apt_suites=(injection xxe url-params spa-shop services ssh-servers tls-servers tls-dhe-only apt-servers real-services web-files web-places components nmap-versions)
apt=()
for name in "${apt_suites[@]}"; do apt+=("tests/scanners/$name.test.ts"); done
hostile=(tests/scanners/hostile-*.test.ts)
rest=()
for file in tests/scanners/*.test.ts; do
  [[ " ${apt[*]} ${hostile[*]} " == *" $file "* ]] || rest+=("$file")
done
apt_log=$(mktemp)
hostile_log=$(mktemp)
"${namespace[@]}" sh -c "$inner" sh "${apt[@]}" >"$apt_log" 2>&1 &
apt_pid=$!
"${namespace[@]}" sh -c "$inner" sh "${hostile[@]}" >"$hostile_log" 2>&1 &
hostile_pid=$!
status=0
"${namespace[@]}" sh -c "$inner" sh "${rest[@]}" || status=$?
wait "$apt_pid" || status=$?
wait "$hostile_pid" || status=$?
cat "$apt_log" "$hostile_log"
rm -f "$apt_log" "$hostile_log"
exit "$status"
