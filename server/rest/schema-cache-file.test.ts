import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPGlite } from '../db/pglite.ts';
import { startStack } from '../stack.ts';
import { restoredIntrospection } from './schema-cache-file.ts';
import { schemasFromToml } from './config.ts';
import { schemaCacheFor } from './schema-cache.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-schema-file-'));
const file = path.join(dir, 'rest-schema-cache.json');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const start = () => startStack({ port: 0, dataDir: dir });
const hasTable = async (stack: Awaited<ReturnType<typeof start>>, name: string) =>
  (await schemaCacheFor(stack.ctx.db).get()).schemas.get('public')!.relations.has(name);

describe('the REST schema cache saved in the data dir', () => {
  it('is saved at close and reused by the next start of the unchanged database', async () => {
    const first = await start();
    await first.close();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      version: 2,
      schema: schemasFromToml().join(','),
    });
    const second = await start();
    try {
      expect(await restoredIntrospection(second.ctx.db, schemasFromToml())).not.toBeNull();
      expect(await hasTable(second, 'agent_roles')).toBe(true);
    } finally {
      await second.close();
    }
  });

  it('is not used after DDL made outside the stack (no stale tables), and is replaced at close', async () => {
    // Another program on the same data dir (a CLI, a test) adds a table while the stack is down.
    const raw = await openPGlite({ dataDir: path.join(dir, 'pgdata') });
    await raw.exec('create table public.made_while_down (id int primary key)');
    await raw.close();
    const stack = await start();
    try {
      expect(await restoredIntrospection(stack.ctx.db, schemasFromToml())).toBeNull();
      expect(await hasTable(stack, 'made_while_down')).toBe(true);
    } finally {
      await stack.close();
    }
  });

  it('follows DDL made at run time after a reload, into the next start', async () => {
    const stack = await start();
    await stack.ctx.db.exec(`create table public.made_at_run_time (id int primary key);
      notify pgrst, 'reload schema'`);
    await expect.poll(() => hasTable(stack, 'made_at_run_time')).toBe(true);
    await stack.close();
    const next = await start();
    try {
      expect(await restoredIntrospection(next.ctx.db, schemasFromToml())).not.toBeNull();
      expect(await hasTable(next, 'made_at_run_time')).toBe(true);
    } finally {
      await next.close();
    }
  });

  it('is not used after a crash that left writes behind, nor when the file is damaged', async () => {
    const stack = await start();
    // Runtime DDL without a reload and no clean close: the saved copy must not be trusted next time.
    await stack.ctx.db.exec('create table public.made_before_crash (id int primary key)');
    await stack.ctx.db.close();
    await stack.close().catch(() => undefined);
    const next = await start();
    try {
      expect(await hasTable(next, 'made_before_crash')).toBe(true);
    } finally {
      await next.close();
    }
    writeFileSync(file, '{"version":1,"schema":"public"');
    const damaged = await start();
    try {
      expect(await restoredIntrospection(damaged.ctx.db, schemasFromToml())).toBeNull();
      expect(await hasTable(damaged, 'agent_roles')).toBe(true);
    } finally {
      await damaged.close();
    }
  });
});
