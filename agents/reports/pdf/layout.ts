// The branded page frame of every report PDF: a header band with the Vigil brand and the customer's
// company, a footer with the page number, and the helpers the sections share. Standard PDF fonts only
// cover Windows-1252, so all text goes through `pdfText` first.
import PDFDocument from 'pdfkit';

export type Doc = PDFKit.PDFDocument;

export const COLORS = {
  brand: '#0f172a',
  accent: '#2563eb',
  text: '#111827',
  muted: '#6b7280',
  rule: '#e5e7eb',
  critical: '#b91c1c',
  high: '#ea580c',
  medium: '#ca8a04',
  low: '#2563eb',
  info: '#6b7280',
  ok: '#15803d',
} as const;

export const MARGIN = 50;
const FOOTER_Y_FROM_BOTTOM = 30;

/** Text safe for the standard fonts: Windows-1252 letters kept, control characters and others replaced. */
export function pdfText(value: string, max = 4000): string {
  const text = value.length > max ? `${value.slice(0, max - 3)}...` : value;
  return (
    text
      .normalize('NFC')
      // eslint-disable-next-line no-control-regex -- removing control characters is the point
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, ' ')
      .replace(/[^\n\t\u0020-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u20ac]/g, '?')
  );
}

export interface Frame {
  title: string;
  companyName: string;
  subtitle: string;
}

export function createDocument(frame: Frame): Doc {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 90, bottom: 60, left: MARGIN, right: MARGIN },
    info: {
      Title: pdfText(`${frame.title} — ${frame.companyName}`),
      Author: 'Vigil',
      Creator: 'Vigil report agent',
      Subject: pdfText(frame.subtitle),
    },
    compress: true,
  });
  let page = 0;
  const decorate = () => {
    page++;
    const { width, height } = doc.page;
    // Guard: drawing in the margins must not trigger pdfkit's automatic page break.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.save();
    doc.rect(0, 0, width, 60).fill(COLORS.brand);
    doc
      .fillColor('#ffffff')
      .font('Helvetica-Bold')
      .fontSize(16)
      .text('Vigil', MARGIN, 22, { lineBreak: false });
    doc
      .font('Helvetica')
      .fontSize(9)
      .text(pdfText(`${frame.companyName}  |  ${frame.title}`, 150), MARGIN + 60, 27, {
        width: width - 2 * MARGIN - 60,
        align: 'right',
        lineBreak: false,
      });
    doc
      .fillColor(COLORS.muted)
      .fontSize(8)
      .text(
        pdfText(`Confidential — prepared for ${frame.companyName}`, 150),
        MARGIN,
        height - FOOTER_Y_FROM_BOTTOM,
        { lineBreak: false },
      );
    doc.text(`Page ${page}`, width - MARGIN - 60, height - FOOTER_Y_FROM_BOTTOM, {
      width: 60,
      align: 'right',
      lineBreak: false,
    });
    doc.restore();
    doc.page.margins.bottom = bottom;
    doc.x = MARGIN;
    doc.y = doc.page.margins.top;
    doc.fillColor(COLORS.text);
  };
  doc.on('pageAdded', decorate);
  decorate();
  return doc;
}

export const contentWidth = (doc: Doc) => doc.page.width - 2 * MARGIN;

/** Starts a new page when fewer than `height` points are left on this one. */
export function ensureSpace(doc: Doc, height: number): void {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) {
    doc.addPage();
  }
}

export function heading(doc: Doc, text: string): void {
  ensureSpace(doc, 60);
  doc
    .moveDown(0.5)
    .font('Helvetica-Bold')
    .fontSize(15)
    .fillColor(COLORS.brand)
    .text(pdfText(text), MARGIN, doc.y);
  const y = doc.y + 2;
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + contentWidth(doc), y)
    .lineWidth(1)
    .strokeColor(COLORS.accent)
    .stroke();
  doc.moveDown(0.6).font('Helvetica').fontSize(10).fillColor(COLORS.text);
}

export function paragraph(doc: Doc, text: string): void {
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor(COLORS.text)
    .text(pdfText(text), MARGIN, doc.y, { width: contentWidth(doc) });
  doc.moveDown(0.4);
}

/** Collects the document into one Buffer once it is ended. */
export function toBuffer(doc: Doc): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}
