// `npm run scan -- --type webapp|infrastructure|api --target URL_OR_HOST [--ports LIST] [--openapi URL] [--rate N] --json`
// Runs one scan directly, without the stack, in local mode (loopback and private targets allowed). The
// scan runs in a process of its own (scan-process.ts): whatever the target does, this command ends
// within the scan's time limit and prints what was found, saying why when it was cut short.
// Exit codes: 0 scan done (complete or partial), 1 scan failed (unreachable, refused), 2 bad arguments,
// 130 a second Ctrl-C.
import type { ScanReport } from '../../shared/findings.ts';
import { SettingsError } from '../../shared/settings.ts';
import type { CategoryReport } from '../../shared/scan-categories.ts';
import type { CrawlReport } from '../scanners/core/context.ts';
import type { PhaseOutcome } from '../scanners/core/phases.ts';
import { scanStop } from '../scanners/core/scan-stopped.ts';
import { configuredScanLimits, scannerSettings } from '../scanners/core/settings.ts';
import { runIsolatedScan } from '../scanners/isolation/scan-process.ts';
import type { ScanResources } from '../scanners/isolation/scan-process.ts';
import { parseCliArgs, usage, UsageError } from './args.ts';
import { progressBar, renderReport } from './report.ts';

/** The JSON the command prints: the contract's fields, then what says how complete the scan is. */
export type CliReport = ScanReport &
  PhaseOutcome & { crawl?: CrawlReport; categories?: CategoryReport; resources: ScanResources };

async function main(argv: string[]): Promise<number> {
  let args;
  let configured;
  try {
    args = parseCliArgs(argv);
    // The settings are read once, here: a value that means nothing stops the scan before it starts.
    scannerSettings();
    configured = configuredScanLimits();
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
    controller.abort(scanStop('cancelled', 'interrupted (Ctrl-C)'));
    process.once('SIGINT', () => process.exit(130));
  });
  const bar = args.json ? null : progressBar(process.stderr);
  try {
    const result = await runIsolatedScan(args.type, {
      target: args.target,
      mode: 'local',
      ...(args.ports === undefined ? {} : { ports: args.ports }),
      ...(args.openapi === undefined ? {} : { openapi: args.openapi }),
      ...(args.login ? { login: args.login } : {}),
      ...(args.rate === undefined ? {} : { rateLimit: args.rate }),
      allowIntrusive: args.intrusive,
      limits: {
        ...configured,
        ...(args.maxTime === undefined ? {} : { timeMs: args.maxTime * 1000 }),
        ...(args.maxMemory === undefined ? {} : { memoryMb: args.maxMemory }),
      },
      signal: controller.signal,
      ...(bar ? { onProgress: bar.update } : {}),
    });
    bar?.done();
    if (args.json) {
      const report: CliReport = {
        target: result.target,
        type: result.type,
        findings: result.findings,
        stats: result.stats,
        // Web scans: which crawl ran, beside stats (an added field; the contract's fields are unchanged).
        ...(result.crawl ? { crawl: result.crawl } : {}),
        // Which categories of checks ran, and which were left out (intrusive without --intrusive).
        ...(result.categories ? { categories: result.categories } : {}),
        partial: result.partial,
        ...(result.stopped ? { stopped: result.stopped } : {}),
        phase_errors: result.phase_errors,
        resources: result.resources,
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
