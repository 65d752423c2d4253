// What one TLS endpoint accepts, asked with raw ClientHellos (tls-probe.ts): every protocol version from
// SSLv3 to TLS 1.3 and every suite of each (the versions in parallel), whether the server keeps its own
// suite order, the finite-field DH group it uses, and the certificates and OCSP staple it sends.
import net from 'node:net';
import tls from 'node:tls';

import { ALL_GROUPS, EC_GROUPS, type ProtocolVersion } from './tls-hello.ts';
import {
  connectionGate,
  enumerateSuites,
  probeHello,
  type HelloOptions,
  type ProbeOptions,
  type VersionSupport,
} from './tls-probe.ts';
import { SUITES } from './tls-suites.ts';

export const VERSIONS: readonly ProtocolVersion[] = ['SSLv3', 'TLSv1.0', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'];

export interface TlsSurvey {
  /** Every version probed, with the suites it accepted (empty: not accepted). */
  versions: VersionSupport[];
  /**
   * Whether the server chose by its own preference whatever the client's order (`keeps`), and the two
   * suites that told it; null when it could not be told.
   */
  serverOrder: ServerOrder | null;
  /** Prime size of the finite-field DH group of DHE suites, when the server accepts any. */
  dhBits: number | null;
  /** Certificates as the server sends them, leaf first (empty when none could be read). */
  certificates: Buffer[];
  /** An OCSP response came stapled to the certificate. */
  stapled: boolean;
}

export interface ServerOrder {
  keeps: boolean;
  first: number;
  second: number;
}

export const accepted = (survey: TlsSurvey) => survey.versions.filter((v) => v.suites.length > 0);

/**
 * A TLS 1.3 server sends its certificates encrypted, which a raw probe cannot read: a server that speaks
 * nothing older is asked through Node's own TLS, which can complete a TLS 1.3 handshake.
 */
function certificatesOverTls13(options: ProbeOptions): Promise<{ certificates: Buffer[]; stapled: boolean }> {
  return new Promise((resolve) => {
    let stapled = false;
    // requestOCSP is a TLSSocket option that tls.connect passes on; its typings omit it.
    const socket = tls.connect({
      host: options.address,
      port: options.port,
      // SNI carries names only (RFC 6066 §3).
      ...(options.serverName && net.isIP(options.serverName) === 0 ? { servername: options.serverName } : {}),
      minVersion: 'TLSv1.3',
      // Only reading what the server sends; its trust is judged from these certificates (tls-cert.ts).
      rejectUnauthorized: false,
      requestOCSP: true,
      timeout: options.timeoutMs,
    } as tls.ConnectionOptions);
    const done = (certificates: Buffer[]) => {
      clearTimeout(deadline);
      options.signal?.removeEventListener('abort', stop);
      socket.destroy();
      resolve({ certificates, stapled });
    };
    const stop = () => done([]);
    // Guard: a hard deadline, since a server dripping bytes restarts the socket's idle timeout.
    const deadline = setTimeout(stop, options.timeoutMs);
    options.signal?.addEventListener('abort', stop, { once: true });
    socket.once('OCSPResponse', (response: Buffer | undefined) => (stapled = Boolean(response?.length)));
    socket.once('secureConnect', () => {
      const certificates: Buffer[] = [];
      let cert: tls.DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
      while (cert?.raw && !certificates.some((c) => c.equals(cert!.raw))) {
        certificates.push(cert.raw);
        cert = cert.issuerCertificate;
      }
      done(certificates);
    });
    socket.once('error', () => done([]));
    socket.once('timeout', () => done([]));
  });
}

/**
 * Whether the server chooses by its own preference: the two suites it picks first from `suites` are
 * offered the other way round; a server with its own order keeps the first. Null when it cannot be told.
 */
async function keepsItsOrder(
  version: ProtocolVersion,
  suites: number[],
  options: HelloOptions,
): Promise<ServerOrder | null> {
  const pick = async (offer: number[]) => {
    const outcome = offer.length > 0 ? await probeHello(version, offer, options) : null;
    return outcome?.accepted && offer.includes(outcome.suite) ? outcome.suite : null;
  };
  const first = await pick(suites);
  const second = first === null ? null : await pick(suites.filter((code) => code !== first));
  if (first === null || second === null) {
    return null;
  }
  const reversed = await pick([second, first]);
  return reversed === null ? null : { keeps: reversed === first, first, second };
}

/** Connections one survey keeps open at once (see connectionGate). */
const SLOTS = 6;

export async function surveyTls(surveyOptions: ProbeOptions): Promise<TlsSurvey> {
  const options = { gate: connectionGate(SLOTS), ...surveyOptions };
  const versions = await Promise.all(VERSIONS.map((version) => enumerateSuites(version, options)));
  const survey: TlsSurvey = {
    versions,
    serverOrder: null,
    dhBits: null,
    certificates: [],
    stapled: false,
  };
  // The newest version below TLS 1.3 carries the certificate, the key exchange and the suite order.
  const classic = accepted(survey)
    .filter((v) => v.version !== 'TLSv1.3')
    .at(-1);
  if (!classic) {
    if (accepted(survey).length > 0) {
      Object.assign(survey, await certificatesOverTls13(options));
    }
    return survey;
  }
  const dhe = classic.suites.filter((code) => SUITES.get(code)?.finiteFieldDhe);
  // Certificates come only with suites a certificate authenticates (not anonymous, not pre-shared keys).
  const certified = classic.suites.filter(
    (code) => !SUITES.get(code)?.anonymous && !SUITES.get(code)?.preShared,
  );
  // The groups the enumeration found this version answering to (tls-probe.ts, enumerateSuites).
  const asked = { ...options, groups: classic.groups };
  // The DH group older clients get: asked naming curves only, since a server that finds an RFC 7919 group
  // in the list uses it instead of its own; a server that chooses DHE only for a client naming one is
  // asked again with every group.
  const dhGroup = async () => {
    const first = await probeHello(classic.version, dhe, { ...options, full: true, groups: EC_GROUPS });
    return first.accepted
      ? first
      : probeHello(classic.version, dhe, { ...options, full: true, groups: ALL_GROUPS });
  };
  const [serverOrder, full, withDh] = await Promise.all([
    keepsItsOrder(classic.version, classic.suites, asked),
    certified.length === 0 ? null : probeHello(classic.version, certified, { ...asked, full: true }),
    dhe.length === 0 ? null : dhGroup(),
  ]);
  survey.serverOrder = serverOrder;
  if (full?.accepted) {
    survey.certificates = full.certificates;
    survey.stapled = full.stapled;
  }
  if (withDh?.accepted && withDh.dhBits !== undefined) {
    survey.dhBits = withDh.dhBits;
  }
  return survey;
}
