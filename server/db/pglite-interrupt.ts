import { readFile } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import type { Extension } from '@electric-sql/pglite';
import { processSettings } from '../config.ts';

/**
 * Statement time limits on PGlite. PGlite ignores `statement_timeout`: Postgres arms it with a signal
 * timer, and the WASM backend runs each statement synchronously on the thread that called it, where no
 * timer can fire. Postgres still polls its interrupt flags (`InterruptPending`, `QueryCancelPending`) at
 * every CHECK_FOR_INTERRUPTS, in scans, sorts, joins and the regex engine alike; raising them makes the
 * statement fail with SQLSTATE 57014 and leaves the backend ready for the next one, as a cancel request
 * does on a server. So the engine runs on a shared WebAssembly memory (the module's memory import marked
 * shared; nothing else in it changes), and a watchdog thread that waits on a deadline raises the flags
 * when a statement outlives it.
 */

/** The `env.memory` import of a module: where its limits are, and what they say. */
interface MemoryImport {
  /** Byte offsets of the import section's content and of the memory import's limits. */
  section: { start: number; end: number; sizeStart: number };
  limits: { start: number; end: number };
  flags: number;
  initial: number;
  maximum: number | null;
}

const uleb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) {
      byte |= 0x80;
    }
    out.push(byte);
  } while (n > 0);
  return out;
};

/** Finds `env.memory` in a module's import section (wasm binary format 1, section 2). */
function findMemoryImport(bytes: Uint8Array): MemoryImport | null {
  let p = 8;
  const leb = () => {
    let result = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = bytes[p++]!;
      result += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return result;
  };
  const name = () => {
    const length = leb();
    const text = Buffer.from(bytes.subarray(p, p + length)).toString('utf8');
    p += length;
    return text;
  };
  while (p < bytes.length) {
    const id = bytes[p++]!;
    const sizeStart = p;
    const size = leb();
    const start = p;
    const end = p + size;
    if (id === 2) {
      const count = leb();
      for (let i = 0; i < count; i++) {
        const module = name();
        const field = name();
        const kind = bytes[p++]!;
        if (kind === 0) {
          leb(); // function: type index
        } else if (kind === 1) {
          p++; // table: element type
          const flags = bytes[p++]!;
          leb();
          if (flags & 1) {
            leb();
          }
        } else if (kind === 2) {
          const limitsStart = p;
          const flags = bytes[p++]!;
          const initial = leb();
          const maximum = flags & 1 ? leb() : null;
          if (module !== 'env' || field !== 'memory' || flags > 1) {
            return null;
          }
          return {
            section: { start, end, sizeStart },
            limits: { start: limitsStart, end: p },
            flags,
            initial,
            maximum,
          };
        } else if (kind === 3) {
          p += 2; // global: value type, mutability
        } else if (kind === 4) {
          p++;
          leb(); // tag
        } else {
          return null;
        }
      }
      return null;
    }
    p = end;
  }
  return null;
}

/**
 * The module with its `env.memory` import declared shared (limits flags 0x03, a maximum of `maximum` pages
 * when it declared none), the import section rebuilt around it; null when it imports no plain memory.
 */
export function withSharedMemory(
  bytes: Uint8Array,
  maximum: number,
): { bytes: Uint8Array; memory: MemoryImport } | null {
  const memory = findMemoryImport(bytes);
  if (!memory) {
    return null;
  }
  const limits = [0x03, ...uleb(memory.initial), ...uleb(memory.maximum ?? maximum)];
  const content = [
    ...bytes.subarray(memory.section.start, memory.limits.start),
    ...limits,
    ...bytes.subarray(memory.limits.end, memory.section.end),
  ];
  const out = new Uint8Array([
    ...bytes.subarray(0, memory.section.sizeStart),
    ...uleb(content.length),
    ...content,
    ...bytes.subarray(memory.section.end),
  ]);
  return { bytes: out, memory };
}

export interface SharedEngine {
  module: WebAssembly.Module;
  memory: SharedMemory;
  /** The memory's maximum in pages: side modules (extensions, plpgsql.so) are declared to it. */
  maximumPages: number;
  /** Hands the shared memory to the emscripten runtime (as its `wasmMemory`). */
  extension: Extension;
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
  const extension: Extension = {
    name: 'vigil-shared-memory',
    setup: (_pg, emscriptenOpts: Record<string, unknown>) =>
      Promise.resolve({ emscriptenOpts: { ...emscriptenOpts, wasmMemory: memory } }),
  };
  return { module: found.module, memory, extension, maximumPages: found.memory.maximum ?? 32768 };
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

/** The part of emscripten's file system API used to patch the side modules. */
interface EmscriptenFs {
  readdir(path: string): string[];
  readFile(path: string): Uint8Array;
  writeFile(path: string, data: Uint8Array): void;
}

/**
 * Postgres loads its side modules (plpgsql.so, encoding conversions, dictionaries) on first use, into the
 * engine's memory: each must declare that memory shared too. Rewritten in the engine's file system before
 * anything loads them; answers how many were patched.
 */
export function shareSideModules(
  fs: EmscriptenFs,
  maximumPages: number,
  dir = '/pglite/lib/postgresql',
): number {
  let patched = 0;
  for (const name of fs.readdir(dir)) {
    if (!name.endsWith('.so')) {
      continue;
    }
    const file = `${dir}/${name}`;
    const result = withSharedMemory(fs.readFile(file), maximumPages);
    if (result) {
      fs.writeFile(file, result.bytes);
      patched++;
    }
  }
  return patched;
}
