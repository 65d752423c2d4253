import { describe, expect, it } from 'vitest';

import { parsePorts, parseUdpPorts, PortListError } from './ports.ts';

describe('parsePorts', () => {
  it('defaults to the bundled top 1000 plus database and cache ports', () => {
    const ports = parsePorts(undefined);
    expect(ports.length).toBeGreaterThanOrEqual(1000);
    expect(ports.length).toBeLessThan(1020);
    expect(ports).toEqual(
      expect.arrayContaining([
        21, 22, 23, 25, 80, 443, 445, 3306, 3389, 5432, 5900, 6379, 8080, 9200, 11211, 27017,
      ]),
    );
  });

  it('parses lists and ranges, sorted and deduplicated', () => {
    expect(parsePorts('80, 22,8000-8003,22')).toEqual([22, 80, 8000, 8001, 8002, 8003]);
    expect(parsePorts('-')).toHaveLength(65535);
    expect(parsePorts('1-65535')).toHaveLength(65535);
  });

  it.each(['0', '65536', '80-22', 'http', '22,,80', '1-2-3', '-5'])('refuses %s', (spec) => {
    expect(() => parsePorts(spec)).toThrow(PortListError);
  });

  it('reads nmap-style T: and U: prefixes; UDP is SNMP only, 161 whenever TCP 161 is scanned', () => {
    expect(parsePorts('T:22,U:161,80')).toEqual([22, 80]);
    expect(parseUdpPorts('T:22,U:2361,80')).toEqual([2361]);
    expect(parseUdpPorts(undefined)).toEqual([161]);
    expect(parseUdpPorts('22,161')).toEqual([161]);
    expect(parseUdpPorts('22,80')).toEqual([]);
    expect(parsePorts('U:161')).toEqual([]);
  });

  it.each(['U:1-100', 'U:0', 'U:70000', 'U:', 'X:22'])('refuses %s', (spec) => {
    expect(() => parseUdpPorts(spec)).toThrow(PortListError);
  });
});
