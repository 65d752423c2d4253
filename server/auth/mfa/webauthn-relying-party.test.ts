import { describe, expect, it } from 'vitest';
import { relyingParty } from './webauthn-relying-party.ts';

describe('WebAuthn relying party', () => {
  it('allows only its own origins', () => {
    const hosted = relyingParty({ siteUrl: 'https://app.vigil.dev', publicUrl: 'https://api.vigil.dev' });
    expect(hosted.allowsOrigin('https://app.vigil.dev')).toBe(true);
    // The desktop runs its ceremonies in the browser on the site's origin; its app:// pages never count.
    expect(hosted.allowsOrigin('app://vigil')).toBe(false);
    expect(hosted.allowsOrigin('http://app.vigil.dev')).toBe(false);
    expect(hosted.allowsOrigin('https://evil.vigil.dev')).toBe(false);
    expect(hosted.allowsOrigin('https://vigil.dev.evil.example')).toBe(false);
    expect(hosted.allowsOrigin('http://localhost:5173')).toBe(false);
    expect(hosted.allowsOrigin('https://app.vigil.dev/path')).toBe(false);

    const local = relyingParty({ siteUrl: 'http://127.0.0.1:54321', publicUrl: 'http://127.0.0.1:54321' });
    expect(local.id).toBe('localhost');
    expect(local.allowsOrigin('http://localhost:54321')).toBe(true);
    expect(local.allowsOrigin('http://127.0.0.1:54321')).toBe(false);
    expect(local.allowsOrigin('https://localhost.evil.example')).toBe(false);
    expect(local.allowsOrigin('app://vigil')).toBe(false);
  });
});
