// The reference tools' output mapped to our rule ids, on what testssl.sh 3.0.8 and sslscan 2.0.7 really
// printed for the TLS fixtures (tls-parsers.recorded.json: testssl.sh's JSON items that matter here, and
// sslscan's whole XML).
import { describe, expect, it } from 'vitest';

import recorded from './tls-parsers.recorded.json';
import { sslscanRules, testsslRules } from './tls-parsers.ts';

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
