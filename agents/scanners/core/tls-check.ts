// TLS checks shared by the web-application and infrastructure scanners: what the server accepts (every
// protocol version and cipher suite, from raw ClientHellos: tls-depth.ts), and its certificate as a client
// verifies it (expiry, self-signed or untrusted chain, host-name mismatch).
import net from 'node:net';
import tls from 'node:tls';

import type { Finding } from '../../../shared/findings.ts';
import { surveyTls, tlsDepthFindings } from './tls-depth.ts';
import { probeHello, SUITES } from './tls-probe.ts';
import type { ResolvedTarget } from '../target-policy.ts';
import { ruleBook } from './rule.ts';
import type { Rule } from './rule.ts';

const A02 = 'A02:2021 Cryptographic Failures';

export const tlsRules = {
  'tls.cert-expired': {
    title: 'TLS certificate expired',
    cwe: 'CWE-298',
    owasp: A02,
    family: 'transport',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:H/I:L/A:N',
    remediation:
      'Renew the certificate now and automate renewal (ACME / Let’s Encrypt or your CA’s tooling).',
  },
  'tls.cert-expiring': {
    title: 'TLS certificate expires within 30 days',
    cwe: 'CWE-298',
    owasp: A02,
    family: 'transport',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
    remediation: 'Renew the certificate before it expires and automate renewal.',
  },
  'tls.self-signed': {
    title: 'Self-signed TLS certificate',
    cwe: 'CWE-295',
    owasp: A02,
    family: 'transport',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:H/I:L/A:N',
    remediation:
      'Use a certificate issued by a publicly trusted CA (or your organisation’s CA on internal services).',
  },
  'tls.untrusted-chain': {
    title: 'TLS certificate chain not trusted',
    cwe: 'CWE-295',
    owasp: A02,
    family: 'transport',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:H/I:L/A:N',
    remediation: 'Serve the full chain (leaf plus intermediates) from a trusted CA.',
  },
  'tls.hostname-mismatch': {
    title: 'TLS certificate does not match the host name',
    cwe: 'CWE-297',
    owasp: A02,
    family: 'transport',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:H/I:L/A:N',
    remediation: 'Issue the certificate for every name the service is reached by (subjectAltName).',
  },
  'tls.legacy-protocol': {
    title: 'Deprecated TLS protocol version accepted',
    cwe: 'CWE-327',
    owasp: A02,
    family: 'transport',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N',
    remediation: 'Disable TLS 1.0 and 1.1 (RFC 8996); accept TLS 1.2 and 1.3 only.',
  },
} satisfies Record<string, Rule>;

export type TlsRuleId = keyof typeof tlsRules;
const tlsFinding = ruleBook<TlsRuleId>(tlsRules);

function handshake(
  target: ResolvedTarget,
  port: number,
  options: tls.ConnectionOptions,
  timeoutMs: number,
): Promise<tls.TLSSocket | null> {
  return new Promise((resolve) => {
    const socket = tls.connect({
      host: target.address,
      port,
      // SNI only for names; an IP literal must not be sent as server name (RFC 6066).
      servername: net.isIP(target.host) ? undefined : target.host,
      rejectUnauthorized: false,
      timeout: timeoutMs,
      ...options,
    });
    socket.once('secureConnect', () => resolve(socket));
    socket.once('error', () => resolve(null));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(null);
    });
  });
}

/**
 * True when the port speaks TLS (used to tell TLS ports from plain ones): it answers a raw ClientHello
 * with a ServerHello or a TLS alert, so a server that only accepts what Node's own TLS cannot offer
 * (SSLv3, anonymous or NULL suites) is found too.
 */
export async function speaksTls(target: ResolvedTarget, port: number, timeoutMs = 3000): Promise<boolean> {
  for (const version of ['TLSv1.2', 'SSLv3'] as const) {
    const answer = await probeHello(version, [...SUITES.keys()].filter((c) => !SUITES.get(c)!.tls13), {
      address: target.address,
      port,
      serverName: target.host,
      timeoutMs,
    });
    if (answer.accepted || answer.reason === 'alert') {
      return true;
    }
    if (answer.reason !== 'closed') {
      return false;
    }
  }
  return false;
}

export async function tlsFindings(
  target: ResolvedTarget,
  port: number,
  location: string,
  now = new Date(),
  timeoutMs = 5000,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  // What the server accepts, from raw ClientHellos (every version and suite, its order, its DH group,
  // the certificates it sends): see tls-depth.ts.
  const survey = await surveyTls({ address: target.address, port, serverName: target.host, timeoutMs });
  findings.push(...tlsDepthFindings(survey, location));
  const legacy = survey.versions
    .filter((v) => v.version === 'TLSv1.0' || v.version === 'TLSv1.1')
    .map((v) => (v.version === 'TLSv1.0' ? 'TLS 1.0' : 'TLS 1.1'));
  if (legacy.length > 0) {
    findings.push(
      tlsFinding('tls.legacy-protocol', {
        location,
        evidence: `handshake succeeded with ${legacy.join(' and ')}`,
      }),
    );
  }
  // The certificate as a client verifies it (expiry, chain trust, host name), through Node's own TLS; a
  // server it cannot talk to (SSLv3 only, or only suites Node does not offer) has just the findings above.
  const socket = await handshake(target, port, {}, timeoutMs);
  if (!socket) {
    return findings;
  }
  const cert = socket.getPeerCertificate();
  const error = socket.authorizationError ? String(socket.authorizationError) : null;
  socket.destroy();
  const name = (value: string | string[] | undefined) =>
    Array.isArray(value) ? value.join(', ') : (value ?? '(no CN)');
  const subject = name(cert.subject?.CN);
  const expires = new Date(cert.valid_to);
  if (expires.getTime() < now.getTime()) {
    findings.push(
      tlsFinding('tls.cert-expired', {
        location,
        evidence: `certificate for ${subject} expired ${expires.toISOString()}`,
      }),
    );
  } else if (expires.getTime() - now.getTime() < 30 * 86_400_000) {
    findings.push(
      tlsFinding('tls.cert-expiring', {
        location,
        evidence: `certificate for ${subject} expires ${expires.toISOString()}`,
      }),
    );
  }
  if (error === 'DEPTH_ZERO_SELF_SIGNED_CERT' || error === 'SELF_SIGNED_CERT_IN_CHAIN') {
    findings.push(
      tlsFinding('tls.self-signed', {
        location,
        evidence: `${error}: subject ${subject}, issuer ${name(cert.issuer?.CN)}`,
      }),
    );
  } else if (error && error !== 'CERT_HAS_EXPIRED') {
    findings.push(tlsFinding('tls.untrusted-chain', { location, evidence: `${error}: subject ${subject}` }));
  }
  const mismatch = tls.checkServerIdentity(target.host, cert);
  if (mismatch) {
    findings.push(
      tlsFinding('tls.hostname-mismatch', {
        location,
        evidence: `${target.host} not in certificate (CN ${subject}, SAN ${cert.subjectaltname ?? 'none'})`,
      }),
    );
  }
  return findings;
}
