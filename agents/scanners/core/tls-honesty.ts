// Whether a server's ServerHellos can be believed. A ServerHello only says which suite the server claims
// to choose; a server that answers every ClientHello with the first suite offered "accepts" NULL, EXPORT
// and anonymous suites it could never run. Such a server gives itself away: it chooses suites that do not
// exist (GREASE values and signalling codes, which no server may ever choose), or suites that cannot exist
// at the version it answered with (an AEAD or SHA-256 suite in a TLS 1.0 ServerHello).
import { probeHello, type ProbeOptions } from './tls-probe.ts';
import type { ProtocolVersion } from './tls-hello.ts';
import { SUITES } from './tls-suites.ts';
import { accepted, type TlsSurvey } from './tls-survey.ts';

/**
 * Codes no server may choose: the sixteen GREASE values (RFC 8701 §3, "servers MUST NOT negotiate
 * them"), and the signalling codes of secure renegotiation (0x00FF, RFC 5746) and of version fallback
 * (0x5600, RFC 7507), which are flags in a ClientHello, not suites.
 */
export const NON_SUITES: readonly number[] = [
  ...Array.from({ length: 16 }, (_, i) => ((i << 12) | 0x0a00 | (i << 4) | 0x0a) & 0xffff),
  0x00ff,
  0x5600,
];

const hex = (code: number) => `0x${code.toString(16).padStart(4, '0')}`;

/** A suite that exists only from TLS 1.2 on: AEAD ciphers and SHA-256/384 MACs (RFC 5246 and later). */
const tls12Only = (code: number) => {
  const suite = SUITES.get(code);
  return suite !== undefined && !suite.tls13 && (suite.aead || /_SHA(256|384)$/.test(suite.name));
};
const beforeTls12: readonly ProtocolVersion[] = ['SSLv3', 'TLSv1.0', 'TLSv1.1'];

/** A suite the survey saw chosen at a version where it cannot exist, as evidence; null when none. */
export function impossibleChoice(survey: TlsSurvey): string | null {
  for (const { version, suites } of accepted(survey)) {
    const wrong = beforeTls12.includes(version) ? suites.find(tls12Only) : undefined;
    if (wrong !== undefined) {
      return `its ${version} ServerHello chose ${SUITES.get(wrong)!.name}, which exists only from TLS 1.2 on`;
    }
  }
  return null;
}

/**
 * Whether the server, offered only codes that are not suites at `version`, chose one: why its ServerHellos
 * prove nothing, or null (a real server refuses with an alert or hangs up).
 */
export async function choosesNonSuite(
  version: ProtocolVersion,
  options: ProbeOptions,
): Promise<string | null> {
  const outcome = await probeHello(version, NON_SUITES, options);
  return outcome.accepted
    ? `offered only codes that are not cipher suites (GREASE values, signalling codes), it chose a cipher suite that does not exist (${hex(outcome.suite)}) in its ${version} ServerHello`
    : null;
}

/**
 * Why the survey's ServerHellos prove nothing, or null when the server chose like a real one: a choice
 * of a code that is no suite at any version it answered, or a choice impossible at its version.
 */
export async function serverHelloLie(survey: TlsSurvey, options: ProbeOptions): Promise<string | null> {
  const chosen = await Promise.all(accepted(survey).map(({ version }) => choosesNonSuite(version, options)));
  const reasons = [
    ...chosen.filter((reason) => reason !== null).slice(0, 1),
    impossibleChoice(survey),
  ].filter((reason) => reason !== null);
  return reasons.length > 0 ? reasons.join('; ') : null;
}
