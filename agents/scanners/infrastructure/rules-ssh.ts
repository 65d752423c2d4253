// Rules of the SSH checks (host keys, group sizes, Terrapin, known CVEs, an offer too large to read); spread into
// the infrastructure scanner's table in rules.ts.
import type { Rule } from '../core/rule.ts';

const A02 = 'A02:2021 Cryptographic Failures';
const A06 = 'A06:2021 Vulnerable and Outdated Components';

export const sshRules = {
  'infra.ssh.weak-host-key': {
    title: 'SSH server offers weak host key algorithms',
    cwe: 'CWE-327',
    owasp: A02,
    family: 'transport',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:L/A:N',
    remediation:
      'Use an Ed25519 host key and an RSA key of 3072 bits or more, and sign with SHA-2 only: remove DSA keys (HostKey lines for ssh_host_dsa_key), set "HostKeyAlgorithms ssh-ed25519,rsa-sha2-512,rsa-sha2-256" in sshd_config, regenerate short RSA keys with "ssh-keygen -t rsa -b 3072", and reload sshd.',
  },
  'infra.ssh.small-dh-group': {
    title: 'SSH server hands out small Diffie-Hellman groups',
    cwe: 'CWE-326',
    owasp: A02,
    family: 'transport',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:L/A:N',
    remediation:
      "Keep only primes of 3072 bits or more in the group-exchange moduli file (OpenSSH: awk '$5 >= 3071' /etc/ssh/moduli; ProFTPD: SFTPDHParamFile without small groups and no AllowWeakDH), or drop diffie-hellman-group-exchange from the key exchange algorithms.",
  },
  'infra.ssh.terrapin': {
    title: 'SSH server is exposed to the Terrapin attack (CVE-2023-48795)',
    cwe: 'CWE-354',
    owasp: A02,
    family: 'transport',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:H/A:N',
    remediation:
      'Upgrade the SSH server to a release with strict key exchange (OpenSSH 9.6 or a patched distribution package, Dropbear 2024.84, libssh 0.10.6); until then remove chacha20-poly1305@openssh.com and the -etm MACs when CBC ciphers are enabled.',
  },
  'infra.ssh.kexinit-unread': {
    title: 'SSH key-exchange offer could not be read in full',
    cwe: 'CWE-20',
    owasp: A02,
    family: 'transport',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N',
    remediation:
      'The server announced an algorithm offer (KEXINIT) larger than OpenSSH clients accept, or stopped sending it: the lists named in the evidence were not checked for weak algorithms. Find out what answers on this port (a real SSH server sends a few hundred bytes), and check its configured algorithms by hand (sshd -T | grep -E "kexalgorithms|ciphers|macs|hostkeyalgorithms").',
  },
  'infra.ssh.known-cve': {
    title: 'SSH server version has known vulnerabilities',
    cwe: 'CWE-1395',
    owasp: A06,
    family: 'patching',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:L/A:N',
    remediation:
      'Install the OpenSSH security update of your distribution (Debian/Ubuntu: apt install --only-upgrade openssh-server) or upgrade to the current OpenSSH release, then restart sshd.',
  },
} satisfies Record<string, Rule>;
