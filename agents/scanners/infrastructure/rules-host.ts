// Rules about a host as a whole rather than one of its services; spread into the infrastructure
// scanner's table in rules.ts.
import type { Rule } from '../core/rule.ts';

export const hostRules = {
  'infra.host.tarpit': {
    title: 'Host answers on every port or the same way on many (tarpit, proxy or honeypot)',
    cwe: 'CWE-200',
    owasp: 'A05:2021 Security Misconfiguration',
    family: 'network',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N',
    remediation:
      'Find out what accepts these connections: a tarpit or honeypot hides the real services among fake ones (scanners, and your own inventory, then see only a sample of them); a proxy or port forwarder that accepts every port exposes whatever it forwards to. If it is yours and intended, scan the real services behind it directly; otherwise limit it to the ports that must be reachable.',
  },
} satisfies Record<string, Rule>;
