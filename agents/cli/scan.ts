// `npm run scan -- --type webapp|infrastructure|api --target URL_OR_HOST [--ports LIST] [--openapi URL] [--rate N] --json`
// Runs one scan directly, without the stack, in local mode (loopback and private targets allowed).
// Exit codes: 0 scan done, 1 scan failed (unreachable, refused), 2 bad arguments.
import type { ScanReport } from '../../shared/findings.ts';
import { SettingsError } from '../../shared/settings.ts';
import { scannerSettings } from '../scanners/core/settings.ts';
import type { CrawlReport } from '../scanners/core/context.ts';
import { runScan } from '../scanners/run-scan.ts';
import { parseCliArgs, usage, UsageError } from './args.ts';
import { progressBar, renderReport } from './report.ts';

async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseCliArgs(argv);
    // The settings are read once, here: a value that means nothing stops the scan before it starts.
    scannerSettings();
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`vigil scan: ${error.message}\n\n${usage}\n`);
      return 2;
    }
    if (error instanceof SettingsError) {
      process.stderr.write(`vigil scan: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (args.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  const controller = new AbortController();
  // Ctrl-C stops the scan and still prints what was found so far; a second Ctrl-C exits at once.
  process.once('SIGINT', () => {
    controller.abort();
    process.once('SIGINT', () => process.exit(130));
  });
  const bar = args.json ? null : progressBar(process.stderr);
  try {
    const result = await runScan(args.type, {
      target: args.target,
      mode: 'local',
      ports: args.ports,
      openapi: args.openapi,
      ...(args.login ? { login: args.login } : {}),
      ...(args.rate === undefined ? {} : { rateLimit: args.rate }),
      signal: controller.signal,
      onProgress: bar?.update,
    });
    bar?.done();
    if (args.json) {
      const report: ScanReport & { partial: boolean; crawl?: CrawlReport } = {
        target: result.target,
        type: result.type,
        findings: result.findings,
        stats: result.stats,
        // Web scans: which crawl ran, beside stats (an added field; the contract's fields are unchanged).
        ...(result.crawl ? { crawl: result.crawl } : {}),
        partial: result.partial,
      };
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    } else {
      process.stdout.write(`${renderReport(result)}\n`);
    }
    return 0;
  } catch (error) {
    bar?.done();
    process.stderr.write(`vigil scan: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
