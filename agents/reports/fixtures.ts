// Findings and report data built in memory for the unit tests and the benchmark.
import type { ReportData, ReportFinding, Severity } from './types.ts';

const SEVERITY_CYCLE: Severity[] = [
  'critical',
  'high',
  'high',
  'medium',
  'medium',
  'medium',
  'low',
  'low',
  'info',
];

export function makeFinding(i: number, overrides: Partial<ReportFinding> = {}): ReportFinding {
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    rule_id: `rule-${i % 37}`,
    title: `Finding number ${i}: missing security header`,
    severity: SEVERITY_CYCLE[i % SEVERITY_CYCLE.length]!,
    status: 'open',
    scanner: i % 2 ? 'webapp' : 'infrastructure',
    location: `https://app${i % 13}.example.com/path/${i}`,
    evidence: `GET /path/${i} answered without Content-Security-Policy; server: nginx/1.18.${i % 10}`,
    remediation: 'Send a restrictive Content-Security-Policy header from every HTML response.',
    cwe: 'CWE-693',
    cvss_score: 5.3,
    compliance: [
      { framework: 'SOC 2', control: 'CC7.1' },
      { framework: 'ISO 27001', control: 'A.8.9' },
    ],
    first_seen: '2026-01-10T00:00:00.000Z',
    fixed_at: null,
    ...overrides,
  };
}

export function makeReportData(findings: number, overrides: Partial<ReportData> = {}): ReportData {
  return {
    reportId: '11111111-1111-4111-8111-111111111111',
    userId: '22222222-2222-4222-8222-222222222222',
    reportType: 'soc_compliance',
    configurationName: 'Monthly SOC pack',
    companyName: 'Acme Widgets Ltd',
    periodStart: new Date('2026-02-01T00:00:00Z'),
    periodEnd: new Date('2026-03-01T00:00:00Z'),
    generatedAt: new Date('2026-03-01T00:05:00Z'),
    open: Array.from({ length: findings }, (_, i) => makeFinding(i)),
    fixedInPeriod: 3,
    newInPeriod: findings,
    risk: { score: 64, previous: 40, delta: 24 },
    scans: {
      total: 12,
      completed: 11,
      partial: 1,
      failed: 1,
      incomplete: [
        {
          target: 'https://shop.acme.test',
          at: '2026-02-14T09:30:00Z',
          note: 'Partial: time limit reached',
          details: ['crawl: stopped after 600 s (its phase deadline)'],
        },
      ],
    },
    events: { total: 4, open: 2, bySeverity: { high: 4 } },
    insights: [{ title: 'Findings are concentrated on one host', confidence: 0.82 }],
    recommendations: [{ title: 'Deploy a CSP', priority: 'high', category: 'web' }],
    ...overrides,
  };
}
