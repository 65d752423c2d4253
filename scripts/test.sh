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
  end_stage
  npx tsx scripts/test-summary.ts "$VIGIL_TEST_REPORT_DIR" "$status" || { [ "$status" -ne 0 ] || status=1; }
  rm -rf "$VIGIL_TEST_REPORT_DIR"
  exit "$status"
}
trap finish EXIT

# Each stage's heading says how long the run has taken so far (the whole run must stay under 20 minutes).
current=''
end_stage() {
  if [ -n "$current" ]; then printf '\t%d\n' "$SECONDS" >>"$VIGIL_TEST_REPORT_DIR/stages.tsv"; fi
  current=''
}
stage() {
  end_stage
  current=$1
  printf '%s\t%d' "$1" "$SECONDS" >>"$VIGIL_TEST_REPORT_DIR/stages.tsv"
  printf '\n\033[1m== %s ==\033[0m (at %ds)\n' "$1" "$SECONDS"
}

# beside NAME COMMAND FOREGROUND...: runs COMMAND (another stage) in the background while FOREGROUND runs,
# keeps its output in a file and prints it whole once both have ended; fails if either failed. Only for
# pairs measured to fit on the two cores without slowing each other's timing-sensitive tests.
beside() {
  local name=$1 command=$2 log pid status=0 started=$SECONDS
  shift 2
  log=$(mktemp)
  bash -c "$command" >"$log" 2>&1 &
  pid=$!
  "$@" || status=$?
  wait "$pid" || status=$?
  printf '%s (beside)\t%d\t%d\n' "$name" "$started" "$SECONDS" >>"$VIGIL_TEST_REPORT_DIR/stages.tsv"
  printf '\n\033[1m== %s (ran beside the stage above) ==\033[0m (at %ds)\n' "$name" "$SECONDS"
  cat "$log"
  rm -f "$log"
  return "$status"
}

# Everything the stages need besides node_modules, installed once before any of them runs.
stage 'test packages (Debian, npm)'
bash scripts/test-packages.sh
export VIGIL_TEST_PACKAGES_READY=1

stage 'typecheck'
npm run --silent typecheck

stage 'lint'
npm run --silent lint

stage 'unit and integration (vitest)'
VIGIL_TEST_STAGE=vitest npx vitest run

stage 'scanners (in a private network namespace)'
bash tests/scanners/run.sh

stage 'migrations on PostgreSQL 15'
bash scripts/test-postgres.sh

stage 'edge functions (deno check + smoke)'
bash scripts/check-functions.sh

stage 'desktop security (electronegativity)'
npx tsx scripts/check-electron.ts

# The hosted-policy suite mostly waits on its scans (a quarter of a core over ~55 s), and the end-to-end suite
# runs one file at a time (about one core): it fits beside it.
stage 'end-to-end (Chromium), with the hosted target policy beside it'
beside 'hosted target policy through npm start (in private namespaces)' 'bash tests/hosted-policy/run.sh' \
  bash scripts/test-e2e.sh

end_stage
printf '\nAll stages passed in %ds.\n' "$SECONDS"
