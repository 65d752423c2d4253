// The human-readable report of `npm run scan` without --json, and its progress bar.
import pc from 'picocolors';

import type { Severity } from '../../shared/findings.ts';
import type { ScanProgress } from '../scanners/core/progress.ts';
import type { ScanResult } from '../scanners/run-scan.ts';

const paint: Record<Severity, (text: string) => string> = {
  critical: (t) => pc.bold(pc.red(t)),
  high: pc.red,
  medium: pc.yellow,
  low: pc.cyan,
  info: pc.dim,
};

export function renderReport(result: ScanResult): string {
  const lines: string[] = [];
  const counts = new Map<Severity, number>();
  result.findings.forEach((f) => counts.set(f.severity, (counts.get(f.severity) ?? 0) + 1));
  lines.push(pc.bold(`Vigil ${result.type} scan of ${result.target}`));
  lines.push(
    `${result.stats.requests} requests in ${(result.stats.duration_ms / 1000).toFixed(1)} s${result.partial ? pc.yellow(' (stopped early: partial result)') : ''}`,
  );
  const crawl = result.crawl;
  if (crawl) {
    const how =
      crawl.engine === 'html'
        ? `HTML crawl only${crawl.reason ? ` (${crawl.reason})` : ''}`
        : `${crawl.rendered} of ${crawl.pages} pages rendered in ${crawl.engine === 'electron' ? 'Electron' : 'Chromium'} ${crawl.browser ?? ''}, ${crawl.api_calls} API calls seen`;
    lines.push(pc.dim(how.trim()));
    if (crawl.login) {
      lines.push(
        crawl.login.status === 'logged-in'
          ? pc.dim(
              `logged in: ${crawl.login.detail}${crawl.login.renewals ? ` (renewed ${crawl.login.renewals}×)` : ''}`,
            )
          : pc.yellow(`login ${crawl.login.status}: ${crawl.login.detail}`),
      );
    }
  }
  const summary = (['critical', 'high', 'medium', 'low', 'info'] as const)
    .map((s) => `${paint[s](s)} ${counts.get(s) ?? 0}`)
    .join('  ');
  lines.push(`${result.findings.length} findings: ${summary}`, '');
  for (const finding of result.findings) {
    lines.push(
      `${paint[finding.severity](finding.severity.toUpperCase().padEnd(8))} ${pc.bold(finding.title)}  ${pc.dim(finding.rule_id)}`,
    );
    lines.push(`         at ${finding.location}`);
    lines.push(`         ${finding.evidence}`);
    lines.push(
      pc.dim(
        `         ${finding.cwe} · ${finding.owasp} · CVSS ${finding.cvss.score} ${finding.cvss.vector}`,
      ),
    );
    lines.push(`         fix: ${finding.remediation}`, '');
  }
  if (result.findings.length === 0) {
    lines.push(pc.green('No findings.'));
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
        `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${p.percent.toFixed(0).padStart(3)}% ${p.phase.padEnd(18)} ${p.requestsPerSecond} req/s${eta}\u001b[K`,
      );
    },
    done() {
      if (stream.isTTY) {
        stream.write('\r\u001b[K');
      }
    },
  };
}
