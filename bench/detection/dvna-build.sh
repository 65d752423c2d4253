#!/usr/bin/env bash
# Builds DVNA, the Damn Vulnerable NodeJS Application (appsecco/dvna, Express + Sequelize + MySQL), for the
# detection bench's dvna class: bench/detection/classes/dvna.ts runs it when VIGIL_BENCH_DVNA names the built
# checkout. Not part of `npm test`: it is fetched from GitHub (or any clone of it) and takes a minute.
#
#   bash bench/detection/dvna-build.sh DIR [GIT_SOURCE]
#
# GIT_SOURCE defaults to GitHub. Two native modules of 2018 do not build on Node 20; each is swapped for
# the maintained package with the same API, which changes none of the app's behaviour: bcrypt 1.0 for
# bcryptjs (hashSync, genSaltSync, compareSync) and libxmljs 0.19 for libxmljs2 (parseXmlString with the same
# noent option, so the XXE stays). NODE (default: node on PATH) builds it, with its headers for libxmljs2.
set -euo pipefail
dir=${1:?usage: dvna-build.sh DIR [GIT_SOURCE]}
source=${2:-https://github.com/appsecco/dvna.git}
node=${NODE:-$(command -v node)}
export PATH="$(dirname "$node"):$PATH"
nodedir="$(cd "$(dirname "$node")/.." && pwd)"
[ -f "$nodedir/include/node/node.h" ] && export npm_config_nodedir="$nodedir"

[ -d "$dir/.git" ] || git clone -q "$source" "$dir"
cd "$dir"
git checkout -q -f 9ba473a
grep -q '"name": "dvna"' package.json
sed -i 's/"bcrypt": "\^1.0.3"/"bcryptjs": "^2.4.3"/; s/"libxmljs": "\^0.19.1"/"libxmljs2": "0.35.0"/' package.json
sed -i "s/require('bcrypt')/require('bcryptjs')/" core/*.js
sed -i 's/require("libxmljs")/require("libxmljs2")/' core/appHandler.js
grep -q bcryptjs core/passport.js && grep -q libxmljs2 core/appHandler.js
npm install --ignore-scripts --no-audit --no-fund
npm rebuild libxmljs2 --build-from-source
node -e "require('libxmljs2'); require('bcryptjs'); require('mysql2')"
echo "built: VIGIL_BENCH_DVNA=$dir"
