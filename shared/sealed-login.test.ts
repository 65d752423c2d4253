import { describe, expect, it } from 'vitest';

import { keyBytes, keyId, newCredentialsKey, openLogin, SealError, sealLogin } from './sealed-login.ts';
import type { TargetLogin } from './target-login.ts';

const login: TargetLogin = {
  kind: 'form',
  login_url: 'https://shop.example/login',
  username_field: 'email',
  password_field: 'password',
  username: 'alice@example.com',
  password: 'correct horse battery staple',
  logged_in_marker: undefined,
};
const binding = {
  userId: '11111111-1111-4111-8111-111111111111',
  targetId: '22222222-2222-4222-8222-222222222222',
};

async function reason(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (e) {
    return e instanceof SealError ? e.reason : `not a SealError: ${String(e)}`;
  }
  return 'opened';
}

describe('sealed logins', () => {
  it('opens what it sealed, and the box shows no credential', async () => {
    const key = newCredentialsKey();
    const box = await sealLogin(key, login, binding);
    expect(box).toMatch(/^v1\.[0-9a-f]{16}\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
    expect(box).not.toContain('alice');
    expect(atob(box.split('.')[3]!)).not.toContain('correct horse');
    expect(await openLogin(key, box, binding)).toEqual(login);
    // A fresh IV each time: the same login never seals to the same box.
    expect(await sealLogin(key, login, binding)).not.toBe(box);
  });

  it('refuses a tampered ciphertext, IV or key id', async () => {
    const key = newCredentialsKey();
    const box = await sealLogin(key, login, binding);
    const [v, kid, iv, data] = box.split('.') as [string, string, string, string];
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    bytes[5] = bytes[5]! ^ 1;
    const flipped = btoa(String.fromCharCode(...bytes));
    expect(await reason(openLogin(key, [v, kid, iv, flipped].join('.'), binding))).toBe('tampered');
    const otherIv = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(12))));
    expect(await reason(openLogin(key, [v, kid, otherIv, data].join('.'), binding))).toBe('tampered');
    expect(await reason(openLogin(key, [v, 'ffffffffffffffff', iv, data].join('.'), binding))).toBe(
      'wrong-key',
    );
    expect(await reason(openLogin(key, 'v1.not-a-box', binding))).toBe('malformed');
    expect(await reason(openLogin(key, [v, kid, '!!!', data].join('.'), binding))).toBe('tampered');
  });

  it('refuses another key, and a box moved to another target or tenant', async () => {
    const key = newCredentialsKey();
    const box = await sealLogin(key, login, binding);
    expect(await reason(openLogin(newCredentialsKey(), box, binding))).toBe('wrong-key');
    expect(await reason(openLogin(key, box, { ...binding, targetId: crypto.randomUUID() }))).toBe('tampered');
    expect(await reason(openLogin(key, box, { ...binding, userId: crypto.randomUUID() }))).toBe('tampered');
  });

  it('takes keys as base64 or hex, 32 bytes only', async () => {
    const hex = 'ab'.repeat(32);
    expect(keyBytes(hex)).toHaveLength(32);
    expect(await keyId(hex)).toMatch(/^[0-9a-f]{16}$/);
    expect(keyBytes(newCredentialsKey())).toHaveLength(32);
    for (const bad of ['', 'short', 'ab'.repeat(16), btoa('x'.repeat(16))]) {
      expect(() => keyBytes(bad)).toThrow(SealError);
    }
    expect(await reason(sealLogin('ab'.repeat(16), login, binding))).toBe('bad-key');
  });
});
