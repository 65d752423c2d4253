// Known vulnerabilities of the OpenSSH server (sshd), as published by the OpenSSH project
// (https://www.openssh.com/security.html and the release notes at https://www.openssh.com/txt/) and,
// for distribution builds, by the distribution's security tracker and package changelog: Debian and
// Ubuntu backport fixes without changing the upstream version in the banner, so a Debian banner
// "OpenSSH_9.2p1 Debian-2+deb12u3" is judged by its package revision, never by "9.2p1" alone.
//
// Only flaws of sshd itself are listed (a scan sees the server, not the host's ssh client or agent);
// the Terrapin weakness (CVE-2023-48795) is not here because the scanner reads it from the protocol.
// Each entry is a fact with its sources; update it from the same sources when OpenSSH or a
// distribution publishes a new sshd advisory. Checked against those sources on 2026-11-25.

export interface OpensshCve {
  id: string;
  /** What it allows, in a few words, for the finding's evidence. */
  summary: string;
  /** Upstream (portable) versions affected: from `since` (inclusive, null when not published) to `fixed`. */
  upstream: { since: string | null; fixed: string }[];
  /**
   * Package revision that fixed it, per distribution and upstream version it ships (the part after
   * "Debian-" or "Ubuntu-" in the banner). A distribution build whose version is not listed is not
   * judged: its backports are unknown to us.
   */
  fixedIn?: Partial<Record<'debian' | 'ubuntu', Record<string, string>>>;
  /** CVSS 3.1 base vector when the CVE's record gives one. */
  cvss?: string;
  sources: string[];
}

export const opensshCves: OpensshCve[] = [
  {
    id: 'CVE-2024-6387',
    summary:
      'regreSSHion: race in the SIGALRM handler of sshd, unauthenticated remote code execution as root on glibc Linux',
    upstream: [
      { since: null, fixed: '4.4p1' },
      { since: '8.5p1', fixed: '9.8p1' },
    ],
    fixedIn: {
      debian: { '9.2p1': '2+deb12u3' },
      ubuntu: { '8.9p1': '3ubuntu0.10', '9.6p1': '3ubuntu13.3' },
    },
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:H',
    sources: [
      'https://www.openssh.com/txt/release-9.8',
      'https://www.qualys.com/2024/07/01/cve-2024-6387/regresshion.txt',
      'https://security-tracker.debian.org/tracker/CVE-2024-6387',
      'https://ubuntu.com/security/CVE-2024-6387',
    ],
  },
  {
    id: 'CVE-2025-26466',
    summary: 'pre-authentication denial of service: unbounded memory and CPU use through SSH2_MSG_PING',
    upstream: [{ since: '9.5p1', fixed: '9.9p2' }],
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:N/A:H',
    sources: [
      'https://www.openssh.com/txt/release-9.9p2',
      'https://www.qualys.com/2025/02/18/openssh-mitm-dos.txt',
    ],
  },
  {
    id: 'CVE-2025-32728',
    summary: 'the DisableForwarding directive does not disable X11 and agent forwarding',
    upstream: [{ since: '7.4p1', fixed: '10.0p1' }],
    fixedIn: { debian: { '9.2p1': '2+deb12u6' } },
    sources: [
      'https://www.openssh.com/txt/release-10.0',
      'https://security-tracker.debian.org/tracker/CVE-2025-32728',
    ],
  },
  {
    id: 'CVE-2026-35414',
    summary: 'an authorized_keys principals="" list can match a certificate principal that contains a comma',
    upstream: [{ since: null, fixed: '10.3p1' }],
    fixedIn: { debian: { '9.2p1': '2+deb12u10' } },
    sources: [
      'https://www.openssh.com/txt/release-10.3',
      'https://metadata.ftp-master.debian.org/changelogs/main/o/openssh/openssh_9.2p1-2+deb12u10_changelog',
      'https://bugs.debian.org/1132576',
    ],
  },
  {
    id: 'CVE-2026-35387',
    summary: 'PubkeyAcceptedAlgorithms naming one ECDSA algorithm accepts the other ECDSA algorithms too',
    upstream: [{ since: null, fixed: '10.3p1' }],
    fixedIn: { debian: { '9.2p1': '2+deb12u10' } },
    sources: [
      'https://www.openssh.com/txt/release-10.3',
      'https://metadata.ftp-master.debian.org/changelogs/main/o/openssh/openssh_9.2p1-2+deb12u10_changelog',
      'https://bugs.debian.org/1132574',
    ],
  },
  {
    id: 'CVE-2023-25136',
    summary: 'pre-authentication double free in the unprivileged sshd process',
    upstream: [{ since: '9.1p1', fixed: '9.2p1' }],
    sources: ['https://www.openssh.com/security.html', 'https://www.openssh.com/txt/release-9.2'],
  },
  {
    id: 'CVE-2021-41617',
    summary: 'AuthorizedKeysCommand and AuthorizedPrincipalsCommand run with the supplemental groups of sshd',
    upstream: [{ since: '6.2p1', fixed: '8.8p1' }],
    cvss: 'CVSS:3.1/AV:L/AC:H/PR:L/UI:N/S:U/C:H/I:H/A:H',
    sources: ['https://www.openssh.com/security.html', 'https://www.openssh.com/txt/release-8.8'],
  },
  {
    id: 'CVE-2018-15473',
    summary: 'remote user enumeration through malformed public-key authentication requests',
    upstream: [{ since: null, fixed: '7.8p1' }],
    fixedIn: { debian: { '7.4p1': '10+deb9u4' } },
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
    sources: [
      'https://www.openssh.com/txt/release-7.8',
      'https://security-tracker.debian.org/tracker/CVE-2018-15473',
    ],
  },
  {
    id: 'CVE-2016-10012',
    summary: 'the shared memory manager used before authentication lacks bounds checks',
    upstream: [{ since: null, fixed: '7.4p1' }],
    cvss: 'CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H',
    sources: ['https://www.openssh.com/txt/release-7.4'],
  },
  {
    id: 'CVE-2016-6515',
    summary: 'denial of service: sshd hashes passwords of any length (crypt CPU exhaustion)',
    upstream: [{ since: null, fixed: '7.3p1' }],
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H',
    sources: ['https://www.openssh.com/txt/release-7.3'],
  },
  {
    id: 'CVE-2016-6210',
    summary: 'remote user enumeration through password hashing timing',
    upstream: [{ since: null, fixed: '7.3p1' }],
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N',
    sources: ['https://www.openssh.com/txt/release-7.3'],
  },
  {
    id: 'CVE-2016-3115',
    summary: 'an authenticated user can inject xauth commands when X11Forwarding is enabled',
    upstream: [{ since: null, fixed: '7.2p2' }],
    sources: ['https://www.openssh.com/txt/x11fwd.adv', 'https://www.openssh.com/txt/release-7.2p2'],
  },
  {
    id: 'CVE-2015-5600',
    summary:
      'keyboard-interactive authentication allows many password guesses per connection (MaxAuthTries bypass)',
    upstream: [{ since: null, fixed: '7.0p1' }],
    sources: ['https://www.openssh.com/security.html', 'https://www.openssh.com/txt/release-7.0'],
  },
];
