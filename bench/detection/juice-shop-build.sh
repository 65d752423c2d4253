#!/usr/bin/env bash
# Builds OWASP Juice Shop v19.0.0 (a well-known deliberately vulnerable Angular shop) for the detection
# bench's juice-shop class: bench/detection/classes/juice-shop.ts runs it when VIGIL_BENCH_JUICE_SHOP names the
# built checkout. Not part of `npm test`: it takes a few minutes and about 1.5 GB.
#
#   bash bench/detection/juice-shop-build.sh DIR [GIT_SOURCE]
#
# GIT_SOURCE defaults to GitHub; any clone of the repository with the v19.0.0 tag will do. Node 20 runs
# v19; NODE (default: node on PATH) builds and runs it, with its headers for the native modules. Three
# changes let it install from an npm registry mirror without GitHub: the test-only `frisby` dependency
# (fetched from GitHub) is dropped, `juicy-chat-bot` is taken at 0.8 when 0.9 is missing (its export is
# named there), and peer-version skew among @angular packages is tolerated (--legacy-peer-deps).
set -euo pipefail
dir=${1:?usage: juice-shop-build.sh DIR [GIT_SOURCE]}
source=${2:-https://github.com/juice-shop/juice-shop.git}
node=${NODE:-$(command -v node)}
export PATH="$(dirname "$node"):$PATH" CYPRESS_INSTALL_BINARY=0
nodedir="$(cd "$(dirname "$node")/.." && pwd)"
[ -f "$nodedir/include/node/node.h" ] && export npm_config_nodedir="$nodedir"

[ -d "$dir/.git" ] || git clone -q "$source" "$dir"
cd "$dir"
# A clone without its largest media files (a partial mirror) still checks out everything the shop runs on.
git checkout -q -f v19.0.0 || true
grep -q '"version": "19.0.0"' package.json
sed -i '/"frisby": "github:bkimminich\/frisby",/d' package.json
if ! npm view juicy-chat-bot@0.9 version >/dev/null 2>&1; then
  sed -i 's/"juicy-chat-bot": "~0.9.0"/"juicy-chat-bot": "~0.8.0"/' package.json
  sed -i "s/^import Bot from 'juicy-chat-bot'/import { Bot } from 'juicy-chat-bot'/" routes/chatbot.ts
fi
npm install --ignore-scripts --no-audit --no-fund --legacy-peer-deps
npm rebuild sqlite3 libxmljs2 --build-from-source
(cd frontend && npm install --ignore-scripts --no-audit --no-fund --legacy-peer-deps && npm run build)
npx tsc || true # emits despite type errors in test-only files, as Juice Shop's own postinstall tolerates
mkdir -p frontend/dist/frontend/assets/public/videos
test -f build/app.js
echo "built: VIGIL_BENCH_JUICE_SHOP=$dir VIGIL_BENCH_JUICE_SHOP_NODE=$node"
