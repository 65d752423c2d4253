// The planted problems of the outside TLS corpus (bench/detection/classes/outside-tls.ts), written from
// each case's configuration, as badssl.com documents it, and from what testssl.sh and sslscan reported on
// it, before our scanner was run on any of them. Every case also has its open port.
//
// What the configurations give on Debian's OpenSSL 3 at `@SECLEVEL=0`: badssl.com's tls-defaults list
// SSLv3 to TLS 1.2 (SSLv3 is compiled out, so TLS 1.0 and 1.1 are offered, with CBC suites under TLS 1.0),
// in server order, with ECDHE and a 2048-bit DH group.
const DEFAULTS = ['tls.legacy-protocol', 'tls.cbc-tls10'];

export const outsideTlsPlanted = {
  // An intermediate signed with SHA-1 (the leaf with SHA-256): every certificate sent is judged.
  'sha1-intermediate': [...DEFAULTS, 'tls.weak-signature'],
  // The leaf signed with SHA-1 by a good intermediate.
  'sha1-2016': [...DEFAULTS, 'tls.weak-signature'],
  md5: [...DEFAULTS, 'tls.weak-signature'],
  rsa1024: [...DEFAULTS, 'tls.weak-key'],
  'self-signed': [...DEFAULTS, 'tls.self-signed'],
  // A self-signed leaf signed with SHA-1: testssl.sh names the leaf's algorithm whoever signed it.
  'self-signed-sha1': [...DEFAULTS, 'tls.self-signed', 'tls.weak-signature'],
  'untrusted-root': [...DEFAULTS, 'tls.untrusted-chain'],
  // The intermediate is not sent: the path cannot be built from what the server sends.
  'incomplete-chain': [...DEFAULTS, 'tls.untrusted-chain'],
  // The intermediate sent before the leaf: TLS 1.2 requires the sender's certificate first and each
  // following one to certify the one before it (clients that do not rebuild the path fail).
  'reversed-chain': [...DEFAULTS, 'tls.chain-order'],
  expired: [...DEFAULTS, 'tls.cert-expired'],
  'wrong.host': [...DEFAULTS, 'tls.hostname-mismatch'],
  // A good P-256 certificate: only the protocol defaults.
  ecc256: [...DEFAULTS],
  // DHE only, TLS 1.1 and 1.2.
  dh1024: ['tls.legacy-protocol', 'tls.weak-dh'],
  dh512: ['tls.legacy-protocol', 'tls.weak-dh'],
  // RSA key exchange only.
  'static-rsa': ['tls.legacy-protocol', 'tls.no-forward-secrecy'],
  // AES in CBC mode only (no GCM), TLS 1.1 and 1.2.
  cbc: ['tls.legacy-protocol', 'tls.cbc-only'],
  // NULL and anonymous suites (no CBC): authenticated ECDHE with NULL keeps forward secrecy.
  null: ['tls.legacy-protocol', 'tls.null-cipher', 'tls.anonymous-cipher'],
  // TLS 1.0 alone: every suite is CBC.
  'tls-v1-0': ['tls.legacy-protocol', 'tls.cbc-tls10', 'tls.cbc-only'],
  'tls-v1-1': ['tls.legacy-protocol', 'tls.cbc-only'],
  // TLS 1.2 with nginx's default list and the client's order: CBC and RSA key exchange accepted first if
  // the client asks.
  'tls-v1-2': ['tls.no-server-order'],
  // Mozilla's old profile of 2015: the defaults, and a 1024-bit DH group.
  'mozilla-old': [...DEFAULTS, 'tls.weak-dh'],
  // Mozilla's modern profile: must stay silent.
  'mozilla-modern': [],
  '3des': ['tls.legacy-protocol', 'tls.block64-cipher', 'tls.cbc-only'],
  rc4: ['tls.legacy-protocol', 'tls.rc4'],
  // Debian's nginx with its default site's TLS lines on: a snakeoil certificate for the machine's name.
  'debian-nginx-snakeoil': ['tls.self-signed', 'tls.hostname-mismatch'],
} satisfies Record<string, string[]>;

export type OutsideTlsCase = keyof typeof outsideTlsPlanted;
