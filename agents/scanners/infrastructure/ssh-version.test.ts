import { describe, expect, it } from 'vitest';

import { opensshCves } from './data/openssh-cves.ts';
import { compareRevision, compareUpstream, knownCves, opensshBuild } from './ssh-version.ts';

const ids = (banner: string) => {
  const build = opensshBuild(banner);
  return build ? knownCves(build).map(({ cve }) => cve.id) : null;
};

describe('OpenSSH versions against known CVEs', () => {
  it('orders Debian revisions as dpkg does', () => {
    expect(compareRevision('2+deb12u7', '2+deb12u10')).toBeLessThan(0);
    expect(compareRevision('2+deb12u10', '2+deb12u9')).toBeGreaterThan(0);
    expect(compareRevision('3ubuntu0.10', '3ubuntu0.9')).toBeGreaterThan(0);
    expect(compareRevision('1~rc1', '1')).toBeLessThan(0);
    expect(compareRevision('10+deb9u4', '10+deb9u4')).toBe(0);
    expect(compareRevision('2', '2+deb12u1')).toBeLessThan(0);
  });

  it('orders upstream versions with their portable patch level', () => {
    expect(compareUpstream('9.2p1', '9.8p1')).toBeLessThan(0);
    expect(compareUpstream('10.0p1', '9.9p2')).toBeGreaterThan(0);
    expect(compareUpstream('9.9p2', '9.9p1')).toBeGreaterThan(0);
  });

  it('judges a Debian build by its package revision, never by the upstream version alone', () => {
    expect(ids('SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u10')).toEqual([]);
    expect(ids('SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u7')).toEqual(['CVE-2026-35414', 'CVE-2026-35387']);
    expect(ids('SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u2')).toEqual([
      'CVE-2024-6387',
      'CVE-2025-32728',
      'CVE-2026-35414',
      'CVE-2026-35387',
    ]);
    expect(ids('SSH-2.0-OpenSSH_8.9p1 Ubuntu-3ubuntu0.6')).toEqual(['CVE-2024-6387']);
    expect(ids('SSH-2.0-OpenSSH_8.9p1 Ubuntu-3ubuntu0.10')).toEqual([]);
  });

  it('judges an upstream portable build by its version', () => {
    expect(ids('SSH-2.0-OpenSSH_9.3p1')).toEqual([
      'CVE-2024-6387',
      'CVE-2025-32728',
      'CVE-2026-35414',
      'CVE-2026-35387',
    ]);
    expect(ids('SSH-2.0-OpenSSH_8.4p1')).toEqual(expect.not.arrayContaining(['CVE-2024-6387']));
    expect(ids('SSH-2.0-OpenSSH_9.1p1')).toContain('CVE-2023-25136');
    expect(ids('SSH-2.0-OpenSSH_7.7p1')).toContain('CVE-2018-15473');
  });

  it('does not judge builds whose fixes it cannot know', () => {
    // OpenBSD's own sshd and vendors that strip "p1" (and backport silently), unknown comments, other servers.
    expect(opensshBuild('SSH-2.0-OpenSSH_9.7')).toBeNull();
    expect(opensshBuild('SSH-2.0-OpenSSH_8.0')).toBeNull();
    expect(opensshBuild('SSH-2.0-OpenSSH_9.6p1 FreeBSD-20240104')).toBeNull();
    expect(opensshBuild('SSH-2.0-dropbear_2022.83')).toBeNull();
    // A Debian build of an upstream version the table has no Debian record for: unknown, not reported.
    expect(ids('SSH-2.0-OpenSSH_10.0p1 Debian-7')).toEqual([]);
  });

  it('keeps every table entry sourced and its versions well-formed', () => {
    for (const cve of opensshCves) {
      expect(cve.id).toMatch(/^CVE-\d{4}-\d{4,}$/);
      expect(cve.sources.length).toBeGreaterThan(0);
      cve.sources.forEach((source) => expect(source).toMatch(/^https:\/\//));
      for (const range of cve.upstream) {
        expect(range.fixed).toMatch(/^\d+\.\d+p\d+$/);
        expect(range.since ?? '1.0p1').toMatch(/^\d+\.\d+p\d+$/);
      }
    }
  });
});
