// Renders one report to PDF: cover, scope, executive summary with the severity chart, the scans that did
// not run every check, the type's own sections, the compliance mapping where the type has one, and the
// findings.
import { REPORT_TITLES, WITH_COMPLIANCE, type ReportData } from '../types.ts';
import { drawCompliance } from './compliance.ts';
import { drawFindings } from './findings.ts';
import { createDocument, toBuffer } from './layout.ts';
import { drawAttackSurface, drawCover, drawIncompleteScans, drawInsights, drawScope } from './sections.ts';
import { drawSummary } from './summary.ts';

export async function renderPdf(data: ReportData): Promise<Buffer> {
  const title = REPORT_TITLES[data.reportType];
  const doc = createDocument({ title, companyName: data.companyName, subtitle: data.configurationName });
  const done = toBuffer(doc);
  drawCover(doc, title, data);
  drawScope(doc, data);
  drawSummary(doc, data);
  drawIncompleteScans(doc, data);
  if (data.reportType === 'penetration_test' || data.reportType === 'vulnerability_scan') {
    drawAttackSurface(doc, data);
  } else {
    drawInsights(doc, data);
  }
  if (WITH_COMPLIANCE.includes(data.reportType)) {
    drawCompliance(doc, data.open);
  }
  drawFindings(doc, data.open);
  doc.end();
  return done;
}
