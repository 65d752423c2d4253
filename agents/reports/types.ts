// The data one report is drawn from: the customer's own rows over the report's period.
export type Severity = 'critical' | 'high' | 'medium' | 'low' | 'info';
export type ReportType = 'soc_compliance' | 'penetration_test' | 'security_assessment' | 'vulnerability_scan';

export const SEVERITIES: readonly Severity[] = ['critical', 'high', 'medium', 'low', 'info'];

export interface ComplianceRef {
  framework: string;
  control: string;
}

export interface ReportFinding {
  id: string;
  rule_id: string;
  title: string;
  severity: Severity;
  status: 'open' | 'fixed' | 'accepted_risk' | 'false_positive';
  scanner: string;
  location: string;
  evidence: string;
  remediation: string;
  cwe: string | null;
  cvss_score: number | null;
  compliance: ComplianceRef[];
  first_seen: string;
  fixed_at: string | null;
}

/** A completed scan that did not run every check: the report says which part and why. */
export interface IncompleteScan {
  target: string;
  at: string;
  /** "Partial: time limit reached". */
  note: string;
  /** Each part that did not finish: "crawl: …". */
  details: string[];
}

/** How many incomplete scans a report lists (the newest); the count covers them all. */
export const INCOMPLETE_SCANS_LISTED = 20;

export interface ReportData {
  reportId: string;
  userId: string;
  reportType: ReportType;
  configurationName: string;
  companyName: string;
  periodStart: Date;
  periodEnd: Date;
  generatedAt: Date;
  /** Findings still open at the period's end (the table). */
  open: ReportFinding[];
  /** Findings fixed during the period. */
  fixedInPeriod: number;
  /** Findings first seen during the period. */
  newInPeriod: number;
  risk: { score: number; previous: number; delta: number };
  /**
   * `partial`: completed scans that did not run every check (they count among `completed`); `incomplete`:
   * the newest of those, each with what did not finish and why.
   */
  scans: {
    total: number;
    completed: number;
    partial: number;
    failed: number;
    incomplete: IncompleteScan[];
  };
  events: { total: number; open: number; bySeverity: Record<string, number> };
  insights: { title: string; confidence: number }[];
  recommendations: { title: string; priority: string; category: string }[];
}

export const REPORT_TITLES: Record<ReportType, string> = {
  soc_compliance: 'SOC Compliance Report',
  penetration_test: 'Penetration Test Report',
  security_assessment: 'Security Assessment Report',
  vulnerability_scan: 'Vulnerability Scan Report',
};

/** Report types with a compliance section. */
export const WITH_COMPLIANCE: readonly ReportType[] = ['soc_compliance', 'security_assessment'];
