// Proof of a cipher finding by a completed handshake: Node's TLS (OpenSSL) offers only the suites or the
// version the finding is about and must reach Finished. A ServerHello alone shows what a server claims;
// a completed handshake shows it can really run it. OpenSSL 3 can no longer run SSLv3, EXPORT, RC4 or
// 64-bit block suites: those findings rest on the ServerHello, and their evidence says so.
import net from 'node:net';
import tls from 'node:tls';

import type { ProbeOptions } from './tls-probe.ts';
import type { TlsRuleId } from './tls-rules.ts';
import { SUITES, type Suite } from './tls-suites.ts';

export type Proof =
  { completed: true; version: string; suite: string; dhBits?: number } | { completed: false; why: string };

interface Offer {
  minVersion: tls.SecureVersion;
  maxVersion: tls.SecureVersion;
  /** An OpenSSL cipher string: the class of suites the finding is about. */
  ciphers: string;
  /** Whether the suite the handshake completed with is of that class. */
  proves: (suite: Suite, dhBits: number | undefined) => boolean;
}

const classic = { minVersion: 'TLSv1', maxVersion: 'TLSv1.2' } as const;

/** What to offer to prove each finding; findings absent here are not provable by one handshake. */
const offers: Partial<Record<TlsRuleId, Offer>> = {
  'tls.legacy-protocol': { minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'ALL', proves: () => true },
  'tls.null-cipher': { ...classic, ciphers: 'eNULL', proves: (s) => s.nullCipher },
  'tls.anonymous-cipher': { ...classic, ciphers: 'aNULL:!eNULL', proves: (s) => s.anonymous },
  'tls.export-cipher': { ...classic, ciphers: 'EXP', proves: (s) => s.export },
  'tls.rc4': { ...classic, ciphers: 'RC4', proves: (s) => s.rc4 },
  'tls.block64-cipher': { ...classic, ciphers: '3DES:DES:IDEA:RC2', proves: (s) => s.block64 },
  'tls.cbc-tls10': { minVersion: 'TLSv1', maxVersion: 'TLSv1', ciphers: 'ALL', proves: (s) => s.cbc },
  'tls.cbc-only': {
    ...classic,
    ciphers: 'ALL:!AESGCM:!AESCCM:!CHACHA20:!ARIAGCM',
    proves: (s) => s.cbc,
  },
  'tls.no-forward-secrecy': { ...classic, ciphers: 'kRSA', proves: (s) => !s.ephemeral },
  'tls.weak-dh': {
    ...classic,
    ciphers: 'kDHE',
    proves: (s, bits) => s.finiteFieldDhe && bits !== undefined && bits < 2048,
  },
};

const why = {
  sslv3: "the scanner's TLS library cannot speak SSLv3",
  library: "the scanner's TLS library cannot negotiate these suites",
  order: 'a suite order is shown by which suite a server chooses, not by completing a handshake',
} as const;

const byName = new Map([...SUITES.values()].map((suite) => [suite.name, suite]));
const LABEL: Record<string, string> = { TLSv1: 'TLS 1.0', 'TLSv1.1': 'TLS 1.1', 'TLSv1.2': 'TLS 1.2' };

/** Completes a handshake offering only what `rule` is about, or says why none completed. */
export function proveByHandshake(rule: TlsRuleId, options: ProbeOptions): Promise<Proof> {
  if (rule === 'tls.sslv3') {
    return Promise.resolve({ completed: false, why: why.sslv3 });
  }
  if (rule === 'tls.no-server-order') {
    return Promise.resolve({ completed: false, why: why.order });
  }
  const offer = offers[rule];
  if (!offer) {
    return Promise.resolve({ completed: false, why: 'no handshake proves it' });
  }
  return handshake(offer, options);
}

async function handshake(offer: Offer, options: ProbeOptions): Promise<Proof> {
  try {
    // Level 0 lets OpenSSL offer what the finding is about (TLS 1.0, SHA-1, NULL, anonymous suites).
    tls.createSecureContext({ ciphers: `${offer.ciphers}:@SECLEVEL=0` });
  } catch {
    return { completed: false, why: why.library };
  }
  try {
    await options.pace?.();
  } catch {
    return { completed: false, why: 'the scan stopped first' };
  }
  return new Promise((resolve) => {
    const socket = tls.connect({
      host: options.address,
      port: options.port,
      // SNI carries names only (RFC 6066 §3).
      ...(options.serverName && net.isIP(options.serverName) === 0 ? { servername: options.serverName } : {}),
      minVersion: offer.minVersion,
      maxVersion: offer.maxVersion,
      ciphers: `${offer.ciphers}:@SECLEVEL=0`,
      // Curves only: a server then uses its own finite-field group for DHE, the one a weak-dh finding saw.
      ecdhCurve: 'X25519:P-256:P-384:P-521',
      // Nothing is sent over this connection; the certificate is judged elsewhere (tls-cert.ts).
      rejectUnauthorized: false,
    });
    let settled = false;
    const finish = (proof: Proof) => {
      if (!settled) {
        settled = true;
        clearTimeout(deadline);
        options.signal?.removeEventListener('abort', stopped);
        socket.destroy();
        resolve(proof);
      }
    };
    const stopped = () => finish({ completed: false, why: 'the scan stopped first' });
    // Guard: a hard deadline, since a server dripping bytes would restart any idle timeout.
    const deadline = setTimeout(
      () => finish({ completed: false, why: `it did not complete within ${options.timeoutMs} ms` }),
      options.timeoutMs,
    );
    options.signal?.addEventListener('abort', stopped, { once: true });
    socket.once('secureConnect', () => {
      const cipher = socket.getCipher();
      const suite = byName.get(cipher.standardName);
      const key = socket.getEphemeralKeyInfo();
      const dhBits = key && 'type' in key && key.type === 'DH' ? key.size : undefined;
      const version = LABEL[socket.getProtocol() ?? ''] ?? socket.getProtocol() ?? '?';
      finish(
        suite && offer.proves(suite, dhBits)
          ? { completed: true, version, suite: suite.name, ...(dhBits !== undefined ? { dhBits } : {}) }
          : {
              completed: false,
              why: `it completed with ${cipher.standardName}${dhBits !== undefined ? ` and a ${dhBits}-bit DH group` : ''}, which does not show it`,
            },
      );
    });
    socket.once('error', (error: Error & { code?: string }) =>
      finish({ completed: false, why: `it failed (${describeError(error)})` }),
    );
    socket.once('close', () => finish({ completed: false, why: 'the server hung up' }));
  });
}

function describeError(error: Error & { code?: string }): string {
  const alert = /alert (.+?)(?::|$)/i.exec(error.message)?.[1];
  return alert ? `alert: ${alert}` : (error.code ?? 'connection error');
}

/** The proof as the start of a finding's evidence. */
export function describeProof(proof: Proof): string {
  return proof.completed
    ? `handshake completed (${proof.version}, ${proof.suite}${proof.dhBits !== undefined ? `, ${proof.dhBits}-bit DH group` : ''})`
    : `ServerHello only, no handshake completed (${proof.why})`;
}
