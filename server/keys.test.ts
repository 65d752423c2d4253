import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { decodeJwt, errors } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';

import { openKeyRing } from './keys.ts';

const dirs: string[] = [];
async function dataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'vigil-keys-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('the key ring', () => {
  it('signs with its issuer and verifies only its own issuer and audience', async () => {
    const keys = await openKeyRing('memory', 'http://127.0.0.1:54321/auth/v1');
    const token = await keys.sign({ role: 'authenticated', aud: 'authenticated', sub: 'u' }, 60);
    expect(decodeJwt(token).iss).toBe('http://127.0.0.1:54321/auth/v1');
    await expect(keys.verify(token)).resolves.toMatchObject({ sub: 'u' });
    const other = await keys.sign(
      { role: 'authenticated', aud: 'authenticated', iss: 'https://x/auth/v1' },
      60,
    );
    await expect(keys.verify(other)).rejects.toBeInstanceOf(errors.JWTClaimValidationFailed);
    const noAud = await keys.sign({ role: 'authenticated' }, 60);
    await expect(keys.verify(noAud)).rejects.toBeInstanceOf(errors.JWTClaimValidationFailed);
    await expect(keys.verify(keys.anonKey)).resolves.toMatchObject({ role: 'anon' });
  });

  it('keeps its API keys across restarts, and issues them again when the public URL changed', async () => {
    const dir = await dataDir();
    const first = await openKeyRing(dir, 'http://127.0.0.1:54321/auth/v1');
    const again = await openKeyRing(dir, 'http://127.0.0.1:54321/auth/v1');
    expect(again.anonKey).toBe(first.anonKey);
    const moved = await openKeyRing(dir, 'https://vigil.example.com/auth/v1');
    expect(moved.anonKey).not.toBe(first.anonKey);
    expect(decodeJwt(moved.serviceRoleKey).iss).toBe('https://vigil.example.com/auth/v1');
    await expect(moved.verify(moved.anonKey)).resolves.toMatchObject({ role: 'anon' });
    await expect(moved.verify(first.anonKey)).rejects.toBeInstanceOf(errors.JWTClaimValidationFailed);
  });
});
