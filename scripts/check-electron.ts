// Desktop security gate (a stage of `npm test`): Electronegativity over the main-process and preload
// sources (electron/) and over the bundles that actually ship (dist/electron/*.cjs). Exits non-zero on any
// finding that is not justified below. Offline: Electronegativity's start-up fetch of translations is
// answered locally (its bundled English texts are used), so it never reaches the network.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';
import { repoRoot } from './lib/electron-binary.ts';

const require = createRequire(import.meta.url);
const pkgDir = path.dirname(require.resolve('@doyensec/electronegativity/package.json'));
// The only network access in Electronegativity is this translation download (locales/i18n.js uses `got`).
const gotPath = require.resolve('got', { paths: [path.join(pkgDir, 'dist/locales')] });
require.cache[gotPath] = {
  id: gotPath,
  filename: gotPath,
  loaded: true,
  exports: () => Promise.reject(new Error('offline: using the bundled translations')),
} as unknown as NodeJS.Module;

interface Issue {
  id: string;
  file: string;
  location: { line: number; column: number };
  severity: { name: string };
  confidence: { name: string };
  description: string;
  manualReview: boolean;
}
type Run = (
  o: Record<string, unknown>,
) => Promise<{ issues: Issue[]; atomicChecks: number; globalChecks: number; errors: unknown[] }>;
const run = require('@doyensec/electronegativity') as Run;

/**
 * Findings that are understood and accepted, by check id and file. Each says why. Anything else fails.
 * (Source files carry their justifications as `eng-disable` comments next to the code instead.)
 */
export const JUSTIFIED: { check: string; file: RegExp; why: string }[] = [
  {
    check: 'CSP_GLOBAL_CHECK',
    file: /^N\/A$/,
    why: 'the CSP is a response header of the app:// protocol handler (app-scheme.ts contentSecurityPolicy), not a <meta> tag this check looks for',
  },
  {
    check: 'OPEN_EXTERNAL_JS_CHECK',
    file: /^main\/(app-menu|bridge-handlers|security-rules|init\/(app-menu|bridge|web-security))\.ts$/,
    why: 'every URL passes isAllowedExternal (https allow-list + the backend origin) first; security-rules.test.ts and app-menu.test.ts prove it',
  },
  {
    check: 'PROTOCOL_HANDLER_JS_CHECK',
    file: /^main\/init\/deep-links\.ts$/,
    why: 'registers vigil:// — links pass only through parseDeepLink (known routes, validated parameters; shared/deep-links.test.ts)',
  },
  {
    check: 'AUXCLICK_JS_CHECK',
    file: /^main\/window\.ts$/,
    why: 'a middle click would open a window: setWindowOpenHandler denies every window (security-rules.ts)',
  },
  {
    check: 'PRELOAD_JS_CHECK',
    file: /^main\/window\.ts$/,
    why: 'the preload is the narrow window.vigil bridge (one function per channel; main-side checks in ipc.ts)',
  },
];

async function scan(input: string): Promise<Issue[]> {
  const result = await run({
    input,
    isRelative: true,
    isVerbose: false,
    customScan: [],
    // Compares the Electron version with a release list downloaded from the internet: not offline-capable.
    // (Electron's version is kept current through npm instead.)
    excludeFromScan: ['availablesecurityfixesglobalcheck'],
    electronVersionOverride: (
      require(path.join(repoRoot, 'node_modules/electron/package.json')) as { version: string }
    ).version,
    parserPlugins: [],
  });
  console.log(
    `${path.relative(repoRoot, input)}: ${result.atomicChecks} atomic and ${result.globalChecks} global checks, ${result.issues.length} findings`,
  );
  for (const e of result.errors) {
    console.log('parse error:', JSON.stringify(e).slice(0, 300));
  }
  return result.issues;
}

// The shipped bundles, as esbuild builds them for `npm run build:desktop`, but lowered to ES2020 (its parser
// predates class private fields) and named .js (it skips .cjs): the same code, with every library inlined.
const bundles = mkdtempSync(path.join(os.tmpdir(), 'vigil-eng-'));
for (const name of ['main', 'preload']) {
  await build({
    entryPoints: [path.join(repoRoot, `electron/${name}/index.ts`)],
    outfile: path.join(bundles, `${name}.js`),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'es2020',
    external: ['electron'],
    logLevel: 'error',
  });
}
const source = await scan(path.join(repoRoot, 'electron'));
const bundled = await scan(bundles);
// The bundle holds the same call sites plus every library: each kind of finding may occur there only as
// often as in our sources, so a library that adds an openExternal or a protocol handler fails the gate.
const perCheck = new Map<string, number>();
for (const f of source) {
  perCheck.set(f.id, (perCheck.get(f.id) ?? 0) + 1);
}
let failed = 0;
for (const f of [...source, ...bundled]) {
  const inBundle = bundled.includes(f);
  const left = perCheck.get(f.id) ?? 0;
  if (inBundle && f.file !== 'N/A') {
    perCheck.set(f.id, left - 1);
  }
  const ok = inBundle
    ? (f.file === 'N/A' || left > 0) && JUSTIFIED.find((j) => j.check === f.id)
    : JUSTIFIED.find((j) => j.check === f.id && j.file.test(f.file));
  const where = `${f.file}:${f.location.line}:${f.location.column}`;
  console.log(
    `${ok ? 'justified' : 'FINDING  '} ${f.id} (${f.severity.name}/${f.confidence.name}) ${where}${ok ? ` — ${ok.why}` : `\n          ${f.description}`}`,
  );
  failed += ok ? 0 : 1;
}
console.log(failed ? `${failed} unjustified findings` : 'electronegativity: no unjustified findings');
process.exit(failed ? 1 : 0);
