// Child process of the report benchmark: one agent process generating one report (load from the API,
// render the PDF/CSV/JSON, upload to storage), so its time and peak memory are the worker's own.
import { createServiceClient } from '../agents/queue/client.ts';
import { generateReport } from '../agents/reports/generate.ts';

const [url, key, reportId] = process.argv.slice(2);
if (!url || !key || !reportId) {
  throw new Error('usage: reports-child.ts URL SERVICE_KEY REPORT_ID');
}
const db = createServiceClient(url, key);
const t0 = performance.now();
const result = await generateReport(db, reportId);
const ms = performance.now() - t0;
console.log(
  JSON.stringify({
    ms,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    sizes: result.sizes,
    findings: result.findings,
  }),
);
