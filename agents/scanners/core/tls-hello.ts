// The two ends of a TLS probe, as pure functions over bytes: the ClientHello we send (built here because
// Node's OpenSSL cannot offer SSLv3, EXPORT, RC4, 3DES or most NULL and anonymous suites), and a reader of
// what the server answers up to its ServerHelloDone (RFC 5246 §7.4, RFC 6101 §5.6, RFC 8446 §4.1).
import { randomBytes } from 'node:crypto';
import net from 'node:net';

export type ProtocolVersion = 'SSLv3' | 'TLSv1.0' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';

export const WIRE_VERSION: Record<ProtocolVersion, number> = {
  SSLv3: 0x0300,
  'TLSv1.0': 0x0301,
  'TLSv1.1': 0x0302,
  'TLSv1.2': 0x0303,
  'TLSv1.3': 0x0304,
};
const VERSION_NAME = new Map(Object.entries(WIRE_VERSION).map(([k, v]) => [v, k as ProtocolVersion]));

const EXT = {
  serverName: 0,
  statusRequest: 5,
  supportedGroups: 10,
  ecPointFormats: 11,
  signatureAlgorithms: 13,
  supportedVersions: 43,
  pskKeyExchangeModes: 45,
  keyShare: 51,
  renegotiationInfo: 0xff01,
};
const MESSAGE = { serverHello: 2, certificate: 11, serverKeyExchange: 12, serverHelloDone: 14, status: 22 };
const RECORD = { changeCipherSpec: 20, alert: 21, handshake: 22, applicationData: 23 };
/** x25519, P-256, P-384, P-521, x448, and the small curves a weak server may pick. */
export const EC_GROUPS = [29, 23, 24, 25, 30, 21, 19];
/**
 * The RFC 7919 ffdhe groups too. A DHE probe leaves them out: a server that finds one in the list uses it
 * instead of its own configured group, which is the one older clients get.
 */
export const ALL_GROUPS = [...EC_GROUPS, 256, 257, 258];
/** ECDSA, RSA-PSS, RSA PKCS#1 with SHA-2; then SHA-1 and the DSA ones old servers need to answer at all. */
const SIGNATURE_ALGORITHMS = [
  0x0403, 0x0503, 0x0603, 0x0804, 0x0805, 0x0806, 0x0401, 0x0501, 0x0601, 0x0203, 0x0201, 0x0402, 0x0202,
];
/** ServerHello.random of a HelloRetryRequest: SHA-256 of "HelloRetryRequest" (RFC 8446 §4.1.3). */
const RETRY_RANDOM = Buffer.from('cf21ad74e59a6111be1d8c021e65b891c2a211167abb8c5e079e09e2c8a8339c', 'hex');

const u8 = (n: number) => Buffer.from([n & 0xff]);
const u16 = (n: number) => Buffer.from([(n >> 8) & 0xff, n & 0xff]);
const u24 = (n: number) => Buffer.from([(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]);
const vec8 = (body: Buffer) => Buffer.concat([u8(body.length), body]);
const vec16 = (body: Buffer) => Buffer.concat([u16(body.length), body]);
const ext = (type: number, body: Buffer) => Buffer.concat([u16(type), vec16(body)]);
const list16 = (values: readonly number[]) => vec16(Buffer.concat(values.map(u16)));

/**
 * One ClientHello record offering `suites` at `version`, with the extensions a client of that version
 * sends: none for SSLv3; groups, point formats, OCSP status request and secure renegotiation from TLS
 * 1.0; signature algorithms from TLS 1.2; supported_versions and an x25519 key share for TLS 1.3.
 */
export function clientHello(
  version: ProtocolVersion,
  suites: readonly number[],
  {
    serverName,
    groups = ALL_GROUPS,
    random = () => randomBytes(32),
  }: { serverName?: string | undefined; groups?: readonly number[]; random?: () => Buffer } = {},
): Buffer {
  const tls13 = version === 'TLSv1.3';
  const extensions: Buffer[] = [];
  if (version !== 'SSLv3') {
    // SNI carries names only; an IP literal must not be sent (RFC 6066 §3).
    if (serverName && net.isIP(serverName) === 0) {
      extensions.push(ext(EXT.serverName, vec16(Buffer.concat([u8(0), vec16(Buffer.from(serverName))]))));
    }
    extensions.push(
      ext(EXT.supportedGroups, list16(groups)),
      ext(EXT.ecPointFormats, vec8(u8(0))),
      // status_request (ocsp, no responder ids, no extensions): a server that staples answers with it.
      ext(EXT.statusRequest, Buffer.from([1, 0, 0, 0, 0])),
    );
    if (version === 'TLSv1.2' || tls13) {
      extensions.push(ext(EXT.signatureAlgorithms, list16(SIGNATURE_ALGORITHMS)));
    }
    if (tls13) {
      // Any 32 bytes are an x25519 public value; the handshake is abandoned after the ServerHello.
      extensions.push(
        ext(EXT.supportedVersions, vec8(u16(WIRE_VERSION['TLSv1.3']))),
        ext(EXT.keyShare, vec16(Buffer.concat([u16(29), vec16(random())]))),
        ext(EXT.pskKeyExchangeModes, vec8(u8(1))),
      );
    } else {
      extensions.push(ext(EXT.renegotiationInfo, u8(0)));
    }
  }
  const body = Buffer.concat([
    u16(tls13 ? WIRE_VERSION['TLSv1.2'] : WIRE_VERSION[version]),
    random(),
    // TLS 1.3 middlebox compatibility mode sends a session id (RFC 8446 appendix D.4).
    vec8(tls13 ? random() : Buffer.alloc(0)),
    list16(suites),
    vec8(u8(0)), // compression: null only
    ...(extensions.length > 0 ? [vec16(Buffer.concat(extensions))] : []),
  ]);
  const handshake = Buffer.concat([u8(1), u24(body.length), body]);
  // Record version: SSLv3 for an SSLv3 hello, TLS 1.0 otherwise, as clients send it for compatibility.
  return Buffer.concat([u8(RECORD.handshake), u16(version === 'SSLv3' ? 0x0300 : 0x0301), vec16(handshake)]);
}

export interface ServerHello {
  version: ProtocolVersion;
  suite: number;
  /** A TLS 1.3 HelloRetryRequest: the server accepts the suite but wants another key share. */
  retry: boolean;
  /** ServerHelloDone seen (TLS ≤ 1.2), or TLS 1.3, where everything after the ServerHello is encrypted. */
  complete: boolean;
  /** DER certificates as sent, leaf first (TLS ≤ 1.2). */
  certificates: Buffer[];
  /** Size in bits of the finite-field DH prime in ServerKeyExchange. */
  dhBits?: number;
  /** The named group of an ECDHE ServerKeyExchange. */
  curve?: number;
  /** The server sent a CertificateStatus message: a stapled OCSP response. */
  stapled: boolean;
}

export type ServerFlight =
  | { kind: 'incomplete' }
  | { kind: 'not-tls' }
  | { kind: 'alert'; description: number }
  | ({ kind: 'hello' } & ServerHello);

function readServerHello(body: Buffer): { version: number; suite: number; retry: boolean } | null {
  if (body.length < 38 || 35 + body[34]! + 3 > body.length) {
    return null;
  }
  let version = body.readUInt16BE(0);
  let p = 35 + body[34]!;
  const suite = body.readUInt16BE(p);
  p += 3; // suite, compression method
  if (p + 2 <= body.length) {
    const end = Math.min(body.length, p + 2 + body.readUInt16BE(p));
    for (p += 2; p + 4 <= end; p += 4 + body.readUInt16BE(p + 2)) {
      if (body.readUInt16BE(p) === EXT.supportedVersions && body.readUInt16BE(p + 2) === 2 && p + 6 <= end) {
        version = body.readUInt16BE(p + 4);
      }
    }
  }
  return { version, suite, retry: body.subarray(2, 34).equals(RETRY_RANDOM) };
}

function readCertificates(body: Buffer): Buffer[] {
  const certificates: Buffer[] = [];
  if (body.length < 3) {
    return certificates;
  }
  const end = Math.min(body.length, 3 + body.readUIntBE(0, 3));
  for (let p = 3; p + 3 <= end;) {
    const length = body.readUIntBE(p, 3);
    if (p + 3 + length > end) {
      break;
    }
    certificates.push(body.subarray(p + 3, p + 3 + length));
    p += 3 + length;
  }
  return certificates;
}

/** ServerKeyExchange: a DH prime's size (`dhe`), or an ECDHE named curve (RFC 5246 §7.4.3, RFC 8422 §5.4). */
function readKeyExchange(body: Buffer, dhe: boolean): { dhBits?: number; curve?: number } {
  if (dhe && body.length >= 2) {
    let prime = body.subarray(2, 2 + body.readUInt16BE(0));
    while (prime.length > 0 && prime[0] === 0) {
      prime = prime.subarray(1);
    }
    return { dhBits: prime.length === 0 ? 0 : (prime.length - 1) * 8 + (32 - Math.clz32(prime[0]!)) };
  }
  if (!dhe && body.length >= 3 && body[0] === 3) {
    return { curve: body.readUInt16BE(1) };
  }
  return {};
}

/**
 * Reads the server's bytes so far. `isDhe(suite)` says whether the chosen suite's ServerKeyExchange holds
 * a finite-field group rather than a curve.
 */
export function readServerFlight(bytes: Buffer, isDhe: (suite: number) => boolean): ServerFlight {
  const handshake: Buffer[] = [];
  for (let p = 0; p + 5 <= bytes.length;) {
    const type = bytes[p]!;
    const length = bytes.readUInt16BE(p + 3);
    if (type < RECORD.changeCipherSpec || type > RECORD.applicationData || bytes[p + 1] !== 3) {
      return { kind: 'not-tls' };
    }
    if (p + 5 + length > bytes.length) {
      break;
    }
    const fragment = bytes.subarray(p + 5, p + 5 + length);
    p += 5 + length;
    // A fatal alert ends the answer; a warning (level 1, e.g. unrecognized_name) does not, but a
    // close_notify does whatever its level.
    if (type === RECORD.alert && (fragment[0] !== 1 || fragment[1] === 0)) {
      return { kind: 'alert', description: fragment[1] ?? 0 };
    }
    if (type === RECORD.handshake) {
      handshake.push(fragment);
    }
  }
  const stream = Buffer.concat(handshake);
  let hello: ServerHello | null = null;
  for (let p = 0; p + 4 <= stream.length;) {
    const type = stream[p]!;
    const length = stream.readUIntBE(p + 1, 3);
    if (p + 4 + length > stream.length) {
      break;
    }
    const body = stream.subarray(p + 4, p + 4 + length);
    p += 4 + length;
    if (type === MESSAGE.serverHello) {
      const read = readServerHello(body);
      const version = read ? VERSION_NAME.get(read.version) : undefined;
      if (!read || !version) {
        return { kind: 'not-tls' };
      }
      hello = {
        version,
        suite: read.suite,
        retry: read.retry,
        complete: version === 'TLSv1.3',
        certificates: [],
        stapled: false,
      };
    } else if (hello && type === MESSAGE.certificate) {
      hello.certificates = readCertificates(body);
    } else if (hello && type === MESSAGE.serverKeyExchange) {
      Object.assign(hello, readKeyExchange(body, isDhe(hello.suite)));
    } else if (hello && type === MESSAGE.status) {
      hello.stapled = true;
    } else if (hello && type === MESSAGE.serverHelloDone) {
      hello.complete = true;
    }
  }
  return hello ? { kind: 'hello', ...hello } : { kind: 'incomplete' };
}
