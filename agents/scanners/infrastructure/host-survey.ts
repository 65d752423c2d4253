// Which open ports of a host are examined in full, decided from their first answers (quick-look.ts): a
// host with a few dozen services has them examined one by one; ports that answer alike by the dozen (a
// tarpit's silence, one banner on every port, one proxied application) are examined through a sample and
// reported together. A real host with many services answers differently on each (other products, banners,
// pages), so it never forms such a group; a group's sample that turns out to differ is examined in full.
import type { HostLimits } from './host-budget.ts';
import type { FirstAnswer } from './quick-look.ts';

/** Ports where real services usually listen: looked at and sampled first. */
const wellKnown = [
  21, 22, 23, 25, 53, 80, 110, 111, 135, 139, 143, 443, 445, 465, 512, 513, 514, 587, 993, 995, 1433, 1521,
  2049, 2375, 2376, 3000, 3306, 3389, 5000, 5432, 5601, 5900, 5984, 6379, 8000, 8008, 8080, 8081, 8443, 8888,
  9000, 9200, 9300, 11211, 27017,
];
const rank = new Map(wellKnown.map((port, i) => [port, i]));

/** Well-known ports first (in the order above), then the rest ascending. */
export function byPriority(ports: readonly number[]): number[] {
  return [...ports].sort((a, b) => (rank.get(a) ?? Infinity) - (rank.get(b) ?? Infinity) || a - b);
}

/** `count` ports of `ports`: the well-known ones first, then evenly spread over the others. */
export function spreadPick(ports: readonly number[], count: number): number[] {
  if (ports.length <= count) {
    return byPriority(ports);
  }
  const known = byPriority(ports.filter((port) => rank.has(port))).slice(0, count);
  const others = [...ports].filter((port) => !rank.has(port)).sort((a, b) => a - b);
  const wanted = count - known.length;
  const spread = Array.from({ length: wanted }, (_, i) => others[Math.floor((i * others.length) / wanted)]!);
  return [...known, ...spread];
}

export interface AlikeGroup {
  signature: string;
  summary: string;
  /** Every port that answered so, ascending. */
  ports: number[];
  /** The ports examined in full: the lowest (the group's findings are located there), then spread. */
  sample: number[];
}

export interface SurveyPlan {
  /** Ports examined one by one, most likely services first. */
  individual: number[];
  /** Ports answering alike, each group judged from its sample. */
  groups: AlikeGroup[];
  /** Open ports whose first answer was not read (beyond the limit). */
  unlooked: number[];
}

/** The ports whose first answer is read: all of them, or `lookedAt` of them, well-known first. */
export function portsToLookAt(open: readonly number[], limits: Pick<HostLimits, 'lookedAt'>): number[] {
  return spreadPick(open, limits.lookedAt);
}

export function planSurvey(
  open: readonly number[],
  looks: readonly FirstAnswer[],
  limits: Pick<HostLimits, 'alikeFrom' | 'sample'>,
): SurveyPlan {
  const bySignature = new Map<string, FirstAnswer[]>();
  for (const look of looks) {
    bySignature.set(look.signature, [...(bySignature.get(look.signature) ?? []), look]);
  }
  const groups: AlikeGroup[] = [];
  const individual: number[] = [];
  for (const [signature, answers] of bySignature) {
    const ports = answers.map((a) => a.port).sort((a, b) => a - b);
    if (ports.length < limits.alikeFrom) {
      individual.push(...ports);
      continue;
    }
    const lowest = ports[0]!;
    const rest = spreadPick(ports.slice(1), limits.sample - 1);
    groups.push({ signature, summary: answers[0]!.summary, ports, sample: [lowest, ...rest] });
  }
  const looked = new Set(looks.map((look) => look.port));
  return {
    individual: byPriority(individual),
    groups: groups.sort((a, b) => b.ports.length - a.ports.length),
    unlooked: open.filter((port) => !looked.has(port)),
  };
}

/** "1-1024, 2000, 8080-8090 (+12 more ports)": ascending ports as ranges, at most `named` ranges. */
export function describePlaces(ports: readonly number[], named: number): string {
  const sorted = [...new Set(ports)].sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const port of sorted) {
    const last = ranges.at(-1);
    if (last && port === last[1] + 1) {
      last[1] = port;
    } else {
      ranges.push([port, port]);
    }
  }
  const shown = ranges.slice(0, named);
  const left = ranges.slice(named).reduce((n, [from, to]) => n + to - from + 1, 0);
  return (
    shown.map(([from, to]) => (from === to ? String(from) : `${from}-${to}`)).join(', ') +
    (left > 0 ? ` (+${left} more ${left === 1 ? 'port' : 'ports'})` : '')
  );
}
