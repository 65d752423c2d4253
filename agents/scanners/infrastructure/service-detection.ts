// Service detection of one host within its budget (host-budget.ts): with a few dozen open ports, each is
// examined in full; with more, their first answers are compared first (quick-look.ts, host-survey.ts), so
// that ports answering alike are examined through a sample and reported once, and a host that answers on
// every port or the same way on many gets one verdict (host-findings.ts) instead of thousands of findings.
import type { Finding } from '../../../shared/findings.ts';
import { forEachLimit } from '../core/pool.ts';
import { withConnectionMeter } from './connection-meter.ts';
import { examinePort, type Examined, type PortContext } from './examine-port.ts';
import { HostBudget, hostLimits, type HostLimits } from './host-budget.ts';
import {
  collapseGroup,
  collapseRepeats,
  sampleAgrees,
  tarpitFinding,
  unexaminedFinding,
} from './host-findings.ts';
import { byPriority, planSurvey, portsToLookAt, type AlikeGroup, type SurveyPlan } from './host-survey.ts';
import { quickLook, type FirstAnswer } from './quick-look.ts';

export interface DetectionInput extends Omit<PortContext, 'signal' | 'pace'> {
  open: readonly number[];
  /** How many ports the scanned list held. */
  scanned: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  /**
   * Findings that are final as soon as their port is examined (a host with fewer open ports than are
   * compared: nothing will be collapsed), so that a scan killed mid-way still reports them.
   */
  onFinding?: (finding: Finding) => void;
  /** Test seam: other limits than the product's. */
  limits?: HostLimits;
}

export interface Detection {
  findings: Finding[];
  /** Why open ports were left unexamined beyond what the limits plan for (the result is partial), or null. */
  cutShort: string | null;
}

/** Ports looked at at once: each look holds two connections, mostly waiting. */
const LOOKS_AT_ONCE = 128;
/** Ports examined at once. */
const EXAMINED_AT_ONCE = 16;
/**
 * Ports looked at again, at most, when they answered unlike a group or late: as many as are looked at at
 * once, the most one stall of a busy host can spoil.
 */
const RELOOKED = LOOKS_AT_ONCE;

/**
 * The looks (by index) whose answer joined no group while a group of `alikeFrom` or more answered alike, or
 * whose greeting came late (many late ones can make a group of their own: a busy moment), with the groups'
 * signatures: those ports are worth a second look.
 */
function oddOnesOut(
  looks: readonly FirstAnswer[],
  alikeFrom: number,
): { odd: number[]; groups: Set<string> } {
  const counts = new Map<string, number>();
  for (const { signature } of looks) {
    counts.set(signature, (counts.get(signature) ?? 0) + 1);
  }
  const groups = new Set([...counts].filter(([, n]) => n >= alikeFrom).map(([signature]) => signature));
  const odd =
    groups.size === 0 ? [] : looks.flatMap((l, i) => (groups.has(l.signature) && !l.late ? [] : [i]));
  return { odd, groups };
}

export async function detectServices(input: DetectionInput): Promise<Detection> {
  const limits = input.limits ?? hostLimits;
  const budget = new HostBudget(limits, input.signal);
  try {
    return await withConnectionMeter(
      () => budget.take(),
      () => detect(input, limits, budget),
    );
  } finally {
    budget.dispose();
  }
}

async function detect(input: DetectionInput, limits: HostLimits, budget: HostBudget): Promise<Detection> {
  const ctx: PortContext = {
    ...input,
    signal: budget.signal,
    pace: () => {
      input.count(1);
      return budget.take() ? Promise.resolve() : Promise.reject(new Error('host budget spent'));
    },
  };
  let done = 0;
  let total = input.open.length;
  const tick = () => input.onProgress?.(++done, Math.max(done, total));

  const looks: FirstAnswer[] = [];
  let plan: SurveyPlan = { individual: byPriority(input.open), groups: [], unlooked: [] };
  if (input.open.length >= limits.compareFrom) {
    const lookAt = portsToLookAt(input.open, limits);
    total = lookAt.length + Math.min(limits.examined, input.open.length);
    const look = (port: number, firstByteMs: number) =>
      quickLook({
        address: input.target.address,
        host: input.host,
        port,
        firstByteMs,
        signal: budget.signal,
        pace: ctx.pace,
      });
    await forEachLimit(
      lookAt,
      LOOKS_AT_ONCE,
      async (port) => {
        looks.push(await look(port, input.firstByteMs));
        input.count(1);
        tick();
      },
      budget.signal,
    );
    // A port that answered unlike the many beside it, or greeted only after our request, may only have
    // been slow to answer (a busy host, or a busy scanner): it is looked at once more, waiting twice as
    // long, and joins the group if it now answers alike, on time.
    const recheck = oddOnesOut(looks, limits.alikeFrom);
    await forEachLimit(
      recheck.odd.slice(0, RELOOKED),
      LOOKS_AT_ONCE,
      async (index) => {
        const again = await look(looks[index]!.port, input.firstByteMs * 2);
        if (recheck.groups.has(again.signature) && !again.late) {
          looks[index] = again;
        }
        input.count(1);
      },
      budget.signal,
    );
    plan = planSurvey(input.open, looks, limits);
  }

  const examined = new Map<number, Examined>();
  let left = limits.examined;
  const examine = (ports: readonly number[]) => {
    const chosen = ports.filter((port) => !examined.has(port)).slice(0, Math.max(0, left));
    left -= chosen.length;
    return forEachLimit(
      chosen,
      EXAMINED_AT_ONCE,
      async (port) => {
        const result = await examinePort(ctx, port);
        examined.set(port, result);
        if (looks.length === 0) {
          result.findings.forEach((finding) => input.onFinding?.(finding));
        }
        tick();
      },
      budget.signal,
    );
  };
  // Each group's sample first (a few ports stand for many), then the ports that answered on their own.
  await examine([...plan.groups.flatMap((g) => g.sample), ...plan.individual]);
  const alike: AlikeGroup[] = [];
  const differing: AlikeGroup[] = [];
  for (const group of plan.groups) {
    const sample = group.sample.flatMap((port) => examined.get(port) ?? []);
    (sample.length === group.sample.length && sampleAgrees(sample) ? alike : differing).push(group);
  }
  // A group whose sample differs is no group: its ports are examined one by one, as far as the limits go.
  await examine(byPriority(differing.flatMap((g) => g.ports)));

  const findings: Finding[] = [];
  const represented = new Set<number>();
  for (const group of alike) {
    findings.push(
      ...collapseGroup(
        group,
        group.sample.map((port) => examined.get(port)!),
        limits,
      ),
    );
    group.ports.forEach((port) => represented.add(port));
  }
  findings.push(
    ...collapseRepeats(
      [...examined].flatMap(([port, result]) => (represented.has(port) ? [] : result.findings)),
      limits,
    ),
  );
  const shape = {
    display: input.display,
    scanned: input.scanned,
    open: input.open.length,
    alike,
    distinctAnswers: new Set(looks.map((l) => l.signature)).size,
    compared: looks.length,
  };
  const verdict = tarpitFinding(shape, limits);
  if (verdict) {
    findings.push(verdict);
  }
  const unexamined = input.open.filter((port) => !examined.has(port) && !represented.has(port));
  const why = budget.reason ?? (input.signal?.aborted ? 'the scan was stopped' : null);
  const limited =
    plan.unlooked.length > 0
      ? `beyond the ${limits.lookedAt} ports whose first answers are compared, and the ${limits.examined} examined in full`
      : `beyond the ${limits.examined} ports examined in full`;
  if (unexamined.length > 0) {
    findings.push(unexaminedFinding(input.display, unexamined, why ?? limited, limits));
  }
  // Ports a verdict explains (a tarpit's, a proxy's) are not missing from the result; others are.
  return {
    findings,
    cutShort: why ?? (unexamined.length > 0 && verdict === null ? limited : null),
  };
}
