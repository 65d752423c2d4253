# Shared by the test stages' scripts (sourced): CI=true, and quiet apt-get. An install that fails where apt is
# reachable fails the stage with apt's own error; one that fails because apt is unreachable (no network, no
# lists) fails it only with CI=true, and otherwise lets the suites that need the package skip, saying so.

is_ci() { [[ ${CI:-} =~ ^(1|true|TRUE|True)$ ]]; }

# apt_try COMMAND...: runs an apt-get command quietly; when it fails, one `apt-get update` (lists may be
# missing or stale) and one retry. Returns 0 on success, 1 when the command itself failed (its error lines
# are printed), 2 when apt-get update failed too (apt unreachable; its error is printed).
apt_try() {
  local log status=0
  log=$(mktemp)
  # Other runs on this machine may be installing too: wait for dpkg's lock rather than fail on it.
  set -- "$1" -o DPkg::Lock::Timeout=600 "${@:2}"
  DEBIAN_FRONTEND=noninteractive "$@" >"$log" 2>&1 && { rm -f "$log"; return 0; }
  if ! apt-get -o DPkg::Lock::Timeout=600 update -qq >"$log" 2>&1; then
    printf 'apt-get update failed:\n' >&2
    tail -n 20 "$log" >&2
    rm -f "$log"
    return 2
  fi
  DEBIAN_FRONTEND=noninteractive "$@" >"$log" 2>&1 || status=1
  if [ "$status" -ne 0 ]; then
    printf '%s failed:\n' "$*" >&2
    grep -E '^(E|W|dpkg):' "$log" >&2 || tail -n 20 "$log" >&2
  fi
  rm -f "$log"
  return "$status"
}

# install_failed STATUS WHAT: after apt_try returned STATUS for WHAT, exits the stage or says who will skip.
install_failed() {
  if [ "$1" -eq 1 ] || is_ci; then
    echo "error: could not install $2 (apt's error above)" >&2
    exit 1
  fi
  echo "note: apt is unreachable, so $2 is not installed; the suites that need it skip, saying so" >&2
}
