#!/usr/bin/env bash
# `npm test` a few times in a row beside busy processes, as a shared machine runs it: the proof that the
# suite's timing holds under load (docs/testing.md, "Timing in tests"). Stops at the first red run.
#   bash scripts/test-under-load.sh [busy processes, default 6] [runs, default 3]
set -euo pipefail
cd "$(dirname "$0")/.."
busy=${1:-6} runs=${2:-3}
[[ $busy =~ ^[0-9]+$ && $runs =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 [busy processes] [runs]" >&2; exit 2; }

hogs=()
stop_hogs() { [ ${#hogs[@]} -eq 0 ] || kill "${hogs[@]}" 2>/dev/null || true; }
trap stop_hogs EXIT
for ((i = 0; i < busy; i++)); do
  (while :; do :; done) &
  hogs+=($!)
done

load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime; }
for ((run = 1; run <= runs; run++)); do
  echo "== run $run of $runs beside $busy busy processes (load $(load)) =="
  started=$SECONDS
  if npm test; then
    echo "== run $run green in $((SECONDS - started)) s (load $(load)) =="
  else
    echo "== run $run red after $((SECONDS - started)) s (load $(load)) ==" >&2
    exit 1
  fi
done
echo "== $runs runs green in a row beside $busy busy processes =="
