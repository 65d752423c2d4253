// The human-readable report of `npm run scan` without --json, and its progress bar.
import pc from 'picocolors';

import type { Severity } from '../../shared/findings.ts';
import { inertText } from '../scanners/core/inert-text.ts';
import type { ScanProgress } from '../scanners/core/progress.ts';
import type { StopReason } from '../scanners/core/scan-stopped.ts';
import type { ScanResult } from '../scanners/run-scan.ts';

const paint: Record<Severity, (text: string) => string> = {
  critical: (t) => pc.bold(pc.red(t)),
  high: pc.red,
  medium: pc.yellow,
  low: pc.cyan,
  info: pc.dim,
};

const stopped: Record<StopReason, string> = {
  cancelled: 'stopped',
  deadline: 'time limit reached',
  memory: 'memory cap reached',
  budget: 'request budget used up',
  crashed: 'the scan process failed',
};

/** Text that came from a target or a scan (banners, reasons, errors), as one inert line. */
const line = (text: string, max = 500) => inertText(text, max);

export function renderReport(result: ScanResult): string {
  const lines: string[] = [];
  const counts = new Map<Severity, number>();
  result.findings.forEach((f) => counts.set(f.severity, (counts.get(f.severity) ?? 0) + 1));
  lines.push(pc.bold(`Vigil ${result.type} scan of ${line(result.target)}`));
  lines.push(
    `${result.stats.requests} requests in ${(result.stats.duration_ms / 1000).toFixed(1)} s${result.partial ? pc.yellow(' (partial result)') : ''}`,
  );
  if (result.stopped) {
    lines.push(pc.yellow(`${stopped[result.stopped.reason]}: ${line(result.stopped.detail)}`));
  }
  for (const failure of result.phase_errors) {
    lines.push(pc.yellow(`phase "${line(failure.phase, 80)}" did not finish: ${line(failure.error)}`));
  }
  const categories = result.categories;
  if (categories) {
    const skipped = categories.skipped.flatMap((s) => s.checks);
    lines.push(
      `checks run: ${categories.ran.join(', ') || 'none'}${skipped.length ? pc.dim(` (intrusive left out: ${skipped.join(', ')}; --intrusive runs them)`) : ''}`,
    );
  }
  const crawl = result.crawl;
  if (crawl) {
    const how =
      crawl.engine === 'html'
        ? `HTML crawl only${crawl.reason ? ` (${crawl.reason})` : ''}`
        : `${crawl.rendered} of ${crawl.pages} pages rendered in ${crawl.engine === 'electron' ? 'Electron' : 'Chromium'} ${crawl.browser ?? ''}, ${crawl.api_calls} API calls seen`;
    lines.push(pc.dim(line(how.trim())));
    if (crawl.sandbox) {
      lines.push(pc.dim(`browser sandbox: ${line(crawl.sandbox)}`));
    }
    if (crawl.stopped) {
      lines.push(pc.yellow(`rendering stopped: ${line(crawl.stopped)}`));
    }
    for (const cut of crawl.cut?.slice(0, 5) ?? []) {
      lines.push(pc.yellow(`page cut short: ${line(cut.url, 200)} (${line(cut.reason, 200)})`));
    }
    if ((crawl.cut_total ?? 0) > 5) {
      lines.push(pc.yellow(`…and ${(crawl.cut_total ?? 0) - 5} more pages cut short`));
    }
    if (crawl.login) {
      lines.push(
        crawl.login.status === 'logged-in'
          ? pc.dim(
              `logged in: ${line(crawl.login.detail)}${crawl.login.renewals ? ` (renewed ${crawl.login.renewals}×)` : ''}`,
            )
          : pc.yellow(`login ${crawl.login.status}: ${line(crawl.login.detail)}`),
      );
    }
  }
  const summary = (['critical', 'high', 'medium', 'low', 'info'] as const)
    .map((s) => `${paint[s](s)} ${counts.get(s) ?? 0}`)
    .join('  ');
  lines.push(`${result.findings.length} findings: ${summary}`, '');
  for (const finding of result.findings) {
    lines.push(
      `${paint[finding.severity](finding.severity.toUpperCase().padEnd(8))} ${pc.bold(line(finding.title))}  ${pc.dim(line(finding.rule_id))}`,
    );
    // Findings are made inert where they are made; a finding read from elsewhere (a file) is made so here.
    lines.push(`         at ${line(finding.location, 600)}`);
    lines.push(`         ${line(finding.evidence)}`);
    lines.push(
      pc.dim(
        `         ${finding.cwe} · ${finding.owasp} · CVSS ${finding.cvss.score} ${finding.cvss.vector}`,
      ),
    );
    lines.push(`         fix: ${line(finding.remediation, 2000)}`, '');
  }
  if (result.findings.length === 0) {
    lines.push(result.partial ? pc.yellow('No findings before the scan ended.') : pc.green('No findings.'));
  }
  return lines.join('\n');
}

/** Draws one progress line on a terminal (redrawn in place); on a pipe, prints each new phase once. */
export function progressBar(stream: NodeJS.WriteStream): {
  update: (p: ScanProgress) => void;
  done: () => void;
} {
  let lastPhase = '';
  let lastDraw = 0;
  return {
    update(p) {
      if (!stream.isTTY) {
        if (p.phase !== lastPhase) {
          lastPhase = p.phase;
          stream.write(`[${p.percent.toFixed(0).padStart(3)}%] ${p.phase}\n`);
        }
        return;
      }
      // Guard: redrawing on every port of a 65535-port sweep would cost more than the scan.
      if (Date.now() - lastDraw < 100 && p.phase === lastPhase) {
        return;
      }
      lastDraw = Date.now();
      lastPhase = p.phase;
      const width = 30;
      const filled = Math.round((p.percent / 100) * width);
      const eta = p.etaSeconds === null ? '' : ` eta ${p.etaSeconds}s`;
      stream.write(
        `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${p.percent.toFixed(0).padStart(3)}% ${line(p.phase, 40).padEnd(18)} ${p.requestsPerSecond} req/s${eta}\u001b[K`,
      );
    },
    done() {
      if (stream.isTTY) {
        stream.write('\r\u001b[K');
      }
    },
  };
}
