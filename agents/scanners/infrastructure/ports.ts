// Port lists: "22,80,8000-8100", "1-65535" or "-" (all), or the bundled top 1000 plus risky service ports when none is given.
import { topPorts } from './top-ports.ts';

export class PortListError extends Error {
  override name = 'PortListError';
}

/** Database and cache ports missing from Nmap's top 1000 that are a classic source of breaches. */
export const riskyServicePorts: readonly number[] = [
  2375, 2376, 5601, 5984, 6379, 8086, 9200, 9300, 11211, 15672, 27017, 27018,
];

export function defaultPorts(): number[] {
  return [...new Set([...topPorts, ...riskyServicePorts])].sort((a, b) => a - b);
}

export function parsePorts(spec: string | undefined): number[] {
  if (spec === undefined || spec.trim() === '') {
    return defaultPorts();
  }
  if (spec.trim() === '-' || spec.trim().toLowerCase() === 'all') {
    return Array.from({ length: 65535 }, (_, i) => i + 1);
  }
  const ports = new Set<number>();
  for (const part of spec.split(',').map((p) => p.trim())) {
    const match = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(part);
    if (!match) {
      throw new PortListError(`bad port list entry "${part}" (use e.g. 22,80,8000-8100)`);
    }
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    // Guard: ports outside 1..65535 or reversed ranges are user errors, not something to clamp silently.
    if (from < 1 || to > 65535 || from > to) {
      throw new PortListError(`bad port range "${part}" (ports are 1-65535, low-high)`);
    }
    for (let port = from; port <= to; port += 1) {
      ports.add(port);
    }
  }
  return [...ports].sort((a, b) => a - b);
}
