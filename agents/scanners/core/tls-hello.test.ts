// The ClientHello bytes we send, and the reader of what servers answer: recorded answers of real servers
// (tls-answers.recorded.json, from scripts/record-tls-answers.ts), and the answers no Debian server can
// give any more (SSLv3, EXPORT: compiled out of OpenSSL 3 and GnuTLS 3.7) built from RFC 6101 and 2246.
import { describe, expect, it } from 'vitest';

import recorded from './tls-answers.recorded.json';
import { clientHello, readServerFlight, type ProtocolVersion } from './tls-hello.ts';
import { SUITES, suiteCodes } from './tls-suites.ts';

const isDhe = (code: number) => SUITES.get(code)?.finiteFieldDhe ?? false;
const fixed = () => Buffer.alloc(32, 0x42);

/** Reads a ClientHello record back into its fields (RFC 5246 §7.4.1.2), checking every length on the way. */
function parseHello(bytes: Buffer) {
  expect(bytes[0]).toBe(22);
  expect(bytes.readUInt16BE(3)).toBe(bytes.length - 5);
  const hs = bytes.subarray(5);
  expect(hs[0]).toBe(1);
  expect(hs.readUIntBE(1, 3)).toBe(hs.length - 4);
  const body = hs.subarray(4);
  let p = 34;
  const sessionId = body.subarray(p + 1, p + 1 + body[p]!);
  p += 1 + body[p]!;
  const suites: number[] = [];
  for (let end = p + 2 + body.readUInt16BE(p), q = p + 2; q < end; q += 2) {
    suites.push(body.readUInt16BE(q));
  }
  p += 2 + body.readUInt16BE(p);
  expect([...body.subarray(p, p + 1 + body[p]!)]).toEqual([1, 0]); // null compression only
  p += 1 + body[p]!;
  const extensions = new Map<number, Buffer>();
  if (p < body.length) {
    expect(body.readUInt16BE(p)).toBe(body.length - p - 2);
    for (p += 2; p < body.length; p += 4 + body.readUInt16BE(p + 2)) {
      extensions.set(body.readUInt16BE(p), body.subarray(p + 4, p + 4 + body.readUInt16BE(p + 2)));
    }
    expect(p).toBe(body.length);
  }
  return { record: bytes.readUInt16BE(1), legacy: body.readUInt16BE(0), sessionId, suites, extensions };
}

describe('ClientHello', () => {
  it('SSLv3: an SSLv3 record, no extensions at all, byte for byte', () => {
    const hello = clientHello('SSLv3', [0x0003, 0x000a], { serverName: 'shop.example', random: fixed });
    expect(hello.toString('hex')).toBe(
      `16030000${'2f'}01${'00002b'}0300${'42'.repeat(32)}00${'0004'}0003000a${'01'}00`,
    );
  });

  it('TLS 1.0 and 1.1: SNI, groups, point formats, status request, secure renegotiation; no signature algorithms', () => {
    for (const version of ['TLSv1.0', 'TLSv1.1'] as ProtocolVersion[]) {
      const h = parseHello(
        clientHello(version, suiteCodes(false), { serverName: 'shop.example', random: fixed }),
      );
      expect(h.record).toBe(0x0301);
      expect(h.legacy).toBe(version === 'TLSv1.0' ? 0x0301 : 0x0302);
      expect(h.sessionId.length).toBe(0);
      expect(h.suites).toEqual(suiteCodes(false));
      expect([...h.extensions.keys()]).toEqual([0, 10, 11, 5, 0xff01]);
      expect(h.extensions.get(0)!.subarray(5).toString()).toBe('shop.example');
      expect(h.extensions.get(5)!.toString('hex')).toBe('0100000000');
    }
  });

  it('TLS 1.2 adds signature algorithms; an IP literal is never sent as SNI (RFC 6066)', () => {
    const h = parseHello(clientHello('TLSv1.2', [0xc02f], { serverName: '127.0.0.1', random: fixed }));
    expect(h.legacy).toBe(0x0303);
    expect([...h.extensions.keys()]).toEqual([10, 11, 5, 13, 0xff01]);
    expect(h.extensions.get(13)!.readUInt16BE(0)).toBe(h.extensions.get(13)!.length - 2);
  });

  it('TLS 1.3: legacy version 1.2, a session id, supported_versions 1.3 only, an x25519 key share', () => {
    const h = parseHello(
      clientHello('TLSv1.3', suiteCodes(true), { serverName: 'shop.example', random: fixed }),
    );
    expect(h.legacy).toBe(0x0303);
    expect(h.sessionId.length).toBe(32);
    expect(h.suites).toEqual([0x1301, 0x1302, 0x1303, 0x1304, 0x1305]);
    expect(h.extensions.get(43)!.toString('hex')).toBe('020304');
    expect(h.extensions.get(51)!.subarray(0, 6).toString('hex')).toBe('0024001d0020');
    expect(h.extensions.has(0xff01)).toBe(false);
  });

  it('leaves the ffdhe groups out when told (a DHE probe must see the group older clients get)', () => {
    const h = parseHello(clientHello('TLSv1.2', [0x0033], { groups: [29, 23] }));
    expect(h.extensions.get(10)!.toString('hex')).toBe('0004001d0017');
  });
});

describe('reading real servers’ answers (recorded)', () => {
  const answer = (name: keyof typeof recorded) =>
    readServerFlight(Buffer.from(recorded[name].answer, 'hex'), isDhe);

  it('nginx/OpenSSL, DHE: certificate and the 1024-bit group of its ServerKeyExchange', () => {
    const flight = answer('nginx-dhe-1024');
    expect(flight).toMatchObject({ kind: 'hello', version: 'TLSv1.2', suite: 0x0033, complete: true });
    expect(flight.kind === 'hello' && flight.dhBits).toBe(1024);
    expect(flight.kind === 'hello' && flight.certificates.length).toBe(1);
  });

  it('nginx/OpenSSL: a TLS 1.0 ServerHello', () => {
    expect(answer('nginx-tls10')).toMatchObject({ kind: 'hello', version: 'TLSv1.0', stapled: false });
  });

  it('nginx/OpenSSL hardened: the full chain, an ECDHE curve and a stapled OCSP response', () => {
    const flight = answer('nginx-stapled-ecdhe');
    expect(flight).toMatchObject({ kind: 'hello', suite: 0xc02b, stapled: true, curve: 29, complete: true });
    expect(flight.kind === 'hello' && flight.certificates.length).toBe(2);
  });

  it('TLS 1.3: the version from supported_versions; the encrypted rest is skipped', () => {
    expect(answer('nginx-tls13')).toMatchObject({
      kind: 'hello',
      version: 'TLSv1.3',
      retry: false,
      complete: true,
    });
  });

  it('a HelloRetryRequest still names the suite the server accepts', () => {
    expect(answer('openssl-hello-retry')).toMatchObject({ kind: 'hello', version: 'TLSv1.3', retry: true });
  });

  it('fatal alerts: protocol_version (70) and handshake_failure (40)', () => {
    expect(answer('nginx-protocol-version-alert')).toEqual({ kind: 'alert', description: 70 });
    expect(answer('nginx-handshake-failure-alert')).toEqual({ kind: 'alert', description: 40 });
  });

  it('gnutls: RC4, and anonymous DH with its group and no certificate', () => {
    expect(answer('gnutls-rc4')).toMatchObject({ kind: 'hello', suite: 0x0005, complete: true });
    const anon = answer('gnutls-anon-dh');
    expect(anon).toMatchObject({ kind: 'hello', suite: 0x0034, dhBits: 1024, certificates: [] });
  });

  it('every recorded answer cut short at any byte reads as incomplete or as what it was so far, never throws', () => {
    for (const { answer: hex } of Object.values(recorded)) {
      const bytes = Buffer.from(hex, 'hex');
      for (let n = 0; n < Math.min(bytes.length, 400); n++) {
        expect(['incomplete', 'hello', 'alert']).toContain(
          readServerFlight(bytes.subarray(0, n), isDhe).kind,
        );
      }
    }
  });
});

/** A ServerHello record as RFC 6101 §5.6.1.3 / RFC 2246 §7.4.1.3 lay it out, without extensions. */
function serverHello(version: number, suite: number): Buffer {
  const body = Buffer.concat([
    Buffer.from([version >> 8, version & 0xff]),
    Buffer.alloc(32, 7),
    Buffer.from([0]), // no session id
    Buffer.from([suite >> 8, suite & 0xff, 0]),
  ]);
  const hs = Buffer.concat([Buffer.from([2, 0, 0, body.length]), body]);
  return Buffer.concat([Buffer.from([22, version >> 8, version & 0xff, 0, hs.length]), hs]);
}

describe('answers no Debian server can give (built from the RFCs)', () => {
  it('an SSLv3 ServerHello choosing an EXPORT RC4 suite', () => {
    const flight = readServerFlight(serverHello(0x0300, 0x0003), isDhe);
    expect(flight).toMatchObject({ kind: 'hello', version: 'SSLv3', suite: 0x0003 });
    expect(SUITES.get(0x0003)).toMatchObject({
      export: true,
      rc4: true,
      name: 'TLS_RSA_EXPORT_WITH_RC4_40_MD5',
    });
  });

  it('a TLS 1.0 ServerHello choosing an EXPORT1024 DES suite', () => {
    expect(readServerFlight(serverHello(0x0301, 0x0062), isDhe)).toMatchObject({ version: 'TLSv1.0' });
    expect(SUITES.get(0x0062)).toMatchObject({ export: true, block64: true, cbc: true });
  });

  it('a warning alert (unrecognized_name) before the ServerHello is not a refusal; close_notify is', () => {
    const warning = Buffer.from([21, 3, 1, 0, 2, 1, 112]);
    expect(readServerFlight(Buffer.concat([warning, serverHello(0x0303, 0xc02f)]), isDhe)).toMatchObject({
      kind: 'hello',
      suite: 0xc02f,
    });
    expect(readServerFlight(Buffer.from([21, 3, 3, 0, 2, 1, 0]), isDhe)).toEqual({
      kind: 'alert',
      description: 0,
    });
  });

  it('what is not TLS: an HTTP 400, an SSH banner, a ServerHello of an unknown version', () => {
    expect(readServerFlight(Buffer.from('HTTP/1.1 400 Bad Request\r\n'), isDhe).kind).toBe('not-tls');
    expect(readServerFlight(Buffer.from('SSH-2.0-OpenSSH_9.2\r\n'), isDhe).kind).toBe('not-tls');
    expect(readServerFlight(serverHello(0x0305, 0x1301), isDhe).kind).toBe('not-tls');
  });
});
