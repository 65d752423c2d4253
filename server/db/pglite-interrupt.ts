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

// The watchdog's control words: Int32 words, then 64-bit times (process.hrtime.bigint(): the same monotonic
// clock on every thread, in nanoseconds) over one SharedArrayBuffer of its own.
const ARMED = 0; // the armed call's generation; 0 idle; -generation once the watchdog has claimed it
const RAISED = 1; // the generation whose flags the watchdog has raised
const STOP = 2;
const DEADLINE = 0; // when the armed call's limit passes
const WAKE_AT = 1; // when the watchdog wakes next on its own (NEVER while it waits for a call)
const NEVER = 0x7fffffffffffffffn;

/**
 * The watchdog thread. Arming a call costs its caller two stores and a load, and wakes nobody: the
 * watchdog sleeps until the deadline it knows of and only then looks at what is armed (a later call's
 * deadline: it sleeps on; a call past its deadline: it claims it, with compare-and-exchange so that a call
 * that ended just before is never touched, and raises Postgres's interrupt flags in the engine's memory).
 * A caller wakes it only when the watchdog would wake too late: it waits for no call at all, or the new
 * deadline comes before the one it sleeps towards (a shorter limit, anon's after authenticated's).
 * Waking it for every call cost a REST request 10–30 µs (two thread wake-ups, on two busy cores).
 */
const WATCHDOG = `
const { workerData } = require('node:worker_threads');
const ctrl = new Int32Array(workerData.control, 0, 4);
const times = new BigInt64Array(workerData.control, 16, 2);
const heap = new Int32Array(workerData.heap);
while (!Atomics.load(ctrl, ${STOP})) {
  const gen = Atomics.load(ctrl, ${ARMED});
  if (gen < 0) {
    // Claimed: wait for the caller to take the call back.
    Atomics.wait(ctrl, ${ARMED}, gen, 50);
    continue;
  }
  if (gen === 0) {
    Atomics.store(times, ${WAKE_AT}, ${NEVER}n);
    Atomics.wait(ctrl, ${ARMED}, 0);
    continue;
  }
  const deadline = Atomics.load(times, ${DEADLINE});
  if (Atomics.load(ctrl, ${ARMED}) !== gen) continue; // re-armed while the deadline was read
  const now = process.hrtime.bigint();
  if (now < deadline) {
    Atomics.store(times, ${WAKE_AT}, deadline);
    // Returns at once if another call is armed by now (the loop looks again), else at the deadline or
    // when a caller needs an earlier wake-up.
    Atomics.wait(ctrl, ${ARMED}, gen, Math.ceil(Number(deadline - now) / 1e6));
  } else if (Atomics.compareExchange(ctrl, ${ARMED}, gen, -gen) === gen) {
    Atomics.store(heap, workerData.queryCancelPending >> 2, 1);
    Atomics.store(heap, workerData.interruptPending >> 2, 1);
    Atomics.store(ctrl, ${RAISED}, gen);
    Atomics.notify(ctrl, ${RAISED});
  }
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
  const control = new SharedArrayBuffer(32);
  const ctrl = new Int32Array(control, 0, 4);
  const times = new BigInt64Array(control, 16, 2);
  Atomics.store(times, WAKE_AT, NEVER);
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
      const deadline = process.hrtime.bigint() + BigInt(Math.ceil(timeoutMs)) * 1_000_000n;
      Atomics.store(times, DEADLINE, deadline);
      Atomics.store(ctrl, ARMED, gen);
      // Sequentially consistent: either the watchdog sees this call when it next looks, or this load
      // sees the wake-up time it set before going to sleep (see WATCHDOG).
      if (deadline < Atomics.load(times, WAKE_AT)) {
        Atomics.notify(ctrl, ARMED);
      }
      let outcome: { ok: true; value: T } | { ok: false; error: unknown };
      try {
        outcome = { ok: true, value: await call() };
      } catch (error) {
        outcome = { ok: false, error };
      }
      // Disarmed without waking the watchdog, unless it has claimed the call (-gen) and waits for it back.
      const claimed = Atomics.compareExchange(ctrl, ARMED, gen, 0) !== gen;
      if (claimed) {
        Atomics.store(ctrl, ARMED, 0);
        Atomics.notify(ctrl, ARMED);
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
