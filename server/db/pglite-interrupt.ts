import { readFile } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { processSettings } from '../config.ts';
import { withSharedMemory, type MemoryImport } from './wasm-shared-memory.ts';

/**
 * Statement time limits on PGlite. PGlite ignores `statement_timeout`: Postgres arms it with a signal
 * timer, and the WASM backend runs each statement synchronously on the thread that called it, where no
 * timer can fire. Postgres still polls its interrupt flags (`InterruptPending`, `QueryCancelPending`) at
 * every CHECK_FOR_INTERRUPTS, in scans, sorts, joins and the regex engine alike; raising them makes the
 * statement fail with SQLSTATE 57014 and leaves the backend ready for the next one, as a cancel request
 * does on a server. So the engine runs on a shared WebAssembly memory (the module's memory import marked
 * shared; nothing else in it changes: wasm-shared-memory.ts), and a watchdog thread that waits on a
 * deadline raises the flags when a statement outlives it. The engine itself runs in a worker thread of its
 * own (pglite-engine.ts), so the stack's thread keeps serving while a statement runs.
 */

/** What the engine's worker thread runs PGlite on (both can be posted to a worker). */
export interface SharedEngine {
  module: WebAssembly.Module;
  memory: SharedMemory;
  /** The memory's maximum in pages: side modules (extensions, plpgsql.so) are declared to it. */
  maximumPages: number;
}

/** A WebAssembly.Memory created shared (this project's TypeScript lib declares no Memory type). */
export interface SharedMemory {
  readonly buffer: SharedArrayBuffer;
}

// Node's global WebAssembly (this project's TypeScript lib declares only its types).
const wasm = (
  globalThis as unknown as {
    WebAssembly: {
      compile(b: Uint8Array): Promise<WebAssembly.Module>;
      Memory: new (d: { initial: number; maximum: number; shared: boolean }) => SharedMemory;
    };
  }
).WebAssembly;

let compiled: Promise<{ module: WebAssembly.Module; memory: MemoryImport } | null> | null = null;

/** pglite.wasm with a shared memory import, compiled once per process; null if its layout is unexpected. */
function sharedModule(): Promise<{ module: WebAssembly.Module; memory: MemoryImport } | null> {
  compiled ??= readFile(new URL('./pglite.wasm', import.meta.resolve('@electric-sql/pglite')))
    .then(async (bytes) => {
      const patched = withSharedMemory(bytes, 32768);
      return patched && patched.memory.maximum !== null
        ? { module: await wasm.compile(patched.bytes), memory: patched.memory }
        : null;
    })
    .catch(() => null);
  return compiled;
}

// Start compiling with the module's evaluation, as server/db/pglite.ts does for the plain engine.
/** Whether DATABASE_URL is set (then PGlite is not used); an invalid configuration is reported by the stack. */
function databaseUrlSet(): boolean {
  try {
    return processSettings().DATABASE_URL !== undefined;
  } catch {
    return false;
  }
}
if (!databaseUrlSet()) {
  void sharedModule();
}

/** A fresh shared memory and the compiled engine for one PGlite instance, or null when not possible. */
export async function sharedEngine(): Promise<SharedEngine | null> {
  const found = await sharedModule();
  if (!found) {
    return null;
  }
  const memory = new wasm.Memory({
    initial: found.memory.initial,
    maximum: found.memory.maximum ?? 32768,
    shared: true,
  });
  return { module: found.module, memory, maximumPages: found.memory.maximum ?? 32768 };
}

// The watchdog's control words (Int32Array over a SharedArrayBuffer of its own).
const ARMED = 0; // the armed call's generation; 0 idle; -generation once the watchdog has claimed it
const TIMEOUT = 1; // milliseconds
const RAISED = 2; // the generation whose flags the watchdog has raised
const STOP = 3;

/**
 * The watchdog thread: waits for an armed call, then for its deadline; if the call is still armed then,
 * claims it (compare-and-exchange, so a call that ended just before is never touched) and raises
 * Postgres's interrupt flags in the engine's memory.
 */
const WATCHDOG = `
const { workerData } = require('node:worker_threads');
const ctrl = new Int32Array(workerData.control);
const heap = new Int32Array(workerData.heap);
for (;;) {
  Atomics.wait(ctrl, ${ARMED}, 0);
  if (Atomics.load(ctrl, ${STOP})) break;
  const gen = Atomics.load(ctrl, ${ARMED});
  if (gen <= 0) continue;
  const result = Atomics.wait(ctrl, ${ARMED}, gen, Atomics.load(ctrl, ${TIMEOUT}));
  if (result === 'timed-out' && Atomics.compareExchange(ctrl, ${ARMED}, gen, -gen) === gen) {
    Atomics.store(heap, workerData.queryCancelPending >> 2, 1);
    Atomics.store(heap, workerData.interruptPending >> 2, 1);
    Atomics.store(ctrl, ${RAISED}, gen);
    Atomics.notify(ctrl, ${RAISED});
  }
  // Wait for the main thread to take the call back before the next round.
  while (Atomics.load(ctrl, ${ARMED}) === -gen) Atomics.wait(ctrl, ${ARMED}, -gen, 50);
}
`;

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

export function createInterrupter(memory: SharedMemory, flags: InterruptFlags): Interrupter {
  const control = new SharedArrayBuffer(16);
  const ctrl = new Int32Array(control);
  const heap = new Int32Array(memory.buffer);
  const worker = new Worker(WATCHDOG, {
    eval: true,
    workerData: { control, heap: memory.buffer, ...flags },
  });
  // The process may exit while the watchdog waits.
  worker.unref();
  let generation = 0;

  const lower = () => {
    Atomics.store(heap, flags.queryCancelPending >> 2, 0);
    Atomics.store(heap, flags.interruptPending >> 2, 0);
  };

  return {
    async limit<T>(timeoutMs: number | undefined, call: () => Promise<T>): Promise<T> {
      if (timeoutMs === undefined || timeoutMs <= 0) {
        return call();
      }
      generation = generation >= 0x3fffffff ? 1 : generation + 1;
      const gen = generation;
      Atomics.store(ctrl, TIMEOUT, Math.min(timeoutMs, 0x7fffffff));
      Atomics.store(ctrl, ARMED, gen);
      Atomics.notify(ctrl, ARMED);
      let outcome: { ok: true; value: T } | { ok: false; error: unknown };
      try {
        outcome = { ok: true, value: await call() };
      } catch (error) {
        outcome = { ok: false, error };
      }
      const claimed = Atomics.exchange(ctrl, ARMED, 0) === -gen;
      Atomics.notify(ctrl, ARMED);
      if (claimed) {
        // The watchdog raises the flags right after claiming: wait for it (microseconds), then lower them,
        // so that a statement that ended just as the deadline passed leaves nothing for the next one.
        while (Atomics.load(ctrl, RAISED) !== gen) {
          Atomics.wait(ctrl, RAISED, Atomics.load(ctrl, RAISED), 10);
        }
        lower();
        if (!outcome.ok && (outcome.error as { code?: unknown }).code === '57014') {
          throw new StatementTimeout();
        }
      }
      if (!outcome.ok) {
        throw outcome.error;
      }
      return outcome.value;
    },
    async close() {
      Atomics.store(ctrl, STOP, 1);
      Atomics.store(ctrl, ARMED, -1);
      Atomics.notify(ctrl, ARMED);
      await worker.terminate();
    },
  };
}
