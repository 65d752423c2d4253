import { Worker } from 'node:worker_threads';
import type { ModuleEntry } from '../../shared/module-entry.ts';

// Node 20 does not carry the parent's TypeScript loader (tsx) into a worker thread's entry module, so a
// worker started from source registers tsx through its API, then imports the entry. An error in either
// reaches the Worker's 'error' event. Built, the entry is plain JavaScript and loads as it is.
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
import(workerData.loader).then((tsx) => {
  tsx.register();
  return import(workerData.entry);
});
`;

/** Starts `entry` (shared/module-entry.ts) in a worker thread; it reads `data` from workerData.data. */
export function startModuleWorker(entry: ModuleEntry, data: unknown): Worker {
  if (!entry.typescript) {
    return new Worker(entry.url, { execArgv: [], workerData: { data } });
  }
  return new Worker(BOOTSTRAP, {
    eval: true,
    // The parent's flags (tsx's own loader among them) do not work in a worker: start clean.
    execArgv: [],
    workerData: { loader: import.meta.resolve('tsx/esm/api'), entry: entry.url.href, data },
  });
}
