import { describe, expect, it } from 'vitest';

import { parseTargetInput, verificationInstructions } from './target-input.ts';

describe('parseTargetInput', () => {
  it('accepts URLs, hosts and API targets', () => {
    expect(parseTargetInput({ kind: 'url', value: ' https://shop.example.com/ ' })).toEqual({
      ok: true,
      value: { kind: 'url', value: 'https://shop.example.com', openapi_url: null },
    });
    expect(parseTargetInput({ kind: 'host', value: 'Server.Example.com' })).toMatchObject({
      ok: true,
      value: { value: 'server.example.com' },
    });
    expect(parseTargetInput({ kind: 'host', value: '10.0.0.5' }).ok).toBe(true);
    expect(
      parseTargetInput({
        kind: 'api',
        value: 'http://127.0.0.1:8080',
        openapiUrl: 'http://127.0.0.1:8080/openapi.json',
      }),
    ).toMatchObject({
      ok: true,
      value: { openapi_url: 'http://127.0.0.1:8080/openapi.json' },
    });
  });
  it('refuses empty, non-http and malformed input', () => {
    expect(parseTargetInput({ kind: 'url', value: '' })).toMatchObject({
      ok: false,
      errors: { value: 'Enter a URL.' },
    });
    expect(parseTargetInput({ kind: 'url', value: 'javascript:alert(1)' }).ok).toBe(false);
    expect(parseTargetInput({ kind: 'url', value: 'ftp://example.com' }).ok).toBe(false);
    expect(parseTargetInput({ kind: 'url', value: 'example.com' }).ok).toBe(false);
    expect(parseTargetInput({ kind: 'host', value: 'https://example.com' }).ok).toBe(false);
    expect(parseTargetInput({ kind: 'host', value: 'a b' }).ok).toBe(false);
    expect(parseTargetInput({ kind: 'host', value: 'example.com/path' }).ok).toBe(false);
    expect(
      parseTargetInput({ kind: 'api', value: 'https://api.example.com', openapiUrl: 'file:///etc/passwd' }),
    ).toMatchObject({
      ok: false,
      errors: { openapiUrl: expect.any(String) as string },
    });
  });
  it('ignores an OpenAPI URL on non-API targets', () => {
    expect(
      parseTargetInput({ kind: 'url', value: 'https://a.example', openapiUrl: 'https://a.example/o.json' }),
    ).toMatchObject({ value: { openapi_url: null } });
  });
});

describe('verificationInstructions', () => {
  it('names the well-known file on the origin and the DNS record', () => {
    expect(verificationInstructions('url', 'https://shop.example.com/app', 'tok')).toEqual({
      httpUrl: 'https://shop.example.com/.well-known/vigil-verification.txt',
      dnsName: 'shop.example.com',
      txt: 'vigil-verification=tok',
    });
    expect(verificationInstructions('host', 'db.example.com', 'tok').httpUrl).toBe(
      'http://db.example.com/.well-known/vigil-verification.txt',
    );
  });
});
