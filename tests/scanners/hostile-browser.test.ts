// The rendered crawl against hostile pages (tests/fixtures/hostile/browser-servers.ts): each case is
// scanned in process through runScan while the test samples its own memory and Chromium's process tree;
// the scan must end within the case's budget, with no unhandled rejection, under the memory caps, with
// the real problems found and nothing the hostility could fake. Then the engine itself: a stuck page's
// CPU stops, a browser over its memory cap is killed and the scan says so, Chromium runs sandboxed under
// an unprivileged account, and a stop ends every Chromium process at once.
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ScanBrowserStopped, ScanTabCut } from '../../shared/scan-browser.ts';
import type { ScanBrowser } from '../../shared/scan-browser.ts';
import { runScan } from '../../agents/scanners/run-scan.ts';
import type { ScanResult } from '../../agents/scanners/run-scan.ts';
import { sleep } from '../../agents/scanners/webapp/browser/bounded.ts';
import {
  browserLimits,
  chromiumLauncher,
  findChromium,
} from '../../agents/scanners/webapp/browser/chromium.ts';
import { ProcessTree } from '../../agents/scanners/webapp/browser/process-tree.ts';
import { allocationLoop, browserCases, startHostileSite } from '../fixtures/hostile/browser-servers.ts';
import type { HostileCase } from '../fixtures/hostile/case.ts';
import { chromium as chromiumNeeded } from '../fixtures/debian-packages.ts';
import { linux, requires } from '../helpers/requirements.ts';

const chromium = findChromium(process.env.CHROMIUM_PATH);
const mb = 1024 * 1024;

/** What this test process may use while scanning (the unbounded router took 3.5 GB in 45 s). */
const nodeCaps = { rss: 1536 * mb, heap: 1024 * mb };
/** Chromium's tree: its cap, plus what it can grow between two looks of the watch and the kill. */
const chromiumCap = browserLimits.treeBytes + 512 * mb;

/** Every Chromium process this test process started (their directory names carry its pid). */
const ourChromium = () => new ProcessTree(null, `${tmpdir()}/vigil-browser-${process.pid}-`);

/** The largest memory seen while `work` runs: this process's RSS and heap, Chromium's tree. */
async function sampled<T>(
  work: () => Promise<T>,
): Promise<{ value: T; rss: number; heap: number; chromium: number }> {
  const tree = ourChromium();
  const peak = { rss: 0, heap: 0, chromium: 0 };
  const look = () => {
    const usage = process.memoryUsage();
    peak.rss = Math.max(peak.rss, usage.rss);
    peak.heap = Math.max(peak.heap, usage.heapUsed);
    peak.chromium = Math.max(
      peak.chromium,
      tree.list().reduce((sum, p) => sum + p.bytes, 0),
    );
  };
  const timer = setInterval(look, 200);
  try {
    const value = await work();
    look();
    return { value, ...peak };
  } finally {
    clearInterval(timer);
  }
}

/** Chromium processes of this test still alive, waiting up to `graceMs` for the last ones to go. */
async function chromiumLeft(graceMs: number): Promise<number[]> {
  const until = Date.now() + graceMs;
  let left = ourChromium().list();
  while (left.length > 0 && Date.now() < until) {
    await sleep(50);
    left = ourChromium().list();
  }
  return left.map((p) => p.pid);
}

/** What each case must also show in the crawl report: that it was cut where it should be, and why. */
const reportChecks: Record<string, (crawl: NonNullable<ScanResult['crawl']>) => void> = {
  'browser-busy-loop': (crawl) => {
    expect(crawl.cut).toEqual(
      expect.arrayContaining([
        {
          url: expect.stringMatching(/\/spin$/) as unknown,
          reason: expect.stringMatching(/never yields/) as unknown,
        },
        {
          url: expect.stringMatching(/\/later$/) as unknown,
          reason: expect.stringMatching(/without yielding/) as unknown,
        },
      ]),
    );
  },
  'browser-fetch-flood': (crawl) => {
    expect(crawl.bounds?.requests_refused).toBeGreaterThan(0);
  },
  'browser-large-bodies': (crawl) => {
    expect(crawl.bounds?.bodies_trimmed).toBeGreaterThan(0);
  },
  'browser-allocation-loop': (crawl) => {
    expect(crawl.cut).toEqual(
      expect.arrayContaining([
        {
          url: expect.stringMatching(/\/alloc$/) as unknown,
          reason: expect.stringMatching(/its renderer used \d+ MB, over the \d+ MB cap/) as unknown,
        },
        {
          url: expect.stringMatching(/\/heap$/) as unknown,
          reason: expect.stringMatching(/renderer crashed/) as unknown,
        },
      ]),
    );
  },
  'browser-dripping-xhr': () => undefined,
  'browser-mixed': (crawl) => {
    expect(crawl.cut?.map((c) => new URL(c.url).pathname)).toEqual(
      expect.arrayContaining(['/spin', '/later']),
    );
  },
};

describe('the rendered crawl against hostile pages', requires(chromiumNeeded()), () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  beforeAll(() => {
    process.on('unhandledRejection', onUnhandled);
  });
  afterAll(() => {
    process.off('unhandledRejection', onUnhandled);
  });

  const scanCase = async (hostile: HostileCase) => {
    const target = await hostile.start();
    try {
      const started = Date.now();
      const run = await sampled(() => runScan(hostile.type, { target: target.target, mode: 'local' }));
      return { ...run, took: Date.now() - started };
    } finally {
      await target.close();
    }
  };

  it('covers every hostile page kind once in a case of its own', () => {
    expect(browserCases.map((c) => c.name)).toEqual(Object.keys(reportChecks));
  });

  for (const hostile of browserCases) {
    it(
      `${hostile.name}: ${hostile.behaviour}`,
      async () => {
        const { value: result, took, rss, heap, chromium: tree } = await scanCase(hostile);
        expect(took).toBeLessThan(hostile.budgetMs);
        expect(result.crawl?.engine).toBe('chromium');
        expect(result.crawl?.rendered).toBeGreaterThan(0);
        const ids = new Set(result.findings.map((f) => f.rule_id));
        expect(hostile.forbidden.filter((rule) => ids.has(rule))).toEqual([]);
        // A miss says what the crawl did: its pages, what it cut, what its router refused.
        expect(
          (hostile.expected ?? []).filter((rule) => !ids.has(rule)),
          JSON.stringify(result.crawl),
        ).toEqual([]);
        reportChecks[hostile.name]!(result.crawl!);
        expect(rss).toBeLessThan(nodeCaps.rss);
        expect(heap).toBeLessThan(nodeCaps.heap);
        expect(tree).toBeLessThan(chromiumCap);
        expect(unhandled).toEqual([]);
        expect(await chromiumLeft(2000)).toEqual([]);
      },
      hostile.budgetMs + 30_000,
    );
  }

  it(
    'kills a browser whose processes pass their cap, and the scan goes on without rendering, saying why',
    async () => {
      const saved = { tree: browserLimits.treeBytes, renderer: browserLimits.rendererBytes };
      // Below one renderer's own cap, which is lifted: the whole tree's is the one that trips (a renderer
      // over its own cap is killed first, and would spare the browser).
      browserLimits.treeBytes = 600 * mb;
      browserLimits.rendererBytes = 8192 * mb;
      try {
        const { value: result, took } = await scanCase(allocationLoop);
        expect(took).toBeLessThan(allocationLoop.budgetMs);
        expect(result.crawl?.stopped).toMatch(/over the 600 MB cap: the browser was killed/);
        expect(result.partial).toBe(true);
        // The checks that need no browser still ran.
        expect(result.findings.map((f) => f.rule_id)).toContain('web.header.csp-missing');
        expect(unhandled).toEqual([]);
        expect(await chromiumLeft(2000)).toEqual([]);
      } finally {
        browserLimits.treeBytes = saved.tree;
        browserLimits.rendererBytes = saved.renderer;
      }
    },
    allocationLoop.budgetMs + 30_000,
  );

  it('stops within 2 s of an abort mid-render, leaving no Chromium process', async () => {
    const site = await startHostileSite(['/spin', '/app']);
    const stop = new AbortController();
    try {
      const scan = runScan('webapp', { target: site.target, mode: 'local', signal: stop.signal });
      // The HTML crawl reads /spin once; the second request is the browser's: its tab is stuck there now.
      while (site.seen.filter((path) => path === '/spin').length < 2) {
        await sleep(50);
      }
      await sleep(1000);
      const aborted = Date.now();
      stop.abort();
      const result = await scan;
      expect(Date.now() - aborted).toBeLessThan(2000);
      expect(result.partial).toBe(true);
      expect(await chromiumLeft(Math.max(0, aborted + 2000 - Date.now()))).toEqual([]);
      expect(unhandled).toEqual([]);
    } finally {
      await site.close();
    }
  }, 120_000);

  describe('the engine', () => {
    let browser: ScanBrowser;
    const cuts: { url: string; reason: string }[] = [];
    const pages: Record<string, string> = {
      '/spin': '<p>busy</p><script>setTimeout(() => { for (;;) {} }, 50)</script>',
      '/ok': '<p>fine</p>',
      '/stay':
        '<p>stay</p><script>addEventListener("beforeunload", (e) => { e.preventDefault(); e.returnValue = "stay"; });</script>',
    };
    beforeAll(async () => {
      browser = await chromiumLauncher(chromium!)({
        initScript: '',
        onCut: (cut) => cuts.push(cut),
        route: (request) =>
          Promise.resolve({
            status: 200,
            headers: [['content-type', 'text/html']],
            body: pages[new URL(request.url).pathname] ?? '',
          }),
      });
    });
    afterAll(() => browser?.close());

    it('stops the CPU of a page that never yields, and goes on in a fresh page', async () => {
      const tab = await browser.newTab();
      await tab.goto('http://site.test/spin', 5000);
      // Its loop starts from a timer once the page has loaded.
      await sleep(300);
      await expect(tab.evaluate('document.title', 1000)).rejects.toBeInstanceOf(ScanTabCut);
      // (The deadline is longer on a loaded host, and the reason then says by how much.)
      expect(cuts).toEqual([
        {
          url: 'http://site.test/spin',
          reason: expect.stringMatching(
            /^a script in the page ran for over 1000 ms( \(.+ for its load\))? without yielding$/,
          ) as unknown,
        },
      ]);
      // Clock ticks of the whole tree over a second: a looping renderer would take about a hundred.
      const tree = ourChromium();
      const cpu = () => tree.list().reduce((sum, p) => sum + p.cpu, 0);
      const before = cpu();
      await sleep(1000);
      expect(cpu() - before).toBeLessThan(40);
      await tab.goto('http://site.test/ok', 5000);
      expect(await tab.evaluate('document.body.innerText')).toBe('fine');
    }, 60_000);

    it('leaves a page that asks the visitor to stay', async () => {
      const tab = await browser.newTab();
      await tab.goto('http://site.test/stay', 5000);
      // What the crawl runs in a page (its snapshot, its forms) counts as the visitor's activation.
      await tab.evaluate('document.title');
      await tab.goto('http://site.test/ok', 5000);
      expect(await tab.evaluate('document.body.innerText')).toBe('fine');
    }, 60_000);

    it('runs Chromium sandboxed, as an unprivileged account when the scan is root', requires(linux()), () => {
      const processes = ourChromium().list();
      expect(processes.length).toBeGreaterThan(0);
      const status = (pid: number) => readFileSync(`/proc/${pid}/status`, 'utf8');
      const userNamespaces = Number(readFileSync('/proc/sys/user/max_user_namespaces', 'utf8')) > 0;
      if (!userNamespaces) {
        // Without them the setuid helper may still sandbox; if not, the report must say why not.
        expect(browser.sandbox).toMatch(/^(on|off: .+)/);
        return;
      }
      expect(browser.sandbox).toMatch(process.getuid?.() === 0 ? /^on, as \S+ \(uid \d+\)$/ : /^on/);
      for (const { pid } of processes) {
        expect(/^Uid:\s+(\d+)/m.exec(status(pid))?.[1]).not.toBe('0');
      }
      // Each renderer is confined by seccomp-bpf (mode 2) in namespaces of its own.
      const renderers = processes.filter((p) => p.renderer);
      expect(renderers.length).toBeGreaterThan(0);
      for (const { pid } of renderers) {
        expect(/^Seccomp:\s+(\d)/m.exec(status(pid))?.[1]).toBe('2');
      }
    });

    it('ends every process of the browser on a stop, and its tabs then say so', async () => {
      const stop = new AbortController();
      const own = await chromiumLauncher(chromium!)({
        initScript: '',
        signal: stop.signal,
        route: () => Promise.resolve({ status: 200, headers: [], body: '<script>for (;;) {}</script>' }),
      });
      const tab = await own.newTab();
      const stuck = tab.goto('http://site.test/', 30_000);
      await sleep(500);
      const before = ourChromium().list().length;
      const stopped = Date.now();
      stop.abort();
      await expect(stuck).rejects.toBeInstanceOf(ScanBrowserStopped);
      expect(Date.now() - stopped).toBeLessThan(1500);
      expect(own.stopped).toBe('the scan was stopped');
      await own.close();
      // Only this browser's processes went: the other browser of these tests still renders.
      expect(ourChromium().list().length).toBeLessThan(before);
      expect(await (await browser.newTab()).evaluate('1 + 1')).toBe(2);
    }, 60_000);
  });
});
