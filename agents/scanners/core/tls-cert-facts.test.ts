// The parsing of certificates, on real ones others issued (tls-cert.recorded/, see its README) and on
// blobs a hostile server might send instead.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { certFacts, MAX_CERT_BYTES, weakKey } from './tls-cert-facts.ts';

const real = (name: string) =>
  new X509Certificate(readFileSync(path.join(import.meta.dirname, 'tls-cert.recorded', `${name}.pem`))).raw;
const facts = (name: string) => certFacts(real(name), 1)!;

describe('certificate facts of real certificates', () => {
  it("VeriSign's 2011 server certificate for Nokia: SHA-1, RSA 1024, not a CA, expired in 2012", () => {
    const f = facts('nokia-developer-2012');
    expect(f.subjectCn).toBe('projects.developer.nokia.com');
    expect(f.signature).toEqual({ oid: '1.2.840.113549.1.1.5', weak: 'sha1WithRSAEncryption' });
    expect(f.key).toEqual({ type: 'rsa', bits: 1024 });
    expect(weakKey(f.key)).toBe('RSA 1024-bit key');
    expect([f.isCa, f.selfSigned]).toEqual([false, false]);
    expect(f.notBefore.toISOString()).toBe('2011-09-21T00:00:00.000Z');
    expect(f.notAfter.toISOString()).toBe('2012-09-20T23:59:59.000Z');
  });

  it("self-signed.pythontest.net's own certificate: self-signed, SHA-256, RSA 4096", () => {
    const f = facts('self-signed-pythontest-net');
    expect(f.signature.weak).toBeNull();
    expect(f.key).toEqual({ type: 'rsa', bits: 4096 });
    expect(weakKey(f.key)).toBeNull();
    expect(f.selfSigned).toBe(true);
  });

  it("DigiCert's SHA-1 root: a self-signed CA whose self-signature is SHA-1", () => {
    const f = facts('digicert-global-root-ca');
    expect(f.signature.weak).toBe('sha1WithRSAEncryption');
    expect([f.isCa, f.selfSigned]).toEqual([true, true]);
    expect(f.key.bits).toBe(2048);
  });

  it("DigiCert's ECC root: ECDSA with SHA-384 on the named curve P-384", () => {
    const f = facts('digicert-global-root-g3');
    expect(f.signature).toEqual({ oid: '1.2.840.10045.4.3.3', weak: null });
    expect(f.key).toEqual({ type: 'ec', curve: 'secp384r1 (P-384)', bits: 384 });
    expect(weakKey(f.key)).toBeNull();
  });
});

describe('what a hostile server sends instead', () => {
  it('garbage, an empty blob, a truncated certificate and an oversized one yield no facts', () => {
    const good = real('nokia-developer-2012');
    expect(certFacts(Buffer.from('not a certificate'), 1)).toBeNull();
    expect(certFacts(Buffer.alloc(0), 1)).toBeNull();
    expect(certFacts(good.subarray(0, good.length - 10), 1)).toBeNull();
    expect(certFacts(Buffer.concat([good, Buffer.alloc(MAX_CERT_BYTES)]), 1)).toBeNull();
  });
});

describe('weak keys', () => {
  it('RSA and DSA under 2048 bits, EC under 224 bits or with explicit parameters', () => {
    expect(weakKey({ type: 'rsa', bits: 2048 })).toBeNull();
    expect(weakKey({ type: 'dsa', bits: 1024 })).toBe('DSA 1024-bit key');
    expect(weakKey({ type: 'ec', bits: 192, curve: 'secp192r1 (P-192)' })).toBe(
      'EC key on secp192r1 (P-192) (192-bit)',
    );
    expect(weakKey({ type: 'ec', bits: 224, curve: 'secp224r1 (P-224)' })).toBeNull();
    expect(weakKey({ type: 'ec', bits: null, curve: 'explicit parameters' })).toMatch(
      /explicit curve parameters/,
    );
    expect(weakKey({ type: 'ed25519', bits: null })).toBeNull();
  });
});
