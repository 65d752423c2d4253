// OWASP Juice Shop v19.0.0, the well-known deliberately vulnerable Angular shop, which nobody on the team
// configured: our scan logged out beside wapiti, whatweb and sqlmap. It runs when VIGIL_BENCH_JUICE_SHOP names a
// built checkout (bench/detection/juice-shop-build.sh) and is skipped otherwise: it cannot be fetched
// without the internet and is too large to vendor.
//
// The planted list is what an unauthenticated scanner can see, each with the line of Juice Shop's source
// that causes it (30 problems; those with no rule of ours yet count as misses). Two problems are server-wide (`app.use(cors())` and the errorhandler middleware): each is
// one issue wherever it shows, so their findings are counted once at the location "*"; the search
// component's DOM XSS is one issue on either route that renders it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { runScan } from '../../../agents/scanners/run-scan.ts';
import type { PlantedIssue, RunningFixture } from '../../../tests/fixtures/planted.ts';
import { runTool } from '../tool-process.ts';
import type { DetectionFixture, ReferenceTool, ToolRun } from '../types.ts';
import { sqlmapInjectionPoints } from './web-injection.ts';
import { wapitiScan } from './spa.ts';

export const juiceShopPort = 18194;
const home = process.env.VIGIL_BENCH_JUICE_SHOP ?? '';
const node = process.env.VIGIL_BENCH_JUICE_SHOP_NODE ?? process.execPath;
const cdnJquery = 'http://cdnjs.cloudflare.com/ajax/libs/jquery/2.2.4/jquery.min.js';

/** Server-wide problems: one issue each, wherever a scan or tool sees them. */
const serverWide = new Set(['web.cors.wildcard', 'web.error.verbose']);

export const juiceShopPlanted: PlantedIssue[] = [
  // Served over HTTP without the headers a shop needs (helmet only sets nosniff and frameguard).
  { rule_id: 'web.transport.cleartext', location: '/' },
  { rule_id: 'web.header.csp-missing', location: '/#/' },
  { rule_id: 'web.header.referrer-policy-missing', location: '/#/' },
  { rule_id: 'web.header.permissions-policy-missing', location: '/#/' },
  // server.ts: app.use(cors()) answers Access-Control-Allow-Origin: * on every API.
  { rule_id: 'web.cors.wildcard', location: '*' },
  // server.ts: errorhandler() prints the stack trace of every error (a bad path, a bad parameter).
  { rule_id: 'web.error.verbose', location: '*' },
  // server.ts:269 serveIndex('ftp'), disallowed in robots.txt and linked from the About page.
  { rule_id: 'web.directory-listing', location: '/ftp/' },
  { rule_id: 'web.directory-listing', location: '/ftp/quarantine/' },
  // lib/insecurity.ts isRedirectAllowed: the target only has to contain an allow-listed URL somewhere.
  { rule_id: 'web.open-redirect', location: '/redirect?to=' },
  // server.ts: /metrics (prom-client) without authentication.
  { rule_id: 'web.exposed.metrics', location: '/metrics' },
  // routes/search.ts: the search term is concatenated into SQL.
  { rule_id: 'web.sqli.error', location: '/rest/products/search?q=' },
  // routes/login.ts: the login e-mail is concatenated into SQL.
  { rule_id: 'web.sqli.error', location: 'POST /rest/user/login?email=' },
  // search-result.component.ts: the search term goes through bypassSecurityTrustHtml into innerHTML; the
  // home route renders the same component, so either route proves it.
  { rule_id: 'web.xss.dom', location: '/#/search?q=' },
  // routes/memory.ts: every user's e-mail with the photo wall, to anyone.
  { rule_id: 'web.api.personal-data', location: '/rest/memories/' },
  // frontend/src/index.html: jQuery 2.2.4 (CVE-2019-11358, CVE-2020-11022, CVE-2020-11023).
  { rule_id: 'web.vulnerable-library', location: cdnJquery },
  // Added from v19.0.0's source before a scan ran on them (the first list left them out as out of reach):
  // server.ts:286 swagger-ui-express at /api-docs, the B2B API's document.
  { rule_id: 'web.exposed.api-docs', location: '/' },
  // server.ts:273, 277, 281 serveIndex on /.well-known, /encryptionkeys and /support/logs (the access log).
  { rule_id: 'web.directory-listing', location: '/.well-known/' },
  { rule_id: 'web.directory-listing', location: '/encryptionkeys/' },
  { rule_id: 'web.directory-listing', location: '/support/logs/' },
  // Added after a scan found it (round three): serve-index lists every subdirectory of its mount, as at
  // /ftp/quarantine/, and /.well-known/ holds csaf/.
  { rule_id: 'web.directory-listing', location: '/.well-known/csaf/' },
  // server.ts:270 servePublicFiles: /ftp's .bak files refused unless a %2500.md suffix cuts the check.
  { rule_id: 'web.exposed.backup', location: '/ftp/package.json.bak' },
  // routes/appConfiguration.ts: the whole configuration, to anyone. No rule of ours yet.
  { rule_id: 'web.api.open-configuration', location: '/rest/admin/application-configuration' },
  // server.ts:364: PUT /api/Products/:id left without isAuthorized (an intrusive check proves it).
  { rule_id: 'web.auth.unauth-write', location: '/api/Products/1' },
  // routes/showProductReviews.ts:36 and trackOrder.ts:18: the id is concatenated into a MongoDB $where.
  { rule_id: 'web.nosqli', location: '/rest/products/{id}/reviews' },
  { rule_id: 'web.nosqli', location: '/rest/track-order/{id}' },
  // track-result.component.ts:45: the order id the API echoes goes through bypassSecurityTrustHtml.
  { rule_id: 'web.xss.dom', location: '/#/track-result?id=' },
  // routes/fileUpload.ts:83: XML uploads parsed with noent: true (outside containers).
  { rule_id: 'web.xxe', location: 'POST /file-upload' },
  // server.ts:402: POST /api/Users takes any "role", admin included (an intrusive check proves it).
  { rule_id: 'web.auth.mass-assignment', location: '/api/Users' },
  // routes/login.ts: no limit on failed logins (only the reset is limited, server.ts:338).
  { rule_id: 'web.auth.no-login-rate-limit', location: '/rest/user/login' },
  // server.ts:197: X-Recruiting names the hidden /#/jobs route on every answer.
  { rule_id: 'web.disclosure.header-path', location: '/#/jobs' },
  // server.ts:225: robots.txt disallows /ftp, which is listed to anyone.
  { rule_id: 'web.robots.sensitive-path', location: '/ftp' },
];

const key = (issue: PlantedIssue) => `${issue.rule_id} @ ${issue.location}`;
const plantedKeys = new Set(juiceShopPlanted.map(key));
/** The search component renders on the home route too: one sink, wherever it is reached. */
const searchSink = new Set(['/#/search?q=', '/#/?q=']);

/** A finding in the planted list's terms: server-wide problems at "*", the search sink at its route. */
function collapse<T extends PlantedIssue>(issue: T): T {
  if (serverWide.has(issue.rule_id)) {
    return { ...issue, location: '*' };
  }
  const path = issue.location.replace(/^https?:\/\/[^/]+/, '');
  return issue.rule_id === 'web.xss.dom' && searchSink.has(path)
    ? { ...issue, location: '/#/search?q=' }
    : issue;
}

function judge(found: PlantedIssue[], falseRule: (rule: string) => boolean): Omit<ToolRun, 'ms'> {
  const unique = [...new Map(found.map(collapse).map((f) => [key(f), f])).values()];
  return {
    found: unique.filter((f) => plantedKeys.has(key(f))),
    falsePositives: unique.filter((f) => !plantedKeys.has(key(f)) && falseRule(f.rule_id)).map(key),
  };
}

async function startJuiceShop(): Promise<RunningFixture> {
  const child = spawn(node, ['build/app'], {
    cwd: home,
    env: { ...process.env, PORT: String(juiceShopPort) },
    stdio: 'ignore',
  });
  const target = `http://127.0.0.1:${juiceShopPort}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const up = await fetch(`${target}/rest/admin/application-version`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) {
      break;
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill();
      throw new Error(`Juice Shop in ${home} did not start within 2 minutes`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return {
    target,
    planted: juiceShopPlanted,
    close: async () => {
      child.kill();
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

const wapiti: ReferenceTool = {
  name: 'wapiti',
  command: 'wapiti',
  aptPackage: 'wapiti',
  covers: (issue) =>
    ['web.header.csp-missing', 'web.open-redirect'].includes(issue.rule_id) ||
    issue.rule_id.startsWith('web.sqli.'),
  async run(fixture) {
    const { run, found: reported, toolOnly } = await wapitiScan(fixture.target, [], 900);
    // wapiti names pages by path; the shop's pages are its hash routes, which it does not run.
    const found = reported.map((f) =>
      f.rule_id === 'web.header.csp-missing' ? { ...f, location: '/#/' } : f,
    );
    return { ...judge(found, (rule) => /sqli|xss|redirect|backup/.test(rule)), toolOnly, ms: run.ms };
  },
};

const whatweb: ReferenceTool = {
  name: 'whatweb',
  command: 'whatweb',
  aptPackage: 'whatweb',
  covers: (issue) => issue.rule_id === 'web.vulnerable-library',
  async run(fixture) {
    const run = await runTool('whatweb', ['--color=never', '--log-json=-', '-q', `${fixture.target}/`], {
      timeoutMs: 120_000,
    });
    const entries = JSON.parse(run.stdout || '[]') as { plugins?: Record<string, { version?: string[] }> }[];
    // Counted when it names the library with the served, vulnerable version (it does not judge versions).
    const jquery = entries[0]?.plugins?.JQuery?.version ?? [];
    const found = jquery.includes('2.2.4')
      ? [{ rule_id: 'web.vulnerable-library', location: cdnJquery }]
      : [];
    return { ...judge(found, () => false), ms: run.ms };
  },
};

/** sqlmap has no discovery of its own: it is given the two injectable requests the running app sends. */
const sqlmap: ReferenceTool = {
  name: 'sqlmap --batch --level 2 (given both endpoints)',
  command: 'sqlmap',
  aptPackage: 'sqlmap',
  covers: (issue) => issue.rule_id.startsWith('web.sqli.'),
  async run(fixture) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-sqlmap-'));
    const requests: { args: string[]; location: (param: string) => string }[] = [
      {
        args: ['-u', `${fixture.target}/rest/products/search?q=apple`],
        location: (p) => `/rest/products/search?${p}=`,
      },
      {
        args: [
          '-u',
          `${fixture.target}/rest/user/login`,
          '--data',
          '{"email":"a@b.c","password":"x"}',
          // A failed login answers 401, where sqlmap stops unless told to go on, as a person would tell it.
          '--ignore-code',
          '401',
        ],
        location: (p) => `POST /rest/user/login?${p}=`,
      },
    ];
    const found: PlantedIssue[] = [];
    let ms = 0;
    try {
      for (const request of requests) {
        const run = await runTool(
          'sqlmap',
          [
            ...request.args,
            '--batch',
            '--level',
            '2',
            '--flush-session',
            '--output-dir',
            dir,
            '--disable-coloring',
          ],
          { timeoutMs: 300_000, env: { ...process.env, HOME: dir } },
        );
        ms += run.ms;
        for (const point of sqlmapInjectionPoints(run.stdout)) {
          const param = point.param.replace(/^JSON /, '');
          found.push({ rule_id: 'web.sqli.error', location: request.location(param) });
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    return { ...judge(found, (rule) => rule.startsWith('web.sqli.')), ms };
  },
};

const available = home !== '' && existsSync(path.join(home, 'build/app.js'));
if (!available) {
  console.error(
    'juice-shop: skipped (set VIGIL_BENCH_JUICE_SHOP to a checkout built by bench/detection/juice-shop-build.sh)',
  );
}

export const fixtures: DetectionFixture[] = available
  ? [
      {
        name: 'OWASP Juice Shop 19.0.0 (Angular + Express + SQLite), not logged in',
        classOf: (issue) =>
          issue.rule_id.startsWith('web.header.') || issue.rule_id === 'web.transport.cleartext'
            ? 'juice shop: headers'
            : 'juice shop',
        start: startJuiceShop,
        scan: async (f) => {
          // As the shop's owner would run it: intrusive checks allowed (they write only markers of their own).
          const result = await runScan('webapp', { target: f.target, mode: 'local', allowIntrusive: true });
          const findings = result.findings.map((finding) => collapse(finding));
          const unique = [...new Map(findings.map((x) => [`${x.rule_id} @ ${x.location}`, x])).values()];
          return { ...result, findings: unique, detail: `${result.crawl?.engine ?? 'html'} crawl` };
        },
        tools: [wapiti, whatweb, sqlmap],
      },
    ]
  : [];
