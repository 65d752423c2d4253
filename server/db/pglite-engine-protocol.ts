/**
 * The messages between the stack's thread and PGlite's engine thread (pglite-engine.ts, the client;
 * pglite-engine-worker.ts, the thread). The engine thread only runs wire-protocol bytes: batches of
 * frontend messages go in, the backend's answer comes back as bytes, and everything else (building the
 * batches, parsing the answers, notifications, statement time limits) stays on the stack's thread.
 */
import type { IsolateMemory } from '../isolate-memory.ts';
import type { InterruptFlags } from './pglite-interrupt.ts';

/** What the engine opens (one PGlite instance per thread). */
export interface OpenRequest {
  op: 'open';
  /** A data directory, or undefined for a database in memory. */
  dataDir?: string;
  /** A tarball of a data directory to start from (template.ts). */
  loadDataDir?: Uint8Array;
  /** The compiled engine, with its memory import declared shared when `memory` is set. */
  module: WebAssembly.Module | null;
  /** The shared memory the engine runs on (the stack's thread raises Postgres's interrupt flags in it). */
  memory: { readonly buffer: SharedArrayBuffer } | null;
  /** The memory's maximum in pages, which the side modules are declared to. */
  maximumPages: number;
}

export type EngineRequest =
  | (OpenRequest & { id: number })
  /** One batch of frontend messages; `sync` runs PGlite's syncToFs after it, before the answer. */
  | { op: 'run'; id: number; batch: Uint8Array; sync: boolean }
  | { op: 'dump'; id: number }
  /** The engine thread's memory (`/_stack/memory`). */
  | { op: 'memory'; id: number }
  | { op: 'close'; id: number };

export type EngineReply =
  | { id: number; ok: true; data?: Uint8Array; flags?: InterruptFlags | null; memory?: IsolateMemory }
  /** `fatal`: the engine cannot go on (not a database error: those travel inside `data`). */
  | { id: number; ok: false; message: string; fatal: boolean };
