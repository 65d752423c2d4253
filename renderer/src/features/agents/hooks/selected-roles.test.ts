import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  clearSelectedRoles,
  hasPendingSelection,
  readSelectedRoles,
  storeSelectedRoles,
  toggledRole,
} from './selected-roles.ts';

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

describe('selected agent roles', () => {
  let storage: Storage;
  beforeEach(() => {
    storage = memoryStorage();
    vi.stubGlobal('sessionStorage', storage);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('prefers the navigation state, deduplicated, over the stored selection', () => {
    storeSelectedRoles(['stored']);
    expect(storage.getItem('selectedAgentRoles')).toBe('["stored"]');
    expect(readSelectedRoles({ selectedRoles: ['a', 'b', 'a'] })).toEqual(['a', 'b']);
    expect(readSelectedRoles(null)).toEqual(['stored']);
    expect(readSelectedRoles(null, { storage: false })).toEqual([]);
    expect(hasPendingSelection()).toBe(true);
    clearSelectedRoles();
    expect(hasPendingSelection()).toBe(false);
  });

  it('ignores hostile or corrupted entries', () => {
    storage.setItem('selectedAgentRoles', '{not json');
    expect(readSelectedRoles(undefined)).toEqual([]);
    storage.setItem('selectedAgentRoles', JSON.stringify([{ id: 'x' }]));
    expect(readSelectedRoles(undefined)).toEqual([]);
    storage.setItem('selectedAgentRoles', JSON.stringify(Array.from({ length: 51 }, (_, i) => `r${i}`)));
    expect(readSelectedRoles(undefined)).toEqual([]);
    expect(readSelectedRoles({ selectedRoles: 'a' })).toEqual([]);
    expect(readSelectedRoles({ selectedRoles: ['x'.repeat(101)] })).toEqual([]);
  });

  it('survives storage that throws (private mode)', () => {
    vi.stubGlobal('sessionStorage', {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    });
    expect(() => storeSelectedRoles(['a'])).not.toThrow();
    expect(() => clearSelectedRoles()).not.toThrow();
    expect(readSelectedRoles(null)).toEqual([]);
  });
});

describe('toggledRole', () => {
  it('adds a role that was not selected and takes out one that was, leaving the original set alone', () => {
    const before = new Set(['a']);
    expect([...toggledRole(before, 'b')]).toEqual(['a', 'b']);
    expect([...toggledRole(before, 'a')]).toEqual([]);
    expect([...before]).toEqual(['a']);
  });
});
