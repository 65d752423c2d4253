#!/usr/bin/env bash
# The schema on a real PostgreSQL 15: installs it from apt when missing, starts a throwaway cluster in a
# temporary directory on a free loopback port, runs the migration and row-level-security suites against it
# (VIGIL_TEST_DATABASE_URL), and removes the cluster whatever happens. Non-interactive; works as root. PostGIS
# (postgresql-15-postgis-3) is installed too, for the REST suites' GeoJSON.
set -euo pipefail
cd "$(dirname "$0")/.."
export VIGIL_TEST_STAGE=postgres

PG_BIN=/usr/lib/postgresql/15/bin # explicit: another pg_ctl (e.g. /usr/local/bin) may be first on PATH

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi; }

if [ ! -x "$PG_BIN/initdb" ]; then
  echo "PostgreSQL 15 not found in $PG_BIN: installing postgresql-15 from apt"
  export DEBIAN_FRONTEND=noninteractive
  # No default cluster: the package would otherwise create and start one on port 5432.
  if [ ! -e /etc/postgresql-common/createcluster.conf ]; then
    as_root mkdir -p /etc/postgresql-common
    echo 'create_main_cluster = false' | as_root tee /etc/postgresql-common/createcluster.conf >/dev/null
  fi
  as_root apt-get -o DPkg::Lock::Timeout=600 update
  as_root apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends -o Dpkg::Options::=--force-confold postgresql-15
fi

# PostGIS for the REST suites' application/geo+json (tests/fixtures/stack/rest-fidelity.sql creates it where available).
if [ ! -e /usr/share/postgresql/15/extension/postgis.control ]; then
  echo "PostGIS for PostgreSQL 15 not found: installing postgresql-15-postgis-3 from apt"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get -o DPkg::Lock::Timeout=600 update
  as_root apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends -o Dpkg::Options::=--force-confold postgresql-15-postgis-3
fi

# Postgres refuses to run as root: the cluster belongs to the postgres user then.
if [ "$(id -u)" -eq 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
  # From the work dir: the checkout may sit in a directory the postgres user cannot enter (/root/…).
  run_pg() { (cd "$work" && runuser -u postgres -- "$@"); }
else
  run_pg() { "$@"; }
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/vigil-pg15.XXXXXX")
chmod 755 "$work"
if [ "$(id -u)" -eq 0 ]; then chown postgres: "$work"; fi
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")

cleanup() {
  run_pg "$PG_BIN/pg_ctl" -D "$work/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

run_pg "$PG_BIN/initdb" -D "$work/data" -U postgres --auth=trust -E UTF8 --no-locale >"$work/initdb.log" 2>&1 ||
  { cat "$work/initdb.log"; exit 1; }
# Loopback only, socket in the work dir, no durability needed for a throwaway cluster. Query identifiers on, as
# Supabase's Postgres computes them (EXPLAIN VERBOSE shows them).
if ! run_pg "$PG_BIN/pg_ctl" -D "$work/data" -l "$work/server.log" -w -t 60 \
  -o "-p $port -k $work -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c compute_query_id=on" start >/dev/null; then
  cat "$work/server.log"
  exit 1
fi
echo "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"

# One file at a time: the suites share the server, and each opening applies the schema.
VIGIL_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres" npx vitest run --no-file-parallelism \
  tests/integration/stack/postgres-migrations.test.ts tests/integration/rls/policies.test.ts tests/integration/rls/writes.test.ts \
  tests/integration/rls/constraints.test.ts tests/integration/rls/aal.test.ts tests/integration/auth/postgres.test.ts \
  tests/integration/billing/paid-access.test.ts tests/integration/stack/statement-timeouts.test.ts \
  tests/integration/auth/aal2-enforcement.test.ts tests/integration/auth/tokens-hostile.test.ts \
  tests/integration/auth/rate-limits.test.ts tests/integration/stack/bad-input.test.ts \
  tests/integration/auth/admin.test.ts tests/integration/auth/anonymous.test.ts

# The REST suites create fixture tables of their own: they get a database of their own in the same cluster,
# so the schema suites above only ever see the product's tables.
run_pg "$PG_BIN/psql" -h 127.0.0.1 -p "$port" -U postgres -q -c 'create database vigil_rest' postgres
VIGIL_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/vigil_rest" npx vitest run --no-file-parallelism \
  tests/integration/rest/read.test.ts tests/integration/rest/write.test.ts tests/integration/rest/hostile.test.ts \
  tests/integration/rest/embeds.test.ts tests/integration/rest/fidelity/*.test.ts

# The fuzzer sends hostile requests with the service key too (it may delete any row or bucket it can
# reach): a database of its own, so that nothing it does reaches another suite.
run_pg "$PG_BIN/psql" -h 127.0.0.1 -p "$port" -U postgres -q -c 'create database vigil_fuzz' postgres
VIGIL_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/vigil_fuzz" npx vitest run tests/integration/stack/fuzz.test.ts
