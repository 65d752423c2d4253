import pg from 'pg';
import type { Database, Queryable, QueryResult } from './database.ts';

// Postgres returns timestamps and JSON as text in PostgREST; keep values as Postgres renders them for
// timestamps (to_json formatting is done in SQL by the REST layer) and parse only what pg parses safely.
const toResult = <R>(r: pg.QueryResult): QueryResult<R> => ({
  rows: r.rows as R[],
  fields: r.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
  affectedRows: r.command === 'SELECT' ? 0 : (r.rowCount ?? 0),
});

const wrap = (client: pg.PoolClient | pg.Pool): Queryable => ({
  async query<R>(sql: string, params: readonly unknown[] = []) {
    return toResult<R>(await client.query(sql, params as unknown[]));
  },
  async exec(sql: string) {
    await client.query(sql);
  },
});

/** Waiters for a bounded number of slots, first come first served. */
class Slots {
  private used = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async acquire(): Promise<() => void> {
    if (this.used >= this.size) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.used++;
    }
    let released = false;
    return () => {
      if (released) {
        return;
      }
      released = true;
      const next = this.waiting.shift();
      if (next) {
        next(); // the slot passes on
      } else {
        this.used--;
      }
    };
  }
}

const POOL_SIZE = 10;
/** Connections kept from client requests for the stack's own work (auth, realtime, the agent worker). */
const RESERVED_FOR_SERVICE = 2;

export async function openPostgres(connectionString: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: POOL_SIZE });
  // Client requests may hold at most POOL_SIZE - 2 connections, and visitors (anon) half of those: slow
  // anonymous requests (each bounded by its statement_timeout) can never keep signed-in customers, or the
  // stack's own work, waiting for a connection.
  const clientSlots = new Slots(POOL_SIZE - RESERVED_FOR_SERVICE);
  const anonSlots = new Slots((POOL_SIZE - RESERVED_FOR_SERVICE) / 2);
  // Fail at start-up with the server's own message rather than on the first request.
  await pool.query('select 1');
  const root = wrap(pool);
  const listeners = new Set<pg.PoolClient>();
  return {
    kind: 'postgres',
    ...root,
    async transaction(fn, options) {
      const releases: (() => void)[] = [];
      if (options?.apiRole === 'anon') {
        releases.push(await anonSlots.acquire());
      }
      if (options?.apiRole === 'anon' || options?.apiRole === 'authenticated') {
        releases.push(await clientSlots.acquire());
      }
      const client = await pool.connect().catch((e: unknown) => {
        releases.forEach((release) => release());
        throw e;
      });
      try {
        await client.query('begin');
        if (options?.preamble) {
          await client.query(options.preamble.sql, options.preamble.params as unknown[]);
        }
        const result = await fn(wrap(client));
        await client.query('commit');
        return result;
      } catch (e) {
        await client.query('rollback').catch(() => undefined);
        throw e;
      } finally {
        client.release();
        releases.reverse().forEach((release) => release());
      }
    },
    async listen(channel, onNotify) {
      const client = await pool.connect();
      listeners.add(client);
      client.on('notification', (n) => {
        if (n.channel === channel) {
          onNotify(n.payload ?? '');
        }
      });
      await client.query(`listen ${pg.escapeIdentifier(channel)}`);
      return async () => {
        listeners.delete(client);
        await client.query(`unlisten ${pg.escapeIdentifier(channel)}`).catch(() => undefined);
        client.release();
      };
    },
    async close() {
      for (const c of listeners) {
        c.release();
      }
      await pool.end();
    },
  };
}
