// What both PGlite engines start from: the engine's WebAssembly file as @electric-sql/pglite ships it,
// Node's WebAssembly global, and whether this process runs PGlite at all. pglite.ts compiles the plain
// engine (initdb of a fresh directory), pglite-interrupt.ts the shared-memory one every existing database
// runs on; each starts compiling early only when PGlite will be used.
import { readFile } from 'node:fs/promises';
import { processSettings } from '../config.ts';

/** A WebAssembly.Memory created shared (this project's TypeScript lib declares no Memory type). */
export interface SharedMemory {
  readonly buffer: SharedArrayBuffer;
}

/** Node's global WebAssembly (this project's TypeScript lib declares only its types). */
export const nodeWasm = (
  globalThis as unknown as {
    WebAssembly: {
      compile(b: Uint8Array): Promise<WebAssembly.Module>;
      Memory: new (d: { initial: number; maximum: number; shared: boolean }) => SharedMemory;
    };
  }
).WebAssembly;

/** pglite.wasm as the package ships it. */
export function readPgliteWasm(): Promise<Uint8Array> {
  return readFile(new URL('./pglite.wasm', import.meta.resolve('@electric-sql/pglite')));
}

/** Whether this process runs PGlite: not with DATABASE_URL set (an invalid configuration is reported by the stack). */
export function pgliteWanted(): boolean {
  try {
    return processSettings().DATABASE_URL === undefined;
  } catch {
    return true;
  }
}
