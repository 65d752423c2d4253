import { describe, expect, it } from 'vitest';
import {
  scannerTarget,
  scanRateLimit,
  targetHost,
  verificationOrigins,
  type ScanTargetRow,
} from './target.ts';
import { bodyProvesToken } from './verify.ts';

const row = (
  kind: ScanTargetRow['kind'],
  value: string,
  openapi_url: string | null = null,
): ScanTargetRow => ({
  id: '00000000-0000-4000-8000-000000000001',
  user_id: '00000000-0000-4000-8000-000000000002',
  kind,
  value,
  openapi_url,
  verification_token: 'x'.repeat(64),
  verified_at: null,
  rate_limit: 10,
  max_concurrent_scans: 1,
  allow_intrusive: false,
});

describe('targets', () => {
  it('reads the host of each kind', () => {
    expect(targetHost(row('url', 'https://shop.example.com:8443/a'))).toBe('shop.example.com');
    expect(targetHost(row('host', '2001:db8::1'))).toBe('2001:db8::1');
    expect(verificationOrigins(row('host', '2001:db8::1'))).toEqual([
      'https://[2001:db8::1]',
      'http://[2001:db8::1]',
    ]);
  });
  it('points each scanner at the right thing', () => {
    expect(scannerTarget(row('url', 'https://shop.example.com/x'), 'infrastructure')).toEqual({
      target: 'shop.example.com',
    });
    expect(
      scannerTarget(row('api', 'https://api.example.com', 'https://api.example.com/openapi.json'), 'api'),
    ).toEqual({
      target: 'https://api.example.com',
      openapi: 'https://api.example.com/openapi.json',
    });
  });
  it('refuses an OpenAPI document from another origin', () => {
    expect(() =>
      scannerTarget(row('api', 'https://api.example.com', 'http://169.254.169.254/openapi.json'), 'api'),
    ).toThrow(/own origin/);
  });
  it('splits the target rate among the scans that may run at once', () => {
    expect(scanRateLimit({ rate_limit: 10, max_concurrent_scans: 1 })).toBe(10);
    expect(scanRateLimit({ rate_limit: 10, max_concurrent_scans: 4 })).toBe(2.5);
    expect(scanRateLimit({ rate_limit: 1, max_concurrent_scans: 2 })).toBe(0.5);
  });
  it('accepts the token alone or as vigil-verification=token, nothing looser', () => {
    expect(bodyProvesToken('abc\n', 'abc')).toBe(true);
    expect(bodyProvesToken('# vigil\nvigil-verification=abc\n', 'abc')).toBe(true);
    expect(bodyProvesToken('xabcx', 'abc')).toBe(false);
    expect(bodyProvesToken('', 'abc')).toBe(false);
  });
});
