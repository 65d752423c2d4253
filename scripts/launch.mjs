// @ts-check
// `npm start`, `npm run worker`, `npm run scan`, `npm run stack:status`: runs one command of the built
// product (dist/node/NAME.js) in this process, building dist/node first when it is missing or older than
// its sources (scripts/lib/node-build.mjs). Usage: node scripts/launch.mjs NAME [ARGS…]
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ENTRIES, ensureNodeBuild, outDir } from './lib/node-build.mjs';

const [name = '', ...args] = process.argv.slice(2);
const commands = ['start', 'worker', 'scan', 'stack-status'];
if (!commands.includes(name) || !(name in ENTRIES)) {
  process.stderr.write(`usage: node scripts/launch.mjs ${commands.join('|')} [ARGS…]\n`);
  process.exit(2);
}
try {
  await ensureNodeBuild();
} catch (e) {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
const entry = path.join(outDir, `${name}.js`);
// The command sees its own file and its arguments, as if it had been started directly.
process.argv = [process.argv[0] ?? process.execPath, entry, ...args];
await import(pathToFileURL(entry).href);
