// A stack in a process of its own on the data dir given as argument (or `memory`), for tests that kill it
// (durability) or give it an environment of its own (SMTP_URL and the CA it trusts, for e-mail delivery):
// prints its URL and keys as one JSON line once it serves.
import { UNLIMITED_RATE_LIMITS } from '../../server/auth/settings.ts';
import { startStack } from '../../server/stack.ts';

const dataDir = process.argv[2];
if (!dataDir) {
  throw new Error('usage: stack-child.ts DATA_DIR');
}
const stack = await startStack({
  port: 0,
  dataDir,
  databaseUrl: undefined,
  smtpUrl: undefined,
  auth: { rateLimits: UNLIMITED_RATE_LIMITS },
});
console.log(
  JSON.stringify({
    url: stack.url,
    serviceKey: stack.status.service_role_key,
    anonKey: stack.status.anon_key,
  }),
);
process.once('SIGTERM', () => void stack.close().then(() => process.exit(0)));
