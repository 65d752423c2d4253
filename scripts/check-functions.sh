#!/usr/bin/env bash
# Edge functions under Deno, as Supabase's edge runtime runs them: `deno check` of every
# supabase/functions/<name>/index.ts with that function's deno.json, then a smoke run that loads each
# handler under Deno and checks it answers a CORS preflight and refuses a caller without a session.
# Deno comes from the `deno` npm package; npm: imports resolve from ./node_modules
# (--node-modules-dir=manual), so nothing is downloaded.
set -euo pipefail
cd "$(dirname "$0")/.."

export DENO_NO_UPDATE_CHECK=1 DENO_NO_PROMPT=1
deno() { npx --no-install deno "$@"; }
deno --version | head -n 1

functions=()
for dir in supabase/functions/*/; do
  name=$(basename "$dir")
  [[ $name == _* || ! -f $dir/index.ts ]] && continue
  [[ -f $dir/deno.json ]] || { echo "supabase/functions/$name has no deno.json" >&2; exit 1; }
  functions+=("$name")
done

for name in "${functions[@]}"; do
  dir=supabase/functions/$name
  deno check --quiet --node-modules-dir=manual --config "$dir/deno.json" "$dir/index.ts"
  echo "deno check: $name ok"
done

# Smoke run: the handler module loads under Deno with only env and read access (no network), answers
# OPTIONS with CORS headers and a POST without a user token with 401 (no auth server needed for that).
smoke=$(mktemp -d)
trap 'rm -rf "$smoke"' EXIT
for name in "${functions[@]}"; do
  dir=supabase/functions/$name
  # Functions that act for a user must refuse a caller without a session; others (webhooks) only load.
  needs_user=false
  grep -q "requireUser" "$dir/handler.ts" && needs_user=true
  cat > "$smoke/$name.ts" <<TS
import handler from '$PWD/$dir/handler.ts';
const fail = (msg: string) => { console.error('deno smoke $name: ' + msg); Deno.exit(1); };
const pre = await handler(new Request('http://127.0.0.1/$name', { method: 'OPTIONS' }));
if (pre.status >= 300 || !pre.headers.get('access-control-allow-origin')) fail('preflight answered ' + pre.status);
if ($needs_user) {
  const res = await handler(new Request('http://127.0.0.1/$name', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));
  if (res.status !== 401) fail('POST without a session answered ' + res.status + ' ' + await res.text());
}
console.log('deno smoke: $name ok');
TS
  SUPABASE_URL=http://127.0.0.1:9 SUPABASE_ANON_KEY=smoke SUPABASE_SERVICE_ROLE_KEY=smoke \
    deno run --quiet --node-modules-dir=manual --config "$dir/deno.json" --allow-env --allow-read=. \
    "$smoke/$name.ts"
done
echo "edge functions: ${#functions[@]} type-checked and smoke-run under Deno"
