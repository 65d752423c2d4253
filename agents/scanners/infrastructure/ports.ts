// Port lists: "22,80,8000-8100", "1-65535" or "-" (all), or the bundled top 1000 plus risky service ports when none is given.
// nmap's protocol prefixes are understood: "T:22" is TCP (the default), "U:161" a UDP port. The connect
// scan is TCP; UDP is probed only for SNMP (UDP 161 whenever TCP 161 is in the list, and every U: port).
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
    if (/^U:/i.test(part)) {
      parseUdpEntry(part);
      continue;
    }
    const match = /^(?:T:)?(\d{1,5})(?:-(\d{1,5}))?$/i.exec(part);
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

const snmpPort = 161;

function parseUdpEntry(part: string): number {
  const port = /^U:(\d{1,5})$/i.exec(part)?.[1];
  // Guard: UDP is probed port by port (SNMP only), so only single ports, never ranges.
  if (port === undefined || Number(port) < 1 || Number(port) > 65535) {
    throw new PortListError(`bad UDP port "${part}" (use e.g. U:161; UDP takes single ports)`);
  }
  return Number(port);
}

/** The UDP ports to probe for SNMP: every U: entry, and 161 when the TCP list has 161 (the default list does). */
export function parseUdpPorts(spec: string | undefined): number[] {
  const udp = new Set<number>();
  for (const part of (spec ?? '').split(',').map((p) => p.trim())) {
    if (/^U:/i.test(part)) {
      udp.add(parseUdpEntry(part));
    }
  }
  if (parsePorts(spec).includes(snmpPort)) {
    udp.add(snmpPort);
  }
  return [...udp].sort((a, b) => a - b);
}
