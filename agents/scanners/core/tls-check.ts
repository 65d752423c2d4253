// The TLS checks of one endpoint, shared by the web-application and infrastructure scanners (every TLS
// port is checked the same wherever it is found): what the server accepts, from raw ClientHellos
// (tls-survey.ts, tls-suite-findings.ts), and the certificates it sends (tls-cert.ts).
import type { Finding } from '../../../shared/findings.ts';
import type { ResolvedTarget } from '../target-policy.ts';
import { scannerSettings } from './settings.ts';
import { certificateFindings } from './tls-cert.ts';
import { choosesNonSuite, serverHelloLie } from './tls-honesty.ts';
import { connectionGate, probeHello, type ProbeOptions } from './tls-probe.ts';
import { describeProof, proveByHandshake } from './tls-proof.ts';
import { tlsFinding, type TlsRuleId } from './tls-rules.ts';
import { suiteFindings } from './tls-suite-findings.ts';
import { suiteCodes } from './tls-suites.ts';
import { accepted, surveyTls, type TlsSurvey } from './tls-survey.ts';
import { trustStore } from './tls-trust.ts';

/**
 * True when the port speaks TLS: it answers a ClientHello with a ServerHello or a TLS alert. Asked with
 * raw hellos (TLS 1.2, then SSLv3 for a server that hangs up on it), so a server that only accepts what
 * Node's TLS cannot offer is found too.
 */
export async function speaksTls(
  target: ResolvedTarget,
  port: number,
  timeoutMs = 3000,
  probe: { signal?: AbortSignal; pace?: () => Promise<void> } = {},
): Promise<boolean> {
  const options = { address: target.address, port, serverName: target.host, timeoutMs, ...probe };
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

export interface TlsReport {
  findings: Finding[];
  /** Why the server's ServerHellos are not to be believed (it chose what cannot be chosen), or null. */
  lie: string | null;
}

/** Handshakes that prove findings, at once per endpoint. */
const PROOFS_AT_ONCE = 3;

/**
 * The cipher findings of a survey, each proven by a completed handshake where one can be made, and its
 * evidence saying which: completed, or ServerHello only (and why). From a server whose ServerHellos lie,
 * only the findings a completed handshake proves are kept.
 */
async function provenSuiteFindings(
  survey: TlsSurvey,
  location: string,
  probe: ProbeOptions,
  lie: string | null,
): Promise<Finding[]> {
  const gate = connectionGate(PROOFS_AT_ONCE);
  const claims = suiteFindings(survey, location);
  const proven = await Promise.all(
    claims.map(async (claim) => ({
      claim,
      proof: await gate(() => proveByHandshake(claim.rule_id as TlsRuleId, probe)),
    })),
  );
  return proven
    .filter(({ proof }) => proof.completed || lie === null)
    .map(({ claim, proof }) =>
      tlsFinding(claim.rule_id as TlsRuleId, {
        location,
        evidence: `${describeProof(proof)}: ${claim.evidence}`,
      }),
    );
}

/** What a handshake can show on its own: the presence of a legacy version or of a weak class of suites. */
const presences: TlsRuleId[] = [
  'tls.legacy-protocol',
  'tls.null-cipher',
  'tls.anonymous-cipher',
  'tls.cbc-tls10',
  'tls.weak-dh',
];

/** The findings completed handshakes prove on a server whose ServerHellos cannot be believed. */
async function provenDespiteLies(location: string, probe: ProbeOptions): Promise<Finding[]> {
  const gate = connectionGate(PROOFS_AT_ONCE);
  const proofs = await Promise.all(
    presences.map(async (rule) => ({ rule, proof: await gate(() => proveByHandshake(rule, probe)) })),
  );
  return proofs.flatMap(({ rule, proof }) =>
    proof.completed
      ? [
          tlsFinding(rule, {
            location,
            evidence: `${describeProof(proof)}: a handshake offering only such suites completed, though the server's ServerHellos cannot be believed`,
          }),
        ]
      : [],
  );
}

/** Every TLS finding of `target`:`port`, located at `location`, and whether its ServerHellos lie. */
export async function tlsReport(
  target: ResolvedTarget,
  port: number,
  location: string,
  { now = new Date(), timeoutMs = 5000, signal, pace }: TlsCheckOptions = {},
): Promise<TlsReport> {
  const probe: ProbeOptions = {
    address: target.address,
    port,
    serverName: target.host,
    timeoutMs,
    ...(signal ? { signal } : {}),
    ...(pace ? { pace } : {}),
  };
  // A server that chooses a code that is no suite is not surveyed: its every ServerHello is worthless, and
  // one that "accepts" all 335 suites at every version would cost over a thousand connections.
  const early = await choosesNonSuite('TLSv1.2', probe);
  if (early) {
    return { findings: await provenDespiteLies(location, probe), lie: early };
  }
  const survey = await surveyTls(probe);
  const lie = accepted(survey).length > 0 ? await serverHelloLie(survey, probe) : null;
  return {
    findings: [
      ...(await provenSuiteFindings(survey, location, probe, lie)),
      ...certificateFindings(survey.certificates, {
        host: target.host,
        location,
        trust: trustStore(scannerSettings().VIGIL_SCAN_TLS_CA_FILE),
        stapled: survey.stapled,
        now,
      }),
    ],
    lie,
  };
}

/** Every TLS finding of `target`:`port`, located at `location`. */
export async function tlsFindings(
  target: ResolvedTarget,
  port: number,
  location: string,
  options: TlsCheckOptions = {},
): Promise<Finding[]> {
  return (await tlsReport(target, port, location, options)).findings;
}
