import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from './sign.ts';

describe('webhook signatures', () => {
  const body = JSON.stringify({ hello: 'world' });
  it('verifies what it signed', () => {
    expect(verifyWebhook(body, signWebhook(body, 'whsec_a'), 'whsec_a')).toBe(true);
  });
  it('refuses another secret, a changed body and a stale timestamp', () => {
    const header = signWebhook(body, 'whsec_a', 1_000_000);
    expect(verifyWebhook(body, signWebhook(body, 'whsec_b'), 'whsec_a')).toBe(false);
    expect(verifyWebhook(`${body} `, signWebhook(body, 'whsec_a'), 'whsec_a')).toBe(false);
    expect(verifyWebhook(body, header, 'whsec_a', 300, 1_000_000 + 301)).toBe(false);
    expect(verifyWebhook(body, 'garbage', 'whsec_a')).toBe(false);
  });
});
