// Business constants of docs/product.md §9, shared by the renderer, the desktop app and the agents.

export const BRAND = 'Vigil';
export const APP_TITLE = 'Vigil | Autonomous AI Cybersecurity Agents for Businesses';
/** The product's own web origin: auth redirects point here when the app runs on this domain (docs/product.md §7). */
export const PRODUCTION_ORIGIN = 'https://app.vigil.security';
export const SUPPORT_EMAIL = 'support@vigil.security';

export const STORAGE_KEYS = {
  theme: 'ui-theme',
  errors: 'vigil_errors',
  selectedAgentRoles: 'selectedAgentRoles',
} as const;

export const INDUSTRIES = [
  'Technology',
  'Healthcare',
  'Financial Services',
  'Manufacturing',
  'Retail',
  'Education',
  'Government',
  'Other',
] as const;
export type Industry = (typeof INDUSTRIES)[number];

export const TICKET_PRIORITIES = ['critical', 'high', 'normal', 'low'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];

export const SUPPORT_RESPONSE_TARGETS = [
  { priority: 'Critical', target: '< 15 minutes' },
  { priority: 'High', target: '< 1 hour' },
  { priority: 'Normal', target: '< 4 hours' },
] as const;

export const SYSTEM_COMPONENTS = ['Core Security', 'AI Agents', 'Threat Detection', 'Monitoring'] as const;

export const REPORT_TYPES = [
  'soc_compliance',
  'penetration_test',
  'security_assessment',
  'vulnerability_scan',
] as const;
export const SCHEDULE_TYPES = ['one_time', 'daily', 'weekly', 'monthly'] as const;

export const AGENT_ROLE_TYPES = [
  'cybersecurity_analyst',
  'penetration_tester',
  'incident_response',
  'forensics_investigator',
  'threat_intelligence',
  'application_security',
  'cloud_security',
] as const;
export type AgentRoleType = (typeof AGENT_ROLE_TYPES)[number];

export const AGENT_TYPES = [
  'penetration_tester',
  'vulnerability_scanner',
  'threat_detector',
  'compliance_auditor',
  'network_monitor',
  'soc_analyzer',
  'forensics_investigator',
] as const;

export const LIST_LIMITS = { securityEvents: 10, insights: 5, recommendations: 5, scans: 10 } as const;

export const TIMINGS = {
  toastDurationMs: 5_000,
  toastRemoveDelayMs: 1_000_000,
  toastLimit: 1,
  toastSwipeThreshold: 50,
  errorToastDurationMs: 6_000,
  chatReplyDelayMs: 1_500,
  ticketSubmitDelayMs: 1_000,
  scanPollMs: 5_000,
  latestScanCacheMs: 30_000,
  scannerConfigCacheMs: 60_000,
  metricsFlushCount: 10,
  metricsFlushMs: 5_000,
  tooltipDelayMs: 700,
  scanIntervalHours: 24,
} as const;

export const ERROR_STORE_LIMIT = 50;

export const RATE_LIMIT_DEFAULTS = { maxRequests: 100, windowMs: 60_000 } as const;

export const TRIAL_DAYS = 7;

export const LANDING_STATS = [
  { value: '1,000+', label: 'Protected Systems' },
  { value: '50M+', label: 'Threats Blocked (30 days)' },
  { value: '<1s', label: 'Response Time' },
  { value: '24/7', label: 'Autonomous Agents' },
] as const;

export const COMPLIANCE_BADGES = ['SOC 2 Type II', 'ISO 27001', 'HIPAA'] as const;

export interface AgentRole {
  id: string;
  name: string;
  description: string;
  /** one of AGENT_ROLE_TYPES for known roles; kept open so a new role from the database still renders */
  role_type: string;
  /** in cents */
  price_monthly: number;
  features: string[];
}

/** The built-in catalogue the landing page falls back to when agent_roles fails or is empty (docs/product.md §7). */
export const DEFAULT_AGENT_ROLES: readonly AgentRole[] = [
  {
    id: 'default-cybersecurity-analyst',
    name: 'Cybersecurity Analyst',
    description:
      'Watches your logs and alerts around the clock, triages what matters and escalates real threats.',
    role_type: 'cybersecurity_analyst',
    price_monthly: 29900,
    features: ['24/7 alert triage', 'Log correlation', 'Daily security briefings'],
  },
  {
    id: 'default-penetration-tester',
    name: 'Penetration Tester',
    description:
      'Continuously probes your web apps, APIs and hosts the way an attacker would, with proof for every finding.',
    role_type: 'penetration_tester',
    price_monthly: 39900,
    features: ['Web application testing', 'API security testing', 'Exploitability evidence'],
  },
  {
    id: 'default-incident-response',
    name: 'Incident Responder',
    description:
      'Contains incidents in seconds: isolates affected assets, collects evidence and guides recovery.',
    role_type: 'incident_response',
    price_monthly: 34900,
    features: ['Automated containment', 'Playbook execution', 'Post-incident reports'],
  },
  {
    id: 'default-forensics-investigator',
    name: 'Forensics Investigator',
    description: 'Reconstructs what happened, when and how, preserving a defensible chain of custody.',
    role_type: 'forensics_investigator',
    price_monthly: 44900,
    features: ['Timeline reconstruction', 'Artifact analysis', 'Chain-of-custody records'],
  },
  {
    id: 'default-threat-intelligence',
    name: 'Threat Intelligence',
    description: 'Tracks the threat actors, exploits and leaked credentials that concern your business.',
    role_type: 'threat_intelligence',
    price_monthly: 29900,
    features: ['Indicator enrichment', 'Exposure monitoring', 'Weekly threat digests'],
  },
  {
    id: 'default-application-security',
    name: 'Application Security',
    description:
      'Reviews your applications for the OWASP Top 10 and misconfigurations before attackers find them.',
    role_type: 'application_security',
    price_monthly: 39900,
    features: ['OWASP Top 10 checks', 'Security header review', 'Remediation guidance'],
  },
  {
    id: 'default-cloud-security',
    name: 'Cloud Security',
    description: 'Audits your cloud footprint for exposed services, weak TLS and risky configuration drift.',
    role_type: 'cloud_security',
    price_monthly: 39900,
    features: ['Exposure mapping', 'TLS and certificate checks', 'Configuration drift alerts'],
  },
];
