// Entry of a connect-scan worker thread (started by connect-scan.ts through agents/lib/module-worker.ts):
// sweeps ports from the scan's shared list on this thread's own event loop, until the list is empty.
import { parentPort, workerData } from 'node:worker_threads';

import { sweepPorts } from './connect-sweep.ts';
import { ABORT_MESSAGE, sharedSource, type ThreadMessage, type ThreadTask } from './sweep-threads.ts';

const port = parentPort;
// Guard: this module only makes sense as a worker thread's entry.
if (!port) {
  throw new Error('connect-scan-thread.ts runs only in a worker thread');
}
const task = (workerData as { data: ThreadTask }).data;
const send = (message: ThreadMessage) => port.postMessage(message);
const controller = new AbortController();
port.on('message', (message: unknown) => {
  if (message === ABORT_MESSAGE) {
    controller.abort();
  }
});

send({ type: 'started' });
const result = await sweepPorts({
  address: task.address,
  ports: sharedSource(task.shared),
  signal: controller.signal,
  concurrency: task.concurrency,
  minTimeoutMs: task.minTimeoutMs,
  maxTimeoutMs: task.maxTimeoutMs,
  engine: task.engine,
  onDone: (done) => send({ type: 'done', done }),
});
send({ type: 'result', result });
port.close();
