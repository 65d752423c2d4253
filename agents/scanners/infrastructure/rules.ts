// Rules of the infrastructure scanner (exposed services on the network).
import { ruleBook } from '../core/rule.ts';
import type { Rule } from '../core/rule.ts';
import { hostRules } from './rules-host.ts';
import { serviceRules } from './rules-services.ts';
import { sshRules } from './rules-ssh.ts';

const A05 = 'A05:2021 Security Misconfiguration';
const A07 = 'A07:2021 Identification and Authentication Failures';
const A02 = 'A02:2021 Cryptographic Failures';
const A06 = 'A06:2021 Vulnerable and Outdated Components';

const unauthenticated = (product: string, cvss: string, remediation: string): Rule => ({
  title: `${product} reachable without authentication`,
  cwe: 'CWE-306',
  owasp: A07,
  family: 'access',
  cvss,
  remediation,
});
const exposed = (product: string, cvss: string, remediation: string): Rule => ({
  title: `${product} exposed on the network`,
  cwe: 'CWE-668',
  owasp: A05,
  family: 'network',
  cvss,
  remediation,
});

export const infrastructureRules = {
  'infra.open-port': {
    title: 'Open TCP port',
    cwe: 'CWE-200',
    owasp: A05,
    family: 'network',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N',
    remediation: 'Confirm the service must be reachable from this network; close or firewall it otherwise.',
  },
  'infra.redis.unauthenticated': unauthenticated(
    'Redis',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
    'Bind Redis to localhost or a private interface, enable requirepass/ACL users, and firewall port 6379.',
  ),
  'infra.memcached.unauthenticated': unauthenticated(
    'Memcached',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:L/A:H',
    'Bind memcached to localhost (-l 127.0.0.1), disable UDP (-U 0), enable SASL, and firewall port 11211.',
  ),
  'infra.mongodb.unauthenticated': unauthenticated(
    'MongoDB',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
    'Enable authorization (security.authorization: enabled), bind to private interfaces, and firewall port 27017.',
  ),
  'infra.elasticsearch.unauthenticated': unauthenticated(
    'Elasticsearch',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
    'Enable Elasticsearch security (xpack.security.enabled: true) with TLS and users, and firewall ports 9200/9300.',
  ),
  'infra.ftp.anonymous': {
    title: 'Anonymous FTP login allowed',
    cwe: 'CWE-287',
    owasp: A07,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
    remediation: 'Disable anonymous login (vsftpd: anonymous_enable=NO) and replace FTP with SFTP.',
  },
  'infra.database.exposed': exposed(
    'Database server',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:L/A:N',
    'Do not expose database ports to untrusted networks: bind to private interfaces and allow only application hosts.',
  ),
  'infra.telnet.open': {
    title: 'Telnet service open',
    cwe: 'CWE-319',
    owasp: A02,
    family: 'transport',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N',
    remediation: 'Disable Telnet and use SSH; Telnet sends credentials in clear text.',
  },
  'infra.smb.exposed': exposed(
    'SMB file sharing',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:L/A:N',
    'Block SMB (TCP 139/445) at the network edge; expose file shares only over VPN.',
  ),
  'infra.rdp.exposed': exposed(
    'Remote Desktop (RDP)',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:L/A:N',
    'Put RDP behind a VPN or RD Gateway with MFA; require Network Level Authentication.',
  ),
  'infra.vnc.exposed': exposed(
    'VNC remote desktop',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:L/A:N',
    'Do not expose VNC to untrusted networks; tunnel it over SSH or a VPN.',
  ),
  'infra.vnc.no-auth': unauthenticated(
    'VNC remote desktop',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
    'Require VNC authentication (or better, tunnel VNC over SSH) and firewall ports 5900-5999.',
  ),
  'infra.ssh.outdated': {
    title: 'Outdated SSH server version',
    cwe: 'CWE-1104',
    owasp: A06,
    family: 'patching',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N',
    remediation: 'Upgrade OpenSSH to a supported release from the OS vendor and disable SSH protocol 1.',
  },
  'infra.ssh.password-auth': {
    title: 'SSH server accepts password authentication',
    cwe: 'CWE-307',
    owasp: A07,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:L/A:N',
    remediation:
      'Allow only key (or certificate) logins so passwords cannot be guessed over the network: in sshd_config set "PasswordAuthentication no" and "KbdInteractiveAuthentication no" (older OpenSSH: "ChallengeResponseAuthentication no"), check no Match block re-enables them, and reload sshd; add fail2ban or firewall limits meanwhile.',
  },
  'infra.ssh.no-auth': unauthenticated(
    'SSH server',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
    'Require authentication: remove PermitEmptyPasswords yes and any "none" authentication from the SSH server, allow only key logins, and reload it.',
  ),
  'infra.ssh.weak-kex': {
    title: 'SSH server offers weak key exchange',
    cwe: 'CWE-327',
    owasp: A02,
    family: 'transport',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:L/A:N',
    remediation:
      'Remove SHA-1 and 1024-bit Diffie-Hellman key exchange (RFC 9142): in sshd_config set e.g. "KexAlgorithms sntrup761x25519-sha512@openssh.com,curve25519-sha256,diffie-hellman-group16-sha512" and reload sshd.',
  },
  'infra.ssh.weak-cipher': {
    title: 'SSH server offers weak ciphers',
    cwe: 'CWE-327',
    owasp: A02,
    family: 'transport',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N',
    remediation:
      'Offer only authenticated or counter-mode ciphers: in sshd_config set "Ciphers chacha20-poly1305@openssh.com,aes256-gcm@openssh.com,aes128-gcm@openssh.com,aes256-ctr,aes128-ctr" (no CBC, 3DES, RC4).',
  },
  'infra.ssh.weak-mac': {
    title: 'SSH server offers weak message authentication codes',
    cwe: 'CWE-328',
    owasp: A02,
    family: 'transport',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:L/A:N',
    remediation:
      'Remove MD5, SHA-1 and truncated MACs: in sshd_config set "MACs hmac-sha2-512-etm@openssh.com,hmac-sha2-256-etm@openssh.com,umac-128-etm@openssh.com".',
  },
  ...sshRules,
  ...serviceRules,
  ...hostRules,
} satisfies Record<string, Rule>;

export type InfrastructureRuleId = keyof typeof infrastructureRules;
export const infrastructureFinding = ruleBook<InfrastructureRuleId>(infrastructureRules);
