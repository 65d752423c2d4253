import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database.ts';
import { openPGlite } from './pglite.ts';

const PREAMBLE = {
  sql: `select set_config('request.jwt.claims', $1, true), set_config('request.method', $2, true)`,
  params: ['{"sub":"u1"}', 'GET'],
};

describe('pipelined PGlite transactions', () => {
  let db: Database;

  beforeAll(async () => {
    db = await openPGlite();
    await db.exec(`create table items (id int primary key, note text, meta jsonb);
      create role reader nologin; grant select on items to reader;`);
  }, 60_000);

  afterAll(async () => {
    await db.close();
  });

  it('runs the preamble before the first query, and its settings end with the transaction', async () => {
    const seen = await db.transaction(
      async (tx) =>
        (
          await tx.query<{ claims: string; method: string }>(
            `select current_setting('request.jwt.claims') as claims, current_setting('request.method') as method`,
          )
        ).rows[0],
      { preamble: PREAMBLE },
    );
    expect(seen).toEqual({ claims: '{"sub":"u1"}', method: 'GET' });
    const after = await db.query<{ claims: string | null }>(
      `select current_setting('request.jwt.claims', true) as claims`,
    );
    expect(after.rows[0]?.claims ?? '').toBe('');
  });

  it('acts as the role the preamble sets, so grants decide', async () => {
    const preamble = { sql: `select set_config('role', $1, true)`, params: ['reader'] };
    await expect(
      db.transaction((tx) => tx.query(`insert into items (id) values (1)`), { preamble }),
    ).rejects.toMatchObject({ code: '42501' });
    const who = await db.transaction((tx) => tx.query<{ u: string }>('select current_user as u'), {
      preamble,
    });
    expect(who.rows[0]?.u).toBe('reader');
  });

  it('rolls back everything when a later statement fails, and the next transaction works', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`insert into items (id, note) values ($1, $2)`, [10, 'kept?']);
        await tx.query(`insert into items (id, note) values ($1, $2)`, [10, 'duplicate']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect((await db.query('select 1 from items where id = 10')).rows).toHaveLength(0);
    const r = await db.transaction((tx) => tx.query(`insert into items (id) values ($1)`, [11]));
    expect(r.affectedRows).toBe(1);
  });

  it('refuses to commit a transaction whose error the callback swallowed', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query('select 1/0').catch(() => undefined);
        return 'done';
      }),
    ).rejects.toMatchObject({ code: '25P02' });
  });

  it('serializes non-scalar parameters by their Postgres type (jsonb from an object)', async () => {
    await db.transaction((tx) =>
      tx.query(`insert into items (id, meta) values ($1, $2)`, [20, { a: [1, 'two'] }]),
    );
    const r = await db.query<{ meta: unknown }>('select meta from items where id = 20');
    expect(r.rows[0]?.meta).toEqual({ a: [1, 'two'] });
  });

  it('ends with the first query when asked, and refuses a second one', async () => {
    await expect(
      db.transaction(
        async (tx) => {
          const first = await tx.query<{ n: number }>('select 1 as n');
          expect(first.rows).toEqual([{ n: 1 }]);
          await tx.query('select 2');
        },
        { preamble: PREAMBLE, endAfterFirstQuery: true },
      ),
    ).rejects.toThrow('Transaction is closed');
    // A failing first query still rolls back and leaves the session usable.
    await expect(
      db.transaction((tx) => tx.query('select 1/0'), { preamble: PREAMBLE, endAfterFirstQuery: true }),
    ).rejects.toMatchObject({ code: '22012' });
    expect((await db.query<{ n: number }>('select 3 as n')).rows).toEqual([{ n: 3 }]);
  });

  it('runs a transaction that ends with its first query as one unit, without BEGIN or COMMIT', async () => {
    const once = { preamble: PREAMBLE, endAfterFirstQuery: true };
    // The preamble's transaction-local settings reach the query: they are in the same transaction.
    const seen = await db.transaction(
      (tx) =>
        tx.query<{ claims: string; method: string }>(
          `insert into items (id, note, meta) values ($1, current_setting('request.method'), $2)
           returning current_setting('request.jwt.claims') as claims, note as method`,
          [30, { typed: true }],
        ),
      once,
    );
    expect(seen.rows).toEqual([{ claims: '{"sub":"u1"}', method: 'GET' }]);
    // Committed at Sync, and the settings ended with it.
    const stored = await db.query<{ meta: unknown }>('select meta from items where id = 30');
    expect(stored.rows).toEqual([{ meta: { typed: true } }]);
    const after = await db.query<{ claims: string | null }>(
      `select current_setting('request.jwt.claims', true) as claims`,
    );
    expect(after.rows[0]?.claims ?? '').toBe('');
    // A failing write leaves nothing behind (the whole statement rolls back) and no transaction open.
    await expect(
      db.transaction(
        (tx) => tx.query(`insert into items (id, note) values (31, 'first'), (30, 'duplicate')`),
        once,
      ),
    ).rejects.toMatchObject({ code: '23505' });
    expect((await db.query('select 1 from items where id = 31')).rows).toHaveLength(0);
    // A failing preamble stops the statement after it.
    await expect(
      db.transaction((tx) => tx.query(`insert into items (id) values (32)`), {
        preamble: { sql: `select set_config('role', $1, true)`, params: ['no_such_role'] },
        endAfterFirstQuery: true,
      }),
    ).rejects.toMatchObject({ code: '22023' });
    expect((await db.query('select 1 from items where id = 32')).rows).toHaveLength(0);
    const next = await db.transaction((tx) => tx.query(`insert into items (id) values ($1)`, [33]));
    expect(next.affectedRows).toBe(1);
  });

  it('prepares a statement afresh after it failed (a result type changed by DDL)', async () => {
    const read = () =>
      db.transaction((tx) => tx.query<Record<string, unknown>>('select * from items where id = $1', [11]));
    expect(Object.keys((await read()).rows[0] ?? {})).toEqual(['id', 'note', 'meta']);
    await db.exec('alter table items add column extra int');
    // Postgres refuses a cached plan whose result type changed; the failed statement is forgotten.
    const retried = await read().catch(() => read());
    expect(Object.keys(retried.rows[0] ?? {})).toEqual(['id', 'note', 'meta', 'extra']);
  });
});
