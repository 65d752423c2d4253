// The findings table: one block per open finding, worst first, with location, classification,
// evidence and remediation. Pages break between blocks (or inside a long one), never mid-line.
import type { ReportFinding } from '../types.ts';
import {
  COLORS,
  MARGIN,
  contentWidth,
  ensureSpace,
  heading,
  paragraph,
  pdfText,
  type Doc,
} from './layout.ts';

const EVIDENCE_MAX = 600;
const REMEDIATION_MAX = 1200;

export function drawFindings(doc: Doc, findings: readonly ReportFinding[]): void {
  heading(doc, `Findings (${findings.length})`);
  if (!findings.length) {
    paragraph(doc, 'No findings were open at the end of this period.');
    return;
  }
  const width = contentWidth(doc);
  findings.forEach((f, i) => {
    ensureSpace(doc, 70);
    const top = doc.y;
    doc.rect(MARGIN, top, 62, 14).fill(COLORS[f.severity]);
    doc
      .font('Helvetica-Bold')
      .fontSize(8)
      .fillColor('#ffffff')
      .text(f.severity.toUpperCase(), MARGIN, top + 3, { width: 62, align: 'center', lineBreak: false });
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .fillColor(COLORS.text)
      .text(pdfText(`${i + 1}. ${f.title}`, 300), MARGIN + 70, top + 2, { width: width - 70 });
    const meta = [
      f.rule_id,
      f.cwe,
      f.cvss_score === null ? null : `CVSS ${f.cvss_score.toFixed(1)}`,
      f.scanner,
      `first seen ${f.first_seen.slice(0, 10)}`,
    ]
      .filter(Boolean)
      .join('  |  ');
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor(COLORS.muted)
      .text(pdfText(meta), MARGIN + 70, doc.y + 1, { width: width - 70 });
    doc.fillColor(COLORS.text).fontSize(8.5);
    field(doc, 'Location', f.location, 500);
    if (f.evidence) {
      field(doc, 'Evidence', f.evidence, EVIDENCE_MAX);
    }
    if (f.remediation) {
      field(doc, 'Remediation', f.remediation, REMEDIATION_MAX);
    }
    const y = doc.y + 4;
    doc
      .moveTo(MARGIN, y)
      .lineTo(MARGIN + width, y)
      .lineWidth(0.5)
      .strokeColor(COLORS.rule)
      .stroke();
    doc.y = y + 6;
  });
}

function field(doc: Doc, label: string, value: string, max: number): void {
  doc
    .font('Helvetica-Bold')
    .fontSize(8.5)
    .text(`${label}: `, MARGIN + 70, doc.y + 1, { continued: true, width: contentWidth(doc) - 70 });
  doc.font('Helvetica').text(pdfText(value, max));
}
