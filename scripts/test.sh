#!/usr/bin/env bash
# `npm test`: every suite that can run on this machine. Each stage prints its name and how many tests it ran;
# any failure stops the run with a non-zero exit. Stages that need system packages install them (Debian) or
# say why not. The run ends, pass or fail, with a summary: each stage's time, the tests each vitest stage
# ran, and every skipped test by requirement (docs/testing.md says which skips CI=true accepts).
set -euo pipefail
cd "$(dirname "$0")/.."

# What each vitest run ran and skipped (tests/helpers/skip-reporter.ts writes here), and the stage timings.
VIGIL_TEST_REPORT_DIR=$(mktemp -d "${TMPDIR:-/tmp}/vigil-test-report.XXXXXX")
export VIGIL_TEST_REPORT_DIR
finish() {
  local status=$?
  end_stage "$status"
  npx tsx scripts/test-summary.ts "$VIGIL_TEST_REPORT_DIR" "$status" || { [ "$status" -ne 0 ] || status=1; }
  rm -rf "$VIGIL_TEST_REPORT_DIR"
  exit "$status"
}
trap finish EXIT

# Each stage's heading says how long the run has taken so far (the whole run must stay under 20 minutes); the
# summary gives each stage's wall time and the CPU time its processes used (how much of it was waiting).
current='' current_started=0
read_cpu() { # cpu=user + system seconds of this shell's finished children, from the `times` builtin (run here,
  # not in a subshell, which would count its own children only)
  times >"$VIGIL_TEST_REPORT_DIR/times"
  cpu=$(awk 'END { n = 0; for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); n += t[1] * 60 + t[2] } printf "%d", n }' \
    "$VIGIL_TEST_REPORT_DIR/times")
}
end_stage() { # [STATUS]: the stage's exit status (0 unless the run is ending on its failure)
  if [ -n "$current" ]; then
    read_cpu
    printf '%s\t%d\t%d\t%d\t%d\n' "$current" "$current_started" "$SECONDS" "$((cpu - stage_cpu))" "${1:-0}" \
      >>"$VIGIL_TEST_REPORT_DIR/stages.tsv"
  fi
  current=''
}
stage() {
  end_stage
  current=$1 current_started=$SECONDS
  read_cpu
  stage_cpu=$cpu
  printf '\n\033[1m== %s ==\033[0m (at %ds)\n' "$1" "$SECONDS"
}

# beside NAME COMMAND FOREGROUND...: runs COMMAND (another stage) in the background while FOREGROUND runs,
# keeps its output in a file and prints it whole once both have ended; fails if either failed. FOREGROUND may
# itself be `beside`. Only for stages measured to fit on the two cores together.
beside() {
  local name=$1 command=$2 log pid status=0 started=$SECONDS
  shift 2
  log=$(mktemp)
  # Its own end, not the foreground's, goes in the summary (a subshell's SECONDS counts from the run's start).
  (
    status=0
    bash -c "$command" || status=$?
    printf '%s (beside)\t%d\t%d\t\t%d\n' "$name" "$started" "$SECONDS" "$status" >>"$VIGIL_TEST_REPORT_DIR/stages.tsv"
    exit "$status"
  ) >"$log" 2>&1 &
  pid=$!
  "$@" || status=$?
  wait "$pid" || status=$?
  printf '\n\033[1m== %s (ran beside the stage above) ==\033[0m (at %ds)\n' "$name" "$SECONDS"
  cat "$log"
  rm -f "$log"
  return "$status"
}

# The stages run two or three at a time where one mostly waits (on apt, on servers, on timers) while the other
# works: the whole run must fit in 20 minutes on a quiet 2-core machine. The summary's wall and CPU times
# per stage show what fits beside what.

# Everything the later stages need besides node_modules, installed beside the static checks, which need none
# of it (apt mostly waits on the network and the disk; tsc and ESLint take a core each).
stage 'typecheck and lint, with the test packages (Debian, npm) installed beside them'
beside 'test packages (Debian, npm)' 'bash scripts/test-packages.sh' \
  beside 'typecheck' 'npm run --silent typecheck' \
  npm run --silent lint
export VIGIL_TEST_PACKAGES_READY=1

# The scanner suites mostly wait on their servers, on dripping hostile targets and on timers (about a third
# of a core over their run): they fit beside vitest, which keeps both cores busy.
stage 'unit and integration (vitest), with the scanner suites beside it'
beside 'scanners (in private network namespaces)' 'bash tests/scanners/run.sh' \
  env VIGIL_TEST_STAGE=vitest npx vitest run

# The end-to-end suite runs one file at a time (about one core); beside it the hosted-policy suite mostly waits
# on its scans (a quarter of a core), and PostgreSQL's suites (one file at a time), then the edge functions
# and the desktop security check, take the other core.
stage 'end-to-end (Chromium), with the hosted target policy, PostgreSQL 15, edge functions and desktop security beside it'
beside 'hosted target policy through npm start (in private namespaces)' 'bash tests/hosted-policy/run.sh' \
  beside 'migrations on PostgreSQL 15, then edge functions (deno check + smoke), then desktop security (electronegativity)' \
  'bash scripts/test-postgres.sh && bash scripts/check-functions.sh && npx tsx scripts/check-electron.ts' \
  bash scripts/test-e2e.sh

end_stage
printf '\nAll stages passed in %ds.\n' "$SECONDS"
