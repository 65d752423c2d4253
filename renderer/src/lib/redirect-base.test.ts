import { describe, expect, it } from 'vitest';

import { redirectBase } from './redirect-base.ts';

describe('redirectBase', () => {
  const prod = 'https://app.vigil.security';
  it('uses the production origin on the product domain', () => {
    expect(redirectBase('https://app.vigil.security', prod)).toBe(prod);
    expect(redirectBase('https://eu.app.vigil.security', prod)).toBe(prod);
  });
  it('uses the current origin anywhere else', () => {
    expect(redirectBase('http://127.0.0.1:54321', prod)).toBe('http://127.0.0.1:54321');
    expect(redirectBase('http://localhost:5173', prod)).toBe('http://localhost:5173');
  });
  it('is not fooled by look-alike hosts', () => {
    expect(redirectBase('https://app.vigil.security.evil.test', prod)).toBe(
      'https://app.vigil.security.evil.test',
    );
    expect(redirectBase('https://evilapp.vigil.security.test', prod)).toBe(
      'https://evilapp.vigil.security.test',
    );
  });
});
