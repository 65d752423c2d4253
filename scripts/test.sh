#!/usr/bin/env bash
# `npm test`: every suite that can run on this machine. Each stage prints its name; any failure stops
# the run with a non-zero exit. Stages that need system packages install them (Debian) or say why not.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each stage's heading says how long the run has taken so far (the whole run must stay under 20 minutes).
stage() { printf '\n\033[1m== %s ==\033[0m (at %ds)\n' "$1" "$SECONDS"; }

stage 'typecheck'
npm run --silent typecheck

stage 'lint'
npm run --silent lint

stage 'unit and integration (vitest)'
npx vitest run

stage 'scanners (in a private network namespace)'
bash tests/scanners/run.sh

stage 'hosted target policy through npm start (in private namespaces)'
bash tests/hosted-policy/run.sh

stage 'migrations on PostgreSQL 15'
bash scripts/test-postgres.sh

stage 'edge functions (deno check + smoke)'
bash scripts/check-functions.sh

stage 'desktop security (electronegativity)'
npx tsx scripts/check-electron.ts

stage 'end-to-end (Chromium)'
bash scripts/test-e2e.sh

printf '\nAll stages passed in %ds.\n' "$SECONDS"
