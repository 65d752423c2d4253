// One probe is one TCP connection: send a ClientHello (tls-hello.ts), read the server's answer up to its
// ServerHello (or, for a full probe, up to ServerHelloDone: certificates, key exchange, OCSP staple), then
// close. No handshake is ever completed and no application data is sent.
import net from 'node:net';

import {
  ALL_GROUPS,
  clientHello,
  EC_GROUPS,
  readServerFlight,
  type ProtocolVersion,
  type ServerHello,
} from './tls-hello.ts';
import { SUITES, suiteCodes } from './tls-suites.ts';

export type HelloOutcome =
  | ({ accepted: true } & ServerHello)
  | { accepted: false; reason: 'alert'; alert: number }
  | { accepted: false; reason: 'closed' | 'timeout' | 'unreachable' | 'not-tls' };

export interface ProbeOptions {
  address: string;
  port: number;
  /** The target's host name, sent as SNI when it is a name. */
  serverName?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Waits for the target's rate limit before each connection (rejects when the scan stops). */
  pace?: () => Promise<void>;
  /** Holds each probe until one of the endpoint's connection slots is free (see connectionGate). */
  gate?: Gate;
}

export type Gate = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * At most `slots` probes of one endpoint at once: a small server's listen queue overflows otherwise
 * (gnutls-serv's does at a dozen), and every SYN it drops costs a one-second retransmission.
 */
export function connectionGate(slots: number): Gate {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    while (active >= slots) {
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    active++;
    try {
      return await work();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

/** A server's answer is a few kilobytes (certificates); more than this is not a TLS server's first flight. */
const MAX_ANSWER = 256 * 1024;
const isDhe = (code: number) => SUITES.get(code)?.finiteFieldDhe ?? false;

export type HelloOptions = ProbeOptions & { full?: boolean; groups?: readonly number[] };

/** Sends one ClientHello and reads the answer: to the ServerHello, or to ServerHelloDone when `full`. */
export function probeHello(
  version: ProtocolVersion,
  suites: readonly number[],
  options: HelloOptions,
): Promise<HelloOutcome> {
  return options.gate
    ? options.gate(() => probeOnce(version, suites, options))
    : probeOnce(version, suites, options);
}

async function probeOnce(
  version: ProtocolVersion,
  suites: readonly number[],
  options: HelloOptions,
): Promise<HelloOutcome> {
  try {
    await options.pace?.();
  } catch {
    return { accepted: false, reason: 'timeout' }; // the scan stopped while waiting for its turn
  }
  const hello = clientHello(version, suites, {
    serverName: options.serverName,
    ...(options.groups ? { groups: options.groups } : {}),
  });
  return new Promise((resolve) => {
    let settled = false;
    let connected = false;
    let received = Buffer.alloc(0);
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
    if (options.signal?.aborted) {
      onAbort();
      return;
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => finish({ accepted: false, reason: 'timeout' }), options.timeoutMs);
    socket.once('connect', () => {
      connected = true;
      socket.write(hello);
    });
    // Refused before the hello: nothing listens. Reset after it: the server hung up on our hello.
    socket.once('error', () => finish({ accepted: false, reason: connected ? 'closed' : 'unreachable' }));
    socket.once('close', () => finish({ accepted: false, reason: 'closed' }));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const flight = readServerFlight(received, isDhe);
      if (flight.kind === 'alert') {
        finish({ accepted: false, reason: 'alert', alert: flight.description });
      } else if (flight.kind === 'not-tls' || received.length > MAX_ANSWER) {
        finish({ accepted: false, reason: 'not-tls' });
      } else if (flight.kind === 'hello' && (!options.full || flight.complete)) {
        const { kind: _kind, ...answer } = flight;
        finish({ accepted: true, ...answer });
      }
    });
  });
}

export interface VersionSupport {
  version: ProtocolVersion;
  /** Suites the server accepted at this version, by code. */
  suites: number[];
  /**
   * The server itself ended the enumeration (an alert, a hang-up, another version, nothing left to
   * offer). False after a timeout: then the list may be short, and no absence may be concluded from it.
   */
  complete: boolean;
  /**
   * The supported_groups list later probes of this version send: every group, or the curves alone when
   * the server chose its DHE suites only from a list without RFC 7919 groups (see enumerateSuites).
   */
  groups: readonly number[];
}

/**
 * The registry's suites are offered over this many connections at once (every fourth suite each), so
 * the enumeration takes a quarter of the round trips: on a distant server, round trips set the time.
 */
const PARALLEL_OFFERS = 4;

/** Offers `candidates`, notes the one chosen, offers the rest again, until the server refuses. */
async function offerUntilRefused(
  version: ProtocolVersion,
  candidates: number[],
  options: HelloOptions,
): Promise<{ suites: number[]; complete: boolean }> {
  let remaining = candidates;
  const suites: number[] = [];
  while (remaining.length > 0) {
    const outcome = await probeHello(version, remaining, options);
    if (!outcome.accepted) {
      // A server that cannot serve a hello refuses it with an alert or hangs up (both are answers).
      return { suites, complete: outcome.reason === 'alert' || outcome.reason === 'closed' };
    }
    // A server that answers with another version does not speak this one.
    if (outcome.version !== version || !remaining.includes(outcome.suite)) {
      return { suites, complete: true };
    }
    suites.push(outcome.suite);
    remaining = remaining.filter((code) => code !== outcome.suite);
  }
  return { suites, complete: true };
}

/**
 * Every suite of the registry that `version` accepts.
 *
 * The hellos name every group, the RFC 7919 finite-field ones included (some servers choose DHE only for a
 * client that names one). A server that enables none of those groups but has a DH group of its own must
 * then not choose DHE at all (RFC 7919 §4; GnuTLS does so since 3.6), although it serves any client that
 * names no finite-field group, as OpenSSL's TLS 1.2 client does not: the DHE suites left unaccepted are
 * offered once more with the curves alone.
 */
export async function enumerateSuites(
  version: ProtocolVersion,
  options: ProbeOptions,
): Promise<VersionSupport> {
  const candidates = suiteCodes(version === 'TLSv1.3');
  const lanes = Math.max(1, Math.min(PARALLEL_OFFERS, Math.floor(candidates.length / 32)));
  const results = await Promise.all(
    Array.from({ length: lanes }, (_, lane) =>
      offerUntilRefused(
        version,
        candidates.filter((_, i) => i % lanes === lane),
        options,
      ),
    ),
  );
  const suites = results.flatMap((r) => r.suites);
  let groups: readonly number[] = ALL_GROUPS;
  // SSLv3 hellos carry no extensions; TLS 1.3 has no DHE suites of the old kind.
  if (version !== 'SSLv3' && version !== 'TLSv1.3') {
    const dhe = candidates.filter((code) => isDhe(code) && !suites.includes(code));
    const again =
      dhe.length === 0 ? null : await offerUntilRefused(version, dhe, { ...options, groups: EC_GROUPS });
    if (again && again.suites.length > 0) {
      suites.push(...again.suites);
      groups = EC_GROUPS;
    }
    if (again) {
      results.push(again);
    }
  }
  return {
    version,
    suites: suites.sort((a, b) => a - b),
    complete: results.every((r) => r.complete),
    groups,
  };
}
