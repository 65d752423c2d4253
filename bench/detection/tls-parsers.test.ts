// The reference tools' output mapped to our rule ids, on what testssl.sh 3.0.8 and sslscan 2.0.7 really
// printed for the TLS fixtures (tls-parsers.recorded.json: testssl.sh's JSON items that matter here, and
// sslscan's whole XML).
import { describe, expect, it } from 'vitest';

import recorded from './tls-parsers.recorded.json';
import { reviewOf } from './tool-only-review.ts';
import { sslscanRules, sslscanToolOnly, testsslRules, testsslToolOnly } from './tls-parsers.ts';

const rules = (map: Map<string, string>) => [...map.keys()].sort();

describe('testssl.sh JSON', () => {
  it('maps what it rates a problem, and ignores what it rates OK or INFO', () => {
    expect(rules(testsslRules(recorded.testssl['nginx-weak']))).toEqual([
      'tls.anonymous-cipher',
      'tls.cbc-tls10',
      'tls.legacy-protocol',
      'tls.no-ocsp-stapling',
      'tls.no-server-order',
      'tls.null-cipher',
      'tls.untrusted-chain',
      'tls.weak-dh',
      'tls.weak-key',
      'tls.weak-signature',
    ]);
    expect(rules(testsslRules(recorded.testssl['gnutls-weak']))).toEqual([
      'tls.anonymous-cipher',
      'tls.block64-cipher',
      'tls.cbc-tls10',
      'tls.cert-expired',
      'tls.hostname-mismatch',
      'tls.legacy-protocol',
      'tls.no-forward-secrecy',
      'tls.no-revocation-info',
      'tls.no-server-order',
      'tls.null-cipher',
      'tls.rc4',
      'tls.untrusted-chain',
      'tls.weak-dh',
      'tls.weak-signature',
    ]);
  });

  it('on the hardened server it still rates the client-chosen order (all suites strong) a problem', () => {
    expect(rules(testsslRules(recorded.testssl['nginx-hardened']))).toEqual(['tls.no-server-order']);
  });
});

describe('testssl.sh on certificates that cannot be revoked', () => {
  it('counts its revocation line once: as its own rule, but not beside a self-signed certificate', () => {
    const items = (chain: string) => [
      { id: 'cert_revocation', severity: 'HIGH', finding: 'Neither CRL nor OCSP URI provided' },
      { id: 'cert_chain_of_trust', severity: 'CRITICAL', finding: chain },
    ];
    expect(rules(testsslRules(items('failed (chain incomplete).')))).toEqual([
      'tls.no-revocation-info',
      'tls.untrusted-chain',
    ]);
    expect(rules(testsslRules(items('failed (self signed).')))).toEqual(['tls.self-signed']);
  });
});

describe('sslscan XML', () => {
  it('maps old protocols, the cipher strengths it flags, the DH group and the certificate', () => {
    expect(rules(sslscanRules(recorded.sslscan['nginx-weak']))).toEqual([
      'tls.anonymous-cipher',
      'tls.legacy-protocol',
      'tls.null-cipher',
      'tls.weak-dh',
      'tls.weak-key',
      'tls.weak-signature',
    ]);
    expect(rules(sslscanRules(recorded.sslscan['gnutls-weak']))).toEqual([
      'tls.anonymous-cipher',
      'tls.block64-cipher',
      'tls.legacy-protocol',
      'tls.null-cipher',
      'tls.rc4',
      'tls.weak-dh',
    ]);
    expect(rules(sslscanRules(recorded.sslscan['nginx-hardened']))).toEqual([]);
  });
});

describe('what the tools flag outside our rules', () => {
  it('lists every testssl.sh problem that maps to no rule, and nothing it rates OK', () => {
    expect(testsslToolOnly(recorded.testssl['gnutls-weak'])).toEqual([
      'cipherlist_LOW (HIGH): offered',
      'cipherlist_AVERAGE (LOW): offered',
      'cipherlist_STRONG (MEDIUM): not offered',
      'HSTS (LOW): not offered',
      'secure_client_renego (HIGH): VULNERABLE, DoS threat',
      'BEAST (LOW): VULNERABLE -- but also supports higher protocols  TLSv1.1 TLSv1.2 (likely mitigated)',
      'LUCKY13 (LOW): potentially vulnerable, uses TLS CBC ciphers',
    ]);
    expect(testsslToolOnly(recorded.testssl['nginx-hardened'])).toEqual(['HSTS (LOW): not offered']);
  });

  it('lists what sslscan flags outside our rules: insecure renegotiation, compression, Heartbleed, other weak suites', () => {
    // Its recorded runs flag nothing outside our rules: each weak suite falls under one of them.
    for (const xml of Object.values(recorded.sslscan)) {
      expect(sslscanToolOnly(xml)).toEqual([]);
    }
    const xml = [
      '<cipher status="accepted" sslversion="TLSv1.2" bits="128" cipher="AES128-SHA" strength="medium" />',
      '<renegotiation supported="1" secure="0" />',
      '<compression supported="1" />',
      '<heartbleed sslversion="TLSv1.2" vulnerable="1" />',
    ].join('\n');
    expect(sslscanToolOnly(xml)).toEqual([
      'cipher TLSv1.2 AES128-SHA (medium)',
      'renegotiation: insecure',
      'compression: supported',
      'heartbleed: TLSv1.2 vulnerable',
    ]);
  });

  it('has a verdict for everything the recorded runs flag outside our rules', () => {
    const lines = [
      ...Object.values(recorded.testssl).flatMap((items) => testsslToolOnly(items)),
      ...Object.values(recorded.sslscan).flatMap((xml) => sslscanToolOnly(xml)),
    ];
    expect(lines.filter((line) => !reviewOf('testssl.sh', line) && !reviewOf('sslscan', line))).toEqual([]);
    // One is a problem only testssl.sh finds: the TLS class loses to it until we check it.
    expect(lines.filter((line) => reviewOf('testssl.sh', line)?.verdict === 'we-miss')).toEqual([
      'secure_client_renego (HIGH): VULNERABLE, DoS threat',
    ]);
  });
});
