// Every TLS rule, shared by the web-application and infrastructure scanners (a TLS port is checked the
// same wherever it is found). The first six ids predate the raw-ClientHello survey and keep their meaning.
import { ruleBook, type Rule } from './rule.ts';

const A02 = 'A02:2021 Cryptographic Failures';
const rule = (title: string, cvss: string, cwe: Rule['cwe'], remediation: string): Rule => ({
  title,
  cvss,
  cwe,
  owasp: A02,
  family: 'transport',
  remediation,
});

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
  'tls.cert-not-yet-valid': rule(
    'TLS certificate not yet valid',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
    'CWE-298',
    'Serve a certificate whose validity has begun (check the clock of the machine that issued it); clients refuse it until then.',
  ),
  'tls.chain-order': rule(
    'TLS certificate chain sent out of order',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:N/I:N/A:L',
    'CWE-295',
    'Send the server certificate first, then each intermediate after the certificate it signed (leaf, issuing CA, its issuer…); leave the root out.',
  ),
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
    'Certificate public key too weak (RSA or DSA under 2048 bits, EC under 224 bits or unnamed curve)',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:L/A:N',
    'CWE-326',
    'Issue the certificate (and any intermediate) for an RSA key of at least 2048 bits, or an ECDSA key on P-256 or P-384.',
  ),
  'tls.weak-signature': rule(
    'Certificate signed with SHA-1 or MD5',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:L/A:N',
    'CWE-328',
    'Reissue the certificate (and any intermediate) with a SHA-256 or stronger signature.',
  ),
  'tls.no-revocation-info': rule(
    'TLS certificate cannot be revoked (no CRL or OCSP address)',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
    'CWE-299',
    'Have the issuing CA include a CRL distribution point or an OCSP responder in the certificate, so that clients learn when it is revoked (a stolen key stays usable until the certificate expires otherwise).',
  ),
  'tls.no-ocsp-stapling': rule(
    'OCSP stapling not enabled',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:N/I:N/A:N',
    'CWE-299',
    'Enable OCSP stapling (ssl_stapling on / SSLUseStapling on) so clients get revocation status from the server.',
  ),
} satisfies Record<string, Rule>;

export type TlsRuleId = keyof typeof tlsRules;
export const tlsFinding = ruleBook<TlsRuleId>(tlsRules);
