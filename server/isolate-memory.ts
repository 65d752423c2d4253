import { getHeapStatistics } from 'node:v8';

/**
 * One V8 isolate's memory (the stack's main thread, PGlite's engine thread, a password-hashing thread), as
 * `/_stack/memory` reports it and `npm run bench -- lean` prints it: the heap in use and what V8 holds for
 * it, and the memory outside the heap its objects own (buffers, a WebAssembly engine's memory).
 */
export interface IsolateMemory {
  isolate: string;
  heap_used_mb: number;
  heap_committed_mb: number;
  external_mb: number;
  /** PGlite's engine only: the size of its WebAssembly memory (resident only where Postgres touched it). */
  wasm_memory_mb?: number;
}

const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;

/** This thread's isolate. */
export function isolateMemory(isolate: string): IsolateMemory {
  const heap = getHeapStatistics();
  return {
    isolate,
    heap_used_mb: mb(heap.used_heap_size),
    heap_committed_mb: mb(heap.total_heap_size),
    external_mb: mb(heap.external_memory),
  };
}

/** `isolateMemory` as a worker thread started from a string evaluates it (it can import nothing of ours). */
export const ISOLATE_MEMORY_SOURCE = `(isolate) => {
  const heap = require('node:v8').getHeapStatistics();
  const mb = (bytes) => Math.round((bytes / 1048576) * 10) / 10;
  return { isolate, heap_used_mb: mb(heap.used_heap_size), heap_committed_mb: mb(heap.total_heap_size), external_mb: mb(heap.external_memory) };
}`;
