// Certificates judged whole: every certificate a server sends, not only its own, on chains made with the
// openssl command line (a root, intermediates signed in differing ways, leaves), and on real certificates
// others issued (tls-cert.recorded/).
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { certificateFindings } from './tls-cert.ts';
import type { TrustStore } from './tls-trust.ts';

let dir: string;
const openssl = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
const der = (file: string) => new X509Certificate(readFileSync(path.join(dir, file))).raw;
const real = (name: string) =>
  new X509Certificate(readFileSync(path.join(import.meta.dirname, 'tls-cert.recorded', `${name}.pem`))).raw;
const rules = (list: { rule_id: string }[]) => list.map((f) => f.rule_id).sort();
const evidence = (list: { rule_id: string; evidence: string }[], rule: string) =>
  list.find((f) => f.rule_id === rule)?.evidence;

interface Made {
  key: string;
  cert: string;
}
/** A certificate made with openssl: self-signed, or signed by `issuer`, with the key and digest asked. */
function make(
  name: string,
  {
    key = ['rsa:2048'],
    digest = 'sha256',
    issuer,
    ca = false,
    days = 3650,
    crl = true,
  }: {
    key?: string[];
    digest?: string;
    issuer?: Made;
    ca?: boolean;
    days?: number;
    /** A CRL distribution point in a leaf (clients can learn it was revoked). */
    crl?: boolean;
  } = {},
): Made {
  const ext = `${name}.ext`;
  writeFileSync(
    path.join(dir, ext),
    ca
      ? 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n'
      : `basicConstraints=CA:FALSE\nsubjectAltName=IP:127.0.0.1\n${crl ? 'crlDistributionPoints=URI:http://crl.vigil.test/ca.crl\n' : ''}`,
  );
  const made = { key: `${name}.key`, cert: `${name}.pem` };
  openssl([
    'req',
    '-new',
    '-newkey',
    ...key,
    '-nodes',
    '-keyout',
    made.key,
    '-subj',
    `/CN=${name}`,
    '-out',
    `${name}.csr`,
  ]);
  const signer = issuer
    ? ['-CA', issuer.cert, '-CAkey', issuer.key, '-set_serial', String(Date.now() % 1e9)]
    : ['-key', made.key];
  openssl([
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    ...signer,
    `-${digest}`,
    '-days',
    String(days),
    '-extfile',
    ext,
    '-out',
    made.cert,
  ]);
  return made;
}

let root: Made;
let inter: Made;
let trust: TrustStore;
const check = (files: (string | Buffer)[], extra: { now?: Date; anchors?: TrustStore; host?: string } = {}) =>
  certificateFindings(
    files.map((f) => (typeof f === 'string' ? der(f) : f)),
    {
      host: extra.host ?? '127.0.0.1',
      location: 'https://127.0.0.1:1',
      trust: extra.anchors ?? trust,
      stapled: false,
      now: extra.now ?? new Date(),
    },
  );

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-tls-whole-'));
  root = make('Whole Root', { ca: true });
  inter = make('Whole Issuing CA', { ca: true, issuer: root, days: 365 });
  trust = { anchors: [new X509Certificate(readFileSync(path.join(dir, root.cert)))], source: 'test root' };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('every certificate sent is judged', () => {
  it('a well-made chain raises nothing', () => {
    const leaf = make('good', {
      issuer: inter,
      key: ['ec', '-pkeyopt', 'ec_paramgen_curve:P-256'],
      days: 300,
    });
    expect(check([leaf.cert, inter.cert])).toEqual([]);
    expect(check([leaf.cert, inter.cert, root.cert])).toEqual([]);
  });

  it("an intermediate signed with SHA-1 under a SHA-256 leaf is named; the root's own SHA-1 is not", () => {
    const sha1Inter = make('SHA-1 Issuing CA', { ca: true, issuer: root, digest: 'sha1', days: 365 });
    const leaf = make('under-sha1', { issuer: sha1Inter, days: 300 });
    const findings = check([leaf.cert, sha1Inter.cert]);
    expect(rules(findings)).toEqual(['tls.weak-signature']);
    expect(evidence(findings, 'tls.weak-signature')).toBe(
      'certificate 2 (SHA-1 Issuing CA) signed with sha1WithRSAEncryption',
    );
    const sha1Root = make('SHA-1 Root', { ca: true, digest: 'sha1' });
    const underOld = make('under-old-root', { issuer: sha1Root, days: 300 });
    const anchors = {
      anchors: [new X509Certificate(readFileSync(path.join(dir, sha1Root.cert)))],
      source: 'old root',
    };
    expect(check([underOld.cert, sha1Root.cert], { anchors })).toEqual([]);
  });

  it('a real SHA-1 root sent after a self-signed server certificate is left alone', () => {
    const findings = check([real('self-signed-pythontest-net'), real('digicert-global-root-ca')], {
      host: 'self-signed.pythontest.net',
    });
    expect(rules(findings)).toEqual(['tls.self-signed']);
  });

  it('a real CA-issued certificate of 2011: SHA-1, RSA 1024, its issuer not sent, expired since', () => {
    const cert = real('nokia-developer-2012');
    const then = check([cert], {
      now: new Date('2012-01-01T00:00:00Z'),
      host: 'projects.developer.nokia.com',
    });
    // It names VeriSign's OCSP responder, and nothing was stapled in this test.
    expect(rules(then)).toEqual([
      'tls.no-ocsp-stapling',
      'tls.untrusted-chain',
      'tls.weak-key',
      'tls.weak-signature',
    ]);
    expect(evidence(then, 'tls.weak-key')).toBe(
      'RSA 1024-bit key in certificate 1 (projects.developer.nokia.com)',
    );
    const since = check([cert], { host: 'projects.developer.nokia.com' });
    expect(rules(since)).toEqual([
      'tls.cert-expired',
      'tls.no-ocsp-stapling',
      'tls.untrusted-chain',
      'tls.weak-key',
      'tls.weak-signature',
    ]);
  });

  it('key sizes and curves of the leaf and of the intermediates', () => {
    const small = make('Small Issuing CA', { ca: true, issuer: root, key: ['rsa:1024'], days: 365 });
    const p192 = make('p192', {
      issuer: small,
      key: ['ec', '-pkeyopt', 'ec_paramgen_curve:P-192'],
      days: 300,
    });
    const findings = check([p192.cert, small.cert]);
    expect(rules(findings)).toEqual(['tls.weak-key']);
    expect(evidence(findings, 'tls.weak-key')).toBe(
      'EC key on secp192r1 (P-192) (192-bit) in certificate 1 (p192); RSA 1024-bit key in certificate 2 (Small Issuing CA)',
    );
    const explicit = make('explicit', {
      issuer: inter,
      key: ['ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-pkeyopt', 'ec_param_enc:explicit'],
      days: 300,
    });
    expect(evidence(check([explicit.cert, inter.cert]), 'tls.weak-key')).toMatch(
      /^EC key with explicit curve parameters instead of a named curve in certificate 1 \(explicit\)$/,
    );
  });
});

describe('revocation', () => {
  it('a CA-issued leaf naming neither a CRL nor an OCSP responder cannot be revoked; a self-signed one is only self-signed', () => {
    const leaf = make('irrevocable', { issuer: inter, crl: false, days: 300 });
    const findings = check([leaf.cert, inter.cert]);
    expect(rules(findings)).toEqual(['tls.no-revocation-info']);
    expect(evidence(findings, 'tls.no-revocation-info')).toBe(
      'certificate 1 (irrevocable) names neither a CRL distribution point nor an OCSP responder (issuer CN=Whole Issuing CA)',
    );
    const self = make('self-irrevocable', { crl: false });
    expect(rules(check([self.cert]))).toEqual(['tls.self-signed']);
  });
});

describe('chain order and validity', () => {
  it('an intermediate sent after the root is out of order; the same certificates in order are not', () => {
    const leaf = make('ordered', { issuer: inter, days: 300 });
    const findings = check([leaf.cert, root.cert, inter.cert], { anchors: { anchors: [], source: 'none' } });
    expect(rules(findings)).toEqual(['tls.chain-order', 'tls.self-signed']);
    expect(evidence(findings, 'tls.chain-order')).toMatch(
      /^sent in the order 1\. ordered, 2\. Whole Root, 3\. Whole Issuing CA; the path from the server's certificate is 1 → 3 → 2/,
    );
    expect(rules(check([leaf.cert, root.cert, inter.cert]))).toEqual(['tls.chain-order']);
    expect(rules(check([leaf.cert, inter.cert, root.cert]))).toEqual([]);
  });

  it('an intermediate past its end is expired though the leaf is not; a chain not yet valid says so', () => {
    const leaf = make('outlives', { issuer: inter, days: 3000 });
    const later = check([leaf.cert, inter.cert], { now: new Date(Date.now() + 400 * 86_400_000) });
    expect(rules(later)).toEqual(['tls.cert-expired']);
    expect(evidence(later, 'tls.cert-expired')).toMatch(/^certificate 2 \(Whole Issuing CA\) expired /);
    const earlier = check([leaf.cert, inter.cert], { now: new Date(Date.now() - 2 * 3_600_000) });
    expect(rules(earlier)).toEqual(['tls.cert-not-yet-valid']);
    expect(evidence(earlier, 'tls.cert-not-yet-valid')).toMatch(
      /^certificate 1 \(outlives\) is valid only from .*; certificate 2/,
    );
  });

  it('more certificates than any chain has: the first ten are judged, the rest ignored', () => {
    const leaf = make('crowded', { issuer: inter, days: 300 });
    const filler = Array.from({ length: 7 }, () => der(leaf.cert));
    // A weak certificate at position 10 is judged; at position 11, after the cap, it is not.
    const tenth = check([leaf.cert, inter.cert, ...filler, real('nokia-developer-2012')]);
    expect(evidence(tenth, 'tls.weak-signature')).toMatch(
      /^certificate 10 \(projects\.developer\.nokia\.com\)/,
    );
    const eleventh = check([leaf.cert, inter.cert, ...filler, der(leaf.cert), real('nokia-developer-2012')]);
    expect(rules(eleventh)).toEqual([]);
    const copy = der(leaf.cert);
    const flood = check([leaf.cert, inter.cert, ...Array.from({ length: 5000 }, () => copy)]);
    expect(flood).toEqual([]);
  });
});
