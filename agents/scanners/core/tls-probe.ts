// What a TLS server really accepts, asked with ClientHellos built here byte by byte: Node's TLS stack (its
// OpenSSL) cannot offer SSLv3, anonymous, NULL, EXPORT or RC4 suites, so it cannot tell whether a server
// would accept them. Each probe sends one ClientHello and reads the answer up to the ServerHello (or, for
// a full probe, up to ServerHelloDone: the certificates, the key exchange parameters, a stapled OCSP
// response), then closes: no handshake is ever completed and no application data is sent.
import net from 'node:net';
import { randomBytes } from 'node:crypto';

import { TLS_SUITES } from './tls-suites.data.ts';

export type ProtocolVersion = 'SSLv3' | 'TLSv1.0' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';

export const WIRE_VERSION: Record<ProtocolVersion, number> = {
  SSLv3: 0x0300,
  'TLSv1.0': 0x0301,
  'TLSv1.1': 0x0302,
  'TLSv1.2': 0x0303,
  'TLSv1.3': 0x0304,
};
const VERSION_NAME = new Map(Object.entries(WIRE_VERSION).map(([k, v]) => [v, k as ProtocolVersion]));

export interface Suite {
  code: number;
  name: string;
  kx: string;
  au: string;
  enc: string;
  mac: string;
  tls13: boolean;
  /** No encryption at all. */
  nullCipher: boolean;
  /** No authentication of the server (anonymous Diffie-Hellman): anyone in the middle can answer. */
  anonymous: boolean;
  /** 40- and 56-bit export-grade suites (FREAK, Logjam). */
  export: boolean;
  rc4: boolean;
  /** 64-bit block ciphers: 3DES, DES, IDEA, RC2 (SWEET32). */
  block64: boolean;
  cbc: boolean;
  aead: boolean;
  forwardSecret: boolean;
}

function describe([code, name, kx, au, enc, mac, minVersion]: (typeof TLS_SUITES)[number]): Suite {
  const tls13 = minVersion === 'TLSv1.3';
  const aead = mac === 'AEAD';
  return {
    code,
    name,
    kx,
    au,
    enc,
    mac,
    tls13,
    nullCipher: enc === 'None',
    anonymous: au === 'None',
    export: /^EXP/.test(name) || /\((40|56)\)/.test(enc) || /\((512|1024)\)/.test(kx),
    rc4: enc.startsWith('RC4'),
    block64: /^(3DES|DES|IDEA|RC2)/.test(enc),
    cbc: !aead && !enc.startsWith('RC4') && enc !== 'None',
    aead,
    // Ephemeral key exchange: TLS 1.3 always; ECDHE, DHE (OpenSSL's Kx=ECDH/DH with Au not a static DH key).
    forwardSecret: tls13 || ((kx === 'ECDH' || kx === 'DH' || kx === 'ECDHEPSK' || kx === 'DHEPSK') && !/^(ECDH|DH)-/.test(name)),
  };
}

export const SUITES: ReadonlyMap<number, Suite> = new Map(TLS_SUITES.map((row) => [row[0], describe(row)]));

// Extension and message numbers (RFC 8446 §4.2, RFC 5246 §7.4).
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
const HANDSHAKE = { serverHello: 2, certificate: 11, serverKeyExchange: 12, serverHelloDone: 14, certificateStatus: 22 };
const GROUPS = [29, 23, 24, 25, 30, 256, 257, 258, 19, 21];
const SIGNATURE_ALGORITHMS = [
  0x0403, 0x0503, 0x0603, 0x0804, 0x0805, 0x0806, 0x0401, 0x0501, 0x0601, 0x0203, 0x0201, 0x0202, 0x0402, 0x0502,
];

const u8 = (n: number) => Buffer.from([n & 0xff]);
const u16 = (n: number) => Buffer.from([(n >> 8) & 0xff, n & 0xff]);
const u24 = (n: number) => Buffer.from([(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]);
const vec16 = (body: Buffer) => Buffer.concat([u16(body.length), body]);
const vec8 = (body: Buffer) => Buffer.concat([u8(body.length), body]);
const ext = (type: number, body: Buffer) => Buffer.concat([u16(type), vec16(body)]);
const list16 = (values: number[]) => vec16(Buffer.concat(values.map(u16)));

/** A ClientHello record offering `suites` at `version`, with the extensions that version knows. */
export function clientHello(version: ProtocolVersion, suites: readonly number[], serverName?: string): Buffer {
  const tls13 = version === 'TLSv1.3';
  const extensions: Buffer[] = [];
  if (version !== 'SSLv3') {
    if (serverName && net.isIP(serverName) === 0) {
      const name = Buffer.from(serverName, 'ascii');
      extensions.push(ext(EXT.serverName, vec16(Buffer.concat([u8(0), vec16(name)]))));
    }
    extensions.push(
      ext(EXT.supportedGroups, list16(GROUPS)),
      ext(EXT.ecPointFormats, vec8(Buffer.from([0]))),
      ext(EXT.signatureAlgorithms, list16(SIGNATURE_ALGORITHMS)),
      // OCSP status request: a server that staples answers with CertificateStatus.
      ext(EXT.statusRequest, Buffer.from([1, 0, 0, 0, 0])),
      ext(EXT.renegotiationInfo, Buffer.from([0])),
    );
  }
  if (tls13) {
    // An X25519 key share of random bytes: any 32 bytes are a valid public value, and the handshake is
    // abandoned after the ServerHello anyway.
    const share = Buffer.concat([u16(29), vec16(randomBytes(32))]);
    extensions.push(
      ext(EXT.supportedVersions, vec8(u16(WIRE_VERSION['TLSv1.3']))),
      ext(EXT.keyShare, vec16(share)),
      ext(EXT.pskKeyExchangeModes, vec8(Buffer.from([1]))),
    );
  }
  const legacyVersion = tls13 ? WIRE_VERSION['TLSv1.2'] : WIRE_VERSION[version];
  const body = Buffer.concat([
    u16(legacyVersion),
    randomBytes(32),
    vec8(tls13 ? randomBytes(32) : Buffer.alloc(0)), // TLS 1.3 middlebox compatibility: a session id
    list16([...suites]),
    vec8(Buffer.from([0])), // compression: null only
    ...(extensions.length > 0 ? [vec16(Buffer.concat(extensions))] : []),
  ]);
  const handshake = Buffer.concat([u8(1), u24(body.length), body]);
  // The record layer's version: SSLv3 for an SSLv3 hello, TLS 1.0 otherwise (what servers expect).
  const recordVersion = version === 'SSLv3' ? 0x0300 : 0x0301;
  return Buffer.concat([u8(22), u16(recordVersion), u16(handshake.length), handshake]);
}

export interface ServerAnswer {
  accepted: true;
  version: ProtocolVersion;
  suite: number;
  /** DER certificates as sent, leaf first (TLS ≤ 1.2 full probes). */
  certificates: Buffer[];
  /** Finite-field Diffie-Hellman prime size in bits, for DHE suites. */
  dhBits?: number;
  /** Named curve of an ECDHE exchange. */
  curve?: number;
  /** Whether the server stapled an OCSP response (CertificateStatus). */
  stapled: boolean;
}

export type HelloOutcome =
  | ServerAnswer
  | { accepted: false; reason: 'alert'; alert: number }
  | { accepted: false; reason: 'closed' | 'timeout' | 'unreachable' | 'not-tls' };

/** The messages of a handshake byte stream that are complete so far. */
function handshakeMessages(bytes: Buffer): { type: number; body: Buffer }[] {
  const out: { type: number; body: Buffer }[] = [];
  let p = 0;
  while (p + 4 <= bytes.length) {
    const length = bytes.readUIntBE(p + 1, 3);
    if (p + 4 + length > bytes.length) {
      break;
    }
    out.push({ type: bytes[p]!, body: bytes.subarray(p + 4, p + 4 + length) });
    p += 4 + length;
  }
  return out;
}

function parseServerHello(body: Buffer): { version: number; suite: number } | null {
  if (body.length < 38) {
    return null;
  }
  let version = body.readUInt16BE(0);
  const sessionLength = body[34]!;
  let p = 35 + sessionLength;
  if (p + 3 > body.length) {
    return null;
  }
  const suite = body.readUInt16BE(p);
  p += 3; // suite, compression
  if (p + 2 <= body.length) {
    const end = p + 2 + body.readUInt16BE(p);
    p += 2;
    while (p + 4 <= end && end <= body.length) {
      const type = body.readUInt16BE(p);
      const length = body.readUInt16BE(p + 2);
      if (type === EXT.supportedVersions && length === 2) {
        version = body.readUInt16BE(p + 4);
      }
      p += 4 + length;
    }
  }
  return { version, suite };
}

function parseCertificates(body: Buffer): Buffer[] {
  const certs: Buffer[] = [];
  let p = 3;
  const end = Math.min(body.length, 3 + body.readUIntBE(0, 3));
  while (p + 3 <= end) {
    const length = body.readUIntBE(p, 3);
    certs.push(body.subarray(p + 3, p + 3 + length));
    p += 3 + length;
  }
  return certs;
}

/** DHE: the prime's size; ECDHE (named_curve): the curve id. */
function parseKeyExchange(body: Buffer, suite: Suite | undefined): { dhBits?: number; curve?: number } {
  if (!suite) {
    return {};
  }
  if (suite.kx === 'DH' && body.length >= 2) {
    const primeLength = body.readUInt16BE(0);
    let prime = body.subarray(2, 2 + primeLength);
    while (prime.length > 0 && prime[0] === 0) {
      prime = prime.subarray(1);
    }
    const top = prime[0] ?? 0;
    return { dhBits: prime.length === 0 ? 0 : (prime.length - 1) * 8 + (32 - Math.clz32(top)) };
  }
  if (suite.kx === 'ECDH' && body.length >= 3 && body[0] === 3) {
    return { curve: body.readUInt16BE(1) };
  }
  return {};
}

export interface ProbeOptions {
  address: string;
  port: number;
  serverName?: string;
  timeoutMs: number;
  /** Read on to ServerHelloDone (certificates, key exchange, OCSP staple) rather than stop at ServerHello. */
  full?: boolean;
  signal?: AbortSignal;
}

/** Sends one ClientHello and reads what the server answers. */
export function probeHello(
  version: ProtocolVersion,
  suites: readonly number[],
  options: ProbeOptions,
): Promise<HelloOutcome> {
  const hello = clientHello(version, suites, options.serverName);
  return new Promise((resolve) => {
    let settled = false;
    let records = Buffer.alloc(0);
    let handshake = Buffer.alloc(0);
    const socket = net.connect({ host: options.address, port: options.port });
    const finish = (outcome: HelloOutcome) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        socket.destroy();
        resolve(outcome);
      }
    };
    const onAbort = () => finish({ accepted: false, reason: 'timeout' });
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => finish({ accepted: false, reason: 'timeout' }), options.timeoutMs);
    socket.once('connect', () => socket.write(hello));
    socket.once('error', () => finish({ accepted: false, reason: settled ? 'closed' : 'unreachable' }));
    socket.once('close', () => finish({ accepted: false, reason: 'closed' }));
    socket.on('data', (chunk: Buffer) => {
      records = Buffer.concat([records, chunk]);
      while (records.length >= 5) {
        const type = records[0]!;
        if (type < 20 || type > 24 || records[1] !== 3) {
          finish({ accepted: false, reason: 'not-tls' });
          return;
        }
        const length = records.readUInt16BE(3);
        if (records.length < 5 + length) {
          break;
        }
        const fragment = records.subarray(5, 5 + length);
        records = records.subarray(5 + length);
        if (type === 21) {
          finish({ accepted: false, reason: 'alert', alert: fragment[1] ?? 0 });
          return;
        }
        if (type !== 22) {
          continue; // change_cipher_spec and encrypted records (TLS 1.3) after the ServerHello
        }
        handshake = Buffer.concat([handshake, fragment]);
      }
      const messages = handshakeMessages(handshake);
      const hello = messages.find((m) => m.type === HANDSHAKE.serverHello);
      if (!hello) {
        return;
      }
      const parsed = parseServerHello(hello.body);
      const name = parsed ? VERSION_NAME.get(parsed.version) : undefined;
      if (!parsed || !name) {
        finish({ accepted: false, reason: 'not-tls' });
        return;
      }
      const answer: ServerAnswer = {
        accepted: true,
        version: name,
        suite: parsed.suite,
        certificates: [],
        stapled: false,
      };
      // TLS 1.3 encrypts the rest; a quick probe needs nothing after the ServerHello.
      if (!options.full || name === 'TLSv1.3') {
        finish(answer);
        return;
      }
      if (!messages.some((m) => m.type === HANDSHAKE.serverHelloDone)) {
        return;
      }
      for (const m of messages) {
        if (m.type === HANDSHAKE.certificate) {
          answer.certificates = parseCertificates(m.body);
        } else if (m.type === HANDSHAKE.serverKeyExchange) {
          Object.assign(answer, parseKeyExchange(m.body, SUITES.get(parsed.suite)));
        } else if (m.type === HANDSHAKE.certificateStatus) {
          answer.stapled = true;
        }
      }
      finish(answer);
    });
  });
}

export interface VersionSupport {
  version: ProtocolVersion;
  /** Suites the server accepted at this version, in the order it chose them (its preference, if it has one). */
  suites: number[];
}

/**
 * Every suite `version` accepts: offer all, note the one chosen, offer the rest again, until the server
 * refuses. A server that answers with another version does not support this one.
 */
export async function enumerateSuites(version: ProtocolVersion, options: ProbeOptions): Promise<VersionSupport> {
  const candidates = [...SUITES.values()]
    .filter((s) => (version === 'TLSv1.3' ? s.tls13 : !s.tls13))
    .map((s) => s.code);
  const accepted: number[] = [];
  let remaining = candidates;
  while (remaining.length > 0 && !options.signal?.aborted) {
    const outcome = await probeHello(version, remaining, { ...options, full: false });
    if (!outcome.accepted || outcome.version !== version || !remaining.includes(outcome.suite)) {
      break;
    }
    accepted.push(outcome.suite);
    remaining = remaining.filter((c) => c !== outcome.suite);
  }
  return { version, suites: accepted };
}
