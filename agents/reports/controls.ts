// The controls the compliance section reports on, by framework: SOC 2 Trust Services Criteria (2017,
// revised points of focus 2022), ISO/IEC 27001:2022 Annex A, HIPAA Security Rule §164.308 / §164.312
// and PCI DSS v4.0. Each control the scanners map findings to is here, with its title.
import type { ComplianceFramework } from '../../shared/findings.ts';

export const FRAMEWORK_TITLES: Record<ComplianceFramework, string> = {
  'SOC 2': 'SOC 2 — Trust Services Criteria',
  'ISO 27001': 'ISO/IEC 27001:2022 — Annex A',
  HIPAA: 'HIPAA Security Rule — §164.308 / §164.312',
  'PCI DSS': 'PCI DSS v4.0',
};

export const CONTROLS: Record<ComplianceFramework, Record<string, string>> = {
  'SOC 2': {
    'CC6.1': 'Logical access security software, infrastructure and architectures',
    'CC6.6': 'Security measures against threats from outside system boundaries',
    'CC6.7': 'Restricts transmission, movement and removal of information',
    'CC7.1': 'Detects configuration changes and newly discovered vulnerabilities',
    'CC7.2': 'Monitors system components for anomalies indicative of malicious acts',
    'CC8.1': 'Authorises, designs, develops, tests and implements changes',
    'A1.1': 'Maintains and monitors processing capacity to meet availability commitments',
  },
  'ISO 27001': {
    'A.5.17': 'Authentication information',
    'A.8.3': 'Information access restriction',
    'A.8.6': 'Capacity management',
    'A.8.8': 'Management of technical vulnerabilities',
    'A.8.9': 'Configuration management',
    'A.8.12': 'Data leakage prevention',
    'A.8.16': 'Monitoring activities',
    'A.8.20': 'Networks security',
    'A.8.24': 'Use of cryptography',
    'A.8.28': 'Secure coding',
  },
  HIPAA: {
    '164.308(a)(1)(ii)(A)': 'Risk analysis',
    '164.308(a)(1)(ii)(B)': 'Risk management',
    '164.308(a)(1)(ii)(D)': 'Information system activity review',
    '164.308(a)(7)(i)': 'Contingency plan',
    '164.312(a)(1)': 'Access control',
    '164.312(c)(1)': 'Integrity',
    '164.312(d)': 'Person or entity authentication',
    '164.312(e)(1)': 'Transmission security',
  },
  'PCI DSS': {
    '1.3.1': 'Inbound traffic to the cardholder data environment is restricted',
    '2.2.1': 'Configuration standards are developed, implemented and maintained',
    '4.2.1': 'Strong cryptography protects PAN during transmission over open networks',
    '6.2.4': 'Software engineering techniques prevent common software attacks',
    '6.3.3': 'System components are protected from known vulnerabilities by patches',
    '6.4.1': 'Public-facing web applications are protected against attacks',
    '7.2.1': 'An access control model is defined and grants access by need',
    '8.3.2': 'Strong cryptography renders authentication factors unreadable',
    '10.2.1': 'Audit logs are enabled and active for all system components',
  },
};
