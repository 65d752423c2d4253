// Single-page apps and logins: the shop of tests/fixtures/spa/spa-shop.ts (nginx, an empty shell, a bundle, a
// JSON API, a login; and its hardened twin) and the help desk of tests/fixtures/spa/spa-desk.ts (lighttpd, hash
// routes, a sessionStorage token), scanned by us (rendered in Chromium, before and after logging in) beside
// wapiti and whatweb, which do not run JavaScript: their recall on what only the running app shows is the
// point. Logged in, wapiti gets the session's token as a header, as a person would copy it from the browser.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { runScan } from '../../../agents/scanners/run-scan.ts';
import type { PlantedIssue, RunningFixture } from '../../../tests/fixtures/planted.ts';
import type { RunningDesk } from '../../../tests/fixtures/spa/spa-desk.ts';
import { spaDeskPorts, spaDeskSessionPlanted, startSpaDesk } from '../../../tests/fixtures/spa/spa-desk.ts';
import type { RunningShop } from '../../../tests/fixtures/spa/spa-shop.ts';
import { spaShopSessionPlanted, startSpaShop } from '../../../tests/fixtures/spa/spa-shop.ts';
import { runTool } from '../tool-process.ts';
import type { ProcessRun } from '../tool-process.ts';
import type { DetectionFixture, ReferenceTool, ToolRun } from '../types.ts';

/** What a crawl sees without running the bundle: the shell's own headers. */
const withoutJs = new Set([
  'web.transport.cleartext',
  'web.header.csp-missing',
  'web.header.nosniff-missing',
  'web.header.referrer-policy-missing',
  'web.header.permissions-policy-missing',
  'web.clickjacking',
  'web.disclosure.server-version',
]);
const sessionKeys = new Set(
  [...spaShopSessionPlanted, ...spaDeskSessionPlanted].map((p) => `${p.rule_id} @ ${p.location}`),
);

function classOf(issue: PlantedIssue): string {
  if (sessionKeys.has(`${issue.rule_id} @ ${issue.location}`)) {
    return 'spa (logged in)';
  }
  return withoutJs.has(issue.rule_id) ? 'web headers' : 'spa';
}

interface WapitiItem {
  path: string;
  parameter: string;
  info: string;
}

/** wapiti 3.0.4's vulnerability categories that one of our rules does the same job as. */
const wapitiRules: Record<string, string> = {
  'SQL Injection': 'web.sqli.error',
  'Blind SQL Injection': 'web.sqli.error',
  'Cross Site Scripting': 'web.xss.reflected',
  'Open Redirect': 'web.open-redirect',
  'HttpOnly Flag cookie': 'web.cookie.httponly-missing',
  'Secure Flag cookie': 'web.cookie.secure-missing',
  'Backup file': 'web.exposed.backup',
  'Commands execution': 'web.command-injection',
  'Command execution': 'web.command-injection',
  'Path Traversal': 'web.path-traversal',
  'XML External Entity': 'web.xxe',
  'Cross Site Request Forgery': 'web.csrf.missing-token',
  'Htaccess Bypass': 'web.auth.method-bypass',
};

/** One tool-only line: the category and wapiti's words, bounded, at the place it names. */
const toolOnlyLine = (category: string, item: WapitiItem) =>
  `${category}: ${item.info.replace(/\s+/g, ' ').slice(0, 160)} at ${item.path}${item.parameter ? `?${item.parameter}=` : ''}`;

/**
 * wapiti's JSON report: each vulnerability category mapped to our rule, where one does the same job; every
 * other item (other categories, header notes no rule of ours shares, its anomalies) kept as tool-only, for a
 * person's verdict (tool-only-review.ts).
 */
export function wapitiFindings(report: {
  vulnerabilities?: Record<string, WapitiItem[]>;
  anomalies?: Record<string, WapitiItem[]>;
}): { found: PlantedIssue[]; toolOnly: string[] } {
  const found: PlantedIssue[] = [];
  const toolOnly = new Set<string>();
  for (const [category, items] of Object.entries(report.vulnerabilities ?? {})) {
    for (const item of items) {
      const at = item.parameter ? `${item.path}?${item.parameter}=` : item.path;
      const rule =
        category === 'Content Security Policy Configuration'
          ? 'web.header.csp-missing'
          : category === 'HTTP Secure Headers'
            ? /X-Frame-Options/i.test(item.info)
              ? 'web.clickjacking'
              : /X-Content-Type-Options/i.test(item.info)
                ? 'web.header.nosniff-missing'
                : /Strict-Transport-Security/i.test(item.info)
                  ? 'web.header.hsts-missing'
                  : null
            : (wapitiRules[category] ?? null);
      if (rule) {
        found.push({ rule_id: rule, location: at });
      } else {
        toolOnly.add(toolOnlyLine(category, item));
      }
    }
  }
  for (const [category, items] of Object.entries(report.anomalies ?? {})) {
    for (const item of items) {
      toolOnly.add(toolOnlyLine(`anomaly ${category}`, item));
    }
  }
  return { found, toolOnly: [...toolOnly].slice(0, 40) };
}

/** wapiti's crawl and attack modules on `target`, read back through wapitiFindings. */
export async function wapitiScan(
  target: string,
  extraArgs: string[],
  maxScanSeconds: number,
): Promise<{ run: ProcessRun; found: PlantedIssue[]; toolOnly: string[] }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-wapiti-'));
  const out = path.join(dir, 'report.json');
  try {
    const run = await runTool(
      'wapiti',
      [
        ...['-u', `${target}/`, '--flush-session', '-f', 'json', '-o', out, '-v', '0'],
        ...['--max-scan-time', String(maxScanSeconds), ...extraArgs],
      ],
      { timeoutMs: (maxScanSeconds + 300) * 1000 },
    );
    const report = JSON.parse(await readFile(out, 'utf8').catch(() => '{}')) as Parameters<
      typeof wapitiFindings
    >[0];
    return { run, ...wapitiFindings(report) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const wapitiCovers = new Set([
  'web.header.csp-missing',
  'web.clickjacking',
  'web.header.nosniff-missing',
  'web.sqli.error',
  'web.xss.reflected',
  'web.open-redirect',
  'web.cookie.httponly-missing',
]);

/** Alice's bearer token, got from the app's login API as her browser gets it. */
async function sessionToken(app: RunningShop | RunningDesk): Promise<string> {
  if (app.login.kind !== 'form') {
    throw new Error('the apps log in with a form');
  }
  const desk = app.target.endsWith(`:${spaDeskPorts.desk}`);
  const response = await fetch(`${app.target}/api/${desk ? 'session' : 'auth/login'}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(
      desk
        ? { user: app.login.username, pass: app.login.password }
        : { email: app.login.username, password: app.login.password },
    ),
  });
  return ((await response.json()) as { token: string }).token;
}

function wapiti(loggedIn: boolean): ReferenceTool {
  return {
    name: loggedIn ? 'wapiti (with the session token)' : 'wapiti',
    command: 'wapiti',
    aptPackage: 'wapiti',
    covers: (issue) => wapitiCovers.has(issue.rule_id),
    async run(fixture: RunningFixture): Promise<ToolRun> {
      const app = fixture as RunningShop | RunningDesk;
      const header = loggedIn ? ['-H', `Authorization: Bearer ${await sessionToken(app)}`] : [];
      const { run, found, toolOnly } = await wapitiScan(fixture.target, header, 600);
      const plantedKeys = new Set(fixture.planted.map((p) => `${p.rule_id} @ ${p.location}`));
      return {
        toolOnly,
        found: found.filter((f) => plantedKeys.has(`${f.rule_id} @ ${f.location}`)),
        // Injection and redirect reports where none was planted would be false; header notes are not.
        falsePositives: found
          .filter(
            (f) =>
              !plantedKeys.has(`${f.rule_id} @ ${f.location}`) && /sqli|xss|redirect|backup/.test(f.rule_id),
          )
          .map((f) => `${f.rule_id} ${f.location}`),
        ms: run.ms,
        ...(run.timedOut ? { note: 'timed out' } : {}),
      };
    },
  };
}

const whatweb: ReferenceTool = {
  name: 'whatweb',
  command: 'whatweb',
  aptPackage: 'whatweb',
  covers: (issue) =>
    issue.rule_id === 'web.disclosure.server-version' || issue.rule_id === 'web.disclosure.powered-by',
  async run(fixture: RunningFixture): Promise<ToolRun> {
    const run = await runTool('whatweb', ['--color=never', '--log-json=-', '-q', `${fixture.target}/`], {
      timeoutMs: 120_000,
    });
    const entries = JSON.parse(run.stdout || '[]') as { plugins?: Record<string, { string?: string[] }> }[];
    const plugins = entries[0]?.plugins ?? {};
    const found: PlantedIssue[] = [];
    if ((plugins.HTTPServer?.string ?? []).some((s) => /\/\d+\.\d+/.test(s))) {
      found.push({ rule_id: 'web.disclosure.server-version', location: '/' });
    }
    if (plugins['X-Powered-By']) {
      found.push({ rule_id: 'web.disclosure.powered-by', location: '/' });
    }
    const plantedKeys = new Set(fixture.planted.map((p) => `${p.rule_id} @ ${p.location}`));
    return {
      found: found.filter((f) => plantedKeys.has(`${f.rule_id} @ ${f.location}`)),
      falsePositives: found
        .filter((f) => !plantedKeys.has(`${f.rule_id} @ ${f.location}`))
        .map((f) => f.rule_id),
      ms: run.ms,
    };
  },
};

export const fixtures: DetectionFixture[] = [
  {
    name: 'single-page shop (nginx + JSON API), not logged in',
    classOf,
    start: async () => {
      const shop = await startSpaShop();
      return { ...shop, planted: shop.publicPlanted };
    },
    scan: (f) => runScan('webapp', { target: f.target, mode: 'local' }),
    tools: [wapiti(false), whatweb],
  },
  {
    name: 'single-page shop, logged in (form login in the page)',
    classOf,
    start: () => startSpaShop(),
    scan: (f) => runScan('webapp', { target: f.target, mode: 'local', login: (f as RunningShop).login }),
    tools: [wapiti(true), whatweb],
  },
  {
    name: 'single-page shop, hardened twin, logged in (silent)',
    classOf,
    start: () => startSpaShop({ hardened: true }),
    scan: (f) => runScan('webapp', { target: f.target, mode: 'local', login: (f as RunningShop).login }),
    tools: [wapiti(false), whatweb],
  },
  {
    name: 'help desk (lighttpd, hash routes), not logged in',
    classOf,
    start: async () => {
      const desk = await startSpaDesk();
      return { ...desk, planted: desk.publicPlanted };
    },
    scan: (f) => runScan('webapp', { target: f.target, mode: 'local' }),
    tools: [wapiti(false), whatweb],
  },
  {
    name: 'help desk, logged in (sessionStorage token)',
    classOf,
    start: () => startSpaDesk(),
    scan: (f) => runScan('webapp', { target: f.target, mode: 'local', login: (f as RunningDesk).login }),
    tools: [wapiti(true), whatweb],
  },
];
