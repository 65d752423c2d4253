import { nodeWasm, pgliteWanted, readPgliteWasm, type SharedMemory } from './pglite-wasm.ts';
import { withSharedMemory, type MemoryImport } from './wasm-shared-memory.ts';

/**
 * Statement time limits on PGlite. PGlite ignores `statement_timeout`: Postgres arms it with a signal
 * timer, and the WASM backend runs each statement synchronously on the thread that called it, where no
 * timer can fire. Postgres still polls its interrupt flags (`InterruptPending`, `QueryCancelPending`) at
 * every CHECK_FOR_INTERRUPTS, in scans, sorts, joins and the regex engine alike; raising them makes the
 * statement fail with SQLSTATE 57014 and leaves the backend ready for the next one, as a cancel request
 * does on a server. So the engine runs on a shared WebAssembly memory (the module's memory import marked
 * shared; nothing else in it changes: wasm-shared-memory.ts) in a worker thread of its own
 * (pglite-engine.ts), and the stack's thread, which keeps serving while a statement runs, raises the flags
 * when a statement outlives its deadline.
 */

/** What the engine's worker thread runs PGlite on (both can be posted to a worker). */
export interface SharedEngine {
  module: WebAssembly.Module;
  memory: SharedMemory;
  /** The memory's maximum in pages: side modules (extensions, plpgsql.so) are declared to it. */
  maximumPages: number;
}

let compiled: Promise<{ module: WebAssembly.Module; memory: MemoryImport } | null> | null = null;

/** pglite.wasm with a shared memory import, compiled once per process; null if its layout is unexpected. */
function sharedModule(): Promise<{ module: WebAssembly.Module; memory: MemoryImport } | null> {
  compiled ??= readPgliteWasm()
    .then(async (bytes) => {
      const patched = withSharedMemory(bytes, 32768);
      return patched && patched.memory.maximum !== null
        ? { module: await nodeWasm.compile(patched.bytes), memory: patched.memory }
        : null;
    })
    .catch(() => null);
  return compiled;
}

// Start compiling with the module's evaluation, as server/db/pglite.ts does for the plain engine.
if (pgliteWanted()) {
  void sharedModule();
}

/** A fresh shared memory and the compiled engine for one PGlite instance, or null when not possible. */
export async function sharedEngine(): Promise<SharedEngine | null> {
  const found = await sharedModule();
  if (!found) {
    return null;
  }
  const memory = new nodeWasm.Memory({
    initial: found.memory.initial,
    maximum: found.memory.maximum ?? 32768,
    shared: true,
  });
  return { module: found.module, memory, maximumPages: found.memory.maximum ?? 32768 };
}

/** Raised when a statement ran past its time limit; its SQLSTATE and message are Postgres's. */
export class StatementTimeout extends Error {
  readonly code = '57014';
  constructor() {
    super('canceling statement due to statement timeout');
  }
}

export interface Interrupter {
  /**
   * Runs one backend call with a time limit: past `timeoutMs` the statement running is cancelled and the
   * call fails with StatementTimeout (57014). Without a limit the call runs as it is.
   */
  limit<T>(timeoutMs: number | undefined, call: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Postgres's interrupt flags of this engine (data addresses exported by the WASM module). */
export interface InterruptFlags {
  queryCancelPending: number;
  interruptPending: number;
}

/**
 * The engine runs on a thread of its own (pglite-engine.ts), so the stack's thread is free while a statement
 * runs: a timer there raises the flags at the deadline. That costs a call a timer, where a watchdog thread
 * cost the process a whole V8 isolate, idle nearly all the time. Calls run one at a time (the client's
 * lock): flags raised for one call are lowered before the next is sent, so a statement that ended just as
 * its deadline passed leaves nothing behind for the next one.
 */
export function createInterrupter(memory: SharedMemory, flags: InterruptFlags): Interrupter {
  const heap = new Int32Array(memory.buffer);
  const set = (value: 0 | 1) => {
    Atomics.store(heap, flags.queryCancelPending >> 2, value);
    Atomics.store(heap, flags.interruptPending >> 2, value);
  };

  return {
    async limit<T>(timeoutMs: number | undefined, call: () => Promise<T>): Promise<T> {
      if (timeoutMs === undefined || timeoutMs <= 0) {
        return call();
      }
      let raised = false;
      const timer = setTimeout(() => {
        raised = true;
        set(1);
      }, Math.ceil(timeoutMs));
      let outcome: { ok: true; value: T } | { ok: false; error: unknown };
      try {
        outcome = { ok: true, value: await call() };
      } catch (error) {
        outcome = { ok: false, error };
      }
      clearTimeout(timer);
      if (raised) {
        set(0);
        if (!outcome.ok && (outcome.error as { code?: unknown }).code === '57014') {
          throw new StatementTimeout();
        }
      }
      if (!outcome.ok) {
        throw outcome.error;
      }
      return outcome.value;
    },
    close() {
      return Promise.resolve();
    },
  };
}
