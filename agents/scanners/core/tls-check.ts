// TLS checks shared by the web-application and infrastructure scanners: certificate expiry, self-signed
// or untrusted chain, host-name mismatch, and whether TLS 1.0/1.1 are still accepted.
import net from 'node:net';
import tls from 'node:tls';

import type { Finding } from '../../../shared/findings.ts';
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

/** True when the port completes a TLS handshake at all (used to tell TLS ports from plain ones). */
export async function speaksTls(target: ResolvedTarget, port: number, timeoutMs = 3000): Promise<boolean> {
  const socket = await handshake(target, port, {}, timeoutMs);
  socket?.destroy();
  return socket !== null;
}

export async function tlsFindings(
  target: ResolvedTarget,
  port: number,
  location: string,
  now = new Date(),
  timeoutMs = 5000,
): Promise<Finding[]> {
  const socket = await handshake(target, port, {}, timeoutMs);
  if (!socket) {
    return [];
  }
  const findings: Finding[] = [];
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
  const legacy: string[] = [];
  for (const version of ['TLSv1', 'TLSv1.1'] as const) {
    // SECLEVEL=0 lets our client offer the old protocol; we only ask whether the server accepts it.
    const old = await handshake(
      target,
      port,
      { minVersion: version, maxVersion: version, ciphers: 'DEFAULT:@SECLEVEL=0' },
      timeoutMs,
    );
    if (old) {
      legacy.push(version === 'TLSv1' ? 'TLS 1.0' : 'TLS 1.1');
      old.destroy();
    }
  }
  if (legacy.length > 0) {
    findings.push(
      tlsFinding('tls.legacy-protocol', {
        location,
        evidence: `handshake succeeded with ${legacy.join(' and ')}`,
      }),
    );
  }
  return findings;
}
