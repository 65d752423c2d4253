// One open port examined in full: its service identified (clear-text probes, and a ClientHello beside
// them), then checked (TLS checks, or the checks of the service found), with its open-port finding.
import type { Finding } from '../../../shared/findings.ts';
import { speaksTls, tlsReport } from '../core/tls-check.ts';
import type { ResolvedTarget } from '../target-policy.ts';
import { serviceFindings } from './checks.ts';
import { identifyService } from './identify.ts';
import type { ServiceInfo } from './identify.ts';
import { infrastructureFinding } from './rules.ts';

export interface PortContext {
  target: ResolvedTarget;
  /** The host as the user named it (HTTP Host header, TLS server name). */
  host: string;
  /** How locations show the address ("127.0.0.1", "[::1]"). */
  display: string;
  firstByteMs: number;
  signal: AbortSignal;
  /** Counts requests for the scan's stats; called before each TLS probe's connection. */
  count: (requests: number) => void;
  /** Taken before each TLS probe's connection: rejects when the host's budget is spent. */
  pace: () => Promise<void>;
}

export interface Examined {
  port: number;
  service: ServiceInfo | null;
  /** The open-port finding first, then the checks'. */
  findings: Finding[];
}

export async function examinePort(ctx: PortContext, port: number): Promise<Examined> {
  const { target, firstByteMs } = ctx;
  // Every open port is also asked for a ServerHello, alongside the clear-text probes: a TLS port either
  // stays silent to them (Node, GnuTLS, OpenSSL) or answers HTTP 400 "plain HTTP sent to an HTTPS port"
  // (nginx, Apache). Once it answers TLS, the clear-text probes stop.
  const tlsAnswered = new AbortController();
  const [identified, tls] = await Promise.all([
    identifyService(
      target.address,
      ctx.host,
      port,
      { firstByteMs },
      AbortSignal.any([ctx.signal, tlsAnswered.signal]),
    ),
    speaksTls(target, port, firstByteMs * 4, { signal: ctx.signal, pace: ctx.pace }).then((yes) => {
      if (yes) {
        tlsAnswered.abort();
      }
      return yes;
    }),
  ]);
  ctx.count(10);
  const location = `${ctx.display}:${port}`;
  if (tls) {
    const report = await tlsReport(target, port, location, {
      timeoutMs: firstByteMs * 4,
      signal: ctx.signal,
      pace: ctx.pace,
    });
    const service = {
      name: 'tls',
      banner: report.lie ? `TLS ServerHellos not to be believed: ${report.lie}` : 'TLS handshake',
    };
    return { port, service, findings: [openPort(location, service), ...report.findings] };
  }
  const checks: Finding[] = identified
    ? await serviceFindings(
        {
          address: target.address,
          host: ctx.host,
          port,
          location,
          timing: { firstByteMs },
          signal: ctx.signal,
        },
        identified,
      )
    : [];
  return { port, service: identified, findings: [openPort(location, identified), ...checks] };
}

const openPort = (location: string, service: ServiceInfo | null) =>
  infrastructureFinding('infra.open-port', {
    location,
    evidence: service ? `${service.name}: ${service.banner}` : 'open; service not identified',
  });
