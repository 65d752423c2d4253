// The executive summary: risk score with its trend against the previous period, the period's activity,
// and the severity breakdown of open findings drawn as vector bars.
import { riskLabel } from '../risk.ts';
import { SEVERITIES, type ReportData, type Severity } from '../types.ts';
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

export function severityCounts(data: Pick<ReportData, 'open'>): Record<Severity, number> {
  const counts: Record<Severity, number> = { critical: 0, high: 0, medium: 0, low: 0, info: 0 };
  for (const f of data.open) {
    counts[f.severity]++;
  }
  return counts;
}

export function trendText(risk: ReportData['risk']): string {
  if (risk.delta === 0) {
    return `unchanged from the previous period (${risk.previous})`;
  }
  return `${risk.delta > 0 ? 'up' : 'down'} ${Math.abs(risk.delta)} from ${risk.previous} in the previous period`;
}

export function drawSummary(doc: Doc, data: ReportData): void {
  heading(doc, 'Executive summary');
  const counts = severityCounts(data);
  const top = doc.y;
  const colour =
    data.risk.score >= 75
      ? COLORS.critical
      : data.risk.score >= 50
        ? COLORS.high
        : data.risk.score >= 25
          ? COLORS.medium
          : COLORS.ok;
  doc.roundedRect(MARGIN, top, 150, 95, 6).lineWidth(2).strokeColor(colour).stroke();
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor(COLORS.muted)
    .text('RISK SCORE (0-100)', MARGIN, top + 10, { width: 150, align: 'center' });
  doc
    .font('Helvetica-Bold')
    .fontSize(34)
    .fillColor(colour)
    .text(String(data.risk.score), MARGIN, top + 24, { width: 150, align: 'center' });
  doc
    .font('Helvetica-Bold')
    .fontSize(10)
    .text(riskLabel(data.risk.score), MARGIN, top + 64, { width: 150, align: 'center' });
  doc
    .font('Helvetica')
    .fontSize(8)
    .fillColor(COLORS.muted)
    .text(trendText(data.risk), MARGIN + 5, top + 78, { width: 140, align: 'center' });

  const x = MARGIN + 170;
  const facts = [
    `Open findings at period end: ${data.open.length}`,
    `Critical: ${counts.critical}   High: ${counts.high}   Medium: ${counts.medium}   Low: ${counts.low}   Info: ${counts.info}`,
    `New during the period: ${data.newInPeriod}   Fixed during the period: ${data.fixedInPeriod}`,
    `Scans: ${data.scans.total} (${data.scans.completed} completed${data.scans.partial ? `, ${data.scans.partial} of them partial` : ''}, ${data.scans.failed} failed)`,
    `Security events: ${data.events.total} (${data.events.open} still open)`,
  ];
  doc.font('Helvetica').fontSize(10).fillColor(COLORS.text);
  facts.forEach((line, i) =>
    doc.text(pdfText(line), x, top + 6 + i * 17, { width: contentWidth(doc) - 170 }),
  );
  doc.y = top + 110;
  doc.x = MARGIN;
  paragraph(
    doc,
    'The risk score weighs every finding open at a moment by its severity (critical 10, high 6, medium 3, low 1, informational 0) ' +
      'and by its exposure, the time it has been left open (x1 when new, rising to x2 at 90 days). The sum saturates to 0-100 as ' +
      '100 x (1 - e^(-sum/50)). The trend compares the score at the end of this period with the score at its start.',
  );
  drawSeverityChart(doc, counts);
}

/** Horizontal bars, one per severity, scaled to the largest count. */
export function drawSeverityChart(doc: Doc, counts: Record<Severity, number>): void {
  ensureSpace(doc, 150);
  doc
    .moveDown(0.5)
    .font('Helvetica-Bold')
    .fontSize(11)
    .fillColor(COLORS.brand)
    .text('Open findings by severity', MARGIN, doc.y);
  const top = doc.y + 8;
  const labelWidth = 70;
  const barMax = contentWidth(doc) - labelWidth - 60;
  const max = Math.max(1, ...SEVERITIES.map((s) => counts[s]));
  SEVERITIES.forEach((severity, i) => {
    const y = top + i * 22;
    doc
      .font('Helvetica')
      .fontSize(9)
      .fillColor(COLORS.text)
      .text(severity[0]!.toUpperCase() + severity.slice(1), MARGIN, y + 4, {
        width: labelWidth,
        lineBreak: false,
      });
    doc.rect(MARGIN + labelWidth, y, barMax, 16).fill('#f3f4f6');
    const width = counts[severity] === 0 ? 0 : Math.max(2, (counts[severity] / max) * barMax);
    if (width > 0) {
      doc.rect(MARGIN + labelWidth, y, width, 16).fill(COLORS[severity]);
    }
    doc
      .fillColor(COLORS.text)
      .text(String(counts[severity]), MARGIN + labelWidth + barMax + 8, y + 4, { lineBreak: false });
  });
  doc.x = MARGIN;
  doc.y = top + SEVERITIES.length * 22 + 10;
}
