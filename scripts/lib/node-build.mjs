// @ts-check
// The product's one build step: bundles the Node side (stack, agent worker, scan CLI and every module that
// runs on a thread or in a process of its own) from TypeScript into plain JavaScript in dist/node, with
// esbuild. What `npm start`, `npm run worker`, `npm run scan` and the desktop package run; nothing compiles
// TypeScript at run time. Plain JavaScript itself, so that running the product needs no TypeScript loader;
// it loads esbuild only when it has something to build.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
export const outDir = path.join(root, 'dist/node');
const infoFile = path.join(outDir, 'build-info.json');
const thisFile = fileURLToPath(import.meta.url);

/**
 * Every entry of the build, by its name in dist/node. Commands run one (scripts/launch.mjs); the others are
 * started as threads or processes by the code that names them (shared/module-entry.ts). All of them, and the
 * chunks they share, sit in dist/node itself: code that finds a file from its own location (`../../supabase`,
 * `./data/…`) finds it from there as it does from its source folder.
 */
export const ENTRIES = {
  start: 'scripts/start.ts',
  worker: 'agents/worker/main.ts',
  scan: 'agents/cli/scan.ts',
  'stack-status': 'server/cli/status.ts',
  'pglite-engine-worker': 'server/db/pglite-engine-worker.ts',
  'scan-child': 'agents/scanners/isolation/scan-child.ts',
  'connect-scan-thread': 'agents/scanners/infrastructure/connect-scan-thread.ts',
  ...functionEntries(),
};

/**
 * Node's flags for the process that runs the stack (package.json's `start`, which a test holds to this list;
 * the desktop app's stack process takes the same). A young generation of 2 MB instead of up to 32: the
 * stack's allocations are short-lived requests. WebAssembly compiled by Liftoff only: V8's optimising tier
 * compiled much of PGlite's 9 MB engine again at every start (a second of CPU and ~70 MB); REST queries
 * run as fast, a query that scans a million rows ~1.5x slower (docs/adr/0004-lean-product.md).
 */
export const STACK_NODE_FLAGS = ['--max-semi-space-size=2', '--liftoff-only'];

/**
 * Packages bundled into dist/node rather than loaded from node_modules at run time: what every start loads,
 * pure JavaScript that finds no files of its own. Bundled, only what is used is loaded (date-fns was 300
 * modules for three functions), with none of Node's per-module resolution. Every other package loads from
 * node_modules as installed: some find their own files from where they are (PGlite's engine, pdfkit's fonts,
 * playwright-core).
 */
const BUNDLED = [
  'date-fns',
  '@date-fns/tz',
  'hono',
  '@hono/node-server',
  'zod',
  'jose',
  'smol-toml',
  '@supabase/supabase-js',
  'otpauth',
];

/** Every installed dependency not in BUNDLED, with its subpaths. */
function externalPackages() {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const names = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})];
  return names.filter((name) => !BUNDLED.includes(name)).flatMap((name) => [name, `${name}/*`]);
}

/** Data files read at run time beside the code that reads them (`new URL('./data/x.json', import.meta.url)`). */
const DATA = [{ from: 'agents/scanners/webapp/components/data', to: 'data' }];

/** The edge functions' handlers, which the stack imports on first use (server/functions/registry.ts). */
function functionEntries() {
  const dir = path.join(root, 'supabase/functions');
  /** @type {Record<string, string>} */
  const entries = {};
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    if (existsSync(path.join(dir, name, 'handler.ts'))) {
      entries[`function-${name}`] = `supabase/functions/${name}/handler.ts`;
    }
  }
  return entries;
}

/**
 * An input file as the build saw it: modification time, size and a hash of its content.
 * @typedef {[number, number, string]} FileState
 * @typedef {{ esbuild: string, builder: FileState, inputs: Record<string, FileState>, outputs: string[],
 *   data: string[] }} BuildInfo
 */

/**
 * Why dist/node must be (re)built, or null when it is current: every input as it was when it was built.
 * Time and size decide at once; a file whose time alone differs (a fresh checkout, a copy into an image)
 * is read and its content compared, so a copied build stays current without esbuild.
 * @param {string} [recordFile] the build's record (tests pass a copy)
 */
export function staleReason(recordFile = infoFile) {
  /** @type {BuildInfo} */
  let info;
  try {
    info = JSON.parse(readFileSync(recordFile, 'utf8'));
  } catch {
    return 'not built yet';
  }
  const changed = (/** @type {string} */ file, /** @type {FileState} */ [mtime, size, hash]) => {
    try {
      const s = statSync(path.join(root, file));
      if (s.size !== size) {
        return true;
      }
      return s.mtimeMs !== mtime && contentHash(readFileSync(path.join(root, file))) !== hash;
    } catch {
      return true;
    }
  };
  if (changed(path.relative(root, thisFile), info.builder)) {
    return 'the build script changed';
  }
  for (const [file, seen] of Object.entries(info.inputs)) {
    if (changed(file, seen)) {
      return `${file} changed`;
    }
  }
  const names = Object.keys(ENTRIES);
  if (names.some((name) => !info.outputs.includes(`${name}.js`))) {
    return 'an entry was added';
  }
  if (info.outputs.some((file) => !existsSync(path.join(outDir, file)))) {
    return 'an output is missing';
  }
  return null;
}

/**
 * Builds dist/node. Each file is written under a temporary name and renamed into place (chunks first,
 * entries last, the build record at the very end), so a process starting meanwhile finds either build,
 * whole; chunks carry a hash of their content, so a running process keeps finding the chunks it loads
 * later. Two builds at once write the same files.
 */
export async function buildNode() {
  /** @type {typeof import('esbuild')} */
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    throw new Error('cannot build dist/node: esbuild is not installed (run npm install)');
  }
  const started = performance.now();
  const result = await esbuild
    .build({
      absWorkingDir: root,
      entryPoints: ENTRIES,
      outdir: outDir,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20.11',
      external: externalPackages(),
      // Bundled CommonJS code may call require() for Node's own modules: give it one.
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
      // Class and function names appear in error reports and are compared (error.name).
      keepNames: true,
      sourcemap: 'linked',
      metafile: true,
      write: false,
      logLevel: 'warning',
    })
    // esbuild's service process would otherwise live on beside the product it built (~20 MB, more after a build).
    .finally(() => esbuild.stop());
  await mkdir(outDir, { recursive: true });
  const entryFiles = new Set(Object.keys(ENTRIES).map((name) => path.join(outDir, `${name}.js`)));
  const files = [...result.outputFiles].sort(
    (a, b) => Number(entryFiles.has(a.path)) - Number(entryFiles.has(b.path)),
  );
  checkRuntimePackages(result.metafile);
  const data = dataFiles();
  checkRelativeUrls(
    files,
    new Set([...files.map((f) => f.path), ...data.map((f) => path.join(outDir, f.to))]),
  );
  for (const file of files) {
    await writeAtomically(file.path, file.contents);
  }
  for (const file of data) {
    await writeAtomically(path.join(outDir, file.to), readFileSync(path.join(root, file.from)));
  }
  /** @type {BuildInfo} */
  const info = {
    esbuild: esbuild.version,
    builder: await fileState(thisFile),
    inputs: {},
    outputs: files.map((f) => path.relative(outDir, f.path)),
    data: data.map((f) => f.to),
  };
  // package.json too: it decides which packages are bundled.
  const inputs = [...Object.keys(result.metafile.inputs), ...data.map((f) => f.from), 'package.json'];
  for (const input of inputs.sort()) {
    info.inputs[input] = await fileState(path.join(root, input));
  }
  await writeAtomically(infoFile, JSON.stringify(info, null, 1));
  await pruneOldOutputs(new Set([...info.outputs, ...info.data, 'build-info.json']));
  return { ms: Math.round(performance.now() - started), files: files.length };
}

/** Builds dist/node when it is missing or older than its sources; says so on stderr when it builds. */
export async function ensureNodeBuild() {
  const reason = staleReason();
  if (reason === null) {
    return;
  }
  process.stderr.write(`Building the product into dist/node (${reason})…\n`);
  const built = await buildNode();
  process.stderr.write(`Built ${built.files} files in ${built.ms} ms.\n`);
}

/** @param {string} file @returns {Promise<FileState>} */
async function fileState(file) {
  const [s, content] = await Promise.all([stat(file), readFile(file)]);
  return [s.mtimeMs, s.size, contentHash(content)];
}

/** @param {Uint8Array} content */
const contentHash = (content) => createHash('sha256').update(content).digest('base64url');

/** @param {string} file @param {Uint8Array | string} contents */
async function writeAtomically(file, contents) {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, contents);
  await rename(temporary, file);
}

/** The data files to copy: source and destination, relative to the root and to dist/node. */
function dataFiles() {
  return DATA.flatMap(({ from, to }) =>
    readdirSync(path.join(root, from)).map((name) => ({
      from: path.join(from, name),
      to: path.join(to, name),
    })),
  );
}

/**
 * The packages dist/node loads at run time must be dependencies, not devDependencies: a packaged desktop
 * app (and `npm install --omit=dev`) has only those.
 * @param {import('esbuild').Metafile} metafile
 */
function checkRuntimePackages(metafile) {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const packageOf = (/** @type {string} */ spec) =>
    spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? spec);
  const devOnly = new Set();
  for (const output of Object.values(metafile.outputs)) {
    for (const imported of output.imports) {
      const name = packageOf(imported.path);
      const builtin = imported.path.startsWith('node:') || builtinModules.includes(name);
      if (imported.external && !builtin && !(name in (manifest.dependencies ?? {}))) {
        devOnly.add(name);
      }
    }
  }
  if (devOnly.size > 0) {
    throw new Error(`dist/node loads packages that are not dependencies: ${[...devOnly].join(', ')}`);
  }
}

/**
 * Every `new URL('./…', import.meta.url)` left in the bundle must name a file the build wrote: a file read
 * from beside its source would otherwise be missing only at run time, in the built product.
 * @param {{ path: string, text: string }[]} files @param {Set<string>} written
 */
function checkRelativeUrls(files, written) {
  const missing = [];
  for (const file of files.filter((f) => f.path.endsWith('.js'))) {
    for (const match of file.text.matchAll(
      /new URL\(\s*["'](\.{1,2}\/[^"']+)["']\s*,\s*import\.meta\.url/g,
    )) {
      const target = path.resolve(path.dirname(file.path), /** @type {string} */ (match[1]));
      if (!written.has(target)) {
        missing.push(`${path.relative(outDir, file.path)} reads ${match[1]}`);
      }
    }
  }
  if (missing.length > 0) {
    throw new Error(`dist/node reads files the build does not write:\n  ${missing.join('\n  ')}`);
  }
}

/**
 * Removes what earlier builds wrote and this one did not, once a day old: a process started from an
 * earlier build may still load its chunks (they are loaded on first use).
 * @param {Set<string>} current
 */
async function pruneOldOutputs(current) {
  const dayAgo = Date.now() - 86_400_000;
  for (const folder of ['', ...new Set(DATA.map((d) => d.to))]) {
    for (const name of await readdir(path.join(outDir, folder)).catch(() => [])) {
      const relative = path.join(folder, name);
      const s = await stat(path.join(outDir, relative)).catch(() => null);
      if (s?.isFile() && !current.has(relative) && s.mtimeMs < dayAgo) {
        await rm(path.join(outDir, relative), { force: true });
      }
    }
  }
}
