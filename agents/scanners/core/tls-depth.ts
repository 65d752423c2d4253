// The deep TLS checks (testssl.sh's, from raw ClientHellos: tls-probe.ts): which protocol versions and
// suites the server accepts, and what that exposes (SSLv3, NULL, anonymous, EXPORT, RC4, 64-bit block
// ciphers, CBC on TLS 1.0 or only CBC, no forward secrecy, no server cipher order, weak Diffie-Hellman),
// and the certificate as the server sends it (RSA key size, SHA-1 or MD5 signatures, OCSP stapling).
import { X509Certificate } from 'node:crypto';

import type { Finding } from '../../../shared/findings.ts';
import type { ResolvedTarget } from '../target-policy.ts';
import { ruleBook, type Rule } from './rule.ts';
import {
  enumerateSuites,
  probeHello,
  SUITES,
  type ProbeOptions,
  type ProtocolVersion,
  type Suite,
  type VersionSupport,
} from './tls-probe.ts';

const A02 = 'A02:2021 Cryptographic Failures';
const rule = (title: string, cvss: string, cwe: Rule['cwe'], remediation: string): Rule => ({
  title,
  cvss,
  cwe,
  owasp: A02,
  family: 'transport',
  remediation,
});

export const tlsDepthRules = {
  'tls.sslv3': rule(
    'SSLv3 accepted (POODLE)',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:H/I:N/A:N',
    'CWE-327',
    'Disable SSLv3 entirely (RFC 7568); accept TLS 1.2 and 1.3 only.',
  ),
  'tls.null-cipher': rule(
    'TLS suites without encryption (NULL) accepted',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
    'CWE-319',
    'Remove every NULL (eNULL) suite from the server configuration.',
  ),
  'tls.anonymous-cipher': rule(
    'Anonymous TLS suites accepted (no server authentication)',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N',
    'CWE-287',
    'Remove every anonymous (aNULL: ADH, AECDH) suite; the server must authenticate with its certificate.',
  ),
  'tls.export-cipher': rule(
    'Export-grade TLS suites accepted (FREAK, Logjam)',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N',
    'CWE-326',
    'Remove every EXPORT suite (40- and 56-bit keys, 512-bit RSA and DH).',
  ),
  'tls.rc4': rule(
    'RC4 TLS suites accepted',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N',
    'CWE-327',
    'Remove RC4 suites (RFC 7465 prohibits them).',
  ),
  'tls.block64-cipher': rule(
    '64-bit block cipher suites accepted (SWEET32: 3DES, DES)',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N',
    'CWE-327',
    'Remove 3DES, DES, IDEA and RC2 suites; offer AES-GCM and ChaCha20-Poly1305.',
  ),
  'tls.cbc-tls10': rule(
    'CBC suites accepted with TLS 1.0 (BEAST)',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
    'CWE-327',
    'Disable TLS 1.0; where it must stay, prefer non-CBC suites for it.',
  ),
  'tls.cbc-only': rule(
    'Only CBC suites accepted, no AEAD (LUCKY13)',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N',
    'CWE-327',
    'Offer AEAD suites (AES-GCM, ChaCha20-Poly1305) and prefer them; TLS 1.3 has only AEAD suites.',
  ),
  'tls.no-forward-secrecy': rule(
    'No forward secrecy: no ECDHE, DHE or TLS 1.3 suite accepted',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N',
    'CWE-327',
    'Offer ECDHE suites (and TLS 1.3); a stolen server key must not decrypt recorded traffic.',
  ),
  'tls.no-server-order': rule(
    'Server does not enforce its cipher suite order',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
    'CWE-757',
    'Make the server choose the suite by its own order of preference (ssl_prefer_server_ciphers on / SSLHonorCipherOrder on).',
  ),
  'tls.weak-dh': rule(
    'Weak Diffie-Hellman group (under 2048 bits)',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:L/A:N',
    'CWE-326',
    'Use a DH group of at least 2048 bits (RFC 7919 ffdhe2048 or larger), or prefer ECDHE.',
  ),
  'tls.weak-key': rule(
    'Certificate public key too small (RSA under 2048 bits)',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:L/A:N',
    'CWE-326',
    'Issue the certificate for an RSA key of at least 2048 bits, or an ECDSA P-256 key.',
  ),
  'tls.weak-signature': rule(
    'Certificate signed with SHA-1 or MD5',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:L/A:N',
    'CWE-328',
    'Reissue the certificate (and any intermediate) with a SHA-256 or stronger signature.',
  ),
  'tls.no-ocsp-stapling': rule(
    'OCSP stapling not enabled',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:N/I:N/A:N',
    'CWE-299',
    'Enable OCSP stapling (ssl_stapling on / SSLUseStapling on) so clients get revocation status from the server.',
  ),
} satisfies Record<string, Rule>;

export type TlsDepthRuleId = keyof typeof tlsDepthRules;
const finding = ruleBook<TlsDepthRuleId>(tlsDepthRules);

const VERSIONS: ProtocolVersion[] = ['SSLv3', 'TLSv1.0', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'];

export interface TlsSurvey {
  versions: VersionSupport[];
  /** The server chose the same suite whatever the client's order. */
  serverOrder: boolean | null;
  dhBits: number | null;
  certificates: Buffer[];
  stapled: boolean;
  probes: number;
}

const suitesOf = (support: VersionSupport[], pick: (s: Suite) => boolean) =>
  support.flatMap((v) =>
    v.suites
      .map((c) => SUITES.get(c)!)
      .filter(pick)
      .map((s) => ({ version: v.version, suite: s })),
  );

/** Asks the server what it accepts: every version's suites, its order, its DH group and its certificates. */
export async function surveyTls(options: Omit<ProbeOptions, 'full'>): Promise<TlsSurvey> {
  const versions = (await Promise.all(VERSIONS.map((v) => enumerateSuites(v, options)))).filter(
    (v) => v.suites.length > 0,
  );
  let probes = versions.reduce((n, v) => n + v.suites.length + 1, VERSIONS.length - versions.length);
  // Server order: offer the two first-chosen suites of the newest TLS ≤ 1.2 version both ways round.
  let serverOrder: boolean | null = null;
  const classic = versions.filter((v) => v.version !== 'TLSv1.3').at(-1);
  if (classic && classic.suites.length >= 2) {
    const [a, b] = classic.suites as [number, number];
    const reversed = await probeHello(classic.version, [b, a], options);
    probes++;
    serverOrder = reversed.accepted ? reversed.suite === a : null;
  }
  // A full handshake up to ServerHelloDone: certificates, the staple, and a DHE group if one is accepted.
  let dhBits: number | null = null;
  let certificates: Buffer[] = [];
  let stapled = false;
  if (classic) {
    const full = await probeHello(classic.version, classic.suites, { ...options, full: true });
    probes++;
    if (full.accepted) {
      certificates = full.certificates;
      stapled = full.stapled;
    }
    const dhe = classic.suites.filter((c) => SUITES.get(c)?.kx === 'DH');
    if (dhe.length > 0) {
      const withDh = await probeHello(classic.version, dhe, { ...options, full: true });
      probes++;
      if (withDh.accepted && withDh.dhBits !== undefined) {
        dhBits = withDh.dhBits;
      }
    }
  }
  return { versions, serverOrder, dhBits, certificates, stapled, probes };
}

const VERSION_LABEL: Record<ProtocolVersion, string> = {
  SSLv3: 'SSLv3',
  'TLSv1.0': 'TLS 1.0',
  'TLSv1.1': 'TLS 1.1',
  'TLSv1.2': 'TLS 1.2',
  'TLSv1.3': 'TLS 1.3',
};

/** "TLS 1.0: A, B; TLS 1.2: C", at most a few names per version. */
function listByVersion(items: { version: ProtocolVersion; suite: Suite }[]): string {
  const byVersion = new Map<ProtocolVersion, string[]>();
  for (const { version, suite } of items) {
    byVersion.set(version, [...(byVersion.get(version) ?? []), suite.name]);
  }
  return [...byVersion]
    .map(([v, names]) => `${VERSION_LABEL[v]}: ${names.slice(0, 6).join(', ')}${names.length > 6 ? ` (+${names.length - 6})` : ''}`)
    .join('; ');
}

// The signature algorithm OIDs that mean SHA-1 or MD5.
const WEAK_SIGNATURES: Record<string, string> = {
  '1.2.840.113549.1.1.4': 'md5WithRSAEncryption',
  '1.2.840.113549.1.1.5': 'sha1WithRSAEncryption',
  '1.2.840.10045.4.1': 'ecdsa-with-SHA1',
  '1.2.840.10040.4.3': 'dsa-with-sha1',
  '1.3.14.3.2.29': 'sha1WithRSA (OIW)',
};

/** The OID of a certificate's signatureAlgorithm (Certificate ::= SEQUENCE { tbs, sigAlg, sig }). */
export function signatureAlgorithmOid(der: Buffer): string | null {
  let p = 0;
  const header = (): { start: number; length: number } | null => {
    if (p + 2 > der.length) {
      return null;
    }
    p++; // tag
    let length = der[p++]!;
    if (length & 0x80) {
      const n = length & 0x7f;
      if (n === 0 || n > 4 || p + n > der.length) {
        return null;
      }
      length = der.readUIntBE(p, n);
      p += n;
    }
    return { start: p, length };
  };
  if (!header()) {
    return null; // the certificate SEQUENCE
  }
  const tbs = header();
  if (!tbs) {
    return null;
  }
  p = tbs.start + tbs.length;
  if (!header()) {
    return null; // signatureAlgorithm SEQUENCE
  }
  if (der[p] !== 0x06) {
    return null;
  }
  const oid = header();
  if (!oid) {
    return null;
  }
  const bytes = der.subarray(oid.start, oid.start + oid.length);
  const parts = [Math.floor(bytes[0]! / 40), bytes[0]! % 40];
  let value = 0;
  for (const b of bytes.subarray(1)) {
    value = value * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

/** The findings a survey shows, located at `location`. */
export function tlsDepthFindings(survey: TlsSurvey, location: string): Finding[] {
  const out: Finding[] = [];
  const add = (id: TlsDepthRuleId, evidence: string) => out.push(finding(id, { location, evidence }));
  const all = survey.versions;
  const accepted = (v: ProtocolVersion) => all.find((s) => s.version === v);
  const sslv3 = accepted('SSLv3');
  if (sslv3) {
    add('tls.sslv3', `the server accepted an SSLv3 ClientHello (${sslv3.suites.length} suites)`);
  }
  const classes: [TlsDepthRuleId, (s: Suite) => boolean, string][] = [
    ['tls.null-cipher', (s) => s.nullCipher, 'no encryption'],
    ['tls.anonymous-cipher', (s) => s.anonymous && !s.tls13, 'no server authentication'],
    ['tls.export-cipher', (s) => s.export, 'export grade'],
    ['tls.rc4', (s) => s.rc4, 'RC4'],
    ['tls.block64-cipher', (s) => s.block64, '64-bit block cipher'],
  ];
  for (const [id, pick, what] of classes) {
    const found = suitesOf(all, pick);
    if (found.length > 0) {
      add(id, `accepted (${what}): ${listByVersion(found)}`);
    }
  }
  const tls10 = accepted('TLSv1.0');
  const cbc10 = tls10 ? suitesOf([tls10], (s) => s.cbc) : [];
  if (cbc10.length > 0) {
    add('tls.cbc-tls10', `TLS 1.0 with CBC: ${listByVersion(cbc10)}`);
  }
  const modern = all.filter((v) => v.version !== 'SSLv3');
  const anyAead = suitesOf(modern, (s) => s.aead).length > 0;
  const anyCbc = suitesOf(modern, (s) => s.cbc).length > 0;
  if (anyCbc && !anyAead) {
    add('tls.cbc-only', `no AEAD suite accepted; CBC: ${listByVersion(suitesOf(modern, (s) => s.cbc))}`);
  }
  if (all.length > 0 && suitesOf(all, (s) => s.forwardSecret && !s.anonymous).length === 0) {
    add('tls.no-forward-secrecy', `accepted: ${listByVersion(suitesOf(all, () => true))}`);
  }
  if (survey.serverOrder === false) {
    add('tls.no-server-order', 'the server chose the suite the client listed first, in either order');
  }
  if (survey.dhBits !== null && survey.dhBits < 2048) {
    add('tls.weak-dh', `DHE key exchange with a ${survey.dhBits}-bit prime`);
  }
  const [leaf, ...chain] = survey.certificates;
  if (leaf) {
    let cert: X509Certificate | null = null;
    try {
      cert = new X509Certificate(leaf);
    } catch {
      cert = null;
    }
    const details = cert?.publicKey.asymmetricKeyDetails;
    if (cert?.publicKey.asymmetricKeyType === 'rsa' && details?.modulusLength !== undefined && details.modulusLength < 2048) {
      add('tls.weak-key', `RSA ${details.modulusLength}-bit key (subject ${cert.subject.replace(/\n/g, ', ')})`);
    }
    // SHA-1 or MD5 anywhere but a self-signed root (a trust anchor's own signature is never checked).
    const weak = [leaf, ...chain]
      .map((der) => {
        let self = false;
        try {
          const c = new X509Certificate(der);
          self = c.subject === c.issuer;
        } catch {
          // Unparseable: judged by its signature alone.
        }
        return { oid: signatureAlgorithmOid(der), self };
      })
      .filter((c, i) => c.oid !== null && WEAK_SIGNATURES[c.oid] !== undefined && !(c.self && i > 0));
    if (weak.length > 0) {
      add('tls.weak-signature', `signed with ${weak.map((c) => WEAK_SIGNATURES[c.oid!]).join(', ')}`);
    }
    // Stapling matters only for a certificate that names an OCSP responder.
    if (cert?.infoAccess?.includes('OCSP - URI') && !survey.stapled) {
      add('tls.no-ocsp-stapling', 'the certificate names an OCSP responder, the server sent no stapled response');
    }
  }
  return out;
}

/** Surveys one TLS endpoint and returns its deep findings (with the number of probes it took). */
export async function deepTlsFindings(
  target: ResolvedTarget,
  port: number,
  location: string,
  timeoutMs = 3000,
  signal?: AbortSignal,
): Promise<{ findings: Finding[]; probes: number }> {
  const survey = await surveyTls({
    address: target.address,
    port,
    serverName: target.host,
    timeoutMs,
    ...(signal ? { signal } : {}),
  });
  return { findings: tlsDepthFindings(survey, location), probes: survey.probes };
}
