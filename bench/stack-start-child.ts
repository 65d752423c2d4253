// Child process for the start-up benchmark: starts the stack on the given data dir, prints the time from
// process start and from startStack() to a served request, then exits.
import { UNLIMITED_RATE_LIMITS } from '../server/auth/settings.ts';
import { startStack } from '../server/stack.ts';

const dataDir = process.argv[2] ?? 'memory';
const t0 = performance.now();
const stack = await startStack({ auth: { rateLimits: UNLIMITED_RATE_LIMITS }, port: 0, dataDir });
const res = await fetch(`${stack.url}/health`);
await res.text();
const inProcess = performance.now() - t0;
const sinceProcessStart = performance.now();
// The REST schema cache is built in the background: the first REST answer shows what that leaves to wait.
const rest = await fetch(`${stack.url}/rest/v1/agent_roles?select=id&limit=1`, {
  headers: { apikey: stack.status.anon_key },
});
if (!rest.ok) {
  throw new Error(`first REST request failed: ${rest.status} ${await rest.text()}`);
}
await rest.text();
const toFirstRest = performance.now() - t0;
// Closing saves the REST schema cache for the next start when anything was written since it opened.
const t1 = performance.now();
await stack.close();
const close = performance.now() - t1;
console.log(JSON.stringify({ inProcess, sinceProcessStart, toFirstRest, close }));
