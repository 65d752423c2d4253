// Findings that stand for many ports of one host: a group of ports answering alike, reported once per
// rule with its places; the open ports left unexamined; and the host's own verdict when it answers on
// every port or the same way on many (a tarpit, a proxy or a honeypot).
import type { Finding } from '../../../shared/findings.ts';
import { findingFieldCaps } from '../core/inert-text.ts';
import { tlsFinding, tlsRules, type TlsRuleId } from '../core/tls-rules.ts';
import type { Examined } from './examine-port.ts';
import type { HostLimits } from './host-budget.ts';
import { describePlaces, type AlikeGroup } from './host-survey.ts';
import { infrastructureFinding, type InfrastructureRuleId } from './rules.ts';

/** The rule books keep evidence to this many characters; a note about places must fit beside it. */
const evidenceRoom = findingFieldCaps.evidence;

/**
 * `finding` with `note` added to its evidence, made again through its rule book (so the book's limits
 * and sanitising apply); the original evidence is shortened, never the note.
 */
export function withNote(finding: Finding, note: string): Finding {
  const room = Math.max(0, evidenceRoom - note.length - 2);
  const original =
    finding.evidence.length > room
      ? `${finding.evidence.slice(0, Math.max(0, room - 3))}...`
      : finding.evidence;
  const detail = {
    location: finding.location,
    evidence: `${original}; ${note}`,
    cvss: finding.cvss.vector,
    remediation: finding.remediation,
  };
  return finding.rule_id in tlsRules
    ? tlsFinding(finding.rule_id as TlsRuleId, detail)
    : infrastructureFinding(finding.rule_id as InfrastructureRuleId, detail);
}

/** The examination results that must match for a group's sample to stand for the whole group. */
export function outcomeKey(examined: Examined): string {
  const checks = examined.findings
    .filter((f) => f.rule_id !== 'infra.open-port')
    .map((f) => `${f.rule_id}\u0000${f.evidence}`)
    .sort();
  return [examined.service?.name ?? '', ...checks].join('\u0001');
}

/** True when every examined port of the sample came out the same. */
export function sampleAgrees(sample: readonly Examined[]): boolean {
  return sample.length > 0 && sample.every((e) => outcomeKey(e) === outcomeKey(sample[0]!));
}

/**
 * A group whose sample agrees, as one finding per rule, located at the group's lowest port (always
 * examined), each saying on how many ports it was seen and which were examined.
 */
export function collapseGroup(
  group: AlikeGroup,
  sample: readonly Examined[],
  limits: Pick<HostLimits, 'placesNamed'>,
): Finding[] {
  const lowest = sample.find((e) => e.port === group.ports[0]) ?? sample[0]!;
  const places = describePlaces(group.ports, limits.placesNamed);
  const examined = describePlaces(
    sample.map((e) => e.port),
    limits.placesNamed,
  );
  const where = `the same on the ${group.ports.length} ports that answered alike (${places}); examined in full: ${examined}`;
  return lowest.findings.map((finding) => withNote(finding, where));
}

const portOf = (finding: Finding) => Number(finding.location.slice(finding.location.lastIndexOf(':') + 1));

/**
 * Findings repeated word for word on `alikeFrom` ports or more, each as one finding at its lowest port
 * naming the others: what one banner or one proxied service repeats is said once. Fewer repeats (a
 * handful of replicas of one application) stay one finding per port.
 */
export function collapseRepeats(
  findings: readonly Finding[],
  limits: Pick<HostLimits, 'alikeFrom' | 'placesNamed'>,
): Finding[] {
  const repeats = new Map<string, Finding[]>();
  for (const finding of findings) {
    const key = `${finding.rule_id}\u0000${finding.evidence}`;
    repeats.set(key, [...(repeats.get(key) ?? []), finding]);
  }
  return [...repeats.values()].flatMap((same) => {
    if (same.length < limits.alikeFrom) {
      return same;
    }
    const ports = same.map(portOf).sort((a, b) => a - b);
    const lowest = same.find((f) => portOf(f) === ports[0])!;
    return [
      withNote(lowest, `the same on ${ports.length} ports: ${describePlaces(ports, limits.placesNamed)}`),
    ];
  });
}

/** Open ports that no examination and no group stands for, in one finding. */
export function unexaminedFinding(
  display: string,
  ports: readonly number[],
  why: string,
  limits: Pick<HostLimits, 'placesNamed'>,
): Finding {
  const lowest = Math.min(...ports);
  return infrastructureFinding('infra.open-port', {
    location: `${display}:${lowest}`,
    evidence: `open; ${ports.length} open ${ports.length === 1 ? 'port was' : 'ports were'} not examined (${why}): ${describePlaces(ports, limits.placesNamed)}`,
  });
}

export interface HostShape {
  display: string;
  /** Ports in the scanned list. */
  scanned: number;
  open: number;
  /** Groups of ports whose sample agreed. */
  alike: readonly AlikeGroup[];
  /** How many different first answers the compared ports gave. */
  distinctAnswers: number;
  compared: number;
}

/** Whether the host accepted (nearly) every port of a long list. */
export const acceptsEveryPort = (
  shape: HostShape,
  limits: Pick<HostLimits, 'everyPortFrom' | 'everyPortShare'>,
) => shape.scanned >= limits.everyPortFrom && shape.open >= shape.scanned * limits.everyPortShare;

/** The host's verdict, once, when it answers on every port or the same way on many; null otherwise. */
export function tarpitFinding(
  shape: HostShape,
  limits: Pick<HostLimits, 'everyPortFrom' | 'everyPortShare' | 'placesNamed'>,
): Finding | null {
  const everyPort = acceptsEveryPort(shape, limits);
  if (!everyPort && shape.alike.length === 0) {
    return null;
  }
  const parts = [
    `${shape.open} of the ${shape.scanned} scanned ports accepted a connection`,
    ...shape.alike
      .slice(0, 3)
      .map(
        (group) =>
          `${group.ports.length} answered alike (${group.summary}) on ports ${describePlaces(group.ports, 8)}`,
      ),
  ];
  if (shape.alike.length > 3) {
    parts.push(`${shape.alike.length - 3} more groups answered alike`);
  }
  if (shape.alike.length === 0 && shape.compared > 0) {
    parts.push(
      `their first answers differ (${shape.distinctAnswers} different answers on ${shape.compared} ports compared)`,
    );
  }
  return infrastructureFinding('infra.host.tarpit', { location: shape.display, evidence: parts.join('; ') });
}
