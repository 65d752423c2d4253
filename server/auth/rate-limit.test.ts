import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Database } from '../db/database.ts';
import { openDatabase } from '../db/open.ts';
import { perInterval, RateLimiter } from './rate-limit.ts';
import { rateLimitsFromToml } from './settings.ts';

let db: Database;
beforeAll(async () => {
  db = await openDatabase({ dataDir: 'memory' });
});
afterAll(() => db?.close());

describe('RateLimiter (token buckets in the database)', () => {
  it('lets a burst through, then refuses until the bucket refills', async () => {
    const rl = new RateLimiter(db);
    const bucket = { capacity: 3, refillPerSecond: 0.000001 };
    const answers = [];
    for (let i = 0; i < 5; i++) {
      answers.push(await rl.take('burst', bucket));
    }
    expect(answers).toEqual([true, true, true, false, false]);
    // Refused requests take nothing: a bucket refilling fast lets the next one through at once.
    expect(await rl.take('burst', { capacity: 3, refillPerSecond: 1_000_000 })).toBe(true);
    expect(await rl.take('other', bucket)).toBe(true);
  });

  it('peeks without taking', async () => {
    const rl = new RateLimiter(db);
    const bucket = { capacity: 1, refillPerSecond: 0.000001 };
    expect(await rl.hasToken('peek', bucket)).toBe(true);
    expect(await rl.hasToken('peek', bucket)).toBe(true);
    expect(await rl.take('peek', bucket)).toBe(true);
    expect(await rl.hasToken('peek', bucket)).toBe(false);
  });

  it('spaces e-mails per kind and address, case-insensitively, and says how long to wait', async () => {
    const rl = new RateLimiter(db);
    expect(await rl.emailWait('recovery', 'A@b.c', 60)).toBe(0);
    const wait = await rl.emailWait('recovery', 'a@B.c', 60);
    expect(wait).toBeGreaterThanOrEqual(59);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await rl.emailWait('signup', 'a@b.c', 60)).toBe(0);
    expect(await rl.emailWait('recovery', 'x@b.c', 0)).toBe(0);
    expect(await rl.emailWait('recovery', 'x@b.c', 0)).toBe(0);
  });

  it('turns "N per interval" into GoTrue’s bucket: a burst of at most 30', () => {
    expect(perInterval(30, 300)).toEqual({ capacity: 30, refillPerSecond: 0.1 });
    expect(perInterval(150, 300)).toEqual({ capacity: 30, refillPerSecond: 0.5 });
    expect(perInterval(5, 300)).toEqual({ capacity: 5, refillPerSecond: 5 / 300 });
  });
});

describe('rateLimitsFromToml', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'vigil-toml-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads [auth.rate_limit] and the e-mail frequency as the Supabase CLI writes them', async () => {
    const file = path.join(dir, 'config.toml');
    await writeFile(
      file,
      `[auth.rate_limit]\nsign_in_sign_ups = 12\ntoken_refresh = 90\ntoken_verifications = 7\n\n[auth.email]\nmax_frequency = "1m30s"\n`,
    );
    expect(rateLimitsFromToml(file)).toMatchObject({
      signInSignUps: 12,
      tokenRefresh: 90,
      tokenVerifications: 7,
      emailMinIntervalSeconds: 90,
    });
  });

  it("uses GoTrue's defaults where the file is silent, and refuses values it cannot use", async () => {
    const empty = path.join(dir, 'empty.toml');
    await writeFile(empty, '[api]\nport = 1\n');
    expect(rateLimitsFromToml(empty)).toMatchObject({
      signInSignUps: 30,
      tokenRefresh: 150,
      emailMinIntervalSeconds: 60,
    });
    const bad = path.join(dir, 'bad.toml');
    await writeFile(bad, '[auth.rate_limit]\nsign_in_sign_ups = -1\n');
    expect(() => rateLimitsFromToml(bad)).toThrow(/sign_in_sign_ups/);
  });

  it("reads this project's supabase/config.toml", () => {
    expect(rateLimitsFromToml()).toMatchObject({
      signInSignUps: 30,
      tokenRefresh: 150,
      tokenVerifications: 30,
    });
  });
});
