import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { ISOLATE_MEMORY_SOURCE, type IsolateMemory } from '../isolate-memory.ts';

/**
 * bcrypt (cost 10, ~90 ms of CPU) in worker threads: password hashing and checking never hold the main
 * thread, where every HTTP request, realtime socket and the in-process agent worker are served. Fifty
 * concurrent sign-ins used to slow unrelated REST reads from 1.7 ms to about 335 ms.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const bcrypt = require(workerData.bcrypt);
const memory = ${ISOLATE_MEMORY_SOURCE};
parentPort.on('message', ({ id, op, password, hash, cost }) => {
  try {
    const value =
      op === 'memory' ? memory('password hashing')
      : op === 'hash' ? bcrypt.hashSync(password, cost) : bcrypt.compareSync(password, hash);
    parentPort.postMessage({ id, value });
  } catch (e) {
    parentPort.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
  }
});
`;

type Task =
  | { op: 'hash'; password: string; cost: number }
  | { op: 'compare'; password: string; hash: string }
  | { op: 'memory' };
type Answer = string | boolean | IsolateMemory;

/**
 * An idle pool's threads end after this long: each is a V8 isolate (~10 MB), and most of a stack's life
 * has nobody signing in. Starting them again costs the next sign-in ~50 ms beside a ~90 ms hash.
 */
const IDLE_MS = 30_000;

interface Pending {
  resolve(value: Answer): void;
  reject(error: Error): void;
}

class PasswordPool {
  private readonly workers: Worker[] = [];
  private readonly pending = new Map<number, Pending>();
  private readonly busy = new Map<Worker, number>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(
    size: number,
    private readonly onRetired: () => void,
  ) {
    const bcrypt = createRequire(import.meta.url).resolve('bcryptjs');
    for (let i = 0; i < size; i++) {
      const worker = new Worker(WORKER, { eval: true, workerData: { bcrypt } });
      worker.unref();
      worker.on('message', (m: { id: number; value?: Answer; error?: string }) => {
        this.busy.set(worker, (this.busy.get(worker) ?? 1) - 1);
        const task = this.pending.get(m.id);
        this.pending.delete(m.id);
        this.retireWhenIdle();
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

  run(task: Task, worker?: Worker): Promise<Answer> {
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    // The least busy worker takes it (each runs its queue in order).
    const chosen =
      worker ?? this.workers.reduce((a, b) => ((this.busy.get(a) ?? 0) <= (this.busy.get(b) ?? 0) ? a : b));
    this.busy.set(chosen, (this.busy.get(chosen) ?? 0) + 1);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      chosen.postMessage({ id, ...task });
    });
  }

  /** Each thread's memory. */
  memory(): Promise<IsolateMemory[]> {
    return Promise.all(this.workers.map((w) => this.run({ op: 'memory' }, w) as Promise<IsolateMemory>));
  }

  private retireWhenIdle(): void {
    if (this.pending.size > 0 || this.idleTimer) {
      return;
    }
    this.idleTimer = setTimeout(() => {
      // Retired first: a task arriving from now on starts a new pool.
      this.onRetired();
      for (const worker of this.workers) {
        void worker.terminate();
      }
    }, IDLE_MS);
    this.idleTimer.unref();
  }
}

let pool: PasswordPool | null = null;
// One thread per spare core (at least one): the main thread keeps a core of its own where it can.
const poolSize = () => Math.max(1, Math.min(4, availableParallelism() - 1));

const shared = () =>
  (pool ??= new PasswordPool(poolSize(), () => {
    pool = null;
  }));

/** The memory of the pool's threads, while they run (none when nobody has signed in for a while). */
export function passwordPoolMemory(): Promise<IsolateMemory[]> {
  return pool ? pool.memory() : Promise.resolve([]);
}

export async function bcryptHash(password: string, cost: number): Promise<string> {
  return (await shared().run({ op: 'hash', password, cost })) as string;
}

export async function bcryptCompare(password: string, hash: string): Promise<boolean> {
  return (await shared().run({ op: 'compare', password, hash })) as boolean;
}
