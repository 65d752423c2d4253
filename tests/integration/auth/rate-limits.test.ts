// docs/product.md §17.7, measured as an attacker would: 300 wrong TOTP codes on one challenge (then the right one), 200
// wrong passwords for one account from one address and from many, 200 sign-ups from one address, and
// limits that reset on restart. The stacks here keep the limits of supabase/config.toml
// ([auth.rate_limit]: sign_in_sign_ups = 30 per 5 minutes and per IP, burst 30, as GoTrue reads them).
// The buckets refill as time passes (one sign-in every 10 s), and a loaded machine may take longer than
// that to hash thirty passwords: each test counts what got through against what the bucket could have
// earned meanwhile, and exhausts a bucket for good before it checks that the next request is refused.
import { request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setAuthSettings } from '../../../server/auth/settings.ts';
import { startStack, type RunningStack } from '../../../server/stack.ts';
import { budget } from '../../helpers/budget.ts';
import { client } from '../../helpers/stack.ts';
import { uniqueEmail } from '../../helpers/auth-support.ts';
import { SoftwareAuthenticator } from '../../helpers/webauthn-support.ts';

/** A JSON request to the stack from a chosen loopback source address (every 127.x address is this host). */
function post(
  stack: RunningStack,
  pathAndQuery: string,
  body: unknown,
  { from = '127.0.0.1', token }: { from?: string; token?: string } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const url = new URL(pathAndQuery, stack.url);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: 'POST',
        localAddress: from,
        headers: {
          apikey: stack.status.anon_key,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || '{}') as Record<string, unknown> }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const password = 'correct-horse-battery-7';
const signIn = (stack: RunningStack, email: string, pass: string, from?: string) =>
  post(stack, '/auth/v1/token?grant_type=password', { email, password: pass }, { from });

async function confirmedUser(stack: RunningStack): Promise<string> {
  const email = uniqueEmail('limits');
  const { error } = await client(stack, 'service_role').auth.admin.createUser({
    email,
    password,
    email_confirm: true,
  });
  expect(error).toBeNull();
  return email;
}

/** A bucket of the limiter (server/auth/limits.ts), by its key in vigil_platform.auth_rate_limits. */
interface StoredBucket {
  key: string;
  capacity: number;
  refillPerSecond: number;
}
const signInBucket = (key: string): StoredBucket => ({ key, capacity: 30, refillPerSecond: 30 / 300 });

/** The tokens a stored bucket holds now, as the limiter counts them (server/auth/rate-limit.ts). */
async function tokensNow(stack: RunningStack, bucket: StoredBucket): Promise<number> {
  const { rows } = await stack.ctx.db.query<{ tokens: number }>(
    `select least($2::float8, tokens + extract(epoch from clock_timestamp() - updated_at) * $3::float8) as tokens
       from vigil_platform.auth_rate_limits where key = $1`,
    [bucket.key, bucket.capacity, bucket.refillPerSecond],
  );
  return rows[0]?.tokens ?? bucket.capacity;
}

/**
 * Sends `attempt` until the bucket refuses one, and on until the refusal will last a second at least: when
 * the bucket is about to earn its next token, that token is waited for and spent the same way. Returns
 * every status in order, and the seconds it took (the time the bucket had to refill).
 */
async function exhaust(
  stack: RunningStack,
  bucket: StoredBucket,
  attempt: () => Promise<number>,
): Promise<{ statuses: number[]; seconds: number }> {
  const started = performance.now();
  const statuses: number[] = [];
  while (statuses.length < 200) {
    statuses.push(await attempt());
    if (statuses.at(-1) === 429) {
      const wait = (1 - (await tokensNow(stack, bucket))) / bucket.refillPerSecond;
      if (wait > 1) {
        return { statuses, seconds: (performance.now() - started) / 1000 };
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait) * 1000 + 50));
    }
  }
  throw new Error(`${bucket.key} never refused a request`);
}

/** What a bucket full at the start lets through in `seconds`: its burst and what it earned since. */
const mostAllowed = (bucket: StoredBucket, seconds: number) =>
  Math.floor(bucket.capacity + seconds * bucket.refillPerSecond);

/** The stack with supabase/config.toml's limits (no test override). */
const startLimited = (overrides: Parameters<typeof startStack>[0] = {}) =>
  startStack({
    port: 0,
    dataDir: 'memory',
    databaseUrl: process.env.VIGIL_TEST_DATABASE_URL || undefined,
    smtpUrl: undefined,
    ...overrides,
  });

describe('password sign-in and sign-up limits', () => {
  let stack: RunningStack;
  beforeAll(async () => {
    stack = await startLimited();
  });
  afterAll(() => stack.close());

  // Thirty-odd bcrypt checks, about 2 s on a quiet machine.
  const hashing = { timeout: budget(5_000) };

  it('refuses the 31st sign-in from one address, the right password included', hashing, async () => {
    const email = await confirmedUser(stack);
    const bucket = signInBucket('signin:ip:127.0.0.2');
    let i = 0;
    const { statuses, seconds } = await exhaust(
      stack,
      bucket,
      async () => (await signIn(stack, email, `wrong-${i++}`, '127.0.0.2')).status,
    );
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(400));
    expect(statuses.filter((status) => status !== 429).length).toBeLessThanOrEqual(
      mostAllowed(bucket, seconds),
    );
    const right = await signIn(stack, email, password, '127.0.0.2');
    expect(right).toMatchObject({ status: 429, body: { error_code: 'over_request_rate_limit' } });
  });

  it(
    'refuses an account after 30 wrong passwords from 30 addresses, whatever the next address',
    hashing,
    async () => {
      const email = await confirmedUser(stack);
      const bucket = signInBucket(`signin:account:${email}`);
      let i = 0;
      const { statuses, seconds } = await exhaust(stack, bucket, async () => {
        i += 1;
        return (await signIn(stack, email, `guess-${i}`, `127.0.1.${i}`)).status;
      });
      expect(statuses.slice(0, 30)).toEqual(Array(30).fill(400));
      expect(statuses.filter((status) => status !== 429).length).toBeLessThanOrEqual(
        mostAllowed(bucket, seconds),
      );
      const fresh = await signIn(stack, email, password, '127.0.2.1');
      expect(fresh).toMatchObject({ status: 429, body: { error_code: 'over_request_rate_limit' } });
      // Another account from those addresses is not affected.
      const other = await confirmedUser(stack);
      expect((await signIn(stack, other, password, '127.0.2.2')).status).toBe(200);
    },
  );

  it('refuses the 31st sign-up from one address', hashing, async () => {
    const bucket = signInBucket('signin:ip:127.0.3.1');
    const { statuses, seconds } = await exhaust(
      stack,
      bucket,
      async () =>
        (
          await post(
            stack,
            '/auth/v1/signup',
            { email: uniqueEmail('flood'), password },
            { from: '127.0.3.1' },
          )
        ).status,
    );
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(200));
    expect(statuses.filter((status) => status !== 429).length).toBeLessThanOrEqual(
      mostAllowed(bucket, seconds),
    );
    expect(statuses.at(-1)).toBe(429);
  });

  it('refuses the 31st anonymous sign-in in an hour from one address, leaving its sign-ups alone', async () => {
    setAuthSettings(stack.ctx.config, { anonymousSignIns: true });
    const statuses: number[] = [];
    for (let i = 0; i < 200 && statuses.at(-1) !== 429; i++) {
      statuses.push((await post(stack, '/auth/v1/signup', {}, { from: '127.0.3.2' })).status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
    expect(statuses).toHaveLength(31);
    // anonymous_users and sign_in_sign_ups are separate buckets, as in GoTrue.
    const signUp = await post(
      stack,
      '/auth/v1/signup',
      { email: uniqueEmail('after-anon'), password },
      { from: '127.0.3.2' },
    );
    expect(signUp.status).toBe(200);
  });
});

describe('second-factor verification limits', () => {
  let stack: RunningStack;
  let token: string;
  let factorId: string;
  let secret: string;
  beforeAll(async () => {
    stack = await startLimited();
    const email = await confirmedUser(stack);
    const sb = client(stack);
    await sb.auth.signInWithPassword({ email, password });
    const enrolled = await sb.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
    if (enrolled.error || enrolled.data.type !== 'totp') {
      throw new Error('no totp factor');
    }
    factorId = enrolled.data.id;
    secret = enrolled.data.totp.secret;
    const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
    const verified = await sb.auth.mfa.challengeAndVerify({ factorId, code });
    expect(verified.error).toBeNull();
    // The attacker: the same account, password only.
    const thief = client(stack);
    await thief.auth.signInWithPassword({ email, password });
    token = (await thief.auth.getSession()).data.session!.access_token;
  });
  afterAll(() => stack.close());

  const challenge = async (from: string) => {
    const res = await post(stack, `/auth/v1/factors/${factorId}/challenge`, {}, { from, token });
    expect(res.status).toBe(200);
    return res.body.id as string;
  };
  const verify = (challengeId: string, code: string, from: string) =>
    post(stack, `/auth/v1/factors/${factorId}/verify`, { challenge_id: challengeId, code }, { from, token });
  const rightCode = () => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
  const wrongCode = () => {
    const valid = new Set(
      [-1, 0, 1].map((s) =>
        new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
          timestamp: Date.now() + s * 30_000,
        }),
      ),
    );
    let n = Math.floor(Math.random() * 1_000_000);
    while (valid.has(String(n).padStart(6, '0'))) {
      n = (n + 1) % 1_000_000;
    }
    return String(n).padStart(6, '0');
  };

  it('spends a challenge after 5 wrong codes and locks the factor after 10, the right code included', async () => {
    const first = await challenge('127.0.4.1');
    const onFirst: string[] = [];
    for (let i = 0; i < 6; i++) {
      onFirst.push(String((await verify(first, wrongCode(), '127.0.4.1')).body.error_code));
    }
    // Five wrong codes spend the challenge: the sixth attempt finds it gone.
    expect(onFirst).toEqual([...Array<string>(5).fill('mfa_verification_failed'), 'mfa_factor_not_found']);
    const refused = await verify(first, rightCode(), '127.0.4.1');
    expect(refused.status).toBe(404);

    // From other addresses and fresh challenges: after 10 failures of the factor in all, even the right
    // code is refused with 429.
    const second = await challenge('127.0.4.2');
    for (let i = 0; i < 5; i++) {
      expect((await verify(second, wrongCode(), '127.0.4.2')).body.error_code).toBe(
        'mfa_verification_failed',
      );
    }
    const third = await challenge('127.0.4.3');
    const locked = await verify(third, rightCode(), '127.0.4.3');
    expect(locked).toMatchObject({ status: 429, body: { error_code: 'over_request_rate_limit' } });
  });

  it('limits challenges and verifications per address (GoTrue: 15 per minute, burst 30)', async () => {
    const bucket = { key: 'mfa:ip:127.0.5.1', capacity: 30, refillPerSecond: 15 / 60 };
    const { statuses, seconds } = await exhaust(
      stack,
      bucket,
      async () =>
        (await post(stack, `/auth/v1/factors/${factorId}/challenge`, {}, { from: '127.0.5.1', token }))
          .status,
    );
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(200));
    expect(statuses.filter((status) => status !== 429).length).toBeLessThanOrEqual(
      mostAllowed(bucket, seconds),
    );
    expect(statuses.at(-1)).toBe(429);
  });

  it('counts WebAuthn responses that do not verify like wrong codes', async () => {
    const email = await confirmedUser(stack);
    const sb = client(stack);
    await sb.auth.signInWithPassword({ email, password });
    const enrolled = await sb.auth.mfa.enroll({ factorType: 'webauthn', friendlyName: 'Laptop' });
    expect(enrolled.error).toBeNull();
    const id = enrolled.data!.id;
    const rp = { rpId: 'localhost', rpOrigins: ['http://localhost:5173'] };
    // A look-alike site's page: its ceremonies carry the wrong origin and never verify.
    const phishing = new SoftwareAuthenticator({ origin: 'https://vigil-login.example' });
    const codes: (string | undefined)[] = [];
    for (let i = 0; i < 12; i++) {
      const ch = await sb.auth.mfa.challenge({ factorId: id, webauthn: rp });
      if (ch.error || ch.data.type !== 'webauthn') {
        codes.push(ch.error?.code);
        continue;
      }
      const credential = await phishing.create(ch.data.webauthn.credential_options.publicKey as never);
      const res = await sb.auth.mfa.verify({
        factorId: id,
        challengeId: ch.data.id,
        webauthn: { type: 'create', ...rp, credential_response: credential as never },
      });
      codes.push(res.error?.code);
    }
    expect(codes.slice(0, 10)).toEqual(Array(10).fill('mfa_verification_failed'));
    expect(codes.slice(10)).toEqual(['over_request_rate_limit', 'over_request_rate_limit']);
  });
});

describe('limits across a restart', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'vigil-limits-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  // Thirty bcrypt checks and two stack starts on a data directory, about 4 s on a quiet machine.
  it(
    'keeps an exhausted bucket exhausted when the stack starts again on the same data',
    { timeout: budget(6_000) },
    async () => {
      const first = await startLimited({ dataDir: dir });
      const email = await confirmedUser(first);
      const other = await confirmedUser(first);
      const address = signInBucket('signin:ip:127.0.7.1');
      const account = signInBucket(`signin:account:${email.toLowerCase()}`);
      let i = 0;
      // Thirty wrong passwords from one address empty both the address's bucket and the account's.
      await exhaust(
        first,
        address,
        async () => (await signIn(first, email, `wrong-${i++}`, '127.0.7.1')).status,
      );
      const stored = (stack: RunningStack) =>
        stack.ctx.db.query<{ key: string; tokens: number; updated_at: Date }>(
          'select key, tokens, updated_at from vigil_platform.auth_rate_limits where key = any($1) order by key',
          [[account.key, address.key]],
        );
      const before = (await stored(first)).rows;
      expect(before.map((row) => row.key)).toEqual([account.key, address.key]);
      await first.close();
      const second = await startLimited({ dataDir: dir });
      try {
        // The buckets are as they were...
        expect((await stored(second)).rows).toEqual(before);
        // ...and refuse what they refused, letting through only the tokens they earned since: another
        // account from the address (only the address's bucket can refuse it), then wrong passwords from
        // another address (only the account's can).
        const through = async (send: () => Promise<number>) => {
          let n = 0;
          while (n <= 30 && (await send()) !== 429) {
            n += 1;
          }
          return n;
        };
        /** Whole tokens the bucket stored as `row` can have earned by now. */
        const earnedSince = async (bucket: StoredBucket, row: (typeof before)[number]) => {
          const { rows } = await second.ctx.db.query<{ n: number }>(
            `select floor(least($1::float8, $3::float8 + extract(epoch from clock_timestamp() - $4::timestamptz) * $2::float8)) as n`,
            [bucket.capacity, bucket.refillPerSecond, row.tokens, row.updated_at],
          );
          return Number(rows[0]!.n);
        };
        const byAddress = await through(
          async () => (await signIn(second, other, password, '127.0.7.1')).status,
        );
        expect(byAddress).toBeLessThanOrEqual(await earnedSince(address, before[1]!));
        const byAccount = await through(
          async () => (await signIn(second, email, `wrong-${i++}`, '127.0.7.2')).status,
        );
        expect(byAccount).toBeLessThanOrEqual(await earnedSince(account, before[0]!));
      } finally {
        await second.close();
      }
    },
  );
});
