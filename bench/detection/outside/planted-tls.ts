// The planted problems of the outside TLS corpus (bench/detection/classes/outside-tls.ts), written from
// each case's configuration, as badssl.com documents it, and from what testssl.sh and sslscan reported on
// it, before our scanner was run on any of them. Every case also has its open port.
//
// What the configurations give on Debian's OpenSSL 3 at `@SECLEVEL=0`: badssl.com's tls-defaults list
// SSLv3 to TLS 1.2 (SSLv3 is compiled out, so TLS 1.0 and 1.1 are offered, with CBC suites under TLS 1.0),
// in server order, with ECDHE and a 2048-bit DH group.
const DEFAULTS = ['tls.legacy-protocol', 'tls.cbc-tls10'];
// The corpus's CA issues leaves without a CRL distribution point or an OCSP responder (its configuration,
// badssl-pki.ts; testssl.sh rates it HIGH, `cert_revocation`): every leaf it issues cannot be revoked.
// Self-signed leaves are reported as self-signed instead.
const CA = 'tls.no-revocation-info';

export const outsideTlsPlanted = {
  // An intermediate signed with SHA-1 (the leaf with SHA-256): every certificate sent is judged.
  'sha1-intermediate': [...DEFAULTS, 'tls.weak-signature', CA],
  // The leaf signed with SHA-1 by a good intermediate.
  'sha1-2016': [...DEFAULTS, 'tls.weak-signature', CA],
  md5: [...DEFAULTS, 'tls.weak-signature', CA],
  rsa1024: [...DEFAULTS, 'tls.weak-key', CA],
  'self-signed': [...DEFAULTS, 'tls.self-signed'],
  // A self-signed leaf signed with SHA-1: testssl.sh names the leaf's algorithm whoever signed it.
  'self-signed-sha1': [...DEFAULTS, 'tls.self-signed', 'tls.weak-signature'],
  'untrusted-root': [...DEFAULTS, 'tls.untrusted-chain', CA],
  // The intermediate is not sent: the path cannot be built from what the server sends.
  'incomplete-chain': [...DEFAULTS, 'tls.untrusted-chain', CA],
  // The root sent between the leaf and its intermediate: TLS 1.2 requires each certificate after the
  // sender's to certify the one before it (clients that do not rebuild the path fail). badssl.com's
  // reversed chain (intermediate first) cannot be served by nginx, which wants the key's certificate first.
  'misordered-chain': [...DEFAULTS, 'tls.chain-order', CA],
  expired: [...DEFAULTS, 'tls.cert-expired', CA],
  'wrong.host': [...DEFAULTS, 'tls.hostname-mismatch', CA],
  // A good P-256 certificate: only the protocol defaults.
  ecc256: [...DEFAULTS, CA],
  // DHE only, TLS 1.1 and 1.2.
  dh1024: ['tls.legacy-protocol', 'tls.weak-dh', CA],
  dh512: ['tls.legacy-protocol', 'tls.weak-dh', CA],
  // RSA key exchange only: on OpenSSL 3, `kRSA` also selects the RSA suites without encryption (NULL-SHA,
  // NULL-SHA256, NULL-MD5), which `@SECLEVEL=0` lets through (testssl.sh and sslscan both list them).
  'static-rsa': ['tls.legacy-protocol', 'tls.no-forward-secrecy', 'tls.null-cipher', CA],
  // badssl.com's list for AES in CBC mode (`AES256:AES128:…:!AESGCM`), TLS 1.1 and 1.2. On OpenSSL 3 the
  // AES aliases also select the AES-CCM suites, which are AEAD, and `!AESGCM` leaves them in: the server is
  // not CBC-only. This entry first planted tls.cbc-only; sslscan's list of accepted suites (AES128-CCM…,
  // read before our scanner ran) already showed otherwise, and our scan's silence made us read it again:
  // corrected after our scanner ran, and said so in docs/scanners.md.
  cbc: ['tls.legacy-protocol', CA],
  // NULL and anonymous suites (no CBC): ECDHE-RSA-NULL-SHA is chosen first, so the key exchange is forward
  // secret (testssl.sh says no suite is, counting only suites that encrypt: its claim is not planted).
  null: ['tls.legacy-protocol', 'tls.null-cipher', 'tls.anonymous-cipher', CA],
  // TLS 1.0 alone: every suite is CBC.
  'tls-v1-0': ['tls.legacy-protocol', 'tls.cbc-tls10', 'tls.cbc-only', CA],
  'tls-v1-1': ['tls.legacy-protocol', 'tls.cbc-only', CA],
  // TLS 1.2 with nginx's default list and the client's order: CBC and RSA key exchange accepted first if
  // the client asks.
  'tls-v1-2': ['tls.no-server-order', CA],
  // Mozilla's old profile of 2015: the defaults, and a 1024-bit DH group.
  'mozilla-old': [...DEFAULTS, 'tls.weak-dh', CA],
  // Mozilla's modern profile: must stay silent.
  'mozilla-modern': [],
  '3des': ['tls.legacy-protocol', 'tls.block64-cipher', 'tls.cbc-only', CA],
  rc4: ['tls.legacy-protocol', 'tls.rc4', CA],
  // Debian's nginx with its default site's TLS lines on: a snakeoil certificate for the machine's name.
  'debian-nginx-snakeoil': ['tls.self-signed', 'tls.hostname-mismatch'],
} satisfies Record<string, string[]>;

export type OutsideTlsCase = keyof typeof outsideTlsPlanted;
