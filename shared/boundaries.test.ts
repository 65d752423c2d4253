import { describe, expect, it } from 'vitest';

import { checkRuntimeConfig, checkSelectedRoles } from './boundaries.ts';

describe('checkRuntimeConfig', () => {
  it('accepts the public config and keeps only its two values', () => {
    expect(
      checkRuntimeConfig({ supabaseUrl: 'http://127.0.0.1:54321', supabaseAnonKey: 'k', extra: 1 }),
    ).toEqual({ ok: true, value: { supabaseUrl: 'http://127.0.0.1:54321', supabaseAnonKey: 'k' } });
    expect(checkRuntimeConfig({ supabaseUrl: 'https://x.supabase.co', supabaseAnonKey: 'k' }).ok).toBe(true);
  });

  it('names every problem of a bad config', () => {
    expect(checkRuntimeConfig({})).toEqual({
      ok: false,
      issues: [
        'supabaseUrl: supabaseUrl must be an http(s) URL',
        'supabaseAnonKey: supabaseAnonKey is required',
      ],
    });
    expect(checkRuntimeConfig({ supabaseUrl: 'https://x.supabase.co', supabaseAnonKey: '' })).toEqual({
      ok: false,
      issues: ['supabaseAnonKey: supabaseAnonKey is required'],
    });
  });

  it('refuses non-http URLs, non-objects and wrong types', () => {
    for (const supabaseUrl of ['javascript:alert(1)', 'file:///etc/passwd', 'not a url', 'http://', 42]) {
      expect(checkRuntimeConfig({ supabaseUrl, supabaseAnonKey: 'k' }).ok).toBe(false);
    }
    for (const raw of [null, 'config', [], 7]) {
      expect(checkRuntimeConfig(raw)).toEqual({ ok: false, issues: ['config: must be a JSON object'] });
    }
    expect(checkRuntimeConfig({ supabaseUrl: 'http://localhost', supabaseAnonKey: { k: 1 } }).ok).toBe(false);
  });
});

describe('checkSelectedRoles', () => {
  it('accepts up to 50 ids of 1–100 characters', () => {
    expect(checkSelectedRoles(['a', 'b'])).toEqual(['a', 'b']);
    expect(checkSelectedRoles([])).toEqual([]);
    expect(checkSelectedRoles(Array.from({ length: 50 }, () => 'x'.repeat(100)))).toHaveLength(50);
  });

  it('refuses anything else whole', () => {
    expect(checkSelectedRoles([1])).toBeNull();
    expect(checkSelectedRoles(['a', ''])).toBeNull();
    expect(checkSelectedRoles(['x'.repeat(101)])).toBeNull();
    expect(checkSelectedRoles(Array.from({ length: 51 }, () => 'x'))).toBeNull();
    expect(checkSelectedRoles('a')).toBeNull();
    expect(checkSelectedRoles({ 0: 'a', length: 1 })).toBeNull();
  });
});
