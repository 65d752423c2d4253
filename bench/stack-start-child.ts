// Child process for the start-up benchmark: starts the stack on the given data dir, prints the time from
// process start and from startStack() to a served request, then exits.
import { startStack } from '../server/stack.ts';

const dataDir = process.argv[2] ?? 'memory';
const t0 = performance.now();
const stack = await startStack({ port: 0, dataDir });
const res = await fetch(`${stack.url}/health`);
await res.text();
const inProcess = performance.now() - t0;
console.log(JSON.stringify({ inProcess, sinceProcessStart: performance.now() }));
await stack.close();
