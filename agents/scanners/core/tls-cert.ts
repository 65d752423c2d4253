// The certificate checks, on the certificates the server itself sent (tls-survey.ts): the chain built to a
// trust anchor (tls-trust.ts) with OpenSSL doing each signature check, expiry, host name, key size, SHA-1
// or MD5 signatures and OCSP stapling. Working from the sent bytes rather than a finished handshake means
// a server that only speaks what Node's TLS refuses (anonymous, 3DES, RC4, SSLv3) is judged too.
import { X509Certificate } from 'node:crypto';
import net from 'node:net';

import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate } from '@peculiar/asn1-x509';

import type { Finding } from '../../../shared/findings.ts';
import { tlsFinding } from './tls-rules.ts';
import type { TrustStore } from './tls-trust.ts';

/** Signature algorithm OIDs that mean MD5 or SHA-1. */
const WEAK_SIGNATURES: Record<string, string> = {
  '1.2.840.113549.1.1.4': 'md5WithRSAEncryption',
  '1.2.840.113549.1.1.5': 'sha1WithRSAEncryption',
  '1.2.840.10045.4.1': 'ecdsa-with-SHA1',
  '1.2.840.10040.4.3': 'dsa-with-sha1',
  '1.3.14.3.2.29': 'sha1WithRSASignature (OIW)',
};

export type ChainVerdict =
  | { kind: 'trusted'; path: X509Certificate[] }
  | { kind: 'self-signed' | 'untrusted'; path: X509Certificate[]; detail: string };

const commonName = (cert: X509Certificate) => /(?:^|\n)CN=([^\n]*)/.exec(cert.subject)?.[1] ?? cert.subject;
const oneLine = (name: string) => name.split('\n').join(', ');

function issued(child: X509Certificate, parent: X509Certificate): boolean {
  try {
    return child.checkIssued(parent) && child.verify(parent.publicKey);
  } catch {
    return false; // a key type this OpenSSL cannot verify with does not make an issuer
  }
}

/** Builds the path from the leaf through the sent certificates to an anchor, as a client would. */
export function judgeChain(sent: X509Certificate[], anchors: X509Certificate[]): ChainVerdict {
  const path = [sent[0]!];
  for (;;) {
    const current = path.at(-1)!;
    const anchored = anchors.some(
      (a) =>
        a.fingerprint256 === current.fingerprint256 || (a.subject === current.issuer && issued(current, a)),
    );
    if (anchored) {
      return { kind: 'trusted', path };
    }
    const next = sent.find((c) => !path.includes(c) && issued(current, c));
    if (next && path.length < 10) {
      path.push(next);
      continue;
    }
    if (issued(current, current)) {
      return {
        kind: 'self-signed',
        path,
        detail:
          path.length === 1
            ? `self-signed certificate (subject ${oneLine(current.subject)})`
            : `chain ends at a self-signed root that is not trusted: ${oneLine(current.subject)}`,
      };
    }
    const caIssuers = /CA Issuers - URI:(\S+)/.exec(current.infoAccess ?? '')?.[1];
    return {
      kind: 'untrusted',
      path,
      detail:
        `issuer ${oneLine(current.issuer)} of ${oneLine(current.subject)} was not sent by the server and is not ` +
        `a trusted root (unknown issuer${caIssuers ? `, or an incomplete chain: its certificate is at ${caIssuers}` : ' or incomplete chain'})`,
    };
  }
}

export function signatureAlgorithmOid(der: Buffer): string | null {
  try {
    return AsnConvert.parse(der, Certificate).signatureAlgorithm.algorithm;
  } catch {
    return null;
  }
}

export interface CertificateContext {
  /** The name or address the client connected to. */
  host: string;
  location: string;
  trust: TrustStore;
  stapled: boolean;
  now: Date;
}

export function certificateFindings(der: Buffer[], ctx: CertificateContext): Finding[] {
  const sent: X509Certificate[] = [];
  for (const bytes of der) {
    try {
      sent.push(new X509Certificate(bytes));
    } catch {
      break; // the chain is judged up to the first certificate that does not parse
    }
  }
  const leaf = sent[0];
  if (!leaf) {
    return [];
  }
  const out: Finding[] = [];
  const add = (id: Parameters<typeof tlsFinding>[0], evidence: string) =>
    out.push(tlsFinding(id, { location: ctx.location, evidence }));
  const subject = commonName(leaf);
  const expires = new Date(leaf.validTo);
  if (expires.getTime() < ctx.now.getTime()) {
    add('tls.cert-expired', `certificate for ${subject} expired ${expires.toISOString()}`);
  } else if (expires.getTime() - ctx.now.getTime() < 30 * 86_400_000) {
    add('tls.cert-expiring', `certificate for ${subject} expires ${expires.toISOString()}`);
  }
  const chain = judgeChain(sent, ctx.trust.anchors);
  if (chain.kind === 'self-signed') {
    add('tls.self-signed', chain.detail);
  } else if (chain.kind === 'untrusted') {
    add('tls.untrusted-chain', `${chain.detail}; trust store: ${ctx.trust.source}`);
  }
  const matches = net.isIP(ctx.host) ? leaf.checkIP(ctx.host) : leaf.checkHost(ctx.host);
  if (!matches) {
    add(
      'tls.hostname-mismatch',
      `${ctx.host} not in certificate (CN ${subject}, SAN ${leaf.subjectAltName ?? 'none'})`,
    );
  }
  const key = leaf.publicKey;
  const bits = key.asymmetricKeyDetails?.modulusLength;
  if (
    (key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'dsa') &&
    bits !== undefined &&
    bits < 2048
  ) {
    add(
      'tls.weak-key',
      `${key.asymmetricKeyType.toUpperCase()} ${bits}-bit key (subject ${oneLine(leaf.subject)})`,
    );
  }
  // A self-signed certificate's own signature proves nothing (a client trusts it or not as it is): only
  // the signatures of issuers count.
  const weak = chain.path
    .filter((c) => !issued(c, c))
    .map((c) => ({ c, oid: signatureAlgorithmOid(c.raw) }))
    .filter(({ oid }) => oid !== null && WEAK_SIGNATURES[oid] !== undefined);
  if (weak.length > 0) {
    add(
      'tls.weak-signature',
      weak.map(({ c, oid }) => `${commonName(c)} signed with ${WEAK_SIGNATURES[oid!]}`).join('; '),
    );
  }
  // Stapling matters only for a certificate that names an OCSP responder clients would otherwise ask.
  const responder = /OCSP - URI:(\S+)/.exec(leaf.infoAccess ?? '')?.[1];
  if (responder && !ctx.stapled) {
    add(
      'tls.no-ocsp-stapling',
      `the certificate names the OCSP responder ${responder}; no response was stapled`,
    );
  }
  return out;
}
