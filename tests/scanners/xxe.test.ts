// The XXE check (webapp/xxe.ts) on real XML parsers from Debian (tests/fixtures/web/xxe-apps.ts): PHP 8's
// SimpleXML with LIBXML_NOENT behind its built-in server (an XML API the page's script posts to, an XML
// feed whose parse errors show, an upload form) and Python's lxml with resolve_entities=True behind
// http.server (an order API answering XML), each beside a silent twin that leaves entities unresolved.
// Every app is scanned with the owner's consent to intrusive checks (uploads, and POSTs to places that
// only answered XML, are), and the vulnerable PHP one once more without it (no file may reach it then).
// Recall must be complete and nothing else reported; the evidence quotes one passwd line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ScanResult } from '../../agents/scanners/core/context.ts';
import { runScan } from '../../agents/scanners/run-scan.ts';
import { findingSchema } from '../../shared/findings.ts';
import { chromium, debian } from '../fixtures/debian-packages.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import { startXxeApp, xxePackages, xxePorts, xxeIntrusiveLocations } from '../fixtures/web/xxe-apps.ts';
import type { RunningXxeApp, XxeStack, XxeVariant } from '../fixtures/web/xxe-apps.ts';
import { requires } from '../helpers/requirements.ts';
import { measure } from './measure.ts';

/** What each stack needs: its packages, and for PHP the browser (its XML API is known from its script). */
const unmet = (stack: XxeStack) => [
  ...xxePackages[stack].map((name) => debian(name)),
  ...(stack === 'php' ? [chromium()] : []),
];
const stacks: XxeStack[] = ['php', 'lxml'];
const runs = new Map<string, { fixture: RunningXxeApp; result: ScanResult }>();
const started: RunningFixture[] = [];
/** The vulnerable PHP app scanned without consent to intrusive checks. */
let unconsented: { fixture: RunningXxeApp; result: ScanResult } | null = null;

beforeAll(async () => {
  const wanted = stacks
    .filter((stack) => unmet(stack).every((u) => u === null))
    .flatMap((stack) => (['vulnerable', 'twin'] as const).map((variant) => ({ stack, variant })));
  await Promise.all([
    ...wanted.map(async ({ stack, variant }) => {
      const fixture = await startXxeApp(stack, variant);
      started.push(fixture);
      const result = await runScan('webapp', {
        target: fixture.target,
        mode: 'local',
        allowIntrusive: true,
      });
      runs.set(`${stack} ${variant}`, { fixture, result });
    }),
    wanted.some(({ stack }) => stack === 'php')
      ? (async () => {
          const fixture = await startXxeApp('php', 'vulnerable', xxePorts.phpUnconsented);
          started.push(fixture);
          unconsented = {
            fixture,
            result: await runScan('webapp', { target: fixture.target, mode: 'local' }),
          };
        })()
      : null,
  ]);
}, 300_000);

afterAll(async () => {
  await Promise.all(started.map((fixture) => fixture.close()));
}, 60_000);

function run(stack: XxeStack, variant: XxeVariant) {
  const found = runs.get(`${stack} ${variant}`);
  if (!found) {
    throw new Error(`no scan of the ${stack} ${variant} fixture`);
  }
  const evidence = (location: string) =>
    found.result.findings.find(
      (f) => f.rule_id === 'web.xxe' && f.location === `POST ${found.fixture.target}${location}`,
    )?.evidence ?? '';
  return { ...found, evidence };
}

function expectExact(stack: XxeStack, variant: XxeVariant) {
  const { fixture, result } = run(stack, variant);
  const m = measure(result.findings, fixture.planted, fixture.target);
  expect(m.missed).toEqual([]);
  expect(m.unexpected).toEqual([]);
  expect(result.partial).toBe(false);
  for (const finding of result.findings) {
    expect(findingSchema.parse(finding)).toEqual(finding);
  }
}

/** The one line the evidence may quote of the file, and nothing after it. */
const rootLine = /"root:x:0:0:root:\/root:\/bin\/(ba)?sh"/;

describe('PHP 8 SimpleXML (php-cli, php-xml) behind its built-in server', requires(...unmet('php')), () => {
  it("finds XXE in the XML API, the feed (through its parse errors), the upload form and the script's import, and nothing else", () => {
    expectExact('php', 'vulnerable');
    const { evidence } = run('php', 'vulnerable');
    expect(evidence('/api/notes')).toMatch(
      /the app sends it XML \(application\/xml\)\) with an XML body .*the external entity declared as file:\/\/\/etc\/passwd/,
    );
    expect(evidence('/feed')).toMatch(/it answers XML \(application\/xml\)\).*the parameter entity/);
    expect(evidence('/upload')).toMatch(
      /uploads a file in "catalog"\) with an uploaded file vigil-[0-9a-f]+\.xml .*the target may keep it/,
    );
    expect(evidence('/api/import')).toMatch(
      /a script of the site names it as an upload path\) with an uploaded file vigil-[0-9a-f]+\.xml in "catalog"/,
    );
    for (const where of ['/api/notes', '/feed', '/upload', '/api/import']) {
      expect(evidence(where)).toMatch(rootLine);
      expect(evidence(where)).not.toMatch(/daemon|nologin/);
    }
  });

  it("uploads to the form and the script's import, and posts to the feed, only with consent: without it, no file reaches the app", async () => {
    expect(await run('php', 'vulnerable').fixture.uploads()).toEqual(
      expect.arrayContaining(['POST /upload', 'POST /api/import']),
    );
    const { fixture, result } = unconsented!;
    const planted = fixture.planted.filter(
      (issue) => !(issue.rule_id === 'web.xxe' && xxeIntrusiveLocations.includes(issue.location)),
    );
    const m = measure(result.findings, planted, fixture.target);
    // A miss is admitted only where the scan says it could not look: the XXE check could not judge the
    // place, or the browser cut pages short (the API is known only from a page's script) on a loaded host.
    const saidUnseen = (location: string) =>
      result.phase_errors.some(
        ({ error }) =>
          (error.startsWith('XXE not judged') && error.includes(location.replace(/^POST /, ''))) ||
          /cut short in the browser|rendering stopped/.test(error),
      );
    expect(m.missed.filter((issue) => !saidUnseen(issue.location))).toEqual([]);
    expect(m.unexpected).toEqual([]);
    expect(result.categories?.skipped.flatMap((s) => s.checks)).toContain('web.xxe-upload');
    expect(await fixture.uploads()).toEqual([]);
  });

  it('reports only plain HTTP on the twin without LIBXML_NOENT, its uploads tried too', async () => {
    expectExact('php', 'twin');
    expect(await run('php', 'twin').fixture.uploads()).toEqual(
      expect.arrayContaining(['POST /upload', 'POST /api/import']),
    );
  });
});

describe('Python lxml (python3-lxml) behind http.server', requires(...unmet('lxml')), () => {
  it('finds XXE in the order API that answers XML (with consent: a POST there stores an order), and nothing else', () => {
    expectExact('lxml', 'vulnerable');
    const { evidence } = run('lxml', 'vulnerable');
    expect(evidence('/api/orders')).toMatch(/it answers XML \(application\/xml\)\).*the external entity/);
    expect(evidence('/api/orders')).toMatch(rootLine);
    expect(evidence('/api/orders')).not.toMatch(/daemon|nologin/);
  });

  it('reports only plain HTTP on the twin with resolve_entities=False', () => {
    expectExact('lxml', 'twin');
  });
});
