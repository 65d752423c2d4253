// Web injection and endpoint discovery: our web scan beside wapiti (crawls from the root like us; modules
// sql, blindsql, exec, file, xss, redirect, ssrf), sqlmap (given every parameterised URL of the fixture,
// one process per URL: in multi-target mode it skips a parameter name once seen on the host) and whatweb
// (its Email plugin, at the root as users run it), on the PHP/MariaDB and Flask/SQLite/PostgreSQL shops
// and their silent twins. The deliberately slow and jittery pages are left out of the tools' runs (wapiti
// crawls them but does not attack their parameters): wapiti spends about 13 minutes and sqlmap about 11
// on them, finding nothing there; our scan keeps them.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { runScan } from '../../../agents/scanners/run-scan.ts';
import { startFlaskShop } from '../../../tests/fixtures/web/injection/flask-shop.ts';
import { startPhpShop } from '../../../tests/fixtures/web/injection/php-shop.ts';
import type { PlantedIssue, RunningFixture } from '../../../tests/fixtures/planted.ts';
import { runTool } from '../tool-process.ts';
import type { DetectionFixture, ReferenceTool, ToolRun } from '../types.ts';

const sqlRules = ['web.sqli.error', 'web.sqli.boolean', 'web.sqli.time'];
const injectionRules = [
  ...sqlRules,
  'web.path-traversal',
  'web.ssti',
  'web.command-injection',
  'web.xss.reflected',
  'web.open-redirect',
];
const discoveryRules = [
  'web.api.personal-data',
  'web.graphql.introspection',
  'web.cors.reflected-origin',
  'web.cors.null-origin',
];

/** Injection classes, and what only discovery reaches (APIs named nowhere a link points). */
export function classOf(issue: PlantedIssue): string {
  if (injectionRules.includes(issue.rule_id)) {
    return 'injection';
  }
  return discoveryRules.includes(issue.rule_id) ? 'api-discovery' : 'web-basics';
}

/** Where a tool's finding on `pathname`'s `param` sits in the planted list's terms. */
const locationOf = (method: string, pathname: string, param: string) =>
  `${method === 'POST' ? 'POST ' : ''}${pathname}?${param}=`;

/** Maps a tool's findings (rules it may mean, at a location) to planted issues or false positives. */
function judge(
  planted: PlantedIssue[],
  reports: { rules: string[]; location: string; what: string }[],
): Pick<ToolRun, 'found' | 'falsePositives'> {
  const found: PlantedIssue[] = [];
  const falsePositives: string[] = [];
  for (const report of reports) {
    const hit = planted.find((p) => p.location === report.location && report.rules.includes(p.rule_id));
    if (hit) {
      found.push(hit);
    } else {
      falsePositives.push(`${report.what} ${report.location}`);
    }
  }
  return { found, falsePositives };
}

/** Wapiti's JSON report category → the rules it can stand for. */
const wapitiCategories: Record<string, string[]> = {
  'SQL Injection': sqlRules,
  'Blind SQL Injection': sqlRules,
  'Command execution': ['web.command-injection'],
  'Path Traversal': ['web.path-traversal'],
  'Cross Site Scripting': ['web.xss.reflected'],
  'Open Redirect': ['web.open-redirect'],
  'Server Side Request Forgery': [],
};

export function wapitiReports(report: unknown): { rules: string[]; location: string; what: string }[] {
  const vulnerabilities =
    (report as { vulnerabilities?: Record<string, { method?: string; path?: string; parameter?: string }[]> })
      .vulnerabilities ?? {};
  return Object.entries(vulnerabilities).flatMap(([category, items]) =>
    category in wapitiCategories
      ? items.map((item) => ({
          rules: wapitiCategories[category]!,
          location: locationOf(item.method ?? 'GET', item.path ?? '', item.parameter ?? ''),
          what: category,
        }))
      : [],
  );
}

/** What wapiti reported in categories that map to none of our rules, as `category: METHOD path parameter`. */
export function wapitiToolOnly(report: unknown): string[] {
  const vulnerabilities =
    (report as { vulnerabilities?: Record<string, { method?: string; path?: string; parameter?: string }[]> })
      .vulnerabilities ?? {};
  return Object.entries(vulnerabilities).flatMap(([category, items]) =>
    category in wapitiCategories
      ? []
      : items.map((item) =>
          `${category}: ${item.method ?? 'GET'} ${item.path ?? ''} ${item.parameter ?? ''}`.trim(),
        ),
  );
}

function wapiti(skipped: string[]): ReferenceTool {
  return {
    name: 'wapiti -m sql,blindsql,exec,file,xss,redirect,ssrf',
    command: 'wapiti',
    aptPackage: 'wapiti',
    covers: (issue) => injectionRules.includes(issue.rule_id) && issue.rule_id !== 'web.ssti',
    async run(fixture: RunningFixture) {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-wapiti-'));
      try {
        const out = path.join(dir, 'report.json');
        const run = await runTool(
          'wapiti',
          [
            ...['-u', `${fixture.target}/`, '-m', 'sql,blindsql,exec,file,xss,redirect,ssrf'],
            ...['--scope', 'folder', '--flush-session', '--store-session', dir, '--store-config', dir],
            ...['-f', 'json', '-o', out, '--no-bugreport', '-v', '0'],
            // Its -x (exclude URL) fails on Python 3.11 (fnmatch regex); --skip leaves a parameter alone.
            ...skipped.flatMap((p) => ['--skip', p]),
          ],
          { timeoutMs: 1_800_000, env: { ...process.env, HOME: dir } },
        );
        const report = JSON.parse(await readFile(out, 'utf8').catch(() => '{}')) as unknown;
        return {
          ...judge(fixture.planted, wapitiReports(report)),
          toolOnly: wapitiToolOnly(report),
          ms: run.ms,
          ...(run.timedOut ? { note: 'timed out after 30 min' } : {}),
        };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/** sqlmap's closing summary: "Parameter: id (GET)" then the techniques that proved it. */
export function sqlmapInjectionPoints(stdout: string): { param: string; place: string; types: string[] }[] {
  const summary = stdout.split(/sqlmap identified the following injection point\(s\)/)[1] ?? '';
  const points: { param: string; place: string; types: string[] }[] = [];
  for (const line of summary.split('\n')) {
    const head = /^Parameter: (.+?) \((GET|POST|URI|Cookie)\)/.exec(line.trim());
    if (head) {
      points.push({ param: head[1]!, place: head[2]!, types: [] });
      continue;
    }
    const type = /^Type: (.+)$/.exec(line.trim());
    if (type && points.length > 0) {
      points.at(-1)!.types.push(type[1]!);
    }
  }
  return points;
}

function sqlmap(urls: string[]): ReferenceTool {
  return {
    name: 'sqlmap --batch --level 2',
    command: 'sqlmap',
    aptPackage: 'sqlmap',
    covers: (issue) => sqlRules.includes(issue.rule_id),
    async run(fixture: RunningFixture) {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-sqlmap-'));
      const reports: { rules: string[]; location: string; what: string }[] = [];
      let ms = 0;
      const timedOut: string[] = [];
      try {
        for (const url of urls) {
          const target = new URL(url, fixture.target);
          const run = await runTool(
            'sqlmap',
            [
              ...['-u', target.href, '--batch', '--level', '2', '--flush-session'],
              ...['--output-dir', dir, '--disable-coloring'],
            ],
            { timeoutMs: 300_000, env: { ...process.env, HOME: dir } },
          );
          ms += run.ms;
          if (run.timedOut) {
            timedOut.push(target.pathname);
          }
          for (const point of sqlmapInjectionPoints(run.stdout)) {
            reports.push({
              rules: sqlRules,
              location: locationOf(point.place, target.pathname, point.param),
              what: `sqlmap (${point.types.join(', ')})`,
            });
          }
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
      return {
        ...judge(fixture.planted, reports),
        ms,
        ...(timedOut.length ? { note: `stopped after 5 min on ${timedOut.join(', ')}` } : {}),
      };
    },
  };
}

function whatweb(): ReferenceTool {
  return {
    name: 'whatweb -a 3 (Email plugin)',
    command: 'whatweb',
    aptPackage: 'whatweb',
    covers: (issue) => issue.rule_id === 'web.api.personal-data',
    async run(fixture: RunningFixture) {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-whatweb-'));
      try {
        const log = path.join(dir, 'log.json');
        const run = await runTool(
          'whatweb',
          ['-a', '3', '--no-errors', `--log-json=${log}`, `${fixture.target}/`],
          {
            timeoutMs: 300_000,
          },
        );
        const entries = JSON.parse(await readFile(log, 'utf8').catch(() => '[]')) as {
          target: string;
          plugins?: { Email?: { string?: string[] } };
        }[];
        const reports = entries
          .filter((e) => (e.plugins?.Email?.string ?? []).length > 0)
          .map((e) => ({
            rules: ['web.api.personal-data'],
            location: new URL(e.target).pathname,
            what: 'Email',
          }));
        return { ...judge(fixture.planted, reports), ms: run.ms };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Every parameterised URL of each shop, the hidden ones too (sqlmap has no discovery of its own). */
const sqlmapUrls = {
  php: [
    '/product.php?id=1',
    '/user.php?name=alice',
    '/category.php?cat=1',
    '/track.php?ref=newsletter',
    '/view.php?file=welcome.txt',
    '/lookup.php?host=localhost',
    '/greet.php?name=guest',
    '/search.php?q=test',
    '/api/v1/stats?year=2024',
    '/api/v1/orders?status=shipped',
    '/api/v1/goto?url=/',
    '/api/v2/files?name=report.txt',
  ],
  flask: [
    '/hello?name=guest',
    '/products?category=tools',
    '/download?file=manual.txt',
    '/api/reports?year=2024',
    '/api/lookup?domain=localhost',
    '/api/preview?text=hello',
    '/api/v1/export?name=march.csv',
    '/rest/orders?id=1',
  ],
};
/** The slow and jittery pages' parameters, named nowhere else. */
const slowAndJittery = { php: ['item', 'visit'], flask: ['rose', 'offer'] };

const shop = (stack: 'php' | 'flask', variant: 'vulnerable' | 'twin'): DetectionFixture => ({
  name:
    stack === 'php'
      ? `PHP-FPM/nginx/MariaDB shop${variant === 'twin' ? ', parametrised twin (silent)' : ': blind SQLi, traversal, RCE, Twig SSTI, JS-only API'}`
      : `Flask/SQLite/PostgreSQL shop${variant === 'twin' ? ', safe twin (silent)' : ': Jinja2 SSTI, blind SQLi, blind RCE, GraphQL, JS-only API'}`,
  classOf,
  start: () => (stack === 'php' ? startPhpShop(variant) : startFlaskShop(variant)),
  scan: (f) => runScan('webapp', { target: f.target, mode: 'local' }),
  tools: [wapiti(slowAndJittery[stack]), sqlmap(sqlmapUrls[stack]), whatweb()],
});

export const fixtures: DetectionFixture[] = [
  shop('php', 'vulnerable'),
  shop('php', 'twin'),
  shop('flask', 'vulnerable'),
  shop('flask', 'twin'),
];
