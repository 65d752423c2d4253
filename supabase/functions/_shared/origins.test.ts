import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { redirectOrigin } from './origins.ts';

const saved = { ...process.env };
beforeEach(() => {
  process.env.SUPABASE_URL = 'http://127.0.0.1:54321';
  process.env.CHECKOUT_ALLOWED_ORIGINS = 'https://app.vigil.security, not a url';
  delete process.env.SITE_URL;
});
afterEach(() => {
  process.env = { ...saved };
});

const from = (origin?: string) =>
  redirectOrigin(new Request('http://x/', { headers: origin ? { Origin: origin } : {} }));

describe('redirectOrigin', () => {
  it('keeps allowed and loopback origins', () => {
    expect(from('https://app.vigil.security')).toBe('https://app.vigil.security');
    expect(from('http://localhost:5173')).toBe('http://localhost:5173');
    expect(from('http://127.0.0.1:54321')).toBe('http://127.0.0.1:54321');
  });

  it('falls back to the site for foreign, odd or missing origins', () => {
    for (const o of [
      'https://evil.example',
      'https://app.vigil.security.evil.example',
      'null',
      'javascript:alert(1)',
      'vigil-app://renderer',
      undefined,
    ]) {
      expect(from(o)).toBe('http://127.0.0.1:54321');
    }
    process.env.SITE_URL = 'https://app.vigil.security/';
    expect(from('https://evil.example')).toBe('https://app.vigil.security');
  });
});
