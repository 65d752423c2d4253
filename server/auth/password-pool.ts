import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * bcrypt (cost 10, ~90 ms of CPU) in worker threads: password hashing and checking never hold the main
 * thread, where every HTTP request, realtime socket and the in-process agent worker are served. Fifty
 * concurrent sign-ins used to slow unrelated REST reads from 1.7 ms to about 335 ms.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const bcrypt = require(workerData.bcrypt);
parentPort.on('message', ({ id, op, password, hash, cost }) => {
  try {
    const value = op === 'hash' ? bcrypt.hashSync(password, cost) : bcrypt.compareSync(password, hash);
    parentPort.postMessage({ id, value });
  } catch (e) {
    parentPort.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
  }
});
`;

type Task =
  { op: 'hash'; password: string; cost: number } | { op: 'compare'; password: string; hash: string };

interface Pending {
  resolve(value: string | boolean): void;
  reject(error: Error): void;
}

class PasswordPool {
  private readonly workers: Worker[] = [];
  private readonly pending = new Map<number, Pending>();
  private readonly busy = new Map<Worker, number>();
  private nextId = 1;

  constructor(size: number) {
    const bcrypt = createRequire(import.meta.url).resolve('bcryptjs');
    for (let i = 0; i < size; i++) {
      const worker = new Worker(WORKER, { eval: true, workerData: { bcrypt } });
      worker.unref();
      worker.on('message', (m: { id: number; value?: string | boolean; error?: string }) => {
        this.busy.set(worker, (this.busy.get(worker) ?? 1) - 1);
        const task = this.pending.get(m.id);
        this.pending.delete(m.id);
        if (m.error !== undefined) {
          task?.reject(new Error(`bcrypt: ${m.error}`));
        } else {
          task?.resolve(m.value!);
        }
      });
      worker.on('error', (e) => {
        // A crashed worker fails what it held; the pool keeps the others.
        for (const [id, task] of this.pending) {
          task.reject(e);
          this.pending.delete(id);
        }
      });
      this.workers.push(worker);
      this.busy.set(worker, 0);
    }
  }

  run(task: Task): Promise<string | boolean> {
    // The least busy worker takes it (each runs its queue in order).
    const worker = this.workers.reduce((a, b) =>
      (this.busy.get(a) ?? 0) <= (this.busy.get(b) ?? 0) ? a : b,
    );
    this.busy.set(worker, (this.busy.get(worker) ?? 0) + 1);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, ...task });
    });
  }
}

let pool: PasswordPool | null = null;
// One thread per spare core (at least one): the main thread keeps a core of its own where it can.
const poolSize = () => Math.max(1, Math.min(4, availableParallelism() - 1));

const shared = () => (pool ??= new PasswordPool(poolSize()));

export async function bcryptHash(password: string, cost: number): Promise<string> {
  return (await shared().run({ op: 'hash', password, cost })) as string;
}

export async function bcryptCompare(password: string, hash: string): Promise<boolean> {
  return (await shared().run({ op: 'compare', password, hash })) as boolean;
}
