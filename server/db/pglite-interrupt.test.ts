import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { budget } from '../../tests/helpers/budget.ts';
import type { Database } from './database.ts';
import { openDatabase } from './open.ts';
import { withSharedMemory } from './wasm-shared-memory.ts';

/** A minimal module importing `env.memory` with the given limits (and nothing else). */
function moduleImportingMemory(limits: number[]): Uint8Array {
  const name = (s: string) => [s.length, ...Buffer.from(s)];
  const entry = [...name('env'), ...name('memory'), 0x02, ...limits];
  const section = [0x01, ...entry];
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 0x02, section.length, ...section]);
}

const wasm = (
  globalThis as unknown as {
    WebAssembly: {
      compile(b: Uint8Array): Promise<WebAssembly.Module>;
      instantiate(m: WebAssembly.Module, i: object): Promise<unknown>;
      Memory: new (d: { initial: number; maximum?: number; shared?: boolean }) => unknown;
    };
  }
).WebAssembly;

describe('withSharedMemory', () => {
  it.each([
    ['a minimum only (side modules)', [0x00, 0x01]],
    ['a minimum and a maximum (the engine)', [0x01, 0x02, 0x80, 0x01]],
  ])('declares a memory import with %s shared, so a shared memory links', async (_what, limits) => {
    const plain = moduleImportingMemory(limits);
    const shared = new wasm.Memory({ initial: 2, maximum: 128, shared: true });
    await expect(wasm.instantiate(await wasm.compile(plain), { env: { memory: shared } })).rejects.toThrow(
      /shared/,
    );
    const patched = withSharedMemory(plain, 128);
    expect(patched).not.toBeNull();
    await expect(
      wasm.instantiate(await wasm.compile(patched!.bytes), { env: { memory: shared } }),
    ).resolves.toBeDefined();
  });

  it('leaves a module without a memory import alone', () => {
    expect(withSharedMemory(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), 128)).toBeNull();
  });
});

// The longest test runs 400 statements, about 2 s on a quiet machine; opening the database about as long.
describe('statement time limits on PGlite', { timeout: budget(4_000) }, () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({ dataDir: 'memory' });
  }, budget(6_000));
  afterAll(() => db?.close());

  const slow = 'select count(*) as n from generate_series(1, 200000000)';

  it('cancels a statement past its limit with 57014, and the engine goes on', async () => {
    const started = performance.now();
    await expect(
      db.transaction((tx) => tx.query(slow), { statementTimeoutMs: 200, endAfterFirstQuery: true }),
    ).rejects.toMatchObject({ code: '57014', message: 'canceling statement due to statement timeout' });
    expect(performance.now() - started).toBeLessThan(10_000);
    const { rows } = await db.query<{ ok: number }>('select 1 as ok');
    expect(rows).toEqual([{ ok: 1 }]);
  });

  it('rolls back a cancelled transaction and keeps what committed before', async () => {
    await db.exec('create table if not exists t_interrupt (n int)');
    await db.transaction((tx) => tx.query('insert into t_interrupt values (1)'));
    await expect(
      db.transaction(
        async (tx) => {
          await tx.query('insert into t_interrupt values (2)');
          await tx.query(slow);
        },
        { statementTimeoutMs: 200 },
      ),
    ).rejects.toMatchObject({ code: '57014' });
    const { rows } = await db.query<{ n: number }>('select n from t_interrupt order by n');
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('never leaves a raised flag behind for the next statement, even at the deadline', async () => {
    // Statements finishing right around a 1 ms limit: some are cancelled, and none may leak the cancel.

    for (let i = 0; i < 200; i++) {
      try {
        await db.transaction((tx) => tx.query('select count(*) from generate_series(1, 2000)'), {
          statementTimeoutMs: 1,
          endAfterFirstQuery: true,
        });
      } catch (e) {
        expect((e as { code?: string }).code).toBe('57014');
      }
      const { rows } = await db.query<{ n: number }>(
        'select count(*)::int as n from generate_series(1, 20000)',
      );
      expect(rows[0]!.n).toBe(20000);
    }
  });

  // Each call arms its own deadline, whatever the call before it armed:
  // a later call must still be cut off near its own limit, whether that comes before or after.
  it('cuts off a statement under a short limit right after one under a long limit', async () => {
    // Long enough (tens of milliseconds) for its 60 s deadline to be armed while it runs.
    await db.transaction((tx) => tx.query('select count(*) from generate_series(1, 500000)'), {
      statementTimeoutMs: 60_000,
      endAfterFirstQuery: true,
    });
    const started = performance.now();
    await expect(
      db.transaction((tx) => tx.query(slow), { statementTimeoutMs: 200, endAfterFirstQuery: true }),
    ).rejects.toMatchObject({ code: '57014' });
    // Not the 60 s deadline of the call before (a generous bound for a loaded machine).
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('cuts off a slow statement that follows a stream of quick ones under the same limit', async () => {
    const until = performance.now() + 300;
    while (performance.now() < until) {
      await db.transaction((tx) => tx.query('select 1'), {
        statementTimeoutMs: 400,
        endAfterFirstQuery: true,
      });
    }
    const started = performance.now();
    await expect(
      db.transaction((tx) => tx.query(slow), { statementTimeoutMs: 400, endAfterFirstQuery: true }),
    ).rejects.toMatchObject({ code: '57014' });
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(400);
    expect(took).toBeLessThan(5000);
  });

  it('runs a statement without a limit to its end', async () => {
    const { rows } = await db.transaction((tx) =>
      tx.query<{ n: string }>('select count(*) as n from generate_series(1, 2000000)'),
    );
    expect(Number(rows[0]!.n)).toBe(2_000_000);
  });
});
