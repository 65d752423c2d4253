import { Mutex, parse, protocol, types } from '@electric-sql/pglite';
import { DatabaseError, NotificationResponseMessage } from 'pg-protocol/dist/messages.js';
import { Parser } from 'pg-protocol/dist/parser.js';
import type { QueryResult } from './database.ts';
import type { IsolateMemory } from '../isolate-memory.ts';
import type { PGliteEngine } from './pglite-engine.ts';
import { bindMessage } from './pglite-statements.ts';
import type { Interrupter } from './pglite-interrupt.ts';
import {
  concat,
  PARSERS,
  plainTextValues,
  typedValues,
  type Message,
  type WireBackend,
} from './pglite-wire.ts';

const { serialize } = protocol;

/** A cancelled statement comes back within milliseconds; an engine silent this long after its limit is wedged. */
const WEDGED_AFTER_LIMIT_MS = 10_000;

const EXECUTE = serialize.execute({});
const DESCRIBE_PORTAL = serialize.describe({ type: 'P' });
const SYNC = serialize.sync();

/** Channel names as LISTEN takes them unquoted (the stack's are plain identifiers). */
const CHANNEL = /^[a-z_][a-z0-9_]*$/;

/**
 * PGlite as the stack's thread sees it: batches go to the engine's thread (pglite-engine.ts) and their
 * answers are parsed here, as PGlite's own `execProtocol` parses them: the first database error is thrown,
 * notifications reach their listeners. Queries outside a transaction use the unnamed statement, like
 * PGlite's `query`, in one call instead of six.
 */
export class PGliteClient implements WireBackend {
  readonly parsers: Record<number | string, types.Parser> = { ...types.parsers, ...PARSERS };
  readonly serializers: Record<number | string, types.Serializer> = { ...types.serializers };
  private readonly queryLock = new Mutex();
  private readonly transactionLock = new Mutex();
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private closed = false;

  constructor(
    private readonly engine: PGliteEngine,
    private readonly interrupter: Interrupter | null,
  ) {}

  execProtocol(batch: Uint8Array, options: { sync: boolean; timeoutMs?: number }): Promise<Message[]> {
    return this.queryLock.runExclusive(async () => {
      if (this.closed) {
        throw new Error('PGlite is closed');
      }
      const limit = options.timeoutMs;
      if (!this.interrupter || !limit) {
        return this.read(await this.engine.run(batch, options.sync));
      }
      // Read inside the limit: a cancelled statement's error is in the answer, and becomes 57014's own.
      return this.interrupter.limit(limit, async () =>
        this.read(await this.engine.run(batch, options.sync, limit + WEDGED_AFTER_LIMIT_MS)),
      );
    });
  }

  runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.transactionLock.runExclusive(fn);
  }

  async query<R>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<R>> {
    return this.runExclusiveTransaction(async () => {
      const plain = plainTextValues(params);
      // Parse goes with the rest unless describing the statement (for typed values) already parsed it.
      const parts = plain ? [serialize.parse({ text: sql })] : [];
      const values = plain ?? (await typedValues(this, sql, params));
      parts.push(bindMessage('', values), DESCRIBE_PORTAL, EXECUTE, SYNC);
      const [r] = parse.parseResults(await this.execProtocol(concat(parts), { sync: true }), this.parsers);
      return { rows: (r?.rows ?? []) as R[], fields: r?.fields ?? [], affectedRows: r?.affectedRows ?? 0 };
    });
  }

  async exec(sql: string): Promise<void> {
    await this.runExclusiveTransaction(() => this.execProtocol(serialize.query(sql), { sync: true }));
  }

  /** Parsers and serializers for every array type, as PGlite registers them when it opens. */
  async loadArrayTypes(): Promise<void> {
    const { rows } = await this.query<{ oid: number; typarray: number }>(
      `select b.oid, b.typarray from pg_catalog.pg_type a
         left join pg_catalog.pg_type b on b.oid = a.typelem
        where a.typcategory = 'A' group by b.oid, b.typarray order by b.oid`,
    );
    for (const { oid, typarray } of rows) {
      this.serializers[typarray] = (x) => types.arraySerializer(x, this.serializers[oid], typarray);
      this.parsers[typarray] = (x): unknown => types.arrayParser(x, this.parsers[oid]!, typarray);
    }
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    if (!CHANNEL.test(channel)) {
      throw new Error(`not a plain channel name: ${channel}`);
    }
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      await this.exec(`listen ${channel}`).catch((e: unknown) => {
        this.listeners.delete(channel);
        throw e;
      });
    }
    set.add(onNotify);
    return async () => {
      set.delete(onNotify);
      if (set.size === 0 && this.listeners.get(channel) === set) {
        this.listeners.delete(channel);
        await this.exec(`unlisten ${channel}`);
      }
    };
  }

  /** The engine thread's memory (not behind the query lock: a report waits for no queue). */
  memory(): Promise<IsolateMemory | null> {
    return this.engine.memory();
  }

  /** A tarball of the data directory. */
  dump(): Promise<Uint8Array> {
    return this.queryLock.runExclusive(() => this.engine.dump());
  }

  async close(): Promise<void> {
    await this.transactionLock.runExclusive(() =>
      this.queryLock.runExclusive(() => {
        this.closed = true;
      }),
    );
    try {
      await this.engine.close();
    } finally {
      await this.interrupter?.close();
    }
  }

  /**
   * The backend's messages up to the first error (thrown after the whole answer is read). Parsed with
   * node-postgres's parser, whose messages PGlite's are a copy of: ~2 µs for a REST read's answer, where
   * PGlite's own (a TextDecoder per parser, a copy of the buffer for every string) took ~20 µs.
   */
  private read(data: Uint8Array): Message[] {
    const out: Message[] = [];
    const failed: { error?: DatabaseError } = {};
    new Parser().parse(Buffer.from(data.buffer, data.byteOffset, data.byteLength), (message) => {
      if (message instanceof NotificationResponseMessage) {
        // Delivered even after an error: a change committed earlier in the batch must reach realtime.
        for (const listener of this.listeners.get(message.channel) ?? []) {
          queueMicrotask(() => listener(message.payload));
        }
      } else if (message instanceof DatabaseError) {
        failed.error ??= message;
      } else if (!failed.error) {
        out.push(message);
      }
    });
    if (failed.error) {
      throw failed.error;
    }
    return out;
  }
}
