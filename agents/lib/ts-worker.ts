import { Worker } from 'node:worker_threads';

// Node 20 does not carry the parent's TypeScript loader (tsx) into a worker thread's entry module, so
// each worker registers tsx through its API, then imports the entry. An error in either reaches the
// Worker's 'error' event.
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
import(workerData.loader).then((tsx) => {
  tsx.register();
  return import(workerData.entry);
});
`;

const tsxApi = import.meta.resolve('tsx/esm/api');

/** Starts `entry` (a TypeScript module) in a worker thread; it reads `data` from workerData.data. */
export function startTsWorker(entry: URL, data: unknown): Worker {
  return new Worker(BOOTSTRAP, {
    eval: true,
    // The parent's flags (tsx's own loader among them) do not work in a worker: start clean.
    execArgv: [],
    workerData: { loader: tsxApi, entry: entry.href, data },
  });
}
