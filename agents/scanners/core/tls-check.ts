// The TLS checks of one endpoint, shared by the web-application and infrastructure scanners (every TLS
// port is checked the same wherever it is found): what the server accepts, from raw ClientHellos
// (tls-survey.ts, tls-suite-findings.ts), and the certificates it sends (tls-cert.ts).
import type { Finding } from '../../../shared/findings.ts';
import type { ResolvedTarget } from '../target-policy.ts';
import { scannerSettings } from './settings.ts';
import { certificateFindings } from './tls-cert.ts';
import { probeHello } from './tls-probe.ts';
import { suiteFindings } from './tls-suite-findings.ts';
import { suiteCodes } from './tls-suites.ts';
import { surveyTls } from './tls-survey.ts';
import { trustStore } from './tls-trust.ts';

/**
 * True when the port speaks TLS: it answers a ClientHello with a ServerHello or a TLS alert. Asked with
 * raw hellos (TLS 1.2, then SSLv3 for a server that hangs up on it), so a server that only accepts what
 * Node's TLS cannot offer is found too.
 */
export async function speaksTls(target: ResolvedTarget, port: number, timeoutMs = 3000): Promise<boolean> {
  const options = { address: target.address, port, serverName: target.host, timeoutMs };
  for (const version of ['TLSv1.2', 'SSLv3'] as const) {
    const answer = await probeHello(version, suiteCodes(false), options);
    if (answer.accepted || answer.reason === 'alert') {
      return true;
    }
    if (answer.reason !== 'closed') {
      return false;
    }
  }
  return false;
}

export interface TlsCheckOptions {
  now?: Date;
  /** Per probe. */
  timeoutMs?: number;
  /** A stopped scan ends the probes. */
  signal?: AbortSignal | undefined;
  /** The target's rate limit, taken before each probe's connection. */
  pace?: () => Promise<void>;
}

/** Every TLS finding of `target`:`port`, located at `location`. */
export async function tlsFindings(
  target: ResolvedTarget,
  port: number,
  location: string,
  { now = new Date(), timeoutMs = 5000, signal, pace }: TlsCheckOptions = {},
): Promise<Finding[]> {
  const survey = await surveyTls({
    address: target.address,
    port,
    serverName: target.host,
    timeoutMs,
    ...(signal ? { signal } : {}),
    ...(pace ? { pace } : {}),
  });
  return [
    ...suiteFindings(survey, location),
    ...certificateFindings(survey.certificates, {
      host: target.host,
      location,
      trust: trustStore(scannerSettings().VIGIL_SCAN_TLS_CA_FILE),
      stapled: survey.stapled,
      now,
    }),
  ];
}
