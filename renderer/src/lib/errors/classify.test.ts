import { describe, expect, it } from 'vitest';

import { classifySeverity, createErrorId } from './classify.ts';
import { clearStoredErrors, readStoredErrors, storeError } from './error-store.ts';

describe('createErrorId', () => {
  it('has the form err_{time}_{random}', () => {
    expect(createErrorId(1700000000000, () => 0.123456789)).toMatch(/^err_1700000000000_[a-z0-9]{9}$/);
    expect(createErrorId()).toMatch(/^err_\d{13}_[a-z0-9]{9}$/);
    expect(createErrorId(1, () => 0)).toBe('err_1_000000000');
  });
  it('differs between calls', () => {
    expect(createErrorId(1)).not.toBe(createErrorId(1));
  });
});

describe('classifySeverity', () => {
  it('rates security and auth problems critical', () => {
    for (const message of [
      'Security check failed',
      'Authentication required',
      'authorization denied',
      'Invalid token',
      'Permission denied',
    ]) {
      expect(classifySeverity({ message })).toBe('critical');
    }
  });
  it('rates network problems high', () => {
    for (const message of ['Network request failed', 'Connection reset', 'Request timeout']) {
      expect(classifySeverity({ message })).toBe('high');
    }
  });
  it('rates type and syntax errors medium', () => {
    expect(classifySeverity(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(
      'medium',
    );
    expect(classifySeverity(new SyntaxError('Unexpected token <'))).toBe('critical');
    expect(classifySeverity(new SyntaxError('Unexpected end of JSON input'))).toBe('medium');
  });
  it('rates everything else low', () => {
    expect(classifySeverity(new Error('Something odd'))).toBe('low');
    expect(classifySeverity({})).toBe('low');
  });
});

function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (key) => map.get(key) ?? null,
    key: (index) => [...map.keys()][index] ?? null,
    removeItem: (key) => map.delete(key),
    setItem: (key, value) => map.set(key, value),
  };
}

describe('local error store', () => {
  it('keeps the newest 50 under vigil_errors', () => {
    const storage = memoryStorage();
    for (let i = 0; i < 60; i += 1) {
      storeError(storage, { id: `err_${i}`, timestamp: new Date(i).toISOString(), message: `m${i}` });
    }
    const stored = readStoredErrors(storage);
    expect(stored).toHaveLength(50);
    expect(stored[0]?.id).toBe('err_10');
    expect(stored[49]?.id).toBe('err_59');
    expect(storage.getItem('vigil_errors')).toContain('err_59');
    clearStoredErrors(storage);
    expect(readStoredErrors(storage)).toEqual([]);
  });
  it('survives corrupted entries and a full storage', () => {
    const storage = memoryStorage();
    storage.setItem('vigil_errors', '{not json');
    expect(readStoredErrors(storage)).toEqual([]);
    storage.setItem('vigil_errors', JSON.stringify([{ id: 1 }]));
    expect(readStoredErrors(storage)).toEqual([]);
    const full = {
      ...storage,
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(storeError(full, { id: 'a', timestamp: 't', message: 'm' })).toHaveLength(1);
  });
});
