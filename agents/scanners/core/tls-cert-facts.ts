// What one certificate a server sent says about itself, read from its DER with bounds: the algorithm it is
// signed with, its public key (type, size, named curve or explicit parameters), whether it is a CA and
// self-signed, and its validity. tls-cert.ts judges the chain from these facts. The bytes come from a
// stranger: a certificate over MAX_CERT_BYTES or one that does not parse yields no facts, never an error.
import { X509Certificate } from 'node:crypto';

import { ECParameters } from '@peculiar/asn1-ecc';
import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate } from '@peculiar/asn1-x509';

/** Larger than any certificate a CA issues (a few KB); a bigger blob is not parsed. */
export const MAX_CERT_BYTES = 64 * 1024;

const CRL_DISTRIBUTION_POINTS = '2.5.29.31';

/** Signature algorithm OIDs whose hash is broken for collisions: MD2, MD4, MD5 and SHA-1. */
const WEAK_SIGNATURES: Record<string, string> = {
  '1.2.840.113549.1.1.2': 'md2WithRSAEncryption',
  '1.2.840.113549.1.1.3': 'md4WithRSAEncryption',
  '1.2.840.113549.1.1.4': 'md5WithRSAEncryption',
  '1.2.840.113549.1.1.5': 'sha1WithRSAEncryption',
  '1.2.840.10045.4.1': 'ecdsa-with-SHA1',
  '1.2.840.10040.4.3': 'dsa-with-sha1',
  '1.3.14.3.2.29': 'sha1WithRSASignature (OIW)',
  '1.3.14.3.2.3': 'md5WithRSA (OIW)',
};

/** Named curves by OID, with the size of their field in bits (what their strength is judged by). */
const CURVES: Record<string, { name: string; bits: number }> = {
  '1.2.840.10045.3.1.1': { name: 'secp192r1 (P-192)', bits: 192 },
  '1.3.132.0.33': { name: 'secp224r1 (P-224)', bits: 224 },
  '1.2.840.10045.3.1.7': { name: 'secp256r1 (P-256)', bits: 256 },
  '1.3.132.0.34': { name: 'secp384r1 (P-384)', bits: 384 },
  '1.3.132.0.35': { name: 'secp521r1 (P-521)', bits: 521 },
  '1.3.132.0.10': { name: 'secp256k1', bits: 256 },
  '1.3.132.0.8': { name: 'secp160r1', bits: 160 },
  '1.3.132.0.9': { name: 'secp160k1', bits: 160 },
  '1.3.132.0.30': { name: 'secp160r2', bits: 160 },
  '1.3.132.0.31': { name: 'secp192k1', bits: 192 },
  '1.3.132.0.32': { name: 'secp224k1', bits: 224 },
  '1.3.132.0.1': { name: 'sect163k1', bits: 163 },
  '1.3.132.0.15': { name: 'sect163r2', bits: 163 },
  '1.3.132.0.26': { name: 'sect233k1', bits: 233 },
  '1.3.132.0.27': { name: 'sect233r1', bits: 233 },
  '1.3.36.3.3.2.8.1.1.1': { name: 'brainpoolP160r1', bits: 160 },
  '1.3.36.3.3.2.8.1.1.3': { name: 'brainpoolP192r1', bits: 192 },
  '1.3.36.3.3.2.8.1.1.5': { name: 'brainpoolP224r1', bits: 224 },
  '1.3.36.3.3.2.8.1.1.7': { name: 'brainpoolP256r1', bits: 256 },
  '1.3.36.3.3.2.8.1.1.9': { name: 'brainpoolP320r1', bits: 320 },
  '1.3.36.3.3.2.8.1.1.11': { name: 'brainpoolP384r1', bits: 384 },
  '1.3.36.3.3.2.8.1.1.13': { name: 'brainpoolP512r1', bits: 512 },
};

const KEY_ALGORITHMS: Record<string, KeyFacts['type']> = {
  '1.2.840.113549.1.1.1': 'rsa',
  '1.2.840.113549.1.1.10': 'rsa-pss',
  '1.2.840.10040.4.1': 'dsa',
  '1.2.840.10045.2.1': 'ec',
  '1.3.101.112': 'ed25519',
  '1.3.101.113': 'ed448',
};

export interface KeyFacts {
  type: 'rsa' | 'rsa-pss' | 'dsa' | 'ec' | 'ed25519' | 'ed448' | 'unknown';
  /** RSA/DSA modulus or EC field size; null when it cannot be read. */
  bits: number | null;
  /** EC: the named curve, `explicit parameters`, or the unknown curve's OID. */
  curve?: string;
}

export interface CertFacts {
  cert: X509Certificate;
  /** 1-based position in what the server sent. */
  position: number;
  subjectCn: string;
  signature: { oid: string; weak: string | null };
  key: KeyFacts;
  /** basicConstraints cA. */
  isCa: boolean;
  /** Issued by itself, its own signature verifying with its own key. */
  selfSigned: boolean;
  notBefore: Date;
  notAfter: Date;
  /** Where clients can learn it was revoked: a CRL distribution point, an OCSP responder. */
  revocation: { crl: boolean; ocsp: string | null };
}

/** The common name, else the whole subject on one line. */
export const commonName = (cert: X509Certificate): string =>
  /(?:^|\n)CN=([^\n]*)/.exec(cert.subject)?.[1] ?? cert.subject.split('\n').join(', ');

/** True when `parent`'s key verifies `child`'s signature and the names chain. */
export function issued(child: X509Certificate, parent: X509Certificate): boolean {
  try {
    return child.checkIssued(parent) && child.verify(parent.publicKey);
  } catch {
    return false; // a key type this OpenSSL cannot verify with does not make an issuer
  }
}

function ecCurve(parameters: ArrayBuffer | null | undefined): { curve: string; bits: number | null } {
  if (!parameters) {
    return { curve: 'no curve parameters', bits: null };
  }
  try {
    const params = AsnConvert.parse(parameters, ECParameters);
    if (params.namedCurve) {
      const known = CURVES[params.namedCurve];
      return known
        ? { curve: known.name, bits: known.bits }
        : { curve: `unknown curve ${params.namedCurve}`, bits: null };
    }
    return { curve: 'explicit parameters', bits: null };
  } catch {
    return { curve: 'unreadable curve parameters', bits: null };
  }
}

function keyFacts(parsed: Certificate, cert: X509Certificate): KeyFacts {
  const spki = parsed.tbsCertificate.subjectPublicKeyInfo.algorithm;
  const type = KEY_ALGORITHMS[spki.algorithm] ?? 'unknown';
  if (type === 'ec') {
    return { type, ...ecCurve(spki.parameters) };
  }
  if (type === 'rsa' || type === 'rsa-pss' || type === 'dsa') {
    try {
      return { type, bits: cert.publicKey.asymmetricKeyDetails?.modulusLength ?? null };
    } catch {
      return { type, bits: null }; // a key OpenSSL will not load has no size we can vouch for
    }
  }
  return { type, bits: null };
}

/** The facts of one sent certificate, or null when it is too large or does not parse. */
export function certFacts(der: Buffer, position: number): CertFacts | null {
  if (der.length === 0 || der.length > MAX_CERT_BYTES) {
    return null;
  }
  let cert: X509Certificate;
  let parsed: Certificate;
  try {
    cert = new X509Certificate(der);
    parsed = AsnConvert.parse(der, Certificate);
  } catch {
    return null;
  }
  const oid = parsed.signatureAlgorithm.algorithm;
  return {
    cert,
    position,
    subjectCn: commonName(cert),
    signature: { oid, weak: WEAK_SIGNATURES[oid] ?? null },
    key: keyFacts(parsed, cert),
    isCa: cert.ca,
    selfSigned: cert.subject === cert.issuer && issued(cert, cert),
    notBefore: new Date(cert.validFrom),
    notAfter: new Date(cert.validTo),
    revocation: {
      crl: (parsed.tbsCertificate.extensions ?? []).some((e) => e.extnID === CRL_DISTRIBUTION_POINTS),
      ocsp: /OCSP - URI:(\S+)/.exec(cert.infoAccess ?? '')?.[1] ?? null,
    },
  };
}

/** Why a key is too weak to trust, or null: RSA and DSA under 2048 bits, EC under 224 or unnamed. */
export function weakKey(key: KeyFacts): string | null {
  if (
    (key.type === 'rsa' || key.type === 'rsa-pss' || key.type === 'dsa') &&
    key.bits !== null &&
    key.bits < 2048
  ) {
    return `${key.type.toUpperCase()} ${key.bits}-bit key`;
  }
  if (key.type === 'ec' && key.bits !== null && key.bits < 224) {
    return `EC key on ${key.curve} (${key.bits}-bit)`;
  }
  if (key.type === 'ec' && key.curve === 'explicit parameters') {
    // Clients refuse curves spelled out in the certificate (RFC 5480 allows named curves only); forged
    // parameters were how CVE-2020-0601 passed a fake certificate off as a trusted one.
    return 'EC key with explicit curve parameters instead of a named curve';
  }
  return null;
}
