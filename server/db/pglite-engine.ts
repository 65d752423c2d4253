import { Worker } from 'node:worker_threads';
import { moduleEntry } from '../../shared/module-entry.ts';
import type { IsolateMemory } from '../isolate-memory.ts';
import type { EngineReply, EngineRequest, OpenRequest } from './pglite-engine-protocol.ts';
import type { InterruptFlags } from './pglite-interrupt.ts';

/**
 * PGlite's engine on a thread of its own. PGlite runs each statement synchronously on the thread that
 * calls it: on the stack's thread, a slow statement (up to its role's time limit) stopped every HTTP
 * request, realtime heartbeat and auth call. Here the engine thread (pglite-engine-worker.ts) owns the
 * PGlite instance and runs batches of wire-protocol messages; the stack's thread only builds the batches
 * and parses the answers, as it did before. A round trip costs ~15 µs (postMessage with the bytes
 * transferred; a SharedArrayBuffer + Atomics channel measured ~12 µs and needs its own buffer management,
 * see docs/adr/0003-pglite-engine-thread.md).
 */

/** The engine stopped (crashed, or did not answer after its statement was cancelled): class 08, as a lost connection. */
export class EngineStopped extends Error {
  readonly code = '08006';
  constructor(readonly reason: string) {
    super(`the PGlite engine stopped: ${reason}; restart the stack`);
  }
}

// Built, the thread loads plain JavaScript. From source (tests) it registers tsx's loader itself first: Node 20
// gives worker threads no loader hooks.
const ENTRY = moduleEntry(import.meta.url, './pglite-engine-worker.ts', 'pglite-engine-worker');
const BOOT = `
const { workerData } = require('node:worker_threads');
import(workerData.tsx).then(({ register }) => { register(); return import(workerData.entry); });
`;

/** An engine thread, and why it ended if it did (a prestarted one may fail before any engine uses it). */
interface Thread {
  worker: Worker;
  ended: string | null;
  onEnd: ((reason: string) => void) | null;
}

function spawn(): Thread {
  const worker = ENTRY.typescript
    ? new Worker(BOOT, {
        eval: true,
        // The stack's own flags (tsx's preflight and loader) mean nothing to this thread: its loader is above.
        execArgv: [],
        workerData: { tsx: import.meta.resolve('tsx/esm/api'), entry: ENTRY.url.href },
      })
    : new Worker(ENTRY.url, { execArgv: [] });
  // An idle engine does not keep the process alive; a call in flight does (see PGliteEngine.send).
  worker.unref();
  const thread: Thread = { worker, ended: null, onEnd: null };
  const end = (reason: string) => {
    thread.ended ??= reason;
    thread.onEnd?.(reason);
  };
  // Listening from the start: an unheard 'error' would end the process.
  worker.on('error', (e) => end(`its thread failed: ${e.message}`));
  worker.on('exit', (code) => end(`its thread exited (code ${code})`));
  return thread;
}

// Starting a thread and loading PGlite into it (~50–250 ms) overlaps the rest of start-up, as the engine's
// compilation does (pglite-interrupt.ts): the first engine opened takes this thread.
let spare: Thread | null = null;
export function prestartEngineThread(): void {
  spare ??= spawn();
}

interface Pending {
  resolve(reply: EngineReply & { ok: true }): void;
  reject(error: Error): void;
}

export class PGliteEngine {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stopped: EngineStopped | null = null;
  private closing = false;

  private readonly worker: Worker;

  private constructor(thread: Thread) {
    const { worker } = thread;
    this.worker = worker;
    worker.on('message', (reply: EngineReply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) {
        worker.unref();
      }
      if (reply.ok) {
        waiting?.resolve(reply);
      } else {
        const error = new EngineStopped(reply.message);
        this.stop(error);
        waiting?.reject(error);
      }
    });
    thread.onEnd = (reason) => {
      if (!this.closing) {
        this.stop(new EngineStopped(reason));
      }
    };
    if (thread.ended !== null) {
      this.stop(new EngineStopped(thread.ended));
    }
  }

  /** Opens PGlite on an engine thread; answers the interrupt flags' addresses on a shared memory. */
  static async open(request: OpenRequest): Promise<{ engine: PGliteEngine; flags: InterruptFlags | null }> {
    const thread = spare ?? spawn();
    spare = null;
    const engine = new PGliteEngine(thread);
    try {
      const reply = await engine.send({ ...request, id: 0 }, []);
      return { engine, flags: reply.flags ?? null };
    } catch (e) {
      await engine.terminate();
      throw e instanceof EngineStopped ? new Error(`PGlite cannot open its data: ${e.reason}`) : e;
    }
  }

  /**
   * Runs one batch of frontend messages and answers the backend's bytes. With `wedgedAfterMs`, an engine
   * that has not answered by then (its statement was cancelled at its limit and still runs) is stopped, so
   * that every caller gets an error instead of waiting for ever.
   */
  async run(batch: Uint8Array, sync: boolean, wedgedAfterMs?: number): Promise<Uint8Array> {
    const call = this.send({ op: 'run', id: 0, batch, sync }, [batch.buffer as ArrayBuffer]);
    if (wedgedAfterMs === undefined) {
      return (await call).data ?? new Uint8Array(0);
    }
    let timer: NodeJS.Timeout | undefined;
    const wedged = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new EngineStopped(`it did not answer within ${wedgedAfterMs} ms`);
        this.stop(error);
        void this.terminate();
        reject(error);
      }, wedgedAfterMs);
    });
    try {
      return (await Promise.race([call, wedged])).data ?? new Uint8Array(0);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A tarball of the data directory (PGlite's dumpDataDir, uncompressed). */
  async dump(): Promise<Uint8Array> {
    return (await this.send({ op: 'dump', id: 0 }, [])).data ?? new Uint8Array(0);
  }

  /** The engine thread's memory; waits for the statement running, if any. */
  async memory(): Promise<IsolateMemory | null> {
    return (await this.send({ op: 'memory', id: 0 }, [])).memory ?? null;
  }

  async close(): Promise<void> {
    if (this.stopped) {
      await this.terminate();
      return;
    }
    this.closing = true;
    await this.send({ op: 'close', id: 0 }, []);
    // PGlite has closed its files: tearing the thread down (~100 ms) need not hold the caller.
    void this.terminate();
  }

  /** Why the engine cannot be used any more, or null while it can. */
  get failure(): EngineStopped | null {
    return this.stopped;
  }

  private send(request: EngineRequest, transfer: ArrayBuffer[]): Promise<EngineReply & { ok: true }> {
    if (this.stopped) {
      return Promise.reject(this.stopped);
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // A caller awaiting the engine keeps the process alive, as an in-process query would.
      this.worker.ref();
      this.worker.postMessage({ ...request, id }, transfer);
    });
  }

  /** Fails every call waiting on the engine, and every later one, with `error`. */
  private stop(error: EngineStopped): void {
    this.stopped ??= error;
    for (const [id, waiting] of this.pending) {
      this.pending.delete(id);
      waiting.reject(this.stopped);
    }
    this.worker.unref();
  }

  private async terminate(): Promise<void> {
    this.closing = true;
    await this.worker.terminate();
  }
}
