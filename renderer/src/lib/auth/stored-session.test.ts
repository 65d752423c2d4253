import { afterEach, describe, expect, it, vi } from 'vitest';

import { isSessionKey, mayHaveStoredSession } from './stored-session.ts';

function fakeStorage(keys: string[], fail = false): Storage {
  return {
    get length() {
      if (fail) {
        throw new Error('SecurityError');
      }
      return keys.length;
    },
    key: (i: number) => keys[i] ?? null,
  } as unknown as Storage;
}

describe('stored session check', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('recognises only supabase-js session keys', () => {
    expect(isSessionKey('sb-127-auth-token')).toBe(true);
    expect(isSessionKey('sb-myproject-auth-token')).toBe(true);
    expect(isSessionKey('sb-127-auth-token-code-verifier')).toBe(false);
    expect(isSessionKey('ui-theme')).toBe(false);
    expect(isSessionKey('xsb-127-auth-token')).toBe(false);
    expect(isSessionKey(null)).toBe(false);
  });

  it('is false when prerendering (no storage at all)', () => {
    expect(mayHaveStoredSession()).toBe(false);
  });

  it('is true only when a session key is stored', () => {
    vi.stubGlobal('localStorage', fakeStorage(['ui-theme', 'sb-127-auth-token-code-verifier']));
    expect(mayHaveStoredSession()).toBe(false);
    vi.stubGlobal('localStorage', fakeStorage(['ui-theme', 'sb-127-auth-token']));
    expect(mayHaveStoredSession()).toBe(true);
  });

  it('leaves the answer to supabase-js when storage cannot be read', () => {
    vi.stubGlobal('localStorage', fakeStorage([], true));
    expect(mayHaveStoredSession()).toBe(true);
  });
});
