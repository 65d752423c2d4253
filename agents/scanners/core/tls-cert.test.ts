// The certificate checks on chains made with openssl (tests/fixtures/tls/tls-certs.ts): what a client would
// conclude from the certificates a server sends, against a given set of trust anchors.
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeTestPki, type TestPki } from '../../../tests/fixtures/tls/tls-certs.ts';
import { certificateFindings, judgeChain } from './tls-cert.ts';
import { pemCertificates, readAnchorFile, trustStore, type TrustStore } from './tls-trust.ts';

const der = (file: string) => new X509Certificate(readFileSync(file)).raw;
const rules = (list: { rule_id: string }[]) => list.map((f) => f.rule_id).sort();

let pki: TestPki;
let trusted: TrustStore;
const untrusted: TrustStore = { anchors: [], source: 'none' };
const now = new Date();
const check = (
  certs: Buffer[],
  trust: TrustStore,
  extra: { host?: string; stapled?: boolean; now?: Date } = {},
) =>
  certificateFindings(certs, {
    host: extra.host ?? '127.0.0.1',
    location: 'https://127.0.0.1:1',
    trust,
    stapled: extra.stapled ?? false,
    now: extra.now ?? now,
  });

beforeAll(() => {
  pki = makeTestPki();
  trusted = { anchors: pemCertificates(readFileSync(pki.rootFile, 'utf8')), source: 'test root' };
});
afterAll(() => pki.remove());

describe('chain trust', () => {
  it('a full chain to a trusted root raises nothing', () => {
    const leaf = pki.issue('good', { san: 'IP:127.0.0.1', key: 'ec', digest: 'sha256' });
    expect(check([der(leaf.cert), der(pki.intermediateFile)], trusted)).toEqual([]);
    expect(
      judgeChain(
        [leaf.cert, pki.intermediateFile].map((f) => new X509Certificate(readFileSync(f))),
        trusted.anchors,
      ).kind,
    ).toBe('trusted');
  });

  it('the same chain without its root among the anchors is untrusted; sent with its root, self-signed', () => {
    const leaf = pki.issue('good2', { san: 'IP:127.0.0.1', key: 'ec', digest: 'sha256' });
    const chain = [der(leaf.cert), der(pki.intermediateFile)];
    const [finding] = check(chain, untrusted);
    expect(finding).toMatchObject({ rule_id: 'tls.untrusted-chain' });
    expect(finding!.evidence).toMatch(/Vigil Fixture Root CA .*not sent/);
    expect(rules(check([...chain, der(pki.rootFile)], untrusted))).toEqual(['tls.self-signed']);
  });

  it('an incomplete chain (intermediate not sent) is untrusted even though its root is trusted', () => {
    const leaf = pki.issue('incomplete', { san: 'IP:127.0.0.1', key: 'ec', digest: 'sha256' });
    const findings = check([der(leaf.cert)], trusted);
    expect(rules(findings)).toEqual(['tls.untrusted-chain']);
    expect(findings[0]!.evidence).toMatch(
      /issuer CN=Vigil Fixture Issuing CA of CN=127\.0\.0\.1 was not sent/,
    );
  });

  it('a self-signed leaf is self-signed, and its own SHA-1 signature is held against it (clients refuse SHA-1 even on a certificate they were told to trust)', () => {
    const dir = path.dirname(pki.rootFile);
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-sha1',
        '-days',
        '365',
        '-keyout',
        'ss.key',
        '-out',
        'ss.pem',
      ].concat(['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1']),
      { cwd: dir, stdio: 'ignore' },
    );
    const findings = check([der(path.join(dir, 'ss.pem'))], untrusted);
    expect(rules(findings)).toEqual(['tls.self-signed', 'tls.weak-signature']);
    expect(findings.find((f) => f.rule_id === 'tls.weak-signature')!.evidence).toBe(
      'certificate 1 (127.0.0.1), self-signed, signed with sha1WithRSAEncryption',
    );
  });
});

describe('the leaf', () => {
  it('expired, expiring within 30 days, or valid', () => {
    // Dates around now: the intermediate it is sent with was made now and is not valid before.
    const stamp = (days: number) =>
      new Date(now.getTime() + days * 86_400_000).toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z';
    const leaf = pki.issue('dated', {
      san: 'IP:127.0.0.1',
      key: 'ec',
      digest: 'sha256',
      dates: [stamp(-1), stamp(40)],
    });
    const chain = [der(leaf.cert), der(pki.intermediateFile)];
    const at = (days: number) => ({ now: new Date(now.getTime() + days * 86_400_000) });
    expect(rules(check(chain, trusted))).toEqual([]);
    const expiring = check(chain, trusted, at(20));
    expect(rules(expiring)).toEqual(['tls.cert-expiring']);
    expect(expiring[0]!.evidence).toMatch(/^certificate 1 \(127\.0\.0\.1\) expires 20\d\d-/);
    expect(rules(check(chain, trusted, at(50)))).toEqual(['tls.cert-expired']);
  });

  it('host name: IP SANs for addresses, DNS SANs for names', () => {
    const leaf = pki.issue('named', { san: 'DNS:shop.example', key: 'ec', digest: 'sha256' });
    const chain = [der(leaf.cert), der(pki.intermediateFile)];
    expect(rules(check(chain, trusted, { host: 'shop.example' }))).toEqual([]);
    expect(rules(check(chain, trusted, { host: 'www.shop.example' }))).toEqual(['tls.hostname-mismatch']);
    expect(rules(check(chain, trusted))).toEqual(['tls.hostname-mismatch']);
  });

  it('an RSA key under 2048 bits, SHA-1 and MD5 signatures', () => {
    const sha1 = pki.issue('rsa1024', { san: 'IP:127.0.0.1', key: 'rsa:1024', digest: 'sha1' });
    const findings = check([der(sha1.cert), der(pki.intermediateFile)], trusted);
    expect(rules(findings)).toEqual(['tls.weak-key', 'tls.weak-signature']);
    expect(findings.find((f) => f.rule_id === 'tls.weak-key')!.evidence).toBe(
      'RSA 1024-bit key in certificate 1 (127.0.0.1)',
    );
    const md5 = pki.issue('md5', { san: 'IP:127.0.0.1', key: 'rsa:2048', digest: 'md5' });
    const [weak] = check([der(md5.cert), der(pki.intermediateFile)], trusted);
    expect(weak!.evidence).toBe('certificate 1 (127.0.0.1) signed with md5WithRSAEncryption');
  });

  it('OCSP stapling is asked for only when the certificate names a responder', () => {
    const leaf = pki.issue('ocsp', {
      san: 'IP:127.0.0.1',
      key: 'ec',
      digest: 'sha256',
      ocspUrl: 'http://ocsp.example/',
    });
    const chain = [der(leaf.cert), der(pki.intermediateFile)];
    expect(rules(check(chain, trusted))).toEqual(['tls.no-ocsp-stapling']);
    expect(rules(check(chain, trusted, { stapled: true }))).toEqual([]);
  });

  it('bytes that are no certificate give no finding and no error', () => {
    expect(check([Buffer.from('not a certificate')], trusted)).toEqual([]);
    expect(check([], trusted)).toEqual([]);
  });
});

describe('trust anchors', () => {
  it('the system store is read, and the extra file adds to it', () => {
    const system = trustStore();
    expect(system.anchors.length).toBeGreaterThan(50);
    const both = trustStore(pki.rootFile);
    expect(both.anchors.length).toBe(system.anchors.length + 1);
    expect(both.source).toMatch(new RegExp(`\\+ ${pki.rootFile}$`));
  });

  it('a missing, empty or corrupt anchor file is a clear error', () => {
    expect(() => readAnchorFile('/nonexistent/ca.pem')).toThrow(/cannot read \/nonexistent\/ca\.pem: ENOENT/);
    const dir = path.dirname(pki.rootFile);
    execFileSync(
      'sh',
      [
        '-c',
        'echo hello > empty.pem; printf -- "-----BEGIN CERTIFICATE-----\\nAAAA\\n-----END CERTIFICATE-----\\n" > bad.pem',
      ],
      { cwd: dir },
    );
    expect(() => readAnchorFile(path.join(dir, 'empty.pem'))).toThrow(/holds no PEM certificate/);
    expect(() => readAnchorFile(path.join(dir, 'bad.pem'))).toThrow(/certificate 1 does not parse/);
  });
});
