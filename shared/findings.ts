// The shape of one scanner finding, shared by the agent worker, the CLI and the renderer.
// `npm run scan -- --json` prints these; tools outside the repository rely on the first six fields.
import { z } from 'zod';

export const severities = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof severities)[number];

export const scanTypes = ['webapp', 'infrastructure', 'api'] as const;
export type ScanType = (typeof scanTypes)[number];

export const complianceFrameworks = ['SOC 2', 'ISO 27001', 'HIPAA', 'PCI DSS'] as const;
export type ComplianceFramework = (typeof complianceFrameworks)[number];

export const complianceRefSchema = z.object({
  framework: z.enum(complianceFrameworks),
  control: z.string(),
});
export type ComplianceRef = z.infer<typeof complianceRefSchema>;

export const findingSchema = z.object({
  rule_id: z.string().min(1),
  title: z.string().min(1),
  severity: z.enum(severities),
  cwe: z.string().regex(/^CWE-\d+$/),
  location: z.string().min(1),
  evidence: z.string(),
  cvss: z.object({ vector: z.string().startsWith('CVSS:3.1/'), score: z.number().min(0).max(10) }),
  owasp: z.string(),
  remediation: z.string(),
  compliance: z.array(complianceRefSchema),
});
export type Finding = z.infer<typeof findingSchema>;

export const scanReportSchema = z.object({
  target: z.string(),
  type: z.enum(scanTypes),
  findings: z.array(findingSchema),
  stats: z.object({ requests: z.number().int().nonnegative(), duration_ms: z.number().int().nonnegative() }),
});
export type ScanReport = z.infer<typeof scanReportSchema>;

const severityRank: Record<Severity, number> = { critical: 4, high: 3, medium: 2, low: 1, info: 0 };

/** Orders findings most severe first, then by rule and location, so reports read the same each run. */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    severityRank[b.severity] - severityRank[a.severity] ||
    a.rule_id.localeCompare(b.rule_id) ||
    a.location.localeCompare(b.location)
  );
}
