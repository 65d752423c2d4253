// The OpenSSH version in a server's banner against the known sshd vulnerabilities of
// data/openssh-cves.ts. Precision first: a build is judged only when its banner says exactly what it
// is. An upstream portable build ("OpenSSH_9.3p1", no vendor comment) is judged by its version; a
// Debian or Ubuntu build ("OpenSSH_9.2p1 Debian-2+deb12u7") by its package revision against the
// distribution's fixed revision; any other build (OpenBSD's own "OpenSSH_9.7", vendors that strip the
// "p1" and backport fixes silently, unknown comments) is not judged.
import type { OpensshCve } from './data/openssh-cves.ts';
import { opensshCves } from './data/openssh-cves.ts';

export interface OpensshBuild {
  /** Upstream portable version, e.g. "9.2p1". */
  version: string;
  distro?: 'debian' | 'ubuntu';
  /** The distribution's package revision without epoch, e.g. "2+deb12u7". */
  revision?: string;
}

/** The build a banner names, or null when it is not one we can judge (see above). */
export function opensshBuild(banner: string): OpensshBuild | null {
  const match = /^SSH-2\.0-OpenSSH_(\d+\.\d+p\d+)(?: (.*))?$/.exec(banner.trim());
  if (!match) {
    return null;
  }
  const [, version, comment] = match;
  if (comment === undefined) {
    return { version: version! };
  }
  const vendor = /^(Debian|Ubuntu)-([0-9][A-Za-z0-9.+~]*)$/.exec(comment);
  return vendor
    ? { version: version!, distro: vendor[1]!.toLowerCase() as 'debian' | 'ubuntu', revision: vendor[2]! }
    : null;
}

/** Orders upstream versions "7.4p1" < "9.2p1" < "9.8p1" < "10.0p1". */
export function compareUpstream(a: string, b: string): number {
  const parts = (v: string) =>
    (/^(\d+)\.(\d+)(?:p(\d+))?$/.exec(v) ?? []).slice(1).map((n) => Number(n ?? 0));
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) {
    if ((x[i] ?? 0) !== (y[i] ?? 0)) {
      return (x[i] ?? 0) - (y[i] ?? 0);
    }
  }
  return 0;
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
/** dpkg's weight of a character outside a number: "~" sorts first, then the end, letters, the rest. */
const weight = (c: string | undefined) =>
  c === undefined || isDigit(c)
    ? 0
    : c === '~'
      ? -1
      : /[A-Za-z]/.test(c)
        ? c.charCodeAt(0)
        : c.charCodeAt(0) + 256;

/** Compares Debian package revisions as dpkg does (Debian Policy §5.6.12), e.g. "2+deb12u7" < "2+deb12u10". */
export function compareRevision(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    while ((i < a.length && !isDigit(a[i])) || (j < b.length && !isDigit(b[j]))) {
      const difference = weight(a[i]) - weight(b[j]);
      if (difference !== 0) {
        return difference;
      }
      i++;
      j++;
    }
    while (a[i] === '0') {
      i++;
    }
    while (b[j] === '0') {
      j++;
    }
    let firstDifference = 0;
    while (isDigit(a[i]) && isDigit(b[j])) {
      firstDifference ||= a.charCodeAt(i) - b.charCodeAt(j);
      i++;
      j++;
    }
    if (isDigit(a[i])) {
      return 1;
    }
    if (isDigit(b[j])) {
      return -1;
    }
    if (firstDifference !== 0) {
      return firstDifference;
    }
  }
  return 0;
}

function affectsUpstream(cve: OpensshCve, version: string): boolean {
  return cve.upstream.some(
    (range) =>
      (range.since === null || compareUpstream(version, range.since) >= 0) &&
      compareUpstream(version, range.fixed) < 0,
  );
}

/** The CVEs that affect this build, each with the fix that would close it. */
export function knownCves(build: OpensshBuild): { cve: OpensshCve; fix: string }[] {
  return opensshCves.flatMap((cve) => {
    if (!affectsUpstream(cve, build.version)) {
      return [];
    }
    if (!build.distro) {
      const fixed = cve.upstream.find((r) => compareUpstream(build.version, r.fixed) < 0)!.fixed;
      return [{ cve, fix: `fixed in OpenSSH ${fixed}` }];
    }
    const fixedRevision = cve.fixedIn?.[build.distro]?.[build.version];
    // Guard: a distribution build we have no record for may carry the fix already; say nothing.
    if (!fixedRevision || compareRevision(build.revision!, fixedRevision) >= 0) {
      return [];
    }
    const name = build.distro === 'debian' ? 'Debian' : 'Ubuntu';
    return [{ cve, fix: `fixed in ${name} ${build.version}-${fixedRevision}` }];
  });
}
