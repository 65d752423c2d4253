import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { csvCell, renderCsv, renderJson } from './exports.ts';
import { makeFinding, makeReportData } from './fixtures.ts';
import { renderPdf } from './pdf/render.ts';

async function pdfText(pdf: Buffer): Promise<{ text: string; pages: number }> {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const { text, totalPages } = await extractText(doc, { mergePages: true });
  return { text, pages: totalPages };
}

describe('report rendering', () => {
  it('renders a branded PDF with summary, chart, compliance section and every finding', async () => {
    const data = makeReportData(25);
    const pdf = await renderPdf(data);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const { text, pages } = await pdfText(pdf);
    expect(pages).toBeGreaterThan(2);
    expect(text).toContain('Acme Widgets Ltd');
    expect(text).toContain('SOC Compliance Report');
    expect(text).toContain('Executive summary');
    expect(text).toContain('up 24 from 40');
    expect(text).toContain('Open findings by severity');
    expect(text).toContain('ISO/IEC 27001:2022');
    expect(text).toContain('PCI DSS v4.0');
    expect(text).toContain('Findings (25)');
    expect(text).toContain('Finding number 24: missing security header');
    expect(text).toContain('Scans that did not run every check');
    expect(text).toContain('https://shop.acme.test (2026-02-14 09:30 UTC): Partial: time limit reached');
    expect(text).toContain('crawl: stopped after 600 s (its phase deadline)');
  });

  it('leaves the incomplete-scans section out when every scan ran whole', async () => {
    const data = makeReportData(1);
    data.scans = { ...data.scans, partial: 0, incomplete: [] };
    const { text } = await pdfText(await renderPdf(data));
    expect(text).toContain('Executive summary');
    expect(text).not.toContain('Scans that did not run every check');
  });

  it('leaves the compliance section out of penetration tests and shows affected assets', async () => {
    const { text } = await pdfText(await renderPdf(makeReportData(3, { reportType: 'penetration_test' })));
    expect(text).toContain('Penetration Test Report');
    expect(text).toContain('Most affected assets');
    expect(text).not.toContain('Compliance mapping');
  });

  it('survives hostile text: control characters, emoji and non-Latin scripts', async () => {
    const data = makeReportData(0, { companyName: 'Zürich Ünïcode AG' });
    data.open = [
      makeFinding(1, {
        title: 'XSS \u0000\u001b[31m in 検索 🚀',
        evidence: '<script>alert(1)</script>\r\n'.repeat(200),
      }),
    ];
    const { text } = await pdfText(await renderPdf(data));
    expect(text).toContain('Zürich Ünïcode AG');
    expect(text).toContain('XSS');
  });

  it('exports the same findings as CSV and JSON', () => {
    const data = makeReportData(4);
    const csv = renderCsv(data).toString('utf8').trim().split('\r\n');
    expect(csv).toHaveLength(5);
    expect(csv[0]).toMatch(/^severity,title,rule_id/);
    const json = JSON.parse(renderJson(data).toString('utf8')) as {
      company_name: string;
      findings: { id: string; controls: unknown[] }[];
    };
    expect(json.company_name).toBe('Acme Widgets Ltd');
    expect(json.findings.map((f) => f.id)).toEqual(data.open.map((f) => f.id));
    expect(json.findings[0]!.controls.length).toBeGreaterThan(0);
  });

  it('quotes CSV cells and defuses spreadsheet formulas', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell('-1+2')).toBe("'-1+2");
    expect(csvCell(null)).toBe('');
  });
});
