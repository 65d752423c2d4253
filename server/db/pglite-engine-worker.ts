// PGlite's engine thread (started by pglite-engine.ts): owns one PGlite instance and runs the batches of
// wire-protocol messages the stack's thread sends, one at a time, answering with the backend's raw bytes.
// A slow statement holds this thread only; the stack's thread keeps serving HTTP, realtime and auth.
import { parentPort } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import { isolateMemory } from '../isolate-memory.ts';
import { createPGlite } from './pglite-create.ts';
import type { EngineReply, EngineRequest, OpenRequest } from './pglite-engine-protocol.ts';
import type { InterruptFlags } from './pglite-interrupt.ts';

const port = parentPort;
if (!port) {
  throw new Error('pglite-engine-worker runs only as a worker thread');
}

let db: PGlite | null = null;

/** The backend's answer to one batch, collected from the chunks PGlite writes (views into its heap). */
class Answer {
  private chunks: Uint8Array[] = [];
  private size = 0;
  push = (bytes: Uint8Array): void => {
    this.chunks.push(bytes.slice());
    this.size += bytes.length;
  };
  bytes(): Uint8Array {
    if (this.chunks.length === 1) {
      return this.chunks[0]!;
    }
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}

async function open(request: OpenRequest): Promise<InterruptFlags | null> {
  const created = await createPGlite(request);
  db = created.db;
  return created.flags;
}

function engine(): PGlite {
  if (!db) {
    throw new Error('the engine is not open');
  }
  return db;
}

async function handle(request: EngineRequest): Promise<{ reply: EngineReply; transfer: ArrayBuffer[] }> {
  switch (request.op) {
    case 'open':
      return { reply: { id: request.id, ok: true, flags: await open(request) }, transfer: [] };
    case 'run': {
      const answer = new Answer();
      // Raw bytes, unparsed: the stack's thread parses them (errors, rows and notifications alike).
      await engine().execProtocolRawStream(request.batch, { syncToFs: request.sync, onRawData: answer.push });
      const data = answer.bytes();
      return { reply: { id: request.id, ok: true, data }, transfer: [data.buffer as ArrayBuffer] };
    }
    case 'dump': {
      const tarball = await engine().dumpDataDir('none');
      const data = await tarball.arrayBuffer();
      return { reply: { id: request.id, ok: true, data: new Uint8Array(data) }, transfer: [data] };
    }
    case 'memory': {
      const memory = {
        ...isolateMemory('pglite engine'),
        // Emscripten's module has no TypeScript type here: its heap is a Uint8Array over the engine's memory.
        wasm_memory_mb: ((db?.Module as { HEAPU8?: Uint8Array } | undefined)?.HEAPU8?.length ?? 0) / 1048576,
      };
      return { reply: { id: request.id, ok: true, memory }, transfer: [] };
    }
    case 'close':
      await engine().close();
      db = null;
      return { reply: { id: request.id, ok: true }, transfer: [] };
  }
}

// Requests are handled strictly in order (the client sends one at a time; a queue keeps it so regardless).
let queue = Promise.resolve();
port.on('message', (request: EngineRequest) => {
  queue = queue.then(async () => {
    try {
      const { reply, transfer } = await handle(request);
      port.postMessage(reply, transfer);
    } catch (e) {
      // Database errors travel inside the answer's bytes: anything thrown here leaves PGlite in an
      // unknown state (a failed open, a WASM trap), so the client stops using this engine.
      const message = e instanceof Error ? e.message : String(e);
      port.postMessage({ id: request.id, ok: false, message, fatal: true } satisfies EngineReply);
    }
    if (request.op === 'close') {
      port.close();
    }
  });
});
