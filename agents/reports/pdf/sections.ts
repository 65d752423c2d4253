// The report-type specific sections: scope and methodology, attack surface (penetration tests and
// vulnerability scans), and insights with recommendations (compliance and assessment reports).
import type { ReportData } from '../types.ts';
import { COLORS, MARGIN, contentWidth, heading, paragraph, pdfText, type Doc } from './layout.ts';

const SCOPE: Record<ReportData['reportType'], string> = {
  soc_compliance:
    'This report summarises the security monitoring and vulnerability management evidence collected by Vigil agents over the period, and maps open findings to SOC 2, ISO 27001, HIPAA and PCI DSS controls.',
  penetration_test:
    'This report presents the results of automated penetration testing of the verified targets: web application, infrastructure and API checks that exercise each target as an attacker would, with the evidence observed.',
  security_assessment:
    'This report assesses the overall security posture over the period: risk trend, open findings, monitoring activity, analytical insights, prioritised recommendations and the compliance impact of open issues.',
  vulnerability_scan:
    'This report lists the vulnerabilities detected by scheduled and manual scans of the verified targets over the period, ranked by severity and CVSS score, with remediation guidance.',
};

export function drawScope(doc: Doc, data: ReportData): void {
  heading(doc, 'Scope');
  paragraph(doc, SCOPE[data.reportType]);
}

export function drawAttackSurface(doc: Doc, data: ReportData): void {
  heading(doc, 'Most affected assets');
  const byAsset = new Map<string, number>();
  for (const f of data.open) {
    const asset = assetOf(f.location);
    byAsset.set(asset, (byAsset.get(asset) ?? 0) + 1);
  }
  const top = [...byAsset.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10);
  if (!top.length) {
    paragraph(doc, 'No asset had open findings at the end of the period.');
    return;
  }
  for (const [asset, count] of top) {
    paragraph(doc, `${asset}: ${count} open finding(s)`);
  }
}

export function drawInsights(doc: Doc, data: ReportData): void {
  heading(doc, 'Insights and recommendations');
  if (!data.insights.length && !data.recommendations.length) {
    paragraph(doc, 'No insights or pending recommendations were recorded for this period.');
    return;
  }
  for (const insight of data.insights) {
    paragraph(doc, `Insight (${Math.round(insight.confidence * 100)}% confidence): ${insight.title}`);
  }
  for (const rec of data.recommendations) {
    paragraph(doc, `Recommendation [${rec.priority}] (${rec.category}): ${rec.title}`);
  }
}

export function drawCover(doc: Doc, title: string, data: ReportData): void {
  doc
    .font('Helvetica-Bold')
    .fontSize(22)
    .fillColor(COLORS.brand)
    .text(pdfText(title), MARGIN, doc.y, { width: contentWidth(doc) });
  doc
    .font('Helvetica')
    .fontSize(13)
    .fillColor(COLORS.text)
    .text(pdfText(`Prepared for ${data.companyName}`, 250));
  doc.fontSize(9).fillColor(COLORS.muted);
  doc.text(pdfText(`Configuration: ${data.configurationName}`, 250));
  doc.text(
    `Period: ${data.periodStart.toISOString().replace('T', ' ').slice(0, 16)} UTC to ${data.periodEnd.toISOString().replace('T', ' ').slice(0, 16)} UTC`,
  );
  doc.text(
    `Generated: ${data.generatedAt.toISOString().replace('T', ' ').slice(0, 16)} UTC  |  Report ${data.reportId}`,
  );
  doc.fillColor(COLORS.text).moveDown(0.5);
}

function assetOf(location: string): string {
  try {
    return new URL(location).host || location.slice(0, 80);
  } catch {
    // Not a URL: host:port or a free-form location, shown as the part before the first space.
    return location.split(/[\s/]/)[0]!.slice(0, 80) || location.slice(0, 80);
  }
}

/** The scans of the period that did not run every check, and why: what their findings cannot prove. */
export function drawIncompleteScans(doc: Doc, data: ReportData): void {
  const { incomplete, partial } = data.scans;
  if (incomplete.length === 0) {
    return;
  }
  heading(doc, 'Scans that did not run every check');
  paragraph(
    doc,
    `${partial} scan(s) of the period ended partial: their findings count, but a problem they did not see may still be there.` +
      (partial > incomplete.length ? ` The newest ${incomplete.length} are listed.` : ''),
  );
  for (const scan of incomplete) {
    const when = scan.at.replace('T', ' ').slice(0, 16);
    paragraph(
      doc,
      `${scan.target} (${when} UTC): ${scan.note}${scan.details.map((d) => `\n  - ${d}`).join('')}`,
    );
  }
}
