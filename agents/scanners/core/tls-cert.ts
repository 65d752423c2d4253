// The certificate checks, on the certificates the server itself sent (tls-survey.ts), judged whole: the
// chain built to a trust anchor (tls-trust.ts) with OpenSSL doing each signature check and the order it was
// sent in; the validity of every certificate of the path; the signature algorithm and key of every
// certificate sent (the server's own included when it is self-signed; a root's self-signature is never
// checked by clients and is left alone); the host name and OCSP stapling of the server's own. Working from
// the sent bytes rather than a finished handshake means a server that only speaks what Node's TLS refuses
// (anonymous, 3DES, RC4, SSLv3) is judged too.
import type { X509Certificate } from 'node:crypto';
import net from 'node:net';

import type { Finding } from '../../../shared/findings.ts';
import { certFacts, issued, weakKey, type CertFacts } from './tls-cert-facts.ts';
import { tlsFinding } from './tls-rules.ts';
import type { TrustStore } from './tls-trust.ts';

/** More than any real chain (leaf, two or three intermediates, perhaps a root): the rest is not judged. */
export const MAX_SENT_CERTS = 10;
const DAY = 86_400_000;
/** A certificate made moments ago on a machine whose clock runs ahead of ours is not "not yet valid". */
const CLOCK_SKEW_MS = 3_600_000;

export type ChainVerdict =
  | { kind: 'trusted'; path: X509Certificate[] }
  | { kind: 'self-signed' | 'untrusted'; path: X509Certificate[]; detail: string };

const oneLine = (name: string) => name.split('\n').join(', ');

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
    if (next && path.length < MAX_SENT_CERTS) {
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

export interface CertificateContext {
  /** The name or address the client connected to. */
  host: string;
  location: string;
  trust: TrustStore;
  stapled: boolean;
  now: Date;
}

const label = (f: CertFacts) => `certificate ${f.position} (${f.subjectCn})`;

/**
 * The certificates whose signature and key the server's operator chose: all that were sent, except a
 * self-signed one after the first (a root: clients use their own copy and never check its self-signature).
 */
const judged = (facts: CertFacts[]) => facts.filter((f) => f.position === 1 || !f.selfSigned);

/** Where the path built from what was sent departs from the order it was sent in, or null. */
function orderFault(facts: CertFacts[], path: X509Certificate[]): string | null {
  const positions = path.map((c) => facts.find((f) => f.cert === c)!.position);
  if (positions.every((p, i) => p === i + 1)) {
    return null;
  }
  const sent = facts.map((f) => `${f.position}. ${f.subjectCn}`).join(', ');
  return (
    `sent in the order ${sent}; the path from the server's certificate is ${positions.join(' → ')}: ` +
    'each certificate after the first must certify the one before it (RFC 5246 §7.4.2, RFC 8446 §4.4.2), ' +
    'and clients that do not reorder them fail'
  );
}

export function certificateFindings(der: Buffer[], ctx: CertificateContext): Finding[] {
  const facts: CertFacts[] = [];
  for (const [i, bytes] of der.slice(0, MAX_SENT_CERTS).entries()) {
    const f = certFacts(bytes, i + 1);
    if (!f) {
      break; // the chain is judged up to the first certificate that does not parse
    }
    facts.push(f);
  }
  const leaf = facts[0];
  if (!leaf) {
    return [];
  }
  const out: Finding[] = [];
  const add = (id: Parameters<typeof tlsFinding>[0], evidence: string) =>
    out.push(tlsFinding(id, { location: ctx.location, evidence }));
  const chain = judgeChain(
    facts.map((f) => f.cert),
    ctx.trust.anchors,
  );
  const onPath = facts.filter((f) => chain.path.includes(f.cert));
  const now = ctx.now.getTime();
  const expired = onPath.filter((f) => f.notAfter.getTime() < now);
  if (expired.length > 0) {
    add('tls.cert-expired', expired.map((f) => `${label(f)} expired ${f.notAfter.toISOString()}`).join('; '));
  }
  const expiring = onPath.filter((f) => f.notAfter.getTime() >= now && f.notAfter.getTime() - now < 30 * DAY);
  if (expiring.length > 0) {
    add(
      'tls.cert-expiring',
      expiring.map((f) => `${label(f)} expires ${f.notAfter.toISOString()}`).join('; '),
    );
  }
  const early = onPath.filter((f) => f.notBefore.getTime() > now + CLOCK_SKEW_MS);
  if (early.length > 0) {
    add(
      'tls.cert-not-yet-valid',
      early.map((f) => `${label(f)} is valid only from ${f.notBefore.toISOString()}`).join('; '),
    );
  }
  if (chain.kind === 'self-signed') {
    add('tls.self-signed', chain.detail);
  } else if (chain.kind === 'untrusted') {
    add('tls.untrusted-chain', `${chain.detail}; trust store: ${ctx.trust.source}`);
  }
  const order = orderFault(facts, chain.path);
  if (order) {
    add('tls.chain-order', order);
  }
  const matches = net.isIP(ctx.host) ? leaf.cert.checkIP(ctx.host) : leaf.cert.checkHost(ctx.host);
  if (!matches) {
    add(
      'tls.hostname-mismatch',
      `${ctx.host} not in certificate (CN ${leaf.subjectCn}, SAN ${leaf.cert.subjectAltName ?? 'none'})`,
    );
  }
  const weakKeys = judged(facts).flatMap((f) => {
    const why = weakKey(f.key);
    return why ? [`${why} in ${label(f)}`] : [];
  });
  if (weakKeys.length > 0) {
    add('tls.weak-key', weakKeys.join('; '));
  }
  const weakSigned = judged(facts).filter((f) => f.signature.weak !== null);
  if (weakSigned.length > 0) {
    add(
      'tls.weak-signature',
      weakSigned
        .map((f) => `${label(f)}${f.selfSigned ? ', self-signed,' : ''} signed with ${f.signature.weak!}`)
        .join('; '),
    );
  }
  // Revocation needs an issuer: a self-signed certificate is reported as such instead.
  if (!leaf.selfSigned && !leaf.revocation.crl && !leaf.revocation.ocsp) {
    add(
      'tls.no-revocation-info',
      `${label(leaf)} names neither a CRL distribution point nor an OCSP responder (issuer ${oneLine(leaf.cert.issuer)})`,
    );
  }
  // Stapling matters only for a certificate that names an OCSP responder clients would otherwise ask.
  const responder = leaf.revocation.ocsp;
  if (responder && !ctx.stapled) {
    add(
      'tls.no-ocsp-stapling',
      `the certificate names the OCSP responder ${responder}; no response was stapled`,
    );
  }
  return out;
}
