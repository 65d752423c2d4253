import { describe, expect, it } from 'vitest';
import { originAllowed, relyingPartyId } from './webauthn-relying-party.ts';

describe('WebAuthn relying-party rule', () => {
  it('uses the last two labels of the host name, and localhost on one machine', () => {
    expect(relyingPartyId('app.vigil.dev')).toBe('vigil.dev');
    expect(relyingPartyId('vigil.dev')).toBe('vigil.dev');
    expect(relyingPartyId('localhost')).toBe('localhost');
    expect(relyingPartyId('127.0.0.1')).toBe('localhost');
    expect(relyingPartyId('[::1]')).toBe('localhost');
  });

  it('counts only listed https origins on hosts the RP id covers, and passes over empty or invalid entries', () => {
    const listed = ['https://app.vigil.dev', '', ' https://admin.vigil.dev ', 'not a url', undefined];
    expect(originAllowed('https://app.vigil.dev', 'vigil.dev', listed)).toBe(true);
    expect(originAllowed('https://admin.vigil.dev', 'vigil.dev', listed)).toBe(true);
    expect(originAllowed('https://other.vigil.dev', 'vigil.dev', listed)).toBe(false);
    expect(originAllowed('https://app.vigil.dev', 'example.com', listed)).toBe(false);
    expect(originAllowed('http://localhost:5173', 'localhost', [])).toBe(true);
    expect(originAllowed('https://localhost.evil.example', 'localhost', [])).toBe(false);
  });
});
