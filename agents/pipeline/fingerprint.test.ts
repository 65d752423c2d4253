import { describe, expect, it } from 'vitest';
import { fingerprint, normaliseLocation } from './fingerprint.ts';

describe('fingerprint', () => {
  const t = '00000000-0000-4000-8000-000000000001';
  it('is stable for the same rule and place, whatever the evidence', () => {
    expect(
      fingerprint(t, 'webapp', { rule_id: 'web.exposed.env', location: 'http://Example.com:80/.env#x' }),
    ).toBe(fingerprint(t, 'webapp', { rule_id: 'web.exposed.env', location: 'http://example.com/.env' }));
  });
  it('differs by target, scanner, rule and location', () => {
    const base = fingerprint(t, 'webapp', { rule_id: 'a', location: '/x' });
    expect(
      fingerprint('00000000-0000-4000-8000-000000000002', 'webapp', { rule_id: 'a', location: '/x' }),
    ).not.toBe(base);
    expect(fingerprint(t, 'api', { rule_id: 'a', location: '/x' })).not.toBe(base);
    expect(fingerprint(t, 'webapp', { rule_id: 'b', location: '/x' })).not.toBe(base);
    expect(fingerprint(t, 'webapp', { rule_id: 'a', location: '/y' })).not.toBe(base);
  });
  it('keeps non-URL locations (ports, API operations) as written', () => {
    expect(normaliseLocation(' GET /api/users ')).toBe('GET /api/users');
    expect(normaliseLocation('127.0.0.1:6379')).toBe('127.0.0.1:6379');
  });
});
