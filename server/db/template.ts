import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fromPGlite, createRawPGlite } from './pglite.ts';
import { applySchema, schemaHash, type SchemaSources } from './migrate.ts';

// A fresh PGlite runs initdb (~3 s); loading an initialised, migrated and seeded data directory takes a
// fifth of that. The template is built once per schema hash and reused by every new data dir and every
// in-memory stack (tests), so a new stack starts as fast as an existing one.
const cacheDir = () =>
  process.env.VIGIL_CACHE_DIR ?? path.resolve(import.meta.dirname, '../../node_modules/.cache/vigil');

const inflight = new Map<string, Promise<Blob>>();

export function templateFor(sources: SchemaSources): Promise<Blob> {
  const hash = schemaHash(sources);
  let p = inflight.get(hash);
  if (!p) {
    p = loadOrBuild(hash, sources);
    inflight.set(hash, p);
    p.catch(() => inflight.delete(hash));
  }
  return p;
}

async function loadOrBuild(hash: string, sources: SchemaSources): Promise<Blob> {
  const file = path.join(cacheDir(), `pglite-template-${hash}.tar`);
  if (existsSync(file)) {
    return new Blob([await readFile(file)]);
  }
  const raw = await createRawPGlite();
  try {
    await applySchema(fromPGlite(raw), sources);
    const blob = await raw.dumpDataDir('none');
    const bytes = Buffer.from(await blob.arrayBuffer());
    await mkdir(cacheDir(), { recursive: true });
    // Write then rename: parallel test workers may build the same template at once.
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, bytes);
    await rename(tmp, file);
    return new Blob([bytes]);
  } finally {
    await raw.close();
  }
}
