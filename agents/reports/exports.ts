// CSV and JSON exports of the same findings as the PDF. Both are produced row by row into Buffers, so
// 10,000 findings never become one giant string.
import { controlsOf } from './compliance.ts';
import type { ReportData, ReportFinding } from './types.ts';

const CSV_COLUMNS = [
  'severity',
  'title',
  'rule_id',
  'cwe',
  'cvss_score',
  'scanner',
  'location',
  'status',
  'first_seen',
  'evidence',
  'remediation',
  'controls',
] as const;

/** RFC 4180 quoting; a leading = + - @ is prefixed with ' so spreadsheets do not run it as a formula. */
export function csvCell(value: string | number | null): string {
  if (value === null) {
    return '';
  }
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) {
    text = `'${text}`;
  }
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const controlsText = (f: ReportFinding) =>
  controlsOf(f)
    .map((c) => `${c.framework} ${c.control}`)
    .join('; ');

export function renderCsv(data: Pick<ReportData, 'open'>): Buffer {
  const chunks: Buffer[] = [Buffer.from(`${CSV_COLUMNS.join(',')}\r\n`)];
  for (const f of data.open) {
    const row = [
      f.severity,
      f.title,
      f.rule_id,
      f.cwe,
      f.cvss_score,
      f.scanner,
      f.location,
      f.status,
      f.first_seen,
      f.evidence,
      f.remediation,
      controlsText(f),
    ];
    chunks.push(Buffer.from(`${row.map(csvCell).join(',')}\r\n`));
  }
  return Buffer.concat(chunks);
}

export function renderJson(data: ReportData): Buffer {
  const head = {
    report_id: data.reportId,
    report_type: data.reportType,
    company_name: data.companyName,
    configuration: data.configurationName,
    period_start: data.periodStart.toISOString(),
    period_end: data.periodEnd.toISOString(),
    generated_at: data.generatedAt.toISOString(),
    risk: data.risk,
    totals: {
      open: data.open.length,
      new_in_period: data.newInPeriod,
      fixed_in_period: data.fixedInPeriod,
      scans: data.scans,
      events: data.events,
    },
  };
  const opening = JSON.stringify(head).slice(0, -1);
  const chunks: Buffer[] = [Buffer.from(`${opening},"findings":[`)];
  data.open.forEach((f, i) => {
    chunks.push(Buffer.from(`${i ? ',' : ''}${JSON.stringify({ ...f, controls: controlsOf(f) })}`));
  });
  chunks.push(Buffer.from(']}'));
  return Buffer.concat(chunks);
}
