import { describe, expect, it, vi } from 'vitest';
import { createVault, type CipherStore, type SafeStorageLike } from './vault.ts';

const KEY = 'sb-127-auth-token';
const SESSION = JSON.stringify({ access_token: 'secret-access', refresh_token: 'secret-refresh' });

// A reversible stand-in for the OS keychain cipher: enough to tell ciphertext from plaintext.
const keychain = (available = true, backend?: string): SafeStorageLike => ({
  isEncryptionAvailable: () => available,
  encryptString: (s) => Buffer.from(`enc:${Buffer.from(s).toString('hex')}`),
  decryptString: (b) => {
    const t = b.toString();
    if (!t.startsWith('enc:')) {
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    }
    return Buffer.from(t.slice(4), 'hex').toString();
  },
  ...(backend ? { getSelectedStorageBackend: () => backend } : {}),
});

const memoryStore = (): CipherStore & { data: Map<string, unknown> } => {
  const data = new Map<string, unknown>();
  return { data, get: (k) => data.get(k), set: (k, v) => data.set(k, v), delete: (k) => data.delete(k) };
};

describe('vault', () => {
  it('round-trips the session and keeps only ciphertext on disk', () => {
    const store = memoryStore();
    const vault = createVault(keychain(), store);
    vault.setItem(KEY, SESSION);
    expect(vault.getItem(KEY)).toBe(SESSION);
    const onDisk = String(store.data.get(KEY));
    expect(onDisk).not.toContain('secret-access');
    expect(Buffer.from(onDisk, 'base64').toString()).not.toContain('secret-refresh');
    expect(vault.status()).toEqual({ persistent: true });
    vault.removeItem(KEY);
    expect(vault.getItem(KEY)).toBeNull();
  });

  it('accepts the PKCE verifier keys supabase-js writes', () => {
    const vault = createVault(keychain(), memoryStore());
    for (const k of [
      `${KEY}-code-verifier`,
      `${KEY}-flows-code-verifier`,
      `${KEY}-flow-${'a'.repeat(32)}-code-verifier`,
      `${KEY}-user`,
    ]) {
      vault.setItem(k, '"v"');
      expect(vault.getItem(k)).toBe('"v"');
    }
  });

  it('refuses any key that is not an auth key', () => {
    const vault = createVault(keychain(), memoryStore());
    for (const k of [
      'theme',
      'sb-127-auth-token/../x',
      'sb-127-auth-token-flow-zz-code-verifier',
      '',
      '__proto__',
      42,
    ]) {
      expect(() => vault.getItem(k as string)).toThrow('only the auth session');
      expect(() => vault.setItem(k as string, 'x')).toThrow('only the auth session');
    }
  });

  it('refuses oversized or non-string values', () => {
    const vault = createVault(keychain(), memoryStore());
    expect(() => vault.setItem(KEY, 'x'.repeat(64 * 1024 + 1))).toThrow('64 KiB');
    expect(() => vault.setItem(KEY, { a: 1 } as unknown as string)).toThrow('64 KiB');
  });

  it('deletes an entry that fails to decrypt instead of returning it', () => {
    const store = memoryStore();
    store.data.set(KEY, Buffer.from('plaintext-from-elsewhere').toString('base64'));
    const vault = createVault(keychain(), store);
    expect(vault.getItem(KEY)).toBeNull();
    expect(store.data.has(KEY)).toBe(false);
  });

  it('keeps values in memory only when encryption is unavailable, and says so', () => {
    const store = memoryStore();
    const vault = createVault(keychain(false), store);
    vault.setItem(KEY, SESSION);
    expect(vault.getItem(KEY)).toBe(SESSION);
    expect(store.data.size).toBe(0);
    expect(vault.status()).toMatchObject({ persistent: false });
  });

  it("treats Linux's basic_text backend (no keychain) as unavailable", () => {
    const store = memoryStore();
    const vault = createVault(keychain(true, 'basic_text'), store);
    vault.setItem(KEY, SESSION);
    expect(store.data.size).toBe(0);
    expect(vault.status().reason).toContain('keychain');
  });

  it('never logs values', () => {
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) => vi.spyOn(console, m));
    const store = memoryStore();
    store.data.set(`${KEY}-user`, 'corrupt');
    const vault = createVault(keychain(), store);
    vault.setItem(KEY, SESSION);
    vault.getItem(KEY);
    vault.getItem(`${KEY}-user`);
    for (const s of spies) {
      expect(s).not.toHaveBeenCalled();
      s.mockRestore();
    }
  });
});
