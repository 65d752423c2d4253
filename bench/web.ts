// The web build's weight and Lighthouse scores (docs/product.md §17.4): JavaScript the landing page and the signed-in
// dashboard load (gzip), and Lighthouse performance, accessibility, best practices and SEO for /, /auth and
// /dashboard (signed in), in Lighthouse's mobile default and its desktop preset. Runs Debian's Chromium;
// nothing is downloaded.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';

import { UNLIMITED_RATE_LIMITS } from '../server/auth/settings.ts';
import { startStack, type RunningStack } from '../server/stack.ts';
import { defaultWebDir } from '../server/web/routes.ts';
import type { BenchRow } from './lib/report.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
];
const LANDING_JS_TARGET_KB = 150;
const SCORE_TARGET = 95;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

interface PageJs {
  gzipKb: number;
  rawKb: number;
  files: number;
  finalPath: string;
}

/**
 * Sum of the gzip sizes of every script a page loads until the network is idle; with `session`, the page
 * is opened signed in (the session stored as supabase-js keeps it, as for Lighthouse's /dashboard).
 */
async function pageJs(
  stack: RunningStack,
  route: string,
  session?: { key: string; value: string },
): Promise<PageJs> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const context = await browser.newContext();
    if (session) {
      const setup = await context.newPage();
      await setup.goto(`${stack.url}/privacy`);
      await setup.evaluate(([k, v]) => localStorage.setItem(k!, v!), [session.key, session.value]);
      await setup.close();
    }
    const page = await context.newPage();
    const bodies: Promise<Buffer>[] = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      const isScript = response.request().resourceType() === 'script' || url.pathname.endsWith('.js');
      if (isScript && response.ok()) {
        bodies.push(response.body());
      }
    });
    await page.goto(`${stack.url}${route}`, { waitUntil: 'networkidle' });
    const all = await Promise.all(bodies);
    const gzip = all.reduce((sum, body) => sum + gzipSync(body).length, 0);
    const raw = all.reduce((sum, body) => sum + body.length, 0);
    return {
      gzipKb: gzip / 1024,
      rawKb: raw / 1024,
      files: all.length,
      finalPath: new URL(page.url()).pathname,
    };
  } finally {
    await browser.close();
  }
}

/** A signed-in session as supabase-js keeps it, for Lighthouse's visit to /dashboard. */
async function sessionFor(stack: RunningStack): Promise<{ key: string; value: string }> {
  const headers = {
    apikey: stack.status.service_role_key,
    authorization: `Bearer ${stack.status.service_role_key}`,
    'content-type': 'application/json',
  };
  const email = `lighthouse-${Date.now()}@example.com`;
  const password = 'lighthouse-bench-1';
  const created = await fetch(`${stack.url}/auth/v1/admin/users`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      email,
      password,
      email_confirm: true,
      user_metadata: { full_name: 'Bench User', company_name: 'Bench Co', industry_type: 'Technology' },
    }),
  });
  if (!created.ok) {
    throw new Error(`creating the bench user failed: ${created.status}`);
  }
  const token = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: stack.status.anon_key, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!token.ok) {
    throw new Error(`signing the bench user in failed: ${token.status}`);
  }
  const session = (await token.json()) as { expires_in: number };
  const expires_at = Math.floor(Date.now() / 1000) + session.expires_in;
  return {
    key: `sb-${new URL(stack.url).hostname.split('.')[0]}-auth-token`,
    value: JSON.stringify({ ...session, expires_at }),
  };
}

async function injectSession(port: number, stack: RunningStack): Promise<void> {
  const { key, value } = await sessionFor(stack);
  const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  const page = await cdp.contexts()[0]!.newPage();
  await page.goto(`${stack.url}/privacy`);
  await page.evaluate(([k, v]) => localStorage.setItem(k!, v!), [key, value]);
  await page.close();
  await cdp.close();
}

type LighthouseResult = Awaited<ReturnType<typeof lighthouse>>;

/**
 * One Lighthouse run, again (up to twice more) when Lighthouse itself failed to record the page load
 * (runtimeError such as NO_NAVSTART, whose message asks to run it again); a low score is never retried.
 */
async function audit(url: string, flags: Flags, config?: typeof desktopConfig): Promise<LighthouseResult> {
  let result: LighthouseResult;
  for (let attempt = 1; ; attempt += 1) {
    result = await lighthouse(url, flags, config);
    if (!result?.lhr.runtimeError || attempt === 3) {
      return result;
    }
    console.warn(`lighthouse ${url}: ${result.lhr.runtimeError.code}, running it again`);
  }
}

/** Keeps each full Lighthouse report in bench/results/lighthouse/ (gitignored), to read where points go. */
async function saveReport(preset: string, route: string, result: LighthouseResult): Promise<void> {
  const dir = path.resolve(import.meta.dirname, 'results/lighthouse');
  await mkdir(dir, { recursive: true });
  const slug = route === '/' ? 'landing' : route.slice(1).replaceAll('/', '-');
  await writeFile(path.join(dir, `${preset}-${slug}.json`), JSON.stringify(result?.lhr, null, 1));
}

/** The metrics behind the performance score, so a low or noisy score can be read without the report. */
function performanceMetrics(lhr: NonNullable<LighthouseResult>['lhr']): string {
  const ms = (id: string) => `${Math.round(lhr.audits[id]?.numericValue ?? NaN)} ms`;
  const cls = lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN;
  return [
    `FCP ${ms('first-contentful-paint')}`,
    `LCP ${ms('largest-contentful-paint')}`,
    `TBT ${ms('total-blocking-time')}`,
    `CLS ${cls.toFixed(3)}`,
  ].join(', ');
}

async function scoreRows(preset: string, route: string, result: LighthouseResult): Promise<BenchRow[]> {
  await saveReport(preset, route, result);
  const lhr = result?.lhr;
  if (!lhr) {
    throw new Error(`Lighthouse returned nothing for ${route}`);
  }
  const finalPath = new URL(lhr.finalDisplayedUrl).pathname;
  return CATEGORIES.map((category) => {
    const score = Math.round((lhr.categories[category]?.score ?? 0) * 100);
    // The weighted audits of this category that scored below 0.9: where the points were lost.
    const failing = Object.values(lhr.audits)
      .filter(
        (a) =>
          a.score !== null &&
          a.score < 0.9 &&
          lhr.categories[category]?.auditRefs.some((r) => r.id === a.id && r.weight > 0),
      )
      .map((a) => a.id);
    const notes = [
      finalPath !== route ? `ended on ${finalPath}` : '',
      category === 'performance' ? performanceMetrics(lhr) : '',
      failing.length ? `below 0.9: ${failing.join(', ')}` : '',
    ];
    return {
      name: `lighthouse ${preset} ${route} ${category}`,
      value: score,
      unit: 'score',
      target: `≥ ${SCORE_TARGET}`,
      pass: score >= SCORE_TARGET && finalPath === route,
      note: notes.filter(Boolean).join('; ') || undefined,
    };
  });
}

async function lighthouseScores(stack: RunningStack): Promise<BenchRow[]> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
  const rows: BenchRow[] = [];
  try {
    const base: Flags = {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
    };
    const presets = [
      ['mobile', undefined],
      ['desktop', desktopConfig],
    ] as const;
    // Public pages signed out first: Lighthouse does not reliably clear a session put in earlier.
    for (const [preset, config] of presets) {
      for (const route of ['/', '/auth']) {
        rows.push(...(await scoreRows(preset, route, await audit(`${stack.url}${route}`, base, config))));
      }
    }
    // The dashboard signed in: the session goes into the profile, and Lighthouse must not wipe it.
    await injectSession(chrome.port, stack);
    for (const [preset, config] of presets) {
      const flags = { ...base, disableStorageReset: true };
      rows.push(
        ...(await scoreRows(preset, '/dashboard', await audit(`${stack.url}/dashboard`, flags, config))),
      );
    }
  } finally {
    chrome.kill();
  }
  return rows;
}

export async function benchWeb(): Promise<BenchRow[]> {
  if (!existsSync(path.join(defaultWebDir(), 'index.html'))) {
    throw new Error(`${defaultWebDir()} is missing: run \`npm run build:web\` first`);
  }
  const stack = await startStack({ auth: { rateLimits: UNLIMITED_RATE_LIMITS }, port: 0, dataDir: 'memory' });
  try {
    const js = await pageJs(stack, '/');
    const dashboard = await pageJs(stack, '/dashboard', await sessionFor(stack));
    return [
      {
        name: 'landing page JavaScript (gzip)',
        value: js.gzipKb,
        unit: 'KB',
        target: `≤ ${LANDING_JS_TARGET_KB}`,
        pass: js.gzipKb <= LANDING_JS_TARGET_KB,
        note: `${js.files} scripts, ${Math.round(js.rawKb)} KB uncompressed`,
      },
      {
        // No target in the issue: this row shows what a signed-in start costs, so growth is seen early.
        name: 'signed-in /dashboard JavaScript (gzip)',
        value: dashboard.gzipKb,
        unit: 'KB',
        ...(dashboard.finalPath === '/dashboard' ? {} : { pass: false }),
        note: [
          `${dashboard.files} scripts, ${Math.round(dashboard.rawKb)} KB uncompressed`,
          dashboard.finalPath === '/dashboard' ? '' : `ended on ${dashboard.finalPath}`,
        ]
          .filter(Boolean)
          .join('; '),
      },
      ...(await lighthouseScores(stack)),
    ];
  } finally {
    await stack.close();
  }
}
