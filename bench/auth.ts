import { UNLIMITED_RATE_LIMITS } from '../server/auth/settings.ts';
import { startStack } from '../server/stack.ts';
import { timeLoop } from './lib/fixtures.ts';
import { percentile, type BenchRow } from './lib/report.ts';

/** Token endpoint latency: password grant (dominated by bcrypt, cost 10) and refresh-token grant. */
export async function benchAuth(n = 40): Promise<BenchRow[]> {
  const stack = await startStack({
    auth: { rateLimits: UNLIMITED_RATE_LIMITS },
    port: 0,
    dataDir: 'memory',
    autoconfirm: true,
  });
  try {
    const headers = { apikey: stack.status.anon_key, 'content-type': 'application/json' };
    const email = 'bench@example.com';
    const password = 'bench-password-1';
    const signup = await fetch(`${stack.url}/auth/v1/signup`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email, password }),
    });
    if (!signup.ok) {
      throw new Error(`sign-up failed: ${signup.status} ${await signup.text()}`);
    }
    let refresh = ((await signup.json()) as { refresh_token: string }).refresh_token;
    const grant = async (type: string, body: object) => {
      const res = await fetch(`${stack.url}/auth/v1/token?grant_type=${type}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      if (!res.ok) {
        throw new Error(`${type} grant failed: ${res.status} ${await res.text()}`);
      }
      return (await res.json()) as { refresh_token: string };
    };
    const pw = await timeLoop(n, () => grant('password', { email, password }));
    const rt = await timeLoop(n, async () => {
      refresh = (await grant('refresh_token', { refresh_token: refresh })).refresh_token;
    });
    return [
      { name: 'token endpoint, password grant p50', value: percentile(pw, 50), unit: 'ms' },
      { name: 'token endpoint, password grant p99', value: percentile(pw, 99), unit: 'ms' },
      { name: 'token endpoint, refresh_token grant p50', value: percentile(rt, 50), unit: 'ms' },
      { name: 'token endpoint, refresh_token grant p99', value: percentile(rt, 99), unit: 'ms' },
    ];
  } finally {
    await stack.close();
  }
}
