import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { processSettings } from '../config.ts';
import { openPGlite } from './pglite.ts';
import { applySchema, schemaHash, type SchemaSources } from './migrate.ts';

// A fresh PGlite runs initdb (~3 s). The template, an initialised, migrated and seeded data directory,
// is built once per schema hash: new data dirs start as a copy of its directory, in-memory stacks (tests)
// from its tarball, so a new stack starts about as fast as an existing one.
const cacheDir = () =>
  processSettings().VIGIL_CACHE_DIR ?? path.resolve(import.meta.dirname, '../../node_modules/.cache/vigil');

interface Template {
  dir: string;
  tar: string;
}

const inflight = new Map<string, Promise<Template>>();

function ensureTemplate(sources: SchemaSources): Promise<Template> {
  const hash = schemaHash(sources);
  let p = inflight.get(hash);
  if (!p) {
    p = loadOrBuild(hash, sources);
    inflight.set(hash, p);
    p.catch(() => inflight.delete(hash));
  }
  return p;
}

async function loadOrBuild(hash: string, sources: SchemaSources): Promise<Template> {
  const t: Template = {
    dir: path.join(cacheDir(), `pglite-template-${hash}`),
    tar: path.join(cacheDir(), `pglite-template-${hash}.tar`),
  };
  if (existsSync(t.dir) && existsSync(t.tar)) {
    return t;
  }
  // Build in a private folder, then rename: parallel test workers may build the same template at once.
  const work = `${t.dir}.${process.pid}.${Date.now()}.tmp`;
  await mkdir(work, { recursive: true });
  // A fresh directory: PGlite runs initdb (on the plain engine), then the schema is applied.
  const db = await openPGlite({ dataDir: work });
  try {
    await applySchema(db, sources);
    await writeFile(`${work}.tar`, await db.dumpDataDir());
  } finally {
    await db.close();
  }
  await pruneOtherTemplates(hash);
  await rename(`${work}.tar`, t.tar);
  await rename(work, t.dir).catch(async () => {
    // Another worker finished first; its copy is identical.
    await rm(work, { recursive: true, force: true });
  });
  return t;
}

/** The template as a tarball, for an in-memory database. */
export async function templateTarball(sources: SchemaSources): Promise<Uint8Array> {
  return readFile((await ensureTemplate(sources)).tar);
}

/** Fills an empty data directory with a copy of the template. */
export async function copyTemplateTo(sources: SchemaSources, pgdata: string): Promise<void> {
  await cp((await ensureTemplate(sources)).dir, pgdata, { recursive: true });
}

// Templates of older schema versions (about 80 MB each) are removed once idle for an hour; a recent one
// may belong to a test run still using it.
async function pruneOtherTemplates(keep: string): Promise<void> {
  const dir = cacheDir();
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.startsWith('pglite-template-') || name.includes(keep)) {
      continue;
    }
    const full = path.join(dir, name);
    const age = Date.now() - (await stat(full)).mtimeMs;
    if (age > 3600_000) {
      await rm(full, { recursive: true, force: true });
    }
  }
}
