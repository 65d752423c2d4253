// Exposed files and directory listings. A path counts as exposed only when (1) it answers 200, (2) its
// body differs from what the same directory answers for a random path that cannot exist (SPAs and
// catch-all routes answer 200 with the app shell for everything: "soft 404"), and (3) the body carries
// the file type's own signature (.git/HEAD must read "ref: refs/...", .env must hold KEY=value lines).
import { randomBytes } from 'node:crypto';

import type { Finding } from '../../../shared/findings.ts';
import type { HttpClient, HttpResponse } from '../core/http-client.ts';
import { forEachLimit } from '../core/pool.ts';
import type { Page } from './crawl.ts';
import { webappFinding } from './rules.ts';
import type { WebappRuleId } from './rules.ts';

interface Probe {
  path: string;
  rule: WebappRuleId;
  signature: (body: string) => boolean;
}

const looksHtml = (body: string) => /<html[\s>]|<!doctype html/i.test(body.slice(0, 2000));
const envLines = (body: string) =>
  (body.match(/^[A-Z][A-Z0-9_]*=.*$/gm) ?? []).length >= 2 && !looksHtml(body);
const sourceCode = (body: string) =>
  /<\?php|<%[@=]?|^\s*(import|require|def|package|module\.exports)\b/m.test(body);
const debugSignature =
  /Werkzeug Debugger|The debugger caught an exception|You're seeing this error because you have <code>DEBUG = True|"propertySources"\s*:|Types of profiles available|Symfony Profiler|Whoops! There was an error|Laravel.{0,40}debug/i;

/** Files checked in the root and in every directory the crawl saw. */
const fileProbes: Probe[] = [
  {
    path: '.git/HEAD',
    rule: 'web.exposed.git',
    signature: (b) => /^(ref: refs\/[\w./-]+|[0-9a-f]{40})\s*$/.test(b),
  },
  {
    path: '.git/config',
    rule: 'web.exposed.git',
    signature: (b) => /^\s*\[core\]/m.test(b) && !looksHtml(b),
  },
  { path: '.env', rule: 'web.exposed.env', signature: envLines },
  { path: '.env.local', rule: 'web.exposed.env', signature: envLines },
  { path: '.env.production', rule: 'web.exposed.env', signature: envLines },
  { path: '.DS_Store', rule: 'web.exposed.ds-store', signature: (b) => b.slice(0, 12).includes('Bud1') },
  { path: 'index.php.bak', rule: 'web.exposed.backup', signature: sourceCode },
  { path: 'index.php~', rule: 'web.exposed.backup', signature: sourceCode },
  { path: '.index.php.swp', rule: 'web.exposed.backup', signature: (b) => b.startsWith('b0VIM') },
  { path: 'config.php.bak', rule: 'web.exposed.backup', signature: sourceCode },
  { path: 'wp-config.php.bak', rule: 'web.exposed.backup', signature: sourceCode },
  {
    path: 'backup.sql',
    rule: 'web.exposed.backup',
    signature: (b) => /CREATE TABLE|INSERT INTO|-- (MySQL|PostgreSQL) (dump|database dump)/i.test(b),
  },
  {
    path: 'dump.sql',
    rule: 'web.exposed.backup',
    signature: (b) => /CREATE TABLE|INSERT INTO|-- (MySQL|PostgreSQL) (dump|database dump)/i.test(b),
  },
  { path: 'backup.zip', rule: 'web.exposed.backup', signature: (b) => b.startsWith('PK\u0003\u0004') },
  {
    path: 'phpinfo.php',
    rule: 'web.exposed.phpinfo',
    signature: (b) => /<title>phpinfo\(\)|PHP Version \d/i.test(b),
  },
  {
    path: 'info.php',
    rule: 'web.exposed.phpinfo',
    signature: (b) => /<title>phpinfo\(\)|PHP Version \d/i.test(b),
  },
];

/** Paths that only make sense at the root. */
const rootProbes: Probe[] = [
  {
    path: 'server-status',
    rule: 'web.exposed.server-status',
    signature: (b) => /Apache Server Status|Server uptime:|Total Accesses:/i.test(b),
  },
  {
    path: 'server-info',
    rule: 'web.exposed.server-status',
    signature: (b) => /Apache Server Information/i.test(b),
  },
  {
    path: 'nginx_status',
    rule: 'web.exposed.server-status',
    signature: (b) => /^Active connections:\s*\d+/m.test(b),
  },
  { path: 'debug', rule: 'web.exposed.debug', signature: (b) => debugSignature.test(b) },
  { path: 'console', rule: 'web.exposed.debug', signature: (b) => debugSignature.test(b) },
  { path: 'actuator/env', rule: 'web.exposed.debug', signature: (b) => debugSignature.test(b) },
  { path: 'debug/pprof/', rule: 'web.exposed.debug', signature: (b) => debugSignature.test(b) },
  { path: '_profiler/', rule: 'web.exposed.debug', signature: (b) => debugSignature.test(b) },
];

const listingSignature =
  /<title>\s*Index of \/|<h1>\s*Index of \/|Directory listing for \/|\[To Parent Directory\]/i;
const commonDirectories = ['uploads/', 'files/', 'backup/', 'backups/', 'static/', 'images/', 'assets/'];

/** Says what the file holds without repeating secrets: variable names of env files, else the first line. */
function describe(body: string): string {
  if (envLines(body)) {
    return `variables: ${(body.match(/^[A-Z][A-Z0-9_]*(?==)/gm) ?? []).slice(0, 10).join(', ')}`;
  }
  const first = body
    .split('\n')[0]!
    .replace(/[^\x20-\x7e]+/g, ' ')
    .trim();
  return `starts with ${JSON.stringify(first.slice(0, 60))}`;
}

function normalise(body: string, token: string): string {
  return body.split(token).join('').replace(/\s+/g, ' ').trim();
}

/** True when `candidate` is the directory's catch-all answer rather than a real file. */
function isSoft404(
  candidate: HttpResponse,
  baseline: HttpResponse | null,
  baselineToken: string,
  path: string,
): boolean {
  if (!baseline || baseline.status !== candidate.status) {
    return false;
  }
  const a = normalise(candidate.body, path);
  const b = normalise(baseline.body, baselineToken);
  return (
    a === b ||
    (Math.abs(a.length - b.length) <= Math.max(32, b.length * 0.02) && a.slice(0, 200) === b.slice(0, 200))
  );
}

/** Directories to probe: the root plus every directory of a crawled page, nearest first, at most `max`. */
function directoriesOf(pages: Page[], origin: string, max: number): URL[] {
  const dirs = new Set<string>(['/']);
  for (const page of pages) {
    const parts = page.url.pathname.split('/').slice(1, -1);
    for (let i = 1; i <= parts.length; i += 1) {
      dirs.add(`/${parts.slice(0, i).join('/')}/`);
    }
  }
  return [...dirs].slice(0, max).map((dir) => new URL(dir, origin));
}

export async function exposedFileFindings(
  client: HttpClient,
  origin: URL,
  pages: Page[],
  onProgress: (done: number, total: number) => void,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const directories = directoriesOf(pages, origin.origin, 12);
  const listingCandidates = new Set([
    ...directories.map((d) => d.href),
    ...commonDirectories.map((d) => new URL(d, origin).href),
  ]);
  let done = 0;
  const total = directories.length * (fileProbes.length + 1) + rootProbes.length + listingCandidates.size;
  const tick = () => onProgress(++done, total);

  const check = async (dir: URL, probes: Probe[], baseline: HttpResponse | null, token: string) => {
    await forEachLimit(probes, 6, async (probe) => {
      const response = await client.tryRequest(new URL(probe.path, dir));
      tick();
      if (
        response?.status === 200 &&
        !isSoft404(response, baseline, token, probe.path) &&
        probe.signature(response.body)
      ) {
        findings.push(
          webappFinding(probe.rule, {
            location: response.url,
            evidence: `HTTP 200, ${response.body.length} bytes; ${describe(response.body)}`,
          }),
        );
      }
    });
  };

  for (const dir of directories) {
    const token = `vigil-${randomBytes(8).toString('hex')}`;
    const baseline = await client.tryRequest(new URL(token, dir));
    tick();
    await check(dir, dir.pathname === '/' ? [...fileProbes, ...rootProbes] : fileProbes, baseline, token);
  }
  await forEachLimit([...listingCandidates], 6, async (href) => {
    const response = await client.tryRequest(href);
    tick();
    if (response?.status === 200 && listingSignature.test(response.body)) {
      findings.push(
        webappFinding('web.directory-listing', {
          location: response.url,
          evidence: 'directory index page ("Index of ...") served',
        }),
      );
    }
  });
  return findings;
}
