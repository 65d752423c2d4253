// The compliance section of SOC compliance and security assessment reports: each framework's controls
// with the open findings that are exceptions to them.
import { complianceSections } from '../compliance.ts';
import { FRAMEWORK_TITLES } from '../controls.ts';
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

export function drawCompliance(doc: Doc, findings: readonly ReportFinding[]): void {
  heading(doc, 'Compliance mapping');
  paragraph(
    doc,
    'Open findings mapped to the controls of SOC 2 (Trust Services Criteria), ISO/IEC 27001:2022 Annex A, the HIPAA Security Rule ' +
      '(45 CFR 164.308 and 164.312) and PCI DSS v4.0. A control with findings has exceptions to remediate; "No exceptions observed" ' +
      "means automated testing found none in this period, which supports but does not replace an auditor's assessment.",
  );
  const width = contentWidth(doc);
  for (const section of complianceSections(findings)) {
    ensureSpace(doc, 80);
    doc
      .moveDown(0.3)
      .font('Helvetica-Bold')
      .fontSize(11)
      .fillColor(COLORS.brand)
      .text(
        `${FRAMEWORK_TITLES[section.framework]} — ${section.exceptions} control(s) with exceptions`,
        MARGIN,
        doc.y,
        { width },
      );
    doc.moveDown(0.2);
    for (const c of section.controls) {
      ensureSpace(doc, 16);
      const y = doc.y;
      doc
        .font('Helvetica-Bold')
        .fontSize(8.5)
        .fillColor(COLORS.text)
        .text(pdfText(c.control), MARGIN, y, { width: 110, lineBreak: false });
      doc.font('Helvetica').text(pdfText(c.title), MARGIN + 115, y, { width: width - 300 });
      const after = doc.y;
      const status = c.findings
        ? `Exception: ${c.findings} finding(s), worst ${c.worst}`
        : 'No exceptions observed';
      doc
        .fillColor(c.findings ? COLORS[c.worst ?? 'info'] : COLORS.ok)
        .text(status, MARGIN + width - 180, y, { width: 180, align: 'right' });
      doc.y = Math.max(after, doc.y) + 3;
    }
  }
  doc.fillColor(COLORS.text);
}
