import { protocol } from '@electric-sql/pglite';
import type { Queryable, QueryResult, TransactionOptions } from './database.ts';
import { statementCacheFor, type StatementCache } from './pglite-statements.ts';
import {
  concat,
  lastResult,
  plainTextValues,
  typedValues,
  type Message,
  type WireBackend,
} from './pglite-wire.ts';

// A transaction on PGlite in as few calls into the engine as the wire protocol allows (each one a round
// trip to the engine's thread: pglite-engine.ts). PGlite's own `query` makes six calls (Parse, Describe
// statement, Bind, Describe portal, Execute, Sync) and its `transaction` two more for each of BEGIN and
// COMMIT, each with its fixed cost; a REST request used to make sixteen. Here a query is one call (Bind,
// Describe, Execute, Sync, plus Parse the first time: see pglite-statements.ts), and BEGIN plus the
// preamble (the request's role and claims) travel in the same call as the first query. A transaction that
// ends with its first query (a REST read, say) sends no BEGIN or COMMIT at all: the extended protocol runs
// everything up to Sync as one implicit transaction, committed at Sync or rolled back on an error, and
// transaction-local settings last until then.

const { serialize } = protocol;

/** Parse, Bind and Execute of a parameterless statement (BEGIN), unnamed. */
const unnamed = (sql: string): Uint8Array[] => [
  serialize.parse({ text: sql }),
  serialize.bind({ values: [] }),
  serialize.execute({}),
];

// The messages every transaction sends, serialized once (batches are copied by `concat`, never mutated).
const BEGIN = unnamed('begin');
const EXECUTE = serialize.execute({});
const DESCRIBE_PORTAL = serialize.describe({ type: 'P' });
const SYNC = serialize.sync();

class TransactionClosed extends Error {
  constructor() {
    super('Transaction is closed');
  }
}

/** The Queryable handed to a transaction's callback; `finish` commits or rolls back. */
export class PipelinedTransaction implements Queryable {
  private readonly statements: StatementCache;
  private pending: Uint8Array[];
  /** The cached statements in `pending`, forgotten if their batch fails. */
  private pendingSql: string[] = [];
  /** Statements in `pending` whose results precede the next query's (BEGIN and the preamble). */
  private pendingCount: number;
  closed = false;

  /** Set when COMMIT went with the first query (TransactionOptions.endAfterFirstQuery). */
  private ended = false;

  constructor(
    private readonly db: WireBackend,
    private readonly options: TransactionOptions,
  ) {
    this.statements = statementCacheFor(db);
    // A transaction that ends with its first query needs no BEGIN/COMMIT: everything up to Sync runs in
    // one implicit transaction, committed at Sync (rolled back on error).
    this.pending = options.endAfterFirstQuery ? [] : [...BEGIN];
    this.pendingCount = options.endAfterFirstQuery ? 0 : 1;
    const preamble = options.preamble;
    if (preamble) {
      const values = plainTextValues(preamble.params);
      // Guard: the preamble is built from strings; anything else would need typed serialization.
      if (values === null) {
        throw new TypeError('a transaction preamble takes text parameters only');
      }
      this.pending.push(...this.statements.bind(preamble.sql, values).parts, EXECUTE);
      this.pendingSql.push(preamble.sql);
      this.pendingCount++;
    }
  }

  /** One call into the engine; `sync` on the transaction's last one (PGlite's syncToFs after a commit). */
  private async send(parts: Uint8Array[], cached: string[] = [], sync = false): Promise<Message[]> {
    try {
      return await this.db.execProtocol(concat(parts), {
        sync,
        timeoutMs: this.options.statementTimeoutMs,
      });
    } catch (e) {
      // After an error the backend skipped the rest of the batch, perhaps a Parse: prepare them afresh.
      for (const sql of cached) {
        this.statements.forget(sql);
      }
      throw e;
    }
  }

  private takePending(): { parts: Uint8Array[]; cached: string[] } {
    const taken = { parts: this.pending, cached: this.pendingSql };
    this.pending = [];
    this.pendingSql = [];
    this.pendingCount = 0;
    return taken;
  }

  /** Sends BEGIN and the preamble if they have not gone yet (before a statement that cannot join them). */
  private async flush(): Promise<void> {
    if (this.pending.length > 0) {
      const { parts, cached } = this.takePending();
      await this.send([...parts, SYNC], cached);
    }
  }

  async query<R>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<R>> {
    if (this.closed) {
      throw new TransactionClosed();
    }
    let values = plainTextValues(params);
    if (values === null) {
      if (!this.options.endAfterFirstQuery) {
        await this.flush();
      }
      values = await typedValues(this.db, sql, params, this.options.statementTimeoutMs);
    }
    const skip = this.pendingCount;
    const { parts, cached } = this.takePending();
    parts.push(...this.statements.bind(sql, values).parts, DESCRIBE_PORTAL, EXECUTE);
    cached.push(sql);
    if (this.options.endAfterFirstQuery) {
      this.closed = true;
      // Sync ends the implicit transaction either way: committed, or rolled back after an error.
      this.ended = true;
    }
    parts.push(SYNC);
    const messages = await this.send(parts, cached, this.ended);
    return lastResult<R>(this.db, messages, skip);
  }

  async exec(sql: string): Promise<void> {
    if (this.closed) {
      throw new TransactionClosed();
    }
    await this.flush();
    await this.send([serialize.query(sql)]);
  }

  /** COMMIT (or ROLLBACK when `commit` is false); a COMMIT that rolled back is an error, as in PGlite. */
  async finish(commit: boolean): Promise<void> {
    this.closed = true;
    if (this.ended || (this.pending.length > 0 && !commit)) {
      // Already committed with the first query, or nothing was sent: nothing is left to end.
      return;
    }
    await this.flush();
    const messages = await this.send([serialize.query(commit ? 'commit' : 'rollback')], [], commit);
    const done = messages.find((m) => m.name === 'commandComplete') as { text?: string } | undefined;
    if (commit && done?.text === 'ROLLBACK') {
      throw Object.assign(new Error('Transaction was rolled back instead of committed'), { code: '25P02' });
    }
  }
}

/** Runs `fn` in one transaction on PGlite, BEGIN and the preamble batched with its first query. */
export function pipelinedTransaction<T>(
  db: WireBackend,
  fn: (tx: Queryable) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  return db.runExclusiveTransaction(async () => {
    const tx = new PipelinedTransaction(db, options);
    let result: T;
    try {
      result = await fn(tx);
    } catch (e) {
      await tx.finish(false).catch(() => undefined);
      throw e;
    }
    // Outside a transaction PGlite syncs its file system after each statement; the last call does it once.
    await tx.finish(true);
    return result;
  });
}
