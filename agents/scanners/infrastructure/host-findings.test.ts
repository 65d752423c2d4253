import { describe, expect, it } from 'vitest';

import { tlsFinding } from '../core/tls-rules.ts';
import type { Examined } from './examine-port.ts';
import { collapseGroup, collapseRepeats, sampleAgrees, tarpitFinding, withNote } from './host-findings.ts';
import { infrastructureFinding } from './rules.ts';

const limits = { alikeFrom: 4, placesNamed: 3, everyPortFrom: 256, everyPortShare: 0.9 };
const cleartext = (port: number, evidence = 'AUTH TLS answered "500 no"') =>
  infrastructureFinding('infra.ftp.cleartext', { location: `10.0.0.1:${port}`, evidence });
const examined = (port: number, evidence?: string): Examined => ({
  port,
  service: { name: 'ftp', banner: '220 ready' },
  findings: [
    infrastructureFinding('infra.open-port', { location: `10.0.0.1:${port}`, evidence: 'ftp: 220 ready' }),
    cleartext(port, evidence),
  ],
});

describe('findings that stand for many ports', () => {
  it('says a finding repeated word for word on many ports once, at its lowest port, and leaves a few repeats alone', () => {
    const many = collapseRepeats(
      [7, 3, 5, 9, 11].map((port) => cleartext(port)),
      limits,
    );
    expect(many).toHaveLength(1);
    expect(many[0]!.location).toBe('10.0.0.1:3');
    expect(many[0]!.evidence).toBe(
      'AUTH TLS answered "500 no"; the same on 5 ports: 3, 5, 7 (+2 more ports)',
    );
    expect(
      collapseRepeats(
        [1, 2, 3].map((port) => cleartext(port)),
        limits,
      ),
    ).toHaveLength(3);
    expect(
      collapseRepeats(
        [1, 2, 3, 4].map((port) => cleartext(port, `answer ${port}`)),
        limits,
      ),
    ).toHaveLength(4);
  });

  it('lets a sample stand for its group only when every examined port came out the same', () => {
    expect(sampleAgrees([examined(1), examined(2)])).toBe(true);
    expect(sampleAgrees([examined(1), examined(2, 'AUTH TLS answered "502 other"')])).toBe(false);
    expect(sampleAgrees([])).toBe(false);
    const group = { signature: 's', summary: 'ftp: 220 ready', ports: [1, 2, 3, 4, 5, 6], sample: [1, 4] };
    const collapsed = collapseGroup(group, [examined(1), examined(4)], limits);
    expect(collapsed.map((f) => [f.rule_id, f.location])).toEqual([
      ['infra.open-port', '10.0.0.1:1'],
      ['infra.ftp.cleartext', '10.0.0.1:1'],
    ]);
    expect(collapsed[1]!.evidence).toBe(
      'AUTH TLS answered "500 no"; the same on the 6 ports that answered alike (1-6); examined in full: 1, 4',
    );
  });

  it('keeps the note whole and the finding within its rule book when the evidence is long', () => {
    const long = tlsFinding('tls.rc4', { location: 'h:443', evidence: 'x'.repeat(600) });
    const noted = withNote(long, 'the same on 40 ports');
    expect(noted.evidence.length).toBeLessThanOrEqual(500);
    expect(noted.evidence.endsWith('...; the same on 40 ports')).toBe(true);
    expect(noted.severity).toBe(long.severity);
  });

  it('calls a host a tarpit when it accepts nearly every port of a long list, or answers alike on many', () => {
    const group = { signature: 'silent', summary: 'silent', ports: [1, 2, 3, 4, 5], sample: [1] };
    const shape = {
      display: 'h',
      scanned: 1010,
      open: 1010,
      alike: [group],
      distinctAnswers: 1,
      compared: 1010,
    };
    expect(tarpitFinding(shape, limits)?.evidence).toBe(
      '1010 of the 1010 scanned ports accepted a connection; 5 answered alike (silent) on ports 1-5',
    );
    // Every port, each answering differently (a honeypot imitating services).
    expect(tarpitFinding({ ...shape, alike: [], distinctAnswers: 900 }, limits)?.evidence).toBe(
      '1010 of the 1010 scanned ports accepted a connection; their first answers differ (900 different answers on 1010 ports compared)',
    );
    // A host with many services, and a short list all open: no verdict.
    expect(tarpitFinding({ ...shape, open: 60, alike: [] }, limits)).toBeNull();
    expect(tarpitFinding({ ...shape, scanned: 100, open: 100, alike: [] }, limits)).toBeNull();
  });
});
